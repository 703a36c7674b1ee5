"""Syntax-checking many Python programs ahead (`precheck_solutions`, as `cpbot grade` does): a few sandbox
runs for all of them, after which building each costs no run, and the build's outcome is unchanged."""

from __future__ import annotations

import uuid

import pytest

from cpbot.judge.build import build_solution, precheck_solutions
from cpbot.judge.languages.python import default_warm_python
from cpbot.judge.model import Solution
from cpbot.judge.sandbox import Sandbox

pytestmark = pytest.mark.skipif(default_warm_python() is None, reason="no CPython interpreter the sandbox can run")


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox(2, warm_python=default_warm_python()) as sb:
        yield sb


def fresh(source: str) -> str:
    """A source no earlier test has checked (the language remembers what it checked)."""
    return f"# {uuid.uuid4().hex}\n{source}"


def test_prechecked_programs_build_without_a_run_of_their_own(sandbox, slot_runs):
    good = [fresh(f"print({i} + int(input()))\n") for i in range(5)]
    precheck_solutions([Solution(language="python3", source=s) for s in good], sandbox)
    assert len(slot_runs) == 1
    builds = [build_solution(Solution(language="python3", source=s), sandbox) for s in good]
    assert len(slot_runs) == 1
    assert all(b.program is not None and b.cached and b.log == "" for b in builds)


def test_programs_the_precheck_does_not_clear_are_checked_as_before(sandbox, slot_runs):
    broken = fresh("print(1\n")
    warns = fresh("x = '\\d'\nprint(x)\n")  # an invalid escape: a warning, hidden or shown by version
    precheck_solutions([Solution(language="python3", source=s) for s in (broken, warns)], sandbox)
    assert len(slot_runs) == 1
    after = [build_solution(Solution(language="python3", source=s), sandbox) for s in (broken, warns)]
    assert len(slot_runs) == 3  # each checked on its own, as without the precheck
    assert after[0].program is None and "SyntaxError" in after[0].log
    assert after[1].program is not None and not after[1].cached
    # the same build, log included, as a program never prechecked
    again = build_solution(Solution(language="python3", source=fresh("print(1\n")), sandbox)
    assert again.program is None and again.log == after[0].log
