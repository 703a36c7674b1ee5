"""`cpbot solve` says whether its generated inputs were validated, how many it dropped, and which bounds of
the statement they did not reach (text and --json), and the transcript holds the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.agents.solve import SolveResult
from cpbot.bot.cli.main import main
from cpbot.bot.commands.solve import EXIT_CODES
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.testing.scripted_server import Reply, ScriptedServer
from tests.agents.roles.test_validator import max_sum_problem
from tests.agents.strategies.test_cpbot_inputs import suite_reply
from tests.judge.test_validator import RIGHT


def _solve(tmp_path: Path, *extra: str) -> int:
    problem = tmp_path / "problem.json"
    problem.write_text(max_sum_problem().model_dump_json())
    replies = [Reply(f"```python\n{RIGHT}```"), suite_reply("2\n3 4\n", "2\n-1 4\n")]
    with ScriptedServer(replies, model="m") as model:
        args = ["solve", str(problem), "--lang", "python3", "-o", str(tmp_path / "out"), "--candidates", "1"]
        args += ["--strategy-option", "stress_rounds=0", "--strategy-option", "profile=false"]
        rc = main([*args, "--base-url", model.base_url, "--model", "m", "--api-key", "k", *extra])
    return rc


def test_solve_reports_validation_drops_and_bounds_not_reached(tmp_path, monkeypatch, capsys: pytest.CaptureFixture):
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    rc = _solve(tmp_path)
    out = capsys.readouterr().out
    assert rc == EXIT_CODES["unverified"]  # stress and profile are off here
    assert "inputs validated; 1 dropped as invalid (generated 1); 2/4 bounds reached" in out
    assert "n max 100: BOUND NOT REACHED (greatest seen 3)" in out
    assert "a_i max 1000: BOUND NOT REACHED (greatest seen 7)" in out


def test_solve_json_holds_the_inputs_report_and_the_transcript_the_notes(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    rc = _solve(tmp_path, "--json")
    captured = capsys.readouterr()
    result = SolveResult.model_validate_json(captured.out)
    assert rc == EXIT_CODES["unverified"] and result.inputs is not None and result.inputs.validated
    assert result.inputs.dropped == {"generated": 1}
    assert {(b.name, b.side, b.reached) for b in result.inputs.coverage} == {
        ("n", "max", False),
        ("a_i", "max", False),
        ("n", "min", True),
        ("a_i", "min", True),
    }
    run_id = captured.err.strip().splitlines()[-1].removeprefix("transcript: ")
    with TranscriptStore() as store:
        notes = {e.payload["message"]: e.payload["data"] for e in store.events(run_id) if e.kind == "note"}
    assert notes["inputs validated"]["dropped"] == 1
    assert notes["inputs"]["summary"] == result.inputs.summary()
    assert "n max 100: BOUND NOT REACHED (greatest seen 3)" in notes["inputs"]["bounds"]
    assert any("the validator rejects it (a_i = '-1'" in r for r in notes["generated tests dropped"]["reasons"])
