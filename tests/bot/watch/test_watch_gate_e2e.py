"""`cpbot watch --submit` with the default gate and the default `cpbot` strategy, end to end against the
fake Codeforces: a program that passes the samples and the designed tests but not the stress run is
refused with the reason in the transcript, the problem is solved again and the right program is
submitted; a problem whose program passes everything is submitted at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpbot.bot.cli.main import main
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.watch.state import WatchState
from tests.agents.support.scripted_server import ScriptedServer
from tests.bot.watch.gated import CONTEST, OPTIONS, RIGHT_B, ROLE_MODELS, WRONG_A, gated_site, model_answer
from tests.bot.watch.support import API_KEY, RIGHT_A, cookies_txt
from tests.fakes.server import FakeSiteServer


def test_the_default_gate_refuses_a_program_the_stress_run_breaks_and_submits_the_fixed_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = gated_site()
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    for name, value in ROLE_MODELS.items():
        monkeypatch.setenv(name, value)
    with FakeSiteServer(site) as server, ScriptedServer(default=model_answer) as model:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        args = [
            "watch", "--site", "cf", "--contest", str(CONTEST), "--lang", "python3", "--submit",
            "--model", "m", "--base-url", model.base_url, "--api-key", API_KEY,
            "--cookies", str(cookies_txt(tmp_path / "cookies.txt", site)),
            "--fetch-retry", "0.2", "--verdict-poll", "0.05", "--submit-interval", "0", "--once", "--json",
            "--ai-allowed", f"cf:{CONTEST}",  # submitted to live: the rules' other cases are in test_watch_rules
            *(x for option in OPTIONS for x in ("--strategy-option", option)),
        ]  # fmt: skip
        rc = main(args)
    assert rc == 0
    (contest,) = json.loads(capsys.readouterr().out)["contests"]
    lines = {p["index"]: p for p in contest["problems"]}
    assert {i: (p["status"], p["attempts"], p["submissions"]) for i, p in lines.items()} == {
        "A": ("solved", 2, 1),
        "B": ("solved", 1, 1),
    }
    # the site got exactly the right programs, once each: the refused one was never posted
    assert [(s.index, s.source) for s in sorted(site.submissions, key=lambda s: s.index or "")] == [
        ("A", RIGHT_A),
        ("B", RIGHT_B),
    ]
    assert not any(s.source == WRONG_A for s in site.submissions)

    with TranscriptStore() as store:
        events = store.events(contest["contest"]["run_id"])
        gates = [e.payload for e in events if e.kind == "gate"]
        by_problem = {(g["problem_id"], g["attempt"]): g for g in gates}
        a, b = f"codeforces:{CONTEST}A", f"codeforces:{CONTEST}B"
        assert sorted(by_problem) == [(a, 1), (a, 2), (b, 1)]
        refused = by_problem[(a, 1)]
        assert refused["allowed"] is False
        checks = {c["name"]: c for c in refused["checks"]}
        # the samples passed; the stress run found m = 10^k, which then failed as a generated test
        assert checks["samples"]["passed"] is True
        assert checks["stress"]["passed"] is False and "difference from the brute force" in checks["stress"]["detail"]
        assert checks["generated"]["passed"] is False and "WA on generated tests" in checks["generated"]["detail"]
        assert any(r.startswith("stress: found a difference") for r in refused["reasons"])
        for key in ((a, 2), (b, 1)):
            passed = by_problem[key]
            assert passed["allowed"] is True and passed["reasons"] == []
            assert {c["name"]: c["passed"] for c in passed["checks"]} == {
                "samples": True,
                "generated": True,
                "stress": True,
                "profile": True,
            }
            assert "within limits" in passed["summary"]["profile"]
        # the refusal came before any submission of A, and the submitted program is the gated one
        order = [(e.kind, e.payload.get("problem_id")) for e in events if e.kind in ("gate", "submission")]
        assert order.index(("submission", a)) > order.index(("gate", a))
        assert [
            e.payload["source_sha256"] for e in events if e.kind == "submission" and e.payload["problem_id"] == a
        ] == [by_problem[(a, 2)]["source_sha256"]]
    with WatchState() as state:
        path = [t.to_status for t in state.transitions(f"codeforces:{CONTEST}", a)]
        assert path[path.index("judged") + 1] == "solving"  # refused: back to solving, not to gated
        assert path[-3:] == ["submitted", "verdict", "solved"]
        # the strategy options reached the solves: a profile up to n = 24, by CPU time (nothing counted)
        (b_attempt,) = state.attempts(f"codeforces:{CONTEST}", b)
        assert b_attempt.result is not None
        profile = b_attempt.result.profile
        assert profile is not None and max(p.size for p in profile.points) == 24
        assert all(p.instructions is None for p in profile.points)
    # the second A prompt carried the gate's reasons
    a_coder = [
        r.body for r in model.requests if r.body.get("model") == "m" and "Round Down the Price" in json.dumps(r.body)
    ]
    assert len(a_coder) == 2 and "failed cpbot's local checks" in json.dumps(a_coder[1])
    assert "difference from the brute force" in json.dumps(a_coder[1])
    assert {r.body.get("model") for r in model.requests} <= {"m", "testgen", "analyst"}
