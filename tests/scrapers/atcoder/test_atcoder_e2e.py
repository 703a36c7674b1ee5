"""AtCoder end to end through the fake site on 127.0.0.1: `cpbot solve URL`, `cpbot contests --site atcoder`,
Competitive Companion's AtCoder problems, and `cpbot watch` of a live ABC (shadow only, practice after the end,
a standing and AtCoder's performance checked by hand against the published method)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from cpbot.bot.cli.main import main
from cpbot.bot.watch.state import WatchState
from cpbot.scrapers.companion import parse_companion
from cpbot.scrapers.sites import get_site, site_for_url
from tests.agents.support.scripted_server import ScriptedServer
from tests.fakes.atcoder import Entrant
from tests.scrapers.atcoder.round import API_KEY, CONTEST, RIGHT_A, abc_site, cookies_txt, model_answer, served

URL = "https://atcoder.jp/contests/abc300/tasks/abc300_a"


def test_the_site_is_found_by_url_alias_and_old_host() -> None:
    assert site_for_url(URL).name == "atcoder" == get_site("ac").name
    assert site_for_url("http://abc001.contest.atcoder.jp/tasks/abc001_1").name == "atcoder"


def test_cpbot_solve_an_atcoder_url_against_the_fake_site_and_the_scripted_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = abc_site(start_in_s=-7200, duration_s=6000)
    with served(site) as server, ScriptedServer(default=model_answer) as model:
        monkeypatch.setenv("CPBOT_ATCODER_URL", server.url)
        rc = main(
            [
                "solve", URL, "--strategy", "direct", "--lang", "python3", "--model", "m",
                "--base-url", model.base_url, "--api-key", API_KEY, "-o", str(tmp_path / "out"), "--json",
            ]
        )  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    # direct tests the samples only: the right program is returned, unverified (exit 3)
    assert rc == 3 and out["status"] == "unverified" and out["verdict"] == "AC", out
    assert (tmp_path / "out" / "problem.json").exists()
    problem = json.loads((tmp_path / "out" / "problem.json").read_text(encoding="utf-8"))
    assert (problem["id"], problem["index"], problem["title"]) == ("atcoder:abc300_a", "A", "N-choice question")
    assert (tmp_path / "out" / "solution.py").read_text(encoding="utf-8") == RIGHT_A
    assert ("GET", "/contests/abc300/tasks/abc300_a") in site.requests


def test_cpbot_contests_lists_running_upcoming_and_heuristic_contests(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = abc_site(start_in_s=-60)
    site.add_contest("abc301", "AtCoder Beginner Contest 301", start_in_s=86400, duration_s=6000, tasks=[])
    site.add_contest(
        "ahc045", "AtCoder Heuristic Contest 045", start_in_s=3600, duration_s=14400, tasks=[], heuristic=True
    )
    with served(site) as server:
        monkeypatch.setenv("CPBOT_ATCODER_URL", server.url)
        assert main(["contests", "--site", "atcoder", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    rows = listed if isinstance(listed, list) else listed.get("contests", listed)
    by_id = {c["id"]: c for c in rows}
    assert list(by_id) == ["abc300", "ahc045", "abc301"]  # soonest first, the running one at the top
    assert by_id["abc300"]["phase"] == "CODING" and by_id["abc300"]["kind"] == "ABC"
    assert by_id["ahc045"]["kind"] == "AHC" and by_id["abc301"]["duration_s"] == 6000


def test_competitive_companion_problems_get_atcoder_ids_and_folder_names() -> None:
    payload = {
        "name": "A - N-choice question",
        "group": "AtCoder Beginner Contest 300",
        "url": URL,
        "interactive": False,
        "memoryLimit": 1024,
        "timeLimit": 2000,
        "tests": [{"input": "3 125 175\n200 300 400\n", "output": "2\n"}],
        "testType": "single",
        "input": {"type": "stdin"},
        "output": {"type": "stdout"},
        "languages": {"java": {"mainClass": "Main", "taskClass": "ANChoiceQuestion"}},
        "batch": {"id": "b", "size": 1},
    }
    p = parse_companion(payload)
    assert (p.site, p.id, p.index, p.title) == ("atcoder", "atcoder:abc300_a", "A", "N-choice question")
    from cpbot.bot.app.problem_folder import problem_dirname

    assert problem_dirname(p) == "abc300_a"


def test_a_heuristic_task_is_fetched_as_a_score_based_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    from cpbot.scrapers.endpoints import Endpoints, site_client

    site = abc_site(start_in_s=-60)
    site.add_contest(
        "ahc900", "AtCoder Heuristic Contest 900", start_in_s=-60, duration_s=14400, tasks=[("A", "ahc900_a")],
        heuristic=True,
    )  # fmt: skip
    with served(site) as server, site_client(Endpoints(bases={"atcoder": server.url})) as client:
        (problem,) = get_site("atcoder").fetch_problems("https://atcoder.jp/contests/ahc900/tasks/ahc900_a", client)
    assert problem.kind == "heuristic" and problem.heuristic is not None and problem.heuristic.system_inputs == 50


def test_an_ahc_ranks_through_its_published_results_once_they_are_out() -> None:
    from cpbot.scrapers.endpoints import Endpoints, site_client

    site = abc_site(start_in_s=-7200)
    contest = site.add_contest(
        "ahc900", "AtCoder Heuristic Contest 900", start_in_s=-7200, duration_s=3600, tasks=[("A", "ahc900_a")],
        heuristic=True,
    )  # fmt: skip
    contest.standings = [Entrant(f"u{i}", (), 0.0, 1500, 3, True, score=1000.0 - 100 * i) for i in range(5)]
    atcoder = get_site("atcoder")
    with served(site) as server, site_client(Endpoints(bases={"atcoder": server.url})) as client:
        estimate = atcoder.place_score("ahc900", 750.0, relative=False, client=client)  # results not out: 404
        # AtCoder's results JSON, in its real shape: one participant unrated, so not in the table
        contest.results = [
            {"IsRated": i != 4, "Place": i + 1, "OldRating": 1500, "NewRating": 1500, "Performance": 2400 - 200 * i,
             "InnerPerformance": 2400 - 200 * i, "ContestScreenName": "ahc900.contest.atcoder.jp",
             "UserScreenName": f"u{i}"}
            for i in range(5)
        ]  # fmt: skip
        published = atcoder.place_score("ahc900", 750.0, relative=False, client=client)
    assert estimate is not None and estimate.method == "aperf" and estimate.rank == 4
    # 750 ranks 4th (behind 1000, 900, 800; level with 700's place taken): between ranks 3 and 4, 2000 and 1800
    assert published is not None and published.method == "table" and published.rank == 4
    assert published.performance == 1800 and any("published" in a for a in published.assumptions)


def test_watch_of_a_live_abc_shadows_posts_practice_after_the_end_and_rates_the_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = abc_site(start_in_s=2.0, duration_s=15)
    contest = site.contests[CONTEST]
    contest.start = float(int(contest.start) + 1)  # the pages give whole seconds
    # the official standings: one participant ahead (both tasks 1 ms after the start, before cpbot can have
    # fetched them however fast the machine), five behind (task A only); all rated newcomers, so every APerf
    # is ABC's centre value 800
    contest.standings = [Entrant("fast", ("A", "B"), 0.001)] + [Entrant(f"u{i}", ("A",), 60.0 + i) for i in range(5)]
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with served(site) as server, ScriptedServer(default=model_answer) as model:
        monkeypatch.setenv("CPBOT_ATCODER_URL", server.url)
        args = [
            "watch", "--site", "atcoder", "--contest", CONTEST, "--strategy", "direct", "--lang", "python3",
            "--gate", "samples", "--allow-unverified",  # direct tests the samples only
            "--model", "m", "--base-url", model.base_url, "--api-key", API_KEY,
            "--cookies", str(cookies_txt(tmp_path / "cookies.txt", site)), "--submit",
            "--ai-allowed", f"atcoder:{CONTEST}",  # no list opens an ABC to AI
            "--within", "1", "--poll", "0.5", "--fetch-retry", "0.2", "--verdict-poll", "0.05",
            "--submit-interval", "0", "--once", "--json",
        ]  # fmt: skip
        assert main(args) == 0
    out, err = capsys.readouterr()
    assert "2024-12-06" in err and "practice after the round" in err, "the rule and what --submit means, told"
    assert "listing it in ai_allowed_contests changes nothing" in err
    (watched,) = json.loads(out)["contests"]
    assert watched["contest"]["participation"] == "practice" and watched["contest"]["status"] == "done"

    end = contest.start + contest.duration_s
    assert site.submissions and all(s.created >= end and s.practice for s in site.submissions), "none while live"
    with WatchState() as state:
        shadows = state.shadows(f"atcoder:{CONTEST}")
        assert sorted(s.problem_id for s in shadows) == ["atcoder:abc117_a", "atcoder:abc300_a"]
        standing = state.contest(f"atcoder:{CONTEST}").standing
    assert {p.index: p.solved for p in standing.problems} == {"A": True, "B": True}
    assert standing.points == 300
    assert (standing.rank, standing.participants) == (2, 6)
    # by hand, from the published equation: 6 rated participants and cpbot, all at APerf 800, cpbot 2nd:
    # 7 / (1 + 6^((X - 800)/400)) = 2 - 0.5  ->  X = 800 + 400 log_6(7/1.5 - 1) = 1090.1
    assert standing.performance == round(800 + 400 * math.log(7 / 1.5 - 1, 6)) == 1090
    assert any("APerf" in a for a in standing.assumptions)
