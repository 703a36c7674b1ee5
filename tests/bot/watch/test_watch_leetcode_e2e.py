"""`cpbot watch --site lc --submit` end to end against the fake LeetCode: a weekly contest is noticed
before it starts, its function problems are fetched through GraphQL once public, solved and judged
through the harness, posted to /problems/<slug>/submit/ and followed on the check endpoint (PENDING,
STARTED, SUCCESS) to final verdicts; a Wrong Answer goes back into the next solve."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpbot.bot.cli.main import main
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.watch.state import WatchState
from tests.agents.support.scripted_server import ScriptedServer
from tests.bot.watch.lc_round import (
    ATOI,
    CONTEST,
    DECODE,
    MARKED_DECODE,
    RIGHT_DECODE,
    lc_cookies_txt,
    lc_site,
    model_answer,
)
from tests.bot.watch.support import API_KEY
from tests.fakes.server import FakeSiteServer


def test_a_leetcode_contest_is_solved_in_the_shadow_and_submitted_as_practice_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = lc_site(start_in_s=1.0, duration_s=12)
    contest_row = site.lc_contests[CONTEST]
    contest_row.start = float(int(contest_row.start) + 1)  # the site's times are whole seconds, as the API gives them
    # the global ranking: 30 participants (two pages), scores 12, 7 (finish 400 s), 7 (finish 2000 s), 3, ...
    contest_row.ranking = [("ann", 12, 300), ("bo", 7, 400), ("cy", 7, 2000)] + [
        (f"u{i}", 3, 500 + i) for i in range(27)
    ]
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with FakeSiteServer(site) as server, ScriptedServer(default=model_answer) as model:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        args = [
            "watch", "--site", "lc", "--strategy", "direct", "--lang", "python3", "--gate", "samples",
            "--allow-unverified",
            "--model", "m", "--base-url", model.base_url, "--api-key", API_KEY,
            "--cookies", str(lc_cookies_txt(tmp_path / "cookies.txt", site)), "--submit",
            "--ai-allowed", f"lc:{CONTEST}",  # LeetCode allows no exception: still nothing during the contest
            "--within", "1", "--poll", "0.5", "--fetch-retry", "0.2", "--verdict-poll", "0.05",
            "--submit-interval", "0", "--once", "--json",
        ]  # fmt: skip
        rc = main(args)
    assert rc == 0
    (contest,) = json.loads(capsys.readouterr().out)["contests"]
    assert contest["contest"]["key"] == f"leetcode:{CONTEST}" and contest["contest"]["status"] == "done"
    assert contest["contest"]["participation"] == "practice"  # shadow during the contest, practice after
    lines = {p["problem_id"]: p for p in contest["problems"]}
    assert {k: (p["status"], p["submissions"], p["verdict"]) for k, p in lines.items()} == {
        f"leetcode:{DECODE}": ("solved", 2, "AC"),
        f"leetcode:{ATOI}": ("solved", 1, "AC"),
    }
    # nothing was posted while the contest ran: every post came after its end, as practice
    end = contest_row.start + contest_row.duration_s
    assert site.submissions and all(s.created >= end and s.practice for s in site.submissions)
    assert [(s.problem_key, s.source, s.language) for s in site.submissions if s.problem_key == DECODE] == [
        (DECODE, MARKED_DECODE, "python3"),
        (DECODE, RIGHT_DECODE, "python3"),
    ]
    # every verdict was polled through PENDING and STARTED before it was final
    assert all(s.polls >= 3 for s in site.submissions)

    key = f"leetcode:{CONTEST}"
    with WatchState() as state:
        shadows = state.shadows(key)
        assert sorted(s.problem_id for s in shadows) == sorted(lines)
        assert all(0 <= s.at_s <= contest_row.duration_s for s in shadows)
        subs = state.submissions(key, f"leetcode:{DECODE}")
        assert [s.verdict for s in subs] == ["WA", "AC"]
        standing = state.contest(key).standing
    # in the shadow only Atoi counts: Decode Ways' shadow source was the wrong one (WA as practice)
    atoi = next(p for p in standing.problems if p.solved)
    assert [p.solved for p in standing.problems].count(True) == 1 and standing.points == atoi.points > 0
    # 3 points, finishing within the contest: behind ann, bo and cy, ahead of the 27 who finished later
    assert standing.participants == 30
    expected = 1 + sum(1 for _, score, at in contest_row.ranking if score > 3 or (score == 3 and at < standing.penalty))
    assert standing.rank == expected
    assert len(site.ranking_pages) <= 4, "the ranking is searched, not read whole"

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
        assert len([e for e in events if e.kind == "shadow_submission"]) == 2
        assert [e.payload["rank"] for e in events if e.kind == "standing"] == [standing.rank]
        rules = [e.payload for e in events if e.kind == "rules"]
        assert rules[0]["participation"] == "shadow" and "allows no exception" in " ".join(rules[0]["reminders"])
    # the second Decode Ways prompt carried the site's verdict
    decode_prompts = [r for r in model.requests if "numDecodings" in json.dumps(r.body)]
    assert len(decode_prompts) == 2 and "the judge answered WA" in json.dumps(decode_prompts[1].body)
    # no secret in any file cpbot wrote
    for f in (tmp_path / "data").rglob("*"):
        if f.is_file():
            data = f.read_bytes()
            for secret in (API_KEY, site.lc_session, site.lc_csrf):
                assert secret.encode() not in data, f
