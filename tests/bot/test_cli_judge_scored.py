"""`cpbot judge` on a score-based problem: scores per seed, the summary, and a paired comparison."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cpbot.bot.cli.main import main
from tests.paths import HEURISTIC


@pytest.fixture
def route(tmp_path: Path) -> Path:
    folder = tmp_path / "route"
    shutil.copytree(HEURISTIC / "route", folder)
    return folder


def test_judge_prints_each_seeds_score_and_the_totals(route: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["judge", str(route / "solutions" / "nearest.py"), "--problem", str(route), "--seeds", "4"])
    out = capsys.readouterr().out
    assert code == 0
    seed_lines = [line for line in out.splitlines() if line.startswith("seed")]
    assert [int(line.split()[1]) for line in seed_lines] == [0, 1, 2, 3]  # in order, whichever ended first
    assert "4 seeds (smaller is better): total" in out


def test_judge_json_holds_the_scores_and_the_comparison(route: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["judge", str(route / "solutions" / "nearest.py"), "--problem", str(route), "--seeds", "2-5", "--json"]
    code = main([*argv, "--against", str(route / "solutions" / "in_order.py")])
    run = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [s["seed"] for s in run["report"]["seeds"]] == [2, 3, 4, 5]
    assert [s["seed"] for s in run["against"]["seeds"]] == [2, 3, 4, 5]
    assert run["comparison"]["better"] == "a"
    assert run["contest_score"] == sum(s["score"] for s in run["report"]["seeds"])


def test_a_failing_seed_makes_the_exit_code_one(route: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["judge", str(route / "solutions" / "bad.py"), "--problem", str(route), "--seeds", "1"])
    out = capsys.readouterr().out
    assert code == 1 and "WA" in out and "1 seeds failed" in out


def test_seeds_that_name_nothing_are_refused(route: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["judge", str(route / "solutions" / "nearest.py"), "--problem", str(route), "--seeds", "x-y"])
    assert code != 0 and "names no seeds" in capsys.readouterr().err
