"""`cpbot judge FILE` without --tests finds the tests where contestants' tools put them, and says which."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.bot.app.problem_folder import save_problem
from cpbot.bot.cli.main import main
from cpbot.judge.model import Limits, Problem, TestCase

SUM = "a, b = map(int, input().split())\nprint(a + b)\n"
PAIRS = [("1 2\n", "3\n"), ("2 5\n", "7\n")]


def _solution(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "a.py"
    path.write_text(SUM)
    return path


def _problem(samples: list[tuple[str, str]] = PAIRS) -> Problem:
    return Problem(
        id="local:sum",
        site="local",
        title="Sum",
        limits=Limits(time_ms=1234, memory_mb=99),
        samples=[TestCase(input=i, output=o) for i, o in samples],
    )


def _judge(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["judge", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("folder", ["tests", "test"])
def test_a_tests_or_test_folder_beside_the_file_in_oj_names(folder, tmp_path, capsys):
    sol = _solution(tmp_path)
    tests = tmp_path / folder
    tests.mkdir()
    for n, (i, o) in enumerate(PAIRS, start=1):
        (tests / f"sample-{n}.in").write_text(i)
        (tests / f"sample-{n}.out").write_text(o)
    code, out, err = _judge([str(sol)], capsys)
    assert code == 0 and "AC 2/2 checked tests" in out
    assert f"tests from {tests}" in err


def test_the_folder_cpbot_fetch_wrote(tmp_path, capsys):
    folder = tmp_path / "1873B"
    save_problem(_problem(), folder)
    (folder / "tests" / "mine.in").write_text("10 20\n")  # a test the user added beside the samples
    (folder / "tests" / "mine.out").write_text("30\n")
    code, out, err = _judge([str(_solution(folder))], capsys)
    assert code == 0 and "AC 3/3 checked tests" in out and "TL 1234 ms, ML 99 MB" in out
    assert f"limits from {folder / 'problem.json'}" in err


def test_a_problem_json_without_a_tests_folder_gives_its_samples(tmp_path, capsys):
    (tmp_path / "problem.json").write_text(_problem().model_dump_json())
    code, out, err = _judge([str(_solution(tmp_path))], capsys)
    assert code == 0 and "AC 2/2" in out and "the samples of" in err


def test_cf_tool_files_beside_the_file(tmp_path, capsys):
    sol = _solution(tmp_path)
    for n, (i, o) in enumerate([*PAIRS, ("4 4\n", "9\n")], start=1):
        (tmp_path / f"in{n}.txt").write_text(i)
        (tmp_path / f"ans{n}.txt").write_text(o)
    code, out, err = _judge([str(sol)], capsys)
    assert code == 1 and "WA 2/3 checked tests" in out and "in3" in out
    assert "cf-tool" in err


def test_cf_tool_files_through_tests(tmp_path, capsys):
    tests = tmp_path / "cf"
    tests.mkdir()
    (tests / "in1.txt").write_text("1 1\n")
    (tests / "ans1.txt").write_text("2\n")
    code, out, _ = _judge([str(_solution(tmp_path / "src")), "--tests", str(tests)], capsys)
    assert code == 0 and "AC 1/1" in out


def test_problem_takes_a_folder(tmp_path, capsys):
    folder = tmp_path / "fetched"
    save_problem(_problem(), folder)
    code, out, err = _judge([str(_solution(tmp_path / "elsewhere")), "--problem", str(folder)], capsys)
    assert code == 0 and "AC 2/2" in out and "TL 1234 ms" in out and f"limits from {folder / 'problem.json'}" in err


def test_problem_folder_without_problem_json_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    code, _, err = _judge([str(_solution(tmp_path / "src")), "--problem", str(tmp_path / "empty")], capsys)
    assert code == 2 and "has no problem.json" in err and "hint:" in err


def test_tests_given_win_over_what_lies_beside(tmp_path, capsys):
    sol = _solution(tmp_path)
    (tmp_path / "problem.json").write_text(_problem([("1 1\n", "3\n")]).model_dump_json())  # a wrong sample
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "x.in").write_text("1 1\n")
    (mine / "x.out").write_text("2\n")
    code, out, err = _judge([str(sol), "--tests", str(mine)], capsys)
    assert code == 0 and "AC 1/1" in out and f"tests from {mine}" in err
