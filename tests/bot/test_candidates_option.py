"""`--candidates K` on `cpbot solve` and `cpbot watch` (and `candidates = K` in their config tables): the
shorthand of `--strategy-option candidates=K`, refused by strategies that do not choose among candidates."""

from __future__ import annotations

import pytest

from cpbot.bot.app.strategy_options import parse_strategy_options, with_candidates
from cpbot.bot.cli.main import main

ENDPOINT = ["--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--api-key", "k"]


def test_candidates_join_the_strategy_options_as_an_int() -> None:
    assert parse_strategy_options("cpbot", with_candidates(("max_n=24",), 4)) == {"max_n": 24, "candidates": 4}
    assert with_candidates(("max_n=24",), None) == ("max_n=24",)


@pytest.mark.parametrize("command", [["watch", "--site", "cf", "--once"], ["solve", "problem.json"]])
def test_a_strategy_without_candidates_refuses_the_option_before_anything_runs(
    command: list[str], tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    rc = main([*command, *ENDPOINT, "--strategy", "direct", "--candidates", "3"])
    assert rc != 0
    assert capsys.readouterr().err.splitlines()[0] == "error: strategy direct has no option 'candidates'"


def test_the_config_files_solve_table_sets_candidates(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text('[solve]\nstrategy = "direct"\ncandidates = 2\n')
    monkeypatch.setenv("CPBOT_CONFIG_DIR", str(config))
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "problem.json", *ENDPOINT]) != 0
    assert capsys.readouterr().err.splitlines()[0] == "error: strategy direct has no option 'candidates'"
