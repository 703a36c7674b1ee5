"""`cpbot watch --site lc --submit` end to end against the fake LeetCode: a weekly contest is noticed
before it starts, its function problems are fetched through GraphQL once public, solved and judged
through the harness, posted to /problems/<slug>/submit/ and followed on the check endpoint (PENDING,
STARTED, SUCCESS) to final verdicts; a Wrong Answer goes back into the next solve."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpbot.bot.cli import main
from cpbot.bot.transcripts import TranscriptStore
from cpbot.bot.watch.state import WatchState
from tests.agents.support.scripted_server import ScriptedServer
from tests.bot.watch.lc_round import (
    ATOI,
    CONTEST,
    DECODE,
    MARKED_DECODE,
    RIGHT_ATOI,
    RIGHT_DECODE,
    lc_cookies_txt,
    lc_site,
    model_answer,
)
from tests.bot.watch.support import API_KEY
from tests.fakesite.server import FakeSiteServer


def test_a_leetcode_contest_from_detection_to_final_verdicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = lc_site(start_in_s=2.0)
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with FakeSiteServer(site) as server, ScriptedServer(default=model_answer) as model:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        args = [
            "watch", "--site", "lc", "--strategy", "direct", "--lang", "python3", "--gate", "samples",
            "--model", "m", "--base-url", model.base_url, "--api-key", API_KEY,
            "--cookies", str(lc_cookies_txt(tmp_path / "cookies.txt", site)), "--submit",
            "--within", "1", "--poll", "0.5", "--fetch-retry", "0.2", "--verdict-poll", "0.05",
            "--submit-interval", "0", "--once", "--json",
        ]  # fmt: skip
        rc = main(args)
    assert rc == 0
    (contest,) = json.loads(capsys.readouterr().out)["contests"]
    assert contest["contest"]["key"] == f"leetcode:{CONTEST}" and contest["contest"]["status"] == "done"
    assert contest["contest"]["mode"] == "live" and contest["contest"]["detail"] == "2/2 solved"
    lines = {p["problem_id"]: p for p in contest["problems"]}
    assert {k: (p["status"], p["submissions"], p["verdict"]) for k, p in lines.items()} == {
        f"leetcode:{DECODE}": ("solved", 2, "AC"),
        f"leetcode:{ATOI}": ("solved", 1, "AC"),
    }
    # the site saw each source once, on the problem's own submit endpoint, in Python
    assert [(s.problem_key, s.source, s.language) for s in site.submissions if s.problem_key == DECODE] == [
        (DECODE, MARKED_DECODE, "python3"),
        (DECODE, RIGHT_DECODE, "python3"),
    ]
    assert [s.source for s in site.submissions if s.problem_key == ATOI] == [RIGHT_ATOI]
    assert site.posts(f"/problems/{DECODE}/submit") == 2 and site.posts(f"/problems/{ATOI}/submit") == 1
    # every verdict was polled through PENDING and STARTED before it was final
    assert all(s.polls >= 3 for s in site.submissions)
    checks = [p for m, p in site.requests if m == "GET" and p.startswith("/submissions/detail/")]
    assert {p.split("/")[3] for p in checks} == {str(s.id) for s in site.submissions}

    key = f"leetcode:{CONTEST}"
    with WatchState() as state:
        subs = state.submissions(key, f"leetcode:{DECODE}")
        assert [s.verdict for s in subs] == ["WA", "AC"]
        # nothing was posted before the contest started
        first = min(s.created for s in site.submissions)
        assert first >= site.lc_contests[CONTEST].start
    with TranscriptStore() as store:
        events = store.events(contest["contest"]["run_id"])
        verdicts = [e.payload for e in events if e.kind == "remote_verdict"]
        assert sorted((v["problem_id"], v["verdict"]) for v in verdicts) == [
            (f"leetcode:{DECODE}", "AC"),
            (f"leetcode:{DECODE}", "WA"),
            (f"leetcode:{ATOI}", "AC"),
        ]
        wrong = next(v for v in verdicts if v["verdict"] == "WA")
        assert wrong["status_text"] == "Wrong Answer" and wrong["failed_test"] == 3
        posted = [e.payload for e in events if e.kind == "submission"]
        assert all(p["url"].startswith("https://leetcode.com/") for p in posted) and len(posted) == 3
    # the second Decode Ways prompt carried the site's verdict
    decode_prompts = [r for r in model.requests if "numDecodings" in json.dumps(r.body)]
    assert len(decode_prompts) == 2 and "the judge answered WA" in json.dumps(decode_prompts[1].body)
    # no secret in any file cpbot wrote
    for f in (tmp_path / "data").rglob("*"):
        if f.is_file():
            data = f.read_bytes()
            for secret in (API_KEY, site.lc_session, site.lc_csrf):
                assert secret.encode() not in data, f
