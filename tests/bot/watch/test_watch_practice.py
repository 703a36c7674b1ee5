"""`cpbot watch --contest ID --submit` on a contest that has ended: it is worked on as a virtual contest
and its answers go where the sites take practice submissions (Codeforces: the contest's own submit page,
which after the end files them as PRACTICE; LeetCode: /problems/<slug>/submit/)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cpbot.bot.cli.main import main
from cpbot.bot.watch.state import CONTEST_ENDED, ContestRow, ProblemRow, WatchState
from tests.agents.support.scripted_server import ScriptedServer
from tests.bot.watch import lc_round
from tests.bot.watch.support import API_KEY, CONTEST, MARKED_B, RIGHT_B, contest_site, cookies_txt, model_answer
from tests.bot.watch.test_watch_e2e import watch_args
from tests.fakes.server import FakeSiteServer


def test_a_finished_codeforces_round_is_submitted_as_practice_after_a_dry_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = contest_site(start_in_s=-9000, duration_s=7200)  # ended 30 minutes ago
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with FakeSiteServer(site) as server, ScriptedServer(default=model_answer) as model:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        args = watch_args(model, cookies_txt(tmp_path / "cookies.txt", site), "--contest", str(CONTEST))
        assert main(args) == 0  # a dry run first: everything gated, nothing posted
        (dry,) = json.loads(capsys.readouterr().out)["contests"]
        assert [p["status"] for p in dry["problems"]] == ["gated"] * 3 and site.submissions == []
        assert main([*args, "--submit"]) == 0  # then the same contest again, submitting
        with server.client() as client:
            response = client.get(
                "https://codeforces.com/api/user.status", params={"handle": site.cf_handle, "from": 1, "count": 10}
            )
            mine = response.json()
    (contest,) = json.loads(capsys.readouterr().out)["contests"]
    assert contest["contest"]["mode"] == "virtual" and contest["contest"]["status"] == "done"
    assert contest["contest"]["detail"] == "3/3 solved"
    assert {p["index"]: (p["status"], p["submissions"]) for p in contest["problems"]} == {
        "A": ("solved", 1),
        "B": ("solved", 2),
        "C": ("solved", 1),
    }
    # every post went to the finished contest's own submit page and was filed as practice
    assert site.posts(f"/contest/{CONTEST}/submit") == 4 == len(site.submissions)
    assert all(s.practice for s in site.submissions)
    assert [s.source for s in site.submissions if s.index == "B"] == [MARKED_B, RIGHT_B]
    assert {row["author"]["participantType"] for row in mine["result"]} == {"PRACTICE"}


def test_a_finished_leetcode_contest_is_submitted_on_the_problem_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = lc_round.lc_site(start_in_s=-9000, duration_s=5400)
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with FakeSiteServer(site) as server, ScriptedServer(default=lc_round.model_answer) as model:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        args = [
            "watch", "--site", "lc", "--contest", lc_round.CONTEST, "--strategy", "direct", "--lang", "python3",
            "--gate", "samples", "--allow-unverified", "--model", "m", "--base-url", model.base_url,
            "--api-key", API_KEY,
            "--cookies", str(lc_round.lc_cookies_txt(tmp_path / "cookies.txt", site)), "--submit",
            "--fetch-retry", "0.2", "--verdict-poll", "0.05", "--submit-interval", "0", "--once", "--json",
        ]  # fmt: skip
        assert main(args) == 0
    (contest,) = json.loads(capsys.readouterr().out)["contests"]
    assert contest["contest"]["mode"] == "virtual" and contest["contest"]["detail"] == "2/2 solved"
    assert len(site.submissions) == 3 and all(s.practice for s in site.submissions)
    posts = [p for m, p in site.requests if m == "POST" and p.endswith("/submit/")]
    assert sorted(set(posts)) == sorted(f"/problems/{slug}/submit/" for slug in (lc_round.ATOI, lc_round.DECODE))


def test_a_round_watched_live_and_asked_for_by_id_after_its_end_becomes_practice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = contest_site(start_in_s=-9000, duration_s=7200)
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    start = datetime.fromtimestamp(site.cf_contests[CONTEST].start, UTC)
    with WatchState() as state:  # what a watch during the round left: a live contest, its problems pending
        state.add_contest(
            ContestRow(
                key=f"codeforces:{CONTEST}",
                site="codeforces",
                contest_id=str(CONTEST),
                name="cpbot Test Round",
                url=f"https://codeforces.com/contest/{CONTEST}",
                start=start,
                duration_s=7200,
                mode="live",
                status="running",
            )
        )
        # the live run gave its problems up when the round ended; practice takes them up again
        for index in "ABC":
            pid, url = f"codeforces:{CONTEST}{index}", f"https://codeforces.com/contest/{CONTEST}/problem/{index}"
            row = ProblemRow(contest_key=f"codeforces:{CONTEST}", problem_id=pid, index=index, name=index, url=url)
            state.add_problem(row)
            state.transition(row.contest_key, pid, "given_up", detail=f"{CONTEST_ENDED} before it was submitted")
    with FakeSiteServer(site) as server, ScriptedServer(default=model_answer) as model:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        args = watch_args(model, cookies_txt(tmp_path / "cookies.txt", site), "--contest", str(CONTEST), "--submit")
        assert main(args) == 0
    (contest,) = json.loads(capsys.readouterr().out)["contests"]
    # not given up because the round is over: solved and sent as practice
    assert contest["contest"]["mode"] == "virtual" and contest["contest"]["detail"] == "3/3 solved"
    assert len(site.submissions) == 4 and all(s.practice for s in site.submissions)
