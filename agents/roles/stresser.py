"""The stress tester role: an attempt against a trusted brute force on small generated inputs (no model).

It builds the three programs (function problems go through the judge's harness, so the solution and
the brute force read the generator's JSON lines like the judge feeds them), runs `judge.stress` under
a small budget, and returns its report: `found` with the smallest failing input, or `clean`. A brute
force that fails on a generated input cannot be trusted there: that raises `StressError` (no report),
since it says nothing about the attempt either way.
"""

from __future__ import annotations

from collections.abc import Sequence

from cpbot.core.errors import CpbotError
from cpbot.judge.build import build_solution
from cpbot.judge.checkers import Checker
from cpbot.judge.kinds import problem_kind
from cpbot.judge.languages import Program
from cpbot.judge.model import Problem, Solution, StressReport
from cpbot.judge.sandbox import Sandbox, default_sandbox
from cpbot.judge.stress import BruteForceError, stress_ladder, stress_programs
from cpbot.judge.validator import InputGate

ROLE = "stress"


class StressError(CpbotError):
    """Stress testing could not run (a program does not build, or the problem cannot be stressed)."""


def runnable(solution: Solution, problem: Problem) -> Solution:
    """`solution` as a program that reads a test from stdin: function problems get the harness's driver."""
    return problem_kind(problem.kind).runnable(solution, problem)


def checker_of(problem: Problem, sandbox: Sandbox) -> Checker:
    """The checker the judge would use for `problem`."""
    return problem_kind(problem.kind).checker(problem, sandbox)


def stress_attempt(
    solution: Solution,
    brute: Solution,
    generator: Solution,
    problem: Problem,
    *,
    sandbox: Sandbox | None = None,
    max_runs: int = 200,
    max_seconds: float | None = None,
    max_size: int = 8,
    seed: int = 1,
    gate: InputGate | None = None,
    panel: Sequence[Solution] = (),
) -> StressReport:
    """Compare `solution` with `brute` (and the other brute forces of the `panel`: their agreed answer) on
    `max_runs` inputs from `generator` (sizes 1..`max_size`) that pass the `gate`; `max_seconds` is a wall-clock
    safety net only."""
    sandbox = sandbox or default_sandbox()
    sol, brute_program, gen = _programs(solution, brute, generator, problem, sandbox)
    others = _panel(panel, problem, sandbox)
    try:
        return stress_programs(
            sol,
            brute_program,
            gen,
            checker=checker_of(problem, sandbox),
            limits=problem.limits,
            sandbox=sandbox,
            max_runs=max_runs,
            max_seconds=max_seconds,
            max_size=max_size,
            seed=seed,
            gate=gate,
            panel=others,
        )
    except BruteForceError as e:
        raise StressError(f"stress testing is inconclusive: {e.message}", hint=e.hint) from None


def ladder_attempt(
    solution: Solution,
    brute: Solution,
    generator: Solution,
    problem: Problem,
    *,
    sizes: list[int],
    sandbox: Sandbox | None = None,
    seeds_per_size: int = 2,
    brute_ms: int = 2000,
    max_seconds: float | None = None,
    seed: int = 1,
    gate: InputGate | None = None,
    panel: Sequence[Solution] = (),
) -> StressReport:
    """Compare `solution` with `brute` (and the `panel`, as `stress_attempt`) at growing `sizes` while the brute
    forces stay within `brute_ms` of CPU time (`judge.stress`); `max_seconds` is a wall-clock safety net only."""
    sandbox = sandbox or default_sandbox()
    sol, brute_program, gen = _programs(solution, brute, generator, problem, sandbox)
    others = _panel(panel, problem, sandbox)
    return stress_ladder(
        sol,
        brute_program,
        gen,
        checker=checker_of(problem, sandbox),
        limits=problem.limits,
        sandbox=sandbox,
        sizes=sizes,
        seeds_per_size=seeds_per_size,
        brute_ms=brute_ms,
        max_seconds=max_seconds,
        seed=seed,
        gate=gate,
        panel=others,
    )


def _panel(panel: Sequence[Solution], problem: Problem, sandbox: Sandbox) -> list[Program]:
    """The other brute forces of the panel, built."""
    built = []
    for seat, brute in enumerate(panel, start=2):
        build = build_solution(runnable(brute, problem), sandbox)
        if build.program is None:
            raise StressError(f"brute force {seat} does not build: {build.log.strip()[:300]}")
        built.append(build.program)
    return built


def _programs(
    solution: Solution, brute: Solution, generator: Solution, problem: Problem, sandbox: Sandbox
) -> tuple[Program, Program, Program]:
    """The three programs built, for a problem stress testing can judge."""
    kind = problem_kind(problem.kind)
    if not kind.stress_applies:
        raise StressError(f"{problem.id} is {kind.name}: stress testing does not apply ({kind.why_not_stressed})")
    built = []
    for what, source in (
        ("solution", runnable(solution, problem)),
        ("brute force", runnable(brute, problem)),
        ("generator", generator),
    ):
        build = build_solution(source, sandbox)
        if build.program is None:
            raise StressError(f"the {what} does not build: {build.log.strip()[:300]}")
        built.append(build.program)
    return built[0], built[1], built[2]
