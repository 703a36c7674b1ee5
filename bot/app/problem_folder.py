"""A problem's folder: `problem.json` and `tests/NAME.in|.out`, as `cpbot fetch`, `solve` and `listen`
write it and `cpbot judge --problem`, `solve` and `submit` read it back."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import ValidationError

from cpbot.core.errors import ConfigError, first_problem
from cpbot.core.registry import language_spec
from cpbot.judge.model import Problem
from cpbot.judge.testdir import write_tests_dir

PROBLEM_FILE = "problem.json"
_UNSAFE = re.compile(r"[^\w.-]+")


def problem_dirname(problem: Problem) -> str:
    """A directory name for a problem: its id without the site ("1873B", "two-sum")."""
    name = problem.id.split(":", 1)[-1]
    return _UNSAFE.sub("_", name).strip("._") or "problem"


def save_problem(problem: Problem, directory: Path) -> Path:
    """Write `problem.json` and `tests/sample-N.in|.out` into `directory`; returns the json's path.

    Sample files left by an earlier fetch are replaced; other tests in `tests/` are kept.
    """
    tests = directory / "tests"
    tests.mkdir(parents=True, exist_ok=True)
    for old in list(tests.glob("sample-*.in")) + list(tests.glob("sample-*.out")):
        old.unlink()
    write_tests_dir(problem.samples, tests, default_name="sample")
    path = directory / PROBLEM_FILE
    path.write_text(problem.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return path


def load_problem(path: Path) -> Problem:
    """A cpbot problem file; a ConfigError naming the first thing wrong otherwise."""
    try:
        return Problem.model_validate_json(path.read_bytes())
    except ValidationError as e:
        raise ConfigError(
            f"{path} is not a cpbot problem file: {first_problem(e)}",
            hint="make one with `cpbot fetch URL -o DIR`",
        ) from None


def save_solution(problem: Problem, source: str, language: str, directory: Path) -> Path:
    """The problem's folder with the solution beside it (`solution.cpp`, `solution.py`); returns its path."""
    save_problem(problem, directory)
    path = directory / f"solution{language_spec(language).extension}"
    path.write_text(source, encoding="utf-8")
    return path


def free_dir(directory: Path, force: bool) -> Path:
    """`directory`, or with --force absent the first of DIR-2, DIR-3, ... that does not exist yet."""
    if force or not directory.exists():
        return directory
    n = 2
    while directory.with_name(f"{directory.name}-{n}").exists():
        n += 1
    return directory.with_name(f"{directory.name}-{n}")
