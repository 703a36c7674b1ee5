"""Dataset layouts and case counting, without a model."""

from __future__ import annotations

import pytest

from cpbot.bot.app.problem_folder import save_problem
from cpbot.bot.bench.cases import passed_cases, split_cases
from cpbot.bot.bench.datasets import open_dataset
from cpbot.core.errors import ConfigError
from cpbot.judge.model import Problem, TestCase


def test_cpbot_layout_shows_the_samples_and_hides_the_other_tests(tmp_path):
    problem = Problem(id="local:sum", title="Sum", samples=[TestCase(input="1 2\n", output="3\n")])
    save_problem(problem, tmp_path / "sum")
    (tmp_path / "sum" / "tests" / "big-1.in").write_text("10 20\n")
    (tmp_path / "sum" / "tests" / "big-1.out").write_text("30\n")
    dataset = open_dataset(str(tmp_path))
    assert dataset.kind == "dir" and dataset.problem_keys() == ["sum"]
    item = dataset.load("sum")
    assert [t.input for t in item.problem.samples] == ["1 2\n"]
    assert [(t.input, t.output) for t in item.hidden] == [("10 20\n", "30\n")]
    assert item.case_counts == [1] and item.case_format == "whole"


def test_a_problem_without_hidden_tests_is_refused(tmp_path):
    save_problem(Problem(id="local:x", samples=[TestCase(input="1\n", output="1\n")]), tmp_path / "x")
    with pytest.raises(ConfigError, match="no hidden tests"):
        open_dataset(str(tmp_path)).load("x")


def test_cases_are_counted_one_by_one_by_the_checker_rule():
    answer = b"Case #1: 3\nCase #2: 0.5\nCase #3: IMPOSSIBLE\n"
    assert split_cases(answer) == {1: [b"3"], 2: [b"0.5"], 3: [b"IMPOSSIBLE"]}
    output = b"Case #1: 3\nCase #2: 0.5000001\nCase #3: 7\n"
    assert passed_cases(output, answer, "tokens") == 1
    assert passed_cases(output, answer, "float:1e-6") == 2
    # a missing or repeated case is not counted twice
    assert passed_cases(b"Case #1: 3\nCase #1: 3\n", answer, "tokens") == 1


def test_a_kickstart_problem_naming_a_file_outside_its_folder_is_refused(tmp_path):
    import json

    from cpbot.bot.bench.datasets import kickstart_problem

    secret = tmp_path / "secret.txt"
    secret.write_text("not a test\n")
    folder = tmp_path / "2020_round_x_escape"
    folder.mkdir()
    (folder / "statement.md").write_text("Add.")
    meta = {
        "id": "kickstart:escape",
        "title": "Escape",
        "time_limit_ms": 1000,
        "memory_limit_mb": 256,
        "checker": "tokens",
        "samples": [{"input": "1\n", "output": "Case #1: 1\n"}],
        "hidden": [{"set": 1, "input_file": "../secret.txt", "output_file": "../secret.txt"}],
    }
    (folder / "problem.json").write_text(json.dumps(meta))
    with pytest.raises(ConfigError, match=r"\.\./secret\.txt is not a name inside"):
        kickstart_problem(folder)
