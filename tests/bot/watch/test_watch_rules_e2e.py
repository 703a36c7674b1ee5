"""A live rated Codeforces round with `cpbot watch --submit`: nothing is posted while it runs; cpbot takes
part in the shadow, posts the same sources as practice after the round, and works out the standing it
would have had from the official standings and the participants' ratings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpbot.bot.cli.main import main
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.watch.state import WatchState
from cpbot.scrapers.codeforces.ranking import expected_rank
from tests.agents.support.scripted_server import ScriptedServer
from tests.bot.watch.support import API_KEY, CONTEST, MARKED_B, RIGHT_B, contest_site, cookies_txt, model_answer
from tests.fakes.server import FakeSiteServer

RANKLIST = [("tourist", 3000.0, 0, 3500), ("alice", 1800.0, 0, 1900), ("bob", 400.0, 0, 1300), ("eve", 0.0, 0, None)]


def test_a_live_rated_round_is_shadowed_then_posted_as_practice_with_a_standing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = contest_site(start_in_s=1.0, duration_s=15)
    round_ = site.cf_contests[CONTEST]
    round_.start = float(int(round_.start) + 1)  # the API gives whole seconds
    for problem, points in zip(round_.problems, (500, 1000, 1500), strict=True):
        problem.points = points
    round_.ranklist = list(RANKLIST)
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with FakeSiteServer(site) as server, ScriptedServer(default=model_answer) as model:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        args = [
            "watch", "--site", "cf", "--strategy", "direct", "--lang", "python3", "--gate", "samples",
            "--allow-unverified",
            "--model", "m", "--base-url", model.base_url, "--api-key", API_KEY,
            "--cookies", str(cookies_txt(tmp_path / "cookies.txt", site)), "--submit",
            "--within", "1", "--poll", "0.5", "--fetch-retry", "0.2", "--verdict-poll", "0.05",
            "--submit-interval", "0", "--once", "--json",
        ]  # fmt: skip
        assert main(args) == 0
    out, err = capsys.readouterr()
    assert "2024-09-14" in err and "practice after the round" in err, "the rule and what --submit means, told"
    (contest,) = json.loads(out)["contests"]
    assert contest["contest"]["participation"] == "practice" and contest["contest"]["status"] == "done"

    # zero POSTs to the submit page while the round ran; afterwards every post is practice
    end = round_.start + round_.duration_s
    posts = [s for s in site.submissions]
    assert posts and all(s.created >= end and s.practice for s in posts)
    assert [s.source for s in posts if s.index == "B"] == [MARKED_B, RIGHT_B], "B was upsolved after a WA"

    key = f"codeforces:{CONTEST}"
    with WatchState() as state:
        shadows = state.shadows(key)
        assert sorted(s.problem_id.rsplit(str(CONTEST), 1)[1] for s in shadows) == ["A", "B", "C"]
        assert all(0 <= s.at_s <= round_.duration_s for s in shadows)
        standing = state.contest(key).standing
    # in the shadow, B's source was the wrong one: A and C count, at full value in a 15 s round
    assert {p.index: p.solved for p in standing.problems} == {"A": True, "B": False, "C": True}
    assert standing.points == 500 + 1500
    assert (standing.rank, standing.participants) == (2, 4)  # only tourist's 3000 is ahead
    rated = [r for _, _, _, r in RANKLIST if r is not None]
    assert standing.performance is not None
    assert expected_rank(standing.performance, rated) == pytest.approx(2, abs=0.01)
    with TranscriptStore() as store:
        events = store.events(contest["contest"]["run_id"])
        kinds = [e.kind for e in events]
        assert kinds.count("shadow_submission") == 3 and kinds.count("standing") == 1
        assert kinds.index("standing") > max(i for i, k in enumerate(kinds) if k == "submission")


GYM = 100500


def test_a_gym_contest_is_found_by_id_and_submitted_to_live(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = contest_site(start_in_s=-5.0, duration_s=3600)
    round_ = site.cf_contests.pop(CONTEST)
    round_.id = GYM  # the same problems as a gym contest: listed by contest.list?gym=true, pages under /gym/
    site.cf_contests[GYM] = round_
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with FakeSiteServer(site) as server, ScriptedServer(default=model_answer) as model:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        args = [
            "watch", "--site", "cf", "--contest", str(GYM), "--strategy", "direct", "--lang", "python3",
            "--gate", "samples", "--allow-unverified", "--model", "m", "--base-url", model.base_url,
            "--api-key", API_KEY,
            "--cookies", str(cookies_txt(tmp_path / "cookies.txt", site)), "--submit",
            "--fetch-retry", "0.2", "--verdict-poll", "0.05", "--submit-interval", "0", "--once", "--json",
        ]  # fmt: skip
        assert main(args) == 0
    (contest,) = json.loads(capsys.readouterr().out)["contests"]
    assert contest["contest"]["gym"] is True and contest["contest"]["participation"] == "live"
    assert contest["contest"]["detail"].startswith("3/3 solved")
    end = round_.start + round_.duration_s
    assert site.submissions and all(s.created < end and not s.practice for s in site.submissions), "posted live"
    assert any(p.startswith(f"/gym/{GYM}/problem/") for m, p in site.requests if m == "GET")
    with WatchState() as state:
        assert state.shadows(f"codeforces:{GYM}") == []
