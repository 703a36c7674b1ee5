"""Strategy options on `cpbot bench` (`--strategy-option [STRATEGY:]KEY=VALUE`, `--candidates K`): kept in the
bench's plan, so a resumed bench runs the same, and handed to every solve of the strategy they belong to."""

from __future__ import annotations

import pytest

from cpbot.bot.app.strategy_options import bench_options
from cpbot.bot.bench.runner import BenchPlan, make_plan
from cpbot.bot.bench.task import run_task
from cpbot.bot.cli.main import main
from cpbot.core.errors import ConfigError
from tests.bot.bench.conftest import settings_for
from tests.bot.bench.support import KS_KEYS


def test_an_option_goes_to_the_strategies_that_take_it_or_to_the_one_it_names():
    assert bench_options(["direct", "cpbot"], ["candidates=4", "max_n=100"]) == {
        "cpbot": {"candidates": 4, "max_n": 100}
    }
    assert bench_options(["cpbot", "macs"], ["cpbot:debugs=1"]) == {"cpbot": {"debugs": 1}}
    assert bench_options(["direct"], []) == {}
    with pytest.raises(ConfigError, match="no strategy of this bench"):
        bench_options(["direct", "nala"], ["candidates=4"])
    with pytest.raises(ConfigError, match="names cpbot, which this bench does not run"):
        bench_options(["direct"], ["cpbot:candidates=4"])
    with pytest.raises(ConfigError, match="expected"):
        bench_options(["cpbot"], ["candidates=many"])


def test_the_plan_keeps_the_options_and_every_solve_of_the_strategy_gets_them(datasets, server, sandbox):
    dataset = datasets["kickstart"]
    settings = settings_for(dataset, server)
    options = bench_options(["direct", "cpbot"], ["cpbot:candidates=3", "verify=false"])
    strategies = ["direct", "cpbot"]
    plan = make_plan(dataset, strategies, language="python3", model="m", budget=settings.budget, options=options)
    assert BenchPlan.model_validate_json(plan.model_dump_json()).options == {
        "cpbot": {"candidates": 3, "verify": False}
    }
    settings = settings.model_copy(update={"options": plan.options})
    result = run_task(settings, KS_KEYS[0], "cpbot", sandbox=sandbox)
    calls = [e["role"] for e in result.events if e["kind"] == "llm_call"]
    assert calls == ["coder"] * 3  # three candidates at once, no test designer (verify=false)
    assert any(e["kind"] == "selection" and e["step"] == "drawn" for e in result.events)


def test_candidates_without_cpbot_in_the_bench_is_refused_before_anything_runs(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    argv = ["bench", str(tmp_path), "--strategy", "direct", "--candidates", "3"]
    argv += ["--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--api-key", "k"]
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert "candidates" in err.splitlines()[0]
