"""Fixtures for the LeetCode harness tests: hand-written problems, a local judge, a program runner."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from harness_local_judge import LocalJudge

from cpbot.judge.harness import build_program
from cpbot.judge.model import Signature, Solution, TestCase

PROBLEMS = Path(__file__).parent / "problems"

# The dataset test checks the very run `scripts/perf/harness_dataset.py` prints its figures from (perfkit's).
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "perf"))


@dataclass
class HandProblem:
    """A hand-written problem from problems/<slug>.json."""

    slug: str
    signature: Signature
    statement: str
    tests: list[TestCase]


def load_problem(slug: str) -> HandProblem:
    data = json.loads((PROBLEMS / f"{slug}.json").read_text())
    tests = [
        TestCase(input=t["input"], output=t["output"], name=f"{slug} {i + 1}") for i, t in enumerate(data["tests"])
    ]
    return HandProblem(slug, Signature.model_validate(data["signature"]), data["statement"], tests)


def solution_file(name: str) -> Solution:
    """problems/<name> as a Solution in the language its suffix says (.cpp, or .py3 for Python).

    The Python files use LeetCode's preamble names (List, Counter, ...) without importing them,
    as LeetCode allows, so they are data with their own suffix rather than modules to lint."""
    path = PROBLEMS / name
    return Solution(language="cpp17" if path.suffix == ".cpp" else "python3", source=path.read_text())


@dataclass
class Ran:
    code: int
    stdout: str
    stderr: str


@pytest.fixture(scope="session")
def local_judge() -> LocalJudge:
    return LocalJudge()


@pytest.fixture(scope="session")
def needs_gpp() -> None:
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed")


@pytest.fixture(scope="session")
def run(local_judge: LocalJudge):
    """Build the harness program for (solution, signature), run it once on `stdin`."""

    def _run(solution: Solution, signature: Signature, stdin: str) -> Ran:
        program = build_program(solution, signature)
        command, log = local_judge.prepare(program)
        if command is None:
            return Ran(-1, "", log)
        done = subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=60, check=False)
        return Ran(done.returncode, done.stdout, done.stderr)

    return _run
