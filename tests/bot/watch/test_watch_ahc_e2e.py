"""`cpbot watch` of a live AtCoder Heuristic Contest against the fake AtCoder and the score pool model: the
AHC task page and its tools zip fetched, the `ale` search run until shortly before the end with the best
program on disk at every moment, shadow by default (nothing posted), the transcript holding every program's
seeds and scores, and after the end the rank and AtCoder performance against the final standings (the
constructed standings of tests/fixtures/atcoder/standings_ahc900_constructed.json); with the contest listed as
allowing AI and --submit, the leader is posted, once per the contest's interval."""

from __future__ import annotations

import json
import time
from pathlib import Path
from random import Random

import pytest

from cpbot.agents.strategies.ale import KEPT_IDEA
from cpbot.bot.cli.main import main
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.watch.state import WatchState
from cpbot.scrapers.atcoder.ahc import ahc_performance, table_placing
from cpbot.scrapers.atcoder.ranking import parse_standings
from cpbot.testing.score_pool_server import ScorePool, dial_pool, dial_program
from cpbot.testing.scripted_server import ScriptedServer
from tests.fakes.atcoder import Entrant, FakeAtCoder
from tests.paths import FIXTURES, HEURISTIC
from tests.scrapers.atcoder.round import cookies_txt, served

CONTEST = "ahc900"
KEY = f"atcoder:{CONTEST}"
STANDINGS = FIXTURES / "atcoder" / "standings_ahc900_constructed.json"
API_KEY = "sk-ahc-test-secret-key"


def ahc_site(duration_s: int) -> FakeAtCoder:
    """The fake AtCoder running AHC 900 (the Dial task in AHC's layout, its tools a zip of Dial's generator
    and scorer) from a second ago, with the constructed final standings."""
    site = FakeAtCoder()
    site.judging_polls = 0
    contest = site.add_contest(
        CONTEST, "AtCoder Heuristic Contest 900", start_in_s=-1, duration_s=duration_s,
        tasks=[("A", "ahc900_a")], heuristic=True,
    )  # fmt: skip
    contest.start = float(int(contest.start))  # the pages give whole seconds
    dial = HEURISTIC / "dial"
    contest.tasks[0].tools = {f"tools/{n}": (dial / n).read_bytes() for n in ("gen.py", "score.py")}
    data = json.loads(STANDINGS.read_text())
    contest.standings = [
        Entrant(r["UserScreenName"], (), 0.0, r["OldRating"], r["Competitions"], r["IsRated"],
                score=r["TotalResult"]["Score"] / 100)
        for r in data["StandingsData"]
    ]  # fmt: skip
    return site


def watch(site: FakeAtCoder, pool: ScorePool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> None:
    """`cpbot watch --json` of AHC 900 on `site`, the model a stand-in serving `pool`."""
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with served(site) as server, ScriptedServer(default=pool.answer, model="score-pool") as model:
        monkeypatch.setenv("CPBOT_ATCODER_URL", server.url)
        assert main(watch_args(model.base_url, *extra)) == 0


def watch_args(model_url: str, *extra: str) -> list[str]:
    return [
        "watch", "--site", "atcoder", "--contest", CONTEST, "--strategy", "ale", "--lang", "python3",
        "--strategy-option", "seeds=5", "--strategy-option", "repeats=2", "--budget", "calls=9",
        "--model", "score-pool", "--base-url", model_url, "--api-key", API_KEY,
        "--within", "1", "--poll", "0.5", "--once", "--json", *extra,  # --once: the results are not waited for
    ]  # fmt: skip


def test_a_live_ahc_is_searched_in_the_shadow_and_ranked_against_the_final_standings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site, pool = ahc_site(duration_s=14), dial_pool()
    watch(site, pool, tmp_path, monkeypatch)
    out, err = capsys.readouterr()
    assert "2025-06-16" in err, "the AHC rule is told"
    (watched,) = json.loads(out)["contests"]
    contest = watched["contest"]
    assert contest["participation"] == "shadow" and contest["status"] == "done"
    assert not site.submissions, "nothing is posted in the shadow"

    folder = tmp_path / "data" / "heuristic" / CONTEST / "ahc900_a"
    result = json.loads((folder / "result.json").read_text())
    best = (folder / "best.py").read_text()
    # the program kept on disk is the search's leader: better than the first program, the best of all scored
    quality = pool.quality_of(best)
    assert quality is not None and quality > pool.programs[0].quality, err
    assert (folder / "tools" / "gen.py").is_file() and json.loads((folder / "problem.json").read_text())["kind"]
    # the estimate: the kept program on 50 fresh seeds (the search chose it on seeds 0..4), times the 50 inputs
    # of the system test; Dial scores W x V, so its mean is the dial times the fresh seeds' mean weight
    assert result["system_inputs"] == 50 and result["seeds"] == list(range(1_000_000, 1_000_050))
    weights = [Random(s).randint(1, 1000) for s in result["seeds"]]
    assert result["mean"] == pytest.approx(quality * sum(weights) / 50)
    assert result["estimated_total"] == pytest.approx(result["mean"] * 50)
    # the rank and the performance: where the estimate falls in the constructed standings, and the X of
    # AtCoder's equation against them (scrapers/atcoder/ahc.py, checked by hand in test_ahc.py)
    standings = parse_standings(STANDINGS.read_bytes())
    expected = ahc_performance(standings, result["estimated_total"])
    placing = result["placing"]
    assert (placing["rank"], placing["participants"], placing["performance"]) == (
        expected.rank, 24, expected.performance,
    )  # fmt: skip
    assert placing["rank"] == 1 + sum(1 for r in standings.rows if r.points > result["estimated_total"])
    with WatchState() as state:
        standing = state.contest(KEY).standing
    assert standing is not None and standing.rank == placing["rank"] and standing.performance == expected.performance
    assert (CONTEST in site.requests[-1][1]) and ("GET", f"/contests/{CONTEST}/standings/json") in site.requests
    # the transcript: every program's seeds and scores, and the standing
    with TranscriptStore() as store:
        run = next(r for r in store.list_runs(limit=None, kind="contest") if r.problem_id == KEY)
        kinds = [e.kind for e in store.events(run.id)]
        (child,) = store.list_runs(limit=None, kind="solve", parent=run.id)
        scores = [e for e in store.events(child.id) if e.kind == "score"]
    assert "rules" in kinds and "standing" in kinds
    assert scores and all(len(e.payload["report"]["seeds"]) == 5 for e in scores)
    means = [sum(x["score"] for x in e.payload["report"]["seeds"]) / 5 for e in scores if e.payload["best"]]
    assert means[-1] == pytest.approx(result["search_mean"]) and means == sorted(means)  # the last leader is kept


def test_a_listed_ahc_posts_the_leader_no_sooner_than_the_contest_interval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site, pool = ahc_site(duration_s=12), dial_pool()
    started = time.time()
    cookies = str(cookies_txt(tmp_path / "c.txt", site))
    watch(site, pool, tmp_path, monkeypatch, "--submit", "--ai-allowed", KEY, "--cookies", cookies)
    (watched,) = json.loads(capsys.readouterr().out)["contests"]
    assert watched["contest"]["participation"] == "live"
    # the leader changed several times, but a short AHC takes one submission per 5 minutes: one post
    with TranscriptStore() as store:
        run = next(r for r in store.list_runs(limit=None, kind="contest") if r.problem_id == KEY)
        (child,) = store.list_runs(limit=None, kind="solve", parent=run.id)
        leaders = [e for e in store.events(child.id) if e.kind == "score" and e.payload.get("best")]
    assert len(leaders) >= 2
    (posted,) = site.submissions
    assert posted.contest == CONTEST and posted.created >= started and pool.quality_of(posted.source) is not None


def test_a_restarted_watch_goes_on_from_the_kept_program_and_ranks_again_once_the_results_are_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The restart is an earlier search's files in the contest's folder (its kept program, a Dial setting 300,
    better than anything the pool serves first, and its `best.json`): the new search scores that program again on
    the same seeds and starts from it, never asking for a first program. After the end AtCoder's results 404 once,
    then are out: the contest is ranked with the estimate, then again on the published performances; and
    `--rank-only` ranks the kept program again later without searching."""
    site, pool = ahc_site(duration_s=12), dial_pool()
    contest = site.contests[CONTEST]
    data = json.loads(STANDINGS.read_text())["StandingsData"]
    contest.results = [
        {
            "IsRated": r["IsRated"],
            "Place": r["Rank"],
            "Performance": 3000 - 100 * i,
            "UserScreenName": r["UserScreenName"],
        }
        for i, r in enumerate(data)
    ]
    contest.results_after = 1
    folder = tmp_path / "data" / "heuristic" / CONTEST / "ahc900_a"
    folder.mkdir(parents=True)
    kept = dial_program(300)
    (folder / "best.py").write_text(kept.source)
    (folder / "best.json").write_text(json.dumps({"iteration": 7, "mean": 150_000.0, "seeds": [0, 1, 2, 3, 4]}))
    watch(site, pool, tmp_path, monkeypatch, "--results-wait", "1", "--results-poll", "0.2")
    out, err = capsys.readouterr()
    assert "going on from the program an earlier search kept" in err and "mean 150,000.0" in err

    result = json.loads((folder / "result.json").read_text())
    weights = [Random(s).randint(1, 1000) for s in range(5)]
    assert result["kept_mean_before"] == 150_000.0
    assert result["kept_mean_again"] == pytest.approx(300 * sum(weights) / 5)  # the same seeds 0..4, scored again
    best_dial = int((folder / "best.py").read_text().split("print(")[1].split(")")[0])
    assert best_dial >= 300  # the search started from the kept program: nothing worse replaced it
    with TranscriptStore() as store:
        # the contest's runs (a look for the results may come after the searching run, on a busy machine)
        runs = [r for r in store.list_runs(limit=None, kind="contest") if r.problem_id == KEY]
        (child,) = [c for r in runs for c in store.list_runs(limit=None, kind="solve", parent=r.id)]
        scores = [e for e in store.events(child.id) if e.kind == "score"]
        standings = [e.payload for r in reversed(runs) for e in store.events(r.id) if e.kind == "standing"]
    assert scores[0].payload["idea"] == KEPT_IDEA
    # ranked twice: the estimate (AtCoder's equation), then the published performance of its rank
    table = [(r["Place"], r["Performance"]) for r in contest.results if r["IsRated"]]
    totals = [r["TotalResult"]["Score"] / 100 for r in data]
    published = table_placing(result["estimated_total"], totals, table)
    assert len(standings) == 2 and standings[-1]["performance"] == published.performance
    assert result["placing"]["method"] == "table" and result["placing"]["performance"] == published.performance
    (watched,) = json.loads(out)["contests"]
    assert watched["contest"]["status"] == "done" and watched["contest"]["standing"]["performance"] == (
        published.performance
    )

    # later, by hand: rank the kept program again (no model is needed: nothing is searched)
    contest.results_after = 0  # out since
    with served(site) as server:
        monkeypatch.setenv("CPBOT_ATCODER_URL", server.url)
        assert main(["watch", "--site", "atcoder", "--contest", CONTEST, "--rank-only", "--json"]) == 0
    (again,) = json.loads(capsys.readouterr().out)["contests"]
    assert again["contest"]["standing"]["performance"] == published.performance
    assert json.loads((folder / "result.json").read_text())["placing"]["rank"] == published.rank
    # a search stopped before its estimate (the watch killed, no result.json): the kept program is estimated first
    (folder / "result.json").unlink()
    with served(site) as server:
        monkeypatch.setenv("CPBOT_ATCODER_URL", server.url)
        assert main(["watch", "--site", "atcoder", "--contest", CONTEST, "--rank-only", "--json"]) == 0
    (estimated,) = json.loads(capsys.readouterr().out)["contests"]
    assert estimated["contest"]["standing"]["performance"] == published.performance
    assert json.loads((folder / "result.json").read_text())["estimated_total"] == result["estimated_total"]
