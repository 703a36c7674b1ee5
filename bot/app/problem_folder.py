"""A problem's folder: `problem.json` and `tests/NAME.in|.out`, as `cpbot fetch`, `solve` and `listen`
write it and `cpbot judge --problem`, `solve` and `submit` read it back.

A folder that exists is never changed behind the user's back: the commands write beside it (DIR-2, ...)
unless --force (`free_dir`, `place`)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from pydantic import ValidationError

from cpbot.core.errors import ConfigError, first_problem
from cpbot.core.registry import LOCAL_SITE, language_spec
from cpbot.judge.model import NEWER_SCHEMA, Problem
from cpbot.judge.testdir import write_tests_dir
from cpbot.judge.tool_paths import tools_in

PROBLEM_FILE = "problem.json"
_UNSAFE = re.compile(r"[^\w.-]+")


def problem_dirname(problem: Problem) -> str:
    """A directory name for a problem: its id without the site ("1873B", "two-sum")."""
    name = problem.id.split(":", 1)[-1]
    return _UNSAFE.sub("_", name).strip("._") or "problem"


def _sample_files(problem: Problem) -> dict[str, bytes]:
    files = {}
    for i, test in enumerate(problem.samples, start=1):
        name = test.name or f"sample-{i}"
        files[f"tests/{name}.in"] = test.input.encode("utf-8", "surrogateescape")
        if test.output is not None:
            files[f"tests/{name}.out"] = test.output.encode("utf-8", "surrogateescape")
    return files


def _problem_text(problem: Problem) -> bytes:
    return (problem.model_dump_json(indent=2) + "\n").encode()


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
    path.write_bytes(_problem_text(problem))
    return path


def changed_files(problem: Problem, directory: Path, extra: dict[str, bytes] | None = None) -> list[str]:
    """The files of `directory` that writing the problem there (and `extra`, name -> content) would change
    or remove: existing files with other content, and earlier samples that would be replaced."""
    files = {PROBLEM_FILE: _problem_text(problem), **_sample_files(problem), **(extra or {})}
    changed = [
        name for name, data in files.items() if (directory / name).is_file() and (directory / name).read_bytes() != data
    ]
    tests = directory / "tests"
    if tests.is_dir():
        old = sorted(p for p in tests.iterdir() if p.name.startswith("sample-") and p.suffix in (".in", ".out"))
        changed += [f"tests/{p.name}" for p in old if f"tests/{p.name}" not in files]
    return changed


def place(
    problem: Problem, directory: Path, *, force: bool, extra: dict[str, bytes] | None = None
) -> tuple[Path, list[str]]:
    """Where to write the problem (and `extra`) so that nothing of the user's is lost: `directory` itself
    when writing there changes no file (or with `force`), else beside it as `listen` does (DIR-2, ...).
    Returns the folder and the files of `directory` that were kept from being changed."""
    changed = [] if force else changed_files(problem, directory, extra)
    return (free_dir(directory, False) if changed else directory), changed


def is_problem_file(path: Path, data: bytes) -> bool:
    """Whether a file is a cpbot problem file (written by `fetch`, or by hand: samples, maybe limits)
    rather than a site's page or answer, or a Competitive Companion JSON (which has `tests`)."""
    if path.suffix != ".json":
        return False
    try:
        value = json.loads(data)
    except ValueError:
        return False
    return isinstance(value, dict) and "samples" in value and "tests" not in value


def load_problem(path: Path) -> Problem:
    """A cpbot problem file; a ConfigError naming the first thing wrong otherwise. A file written by
    hand (its samples, maybe limits) needs no id: it is `local:` and a hash of the file."""
    data = path.read_bytes()
    try:
        value = json.loads(data)
        if isinstance(value, dict) and "id" not in value and "samples" in value:
            value["id"] = f"{LOCAL_SITE}:{hashlib.sha256(data).hexdigest()[:12]}"
        problem = Problem.model_validate(value)
    except ValidationError as e:
        if e.errors()[0]["type"] == NEWER_SCHEMA:
            raise ConfigError(
                f"{path} was {first_problem(e)}", hint="upgrade cpbot (pip install -U cpbot), or fetch it again"
            ) from None
        raise ConfigError(
            f"{path} is not a cpbot problem file: {first_problem(e)}",
            hint="make one with `cpbot fetch URL -o DIR`",
        ) from None
    except ValueError as e:  # not JSON at all
        raise ConfigError(f"{path} is not JSON: {e}", hint="make one with `cpbot fetch URL -o DIR`") from None
    # a score-based problem's tools are named relative to its folder: absolute from here on
    return tools_in(problem, path.parent)


def solution_name(language: str) -> str:
    """The solution's file name in a problem's folder: `solution.cpp`, `solution.py`."""
    return f"solution{language_spec(language).extension}"


def save_solution(problem: Problem, source: str, language: str, directory: Path) -> Path:
    """The problem's folder with the solution beside it (`solution.cpp`, `solution.py`); returns its path."""
    save_problem(problem, directory)
    path = directory / solution_name(language)
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
