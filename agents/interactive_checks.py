"""The gate's checks for an interactive problem judged through its interactor (`agents/answers.py` wrote it):
the inputs are hidden data from the interactor writer's generator, and a program's outcome on one is the
interactor's verdict, since there is no output to compare and no brute force to ask.

- `probes`: hidden data of small and growing sizes, every candidate's common inputs for grouping;
- `observe`: a program judged through the interactor on each probe (`AC`, or the failure: WA, TLE, ...);
- `distinguishing_tests`: the probes where the best group passes and another fails, made tests;
- `stress`: a program judged on up to `stress_runs` generated tests of sizes 1..`stress_size`; the first it
  fails is the counterexample (a test the interactor judges, kept like any stress case).
"""

from __future__ import annotations

from collections.abc import Sequence

from cpbot.agents.selection import Group, Outcome, Probe, differing
from cpbot.agents.verification import GateParams
from cpbot.core.errors import CpbotError
from cpbot.judge.build import build_solution
from cpbot.judge.generator import generate
from cpbot.judge.model import Problem, Solution, StressFailure, StressReport, TestCase, Verdict
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import Sandbox

PROBE_SIZES = (1, 2, 4, 8, 16, 32)
PROBE_SEEDS = (1, 2)
SEEDS_PER_SIZE = 10  # stress: inputs per size, as the stdio stress tries them


def _hidden_data(generator: Solution, plan: Sequence[tuple[int, int]], sandbox: Sandbox) -> list[tuple[int, int, str]]:
    """(size, seed, data) for each planned (size, seed) the generator makes; a size it fails on is skipped."""
    program = build_solution(generator, sandbox).program
    if program is None:
        return []
    made = []
    for size, seed in plan:
        try:
            made.append((size, seed, generate(program, size, seed, sandbox).decode(errors="replace")))
        except CpbotError:
            continue
    return made


def probes(generator: Solution, sandbox: Sandbox) -> list[Probe]:
    """The common inputs candidates are grouped on: hidden data of growing size (no oracle: the interactor is)."""
    plan = [(n, seed) for n in PROBE_SIZES for seed in PROBE_SEEDS]
    return [Probe(input=data, origin="small", size=n) for n, _, data in _hidden_data(generator, plan, sandbox)]


def observe(solution: Solution, problem: Problem, shown: Sequence[Probe], sandbox: Sandbox) -> list[Outcome]:
    """`solution` judged through the problem's interactor on each probe: `AC`, or the failed verdict."""
    tests = [TestCase(input=p.input, origin="generated", name=f"probe-{i + 1}") for i, p in enumerate(shown)]
    report = judge_problem(solution, problem, tests, sandbox=sandbox)
    verdicts = {r.index: r.verdict for r in report.results}
    outcomes = []
    for i in range(1, len(tests) + 1):
        verdict = verdicts.get(i, report.verdict)
        outcomes.append(Outcome(output="AC") if verdict == Verdict.AC else Outcome(failure=str(verdict)))
    return outcomes


def distinguishing_tests(shown: Sequence[Probe], groups: Sequence[Group]) -> list[TestCase]:
    """The probes the best group passes through the interactor where another group does not, as tests: the
    chosen program is judged on them, and the final ranking sees every other candidate fail them."""
    best = groups[0]
    differ = sorted({i for g in groups[1:] for i in differing(best, g)})
    return [
        TestCase(input=shown[i].input, origin="generated", name=f"probe-{i + 1}")
        for i in differ
        if not best.signature[i].startswith("!")
    ]


def stress(
    solution: Solution, problem: Problem, generator: Solution, params: GateParams, *, seed: int, sandbox: Sandbox
) -> StressReport:
    """`solution` through the interactor on generated hidden data of sizes 1..`stress_size`, stopping at the
    first test it fails (the smallest size first)."""
    plan = [(n, seed * 1000 + k) for n in range(1, params.stress_size + 1) for k in range(SEEDS_PER_SIZE)]
    made = _hidden_data(generator, plan[: params.stress_runs], sandbox)
    if not made:
        raise CpbotError("the hidden-data generator made no input")
    tests = [TestCase(input=data, origin="generated", name=f"stress-{n}-{s}") for n, s, data in made]
    report = judge_problem(solution, problem, tests, sandbox=sandbox, stop_on_failure=True)
    first = report.first_failure
    runs = len(report.results)
    if first is None:
        if report.verdict in (Verdict.CE, Verdict.IE):
            raise CpbotError(f"stress through the interactor could not run: {report.reason}")
        return StressReport(status="clean", runs=runs, reason=f"{runs} tests through the interactor, all accepted")
    size, used_seed, data = made[first.index - 1]
    return StressReport(
        status="found",
        runs=runs,
        first_failure_size=size,
        failure=StressFailure(
            size=size,
            seed=used_seed,
            input=data,
            expected="",
            got=first.stdout,
            verdict=first.verdict,
            message=first.checker_message,
        ),
        reason=f"{first.verdict} through the interactor on generated data of size {size}",
    )
