"""A problem package as the `Problem` a solve or the lab works on: its title, statement, samples, limits and
checker."""

from __future__ import annotations

from cpbot.judge.model import Limits, Problem, TestCase
from cpbot.judge.packages.model import ProblemPackage

DEFAULT_TIME_S = 2.0  # a package that sets its limit from its runs (Kattis) states none


def package_problem(package: ProblemPackage, time_s: float | None = None) -> Problem:
    """The package's problem; `time_s` is the time limit when the caller measured one (`cpbot verify` does, from
    the accepted submissions), else the one the package states, else `DEFAULT_TIME_S`."""
    samples = [
        TestCase(
            input=t.input.read_text(encoding="utf-8", errors="replace"),
            output=t.answer.read_text(encoding="utf-8", errors="replace"),
            name=t.name,
        )
        for t in package.tests
        if t.sample and t.answer is not None
    ]
    seconds = time_s or package.time.fixed_s or DEFAULT_TIME_S
    return Problem(
        id=f"package:{package.root.name}",
        title=package.name,
        statement=package.statement,
        limits=Limits(time_ms=round(seconds * 1000), memory_mb=package.memory_mb),
        samples=samples,
        checker=package.output_checker,
    )
