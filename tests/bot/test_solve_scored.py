"""`cpbot solve` on a score-based problem: the ale strategy by default, the best program written, the seeds'
scores in the transcript."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import cpbot.bot.commands.solve as solve_module
from cpbot.agents.solve import SolveResult
from cpbot.agents.tracing import ScoreEvent
from cpbot.bot.report.event_view import load
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.testing.score_pool_server import dial_pool
from tests.agents.support.scripted_server import ScriptedServer
from tests.paths import HEURISTIC


def test_solve_searches_a_score_based_problem_with_ale_and_records_the_scores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "dial"
    shutil.copytree(HEURISTIC / "dial", folder)
    pool = dial_pool()
    with ScriptedServer(default=pool.answer) as model:
        args = [
            str(folder / "problem.json"), "--lang", "python3", "--base-url", model.base_url, "--model", "m",
            "--api-key", "sk-test", "-o", str(tmp_path / "out"), "--json", "--max-calls", "5",
            "--strategy-option", "seeds=4", "--strategy-option", "repeats=1",
        ]  # fmt: skip
        rc = solve_module.solve.main(args, prog_name="cpbot solve", standalone_mode=False)
    captured = capsys.readouterr()
    result = SolveResult.model_validate_json(captured.out)
    assert rc == 0 and result.strategy == "ale" and result.calls == 5
    assert result.solution is not None and (tmp_path / "out" / "solution.py").read_text() == result.solution.source
    best = pool.quality_of(result.solution.source)
    assert best is not None and best > pool.programs[0].quality  # the first round improved on the first program
    with TranscriptStore() as store:
        run_id = captured.err.strip().splitlines()[-1].removeprefix("transcript: ")
        events = [load(e) for e in store.events(run_id) if e.kind == "score"]
    assert len(events) == 5 and all(isinstance(e, ScoreEvent) for e in events)
    assert all([s.seed for s in e.report.seeds] == [0, 1, 2, 3] for e in events)  # type: ignore[union-attr]
    leaders = [e for e in events if e.best]  # type: ignore[union-attr]
    assert leaders[0].iteration == events[0].iteration  # type: ignore[union-attr]  # the first program led first
    assert leaders[-1].report.mean == max(e.report.mean for e in events)  # type: ignore[union-attr]


def test_solve_refuses_a_strategy_that_does_not_fit_a_score_based_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with ScriptedServer(default=dial_pool().answer) as model:
        args = [
            str(HEURISTIC / "dial" / "problem.json"), "--strategy", "direct", "--lang", "python3",
            "--base-url", model.base_url, "--model", "m", "--api-key", "sk-test",
        ]  # fmt: skip
        from cpbot.core.errors import ConfigError

        with pytest.raises(ConfigError, match="does not solve a score-based problem"):
            solve_module.solve.main(args, prog_name="cpbot solve", standalone_mode=False)
        assert model.requests == []
