"""`cpbot solve` through the CLI runs the same solve as the bench and the contest loop: with a sandbox, so
the candidates are probed and grouped by behaviour, and the grouping is in the stored transcript."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.agents.solve import SolveResult
from cpbot.bot.cli.main import main
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.testing.population_server import PopulationModel, load_lab
from cpbot.testing.scripted_server import ScriptedServer
from tests.agents.test_population_server import write_lab


def test_cpbot_solve_groups_its_candidates_and_records_the_grouping(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    folder = write_lab(tmp_path / "lab")
    model = PopulationModel(load_lab(folder), pass_at_1=0.5, seed=3)
    with ScriptedServer(default=model) as server:
        args = ["solve", str(folder / "problem.json"), "--lang", "python3", "--candidates", "4", "--json"]
        args += ["--base-url", server.base_url, "--model", "population", "--api-key", "sk-x", "-o", str(tmp_path / "o")]
        main(args)
    captured = capsys.readouterr()
    result = SolveResult.model_validate_json(captured.out)
    run_id = captured.err.strip().splitlines()[-1].removeprefix("transcript: ")
    with TranscriptStore() as store:
        events = store.events(run_id)
    steps = [e.payload["step"] for e in events if e.kind == "selection"]
    assert steps[:3] == ["drawn", "filtered", "grouped"]
    grouped = next(e.payload for e in events if e.kind == "selection" and e.payload["step"] == "grouped")
    assert grouped["probes"] > 0 and len(grouped["candidates"]) > 1
    assert "the first is kept" not in result.reason
