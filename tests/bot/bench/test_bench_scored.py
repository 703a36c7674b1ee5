"""`cpbot bench` on score-based problems: each strategy's returned program scored on hidden seeds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cpbot.bot.bench.datasets import HIDDEN_SEEDS_FROM, open_dataset
from cpbot.bot.cli.main import main
from cpbot.testing.score_pool_server import dial_pool
from tests.agents.support.scripted_server import ScriptedServer
from tests.paths import HEURISTIC


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    root = tmp_path / "scored"
    shutil.copytree(HEURISTIC / "dial", root / "dial")
    return root


def test_a_score_based_problem_is_judged_on_seeds_the_agents_never_scored_on(dataset: Path) -> None:
    item = open_dataset(str(dataset)).load("dial")
    assert item.hidden == [] and item.hidden_seeds[0] == HIDDEN_SEEDS_FROM and len(item.hidden_seeds) == 50
    assert item.problem.heuristic is not None and Path(item.problem.heuristic.scorer or "").is_absolute()


def test_bench_reports_the_mean_score_of_the_returned_program(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox, capsys: pytest.CaptureFixture[str]
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("cpbot.judge.sandbox.default_sandbox", lambda: sandbox)
    pool = dial_pool()
    with ScriptedServer(default=pool.answer) as server:
        monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
        monkeypatch.setenv("CPBOT_BASE_URL", server.base_url)
        monkeypatch.setenv("CPBOT_API_KEY", "sk-test")
        argv = ["bench", str(dataset), "--strategy", "ale", "--lang", "python3", "--max-calls", "5", "-j", "1"]
        argv += ["--strategy-option", "seeds=4", "--strategy-option", "repeats=1", "--json", "--model", "pool"]
        code = main(argv)
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    outcome = report["outcomes"][0]
    final = outcome["final"]
    assert final["verdict"] == "AC" and final["total_tests"] == 50 and final["passed_tests"] == 50
    # the Dial scores W x V: the returned program's dial times the mean weight of the hidden seeds
    from random import Random

    weights = [Random(s).randint(1, 1000) for s in range(HIDDEN_SEEDS_FROM, HIDDEN_SEEDS_FROM + 50)]
    dial = final["mean_score"] / (sum(weights) / 50)
    assert dial == pytest.approx(round(dial)) and dial > pool.programs[0].quality
    assert report["strategies"][0]["overall"]["mean_score"] == pytest.approx(final["mean_score"])
    from cpbot.bot.bench.report import markdown
    from cpbot.bot.bench.runner import BenchReport

    table = markdown(BenchReport.model_validate(report), timings=False)
    header = next(line for line in table.splitlines() if line.startswith("| strategy | n |"))
    assert header.startswith("| strategy | n | mean score | pass@1")
    assert f"| ale | 1 | {final['mean_score']:,.1f} |" in table
    from cpbot.bot.bench.report import metric_table

    rows = metric_table(BenchReport.model_validate(report), timings=False)
    assert rows.columns[3] == "mean score" and rows.rows[0][3] == f"{final['mean_score']:,.1f}"
