"""The model-free checks of cpbot's gate, in one home: the `cpbot` strategy runs them on a solve's
programs and `cpbot lab` runs them on labelled programs to measure what they let through.

The checks, in the order the strategy runs them once a program passes the samples:
- generated tests: inputs (written by the model, or by a generator in the lab) kept only when they have
  the samples' shape, answered by a brute force that passes the samples (`testgen.check_suite`);
- stress: the program against that brute force on small generated inputs (`stresser.stress_attempt`),
  then at doubling sizes while the brute force stays quick (`stresser.ladder_attempt`);
- profile: the program on generated inputs of growing size, extrapolated to the statement's largest
  size (`analyst.profile_attempt`); the submit gate reads the `ProfileReport`.
`GateParams` holds how hard each check tries; the strategy's options of the same names feed it.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.roles import analyst, testgen
from cpbot.agents.roles.constraints import problem_bounds
from cpbot.agents.roles.stresser import ladder_attempt, stress_attempt
from cpbot.judge.model import Problem, ProfileReport, Solution, StressReport
from cpbot.judge.sandbox import Sandbox
from cpbot.judge.validator import InputGate

LADDER_TOP = 1024  # the ladder's top when the statement gives no size bound
# the profile's largest size runs on this many generated inputs and keeps the slowest: a generator's rarer
# shapes (a long path, a pattern that defeats a heuristic) decide the worst case, not its first input
PROFILE_LARGEST_SEEDS = 8  # a shape one seed in two makes is missed one time in 256 (with 3: one in 8)


class GateParams(BaseModel):
    """How hard each check tries (the `cpbot` strategy's options of the same names).

    Every check is bounded by counts (runs, sizes, seeds) and CPU time, so a busy machine gets the same
    checks as a quiet one, only later; the `*_seconds` are wall-clock safety nets, reported when hit."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tests: int = Field(5, ge=0)  # generated inputs asked for
    stress_rounds: int = Field(3, ge=0)  # stress runs per solve
    stress_runs: int = Field(200, ge=1)  # programs compared per stress run (sizes 1..stress_size, 10 seeds each)
    stress_seconds: float = Field(300.0, gt=0)  # safety net only
    stress_size: int = Field(8, ge=1)  # largest size of the small-input stress
    # inputs asked of the model aimed at the leading program after its first clean stress (agents/roles/aimed.py),
    # with a generator of its slowest input; 0: no such request
    aimed: int = Field(4, ge=0)
    # the size ladder after a clean stress run: sizes doubling from 2 x stress_size to the statement's
    # bound, ladder_seeds inputs each, while the brute force answers within ladder_brute_ms of CPU time;
    # ladder_seconds is a safety net only, and 0 turns the ladder off
    ladder_seconds: float = Field(600.0, ge=0)
    ladder_brute_ms: int = Field(2000, ge=1)
    ladder_seeds: int = Field(2, ge=1)  # inputs per size
    profile: bool = True
    max_n: int | None = None  # profile (and climb the ladder) up to at most this size (default: the statement's bound)
    repeats: int = Field(2, ge=1)
    count: bool = True  # profile by executed instructions where the judge can count them


def generated_suite(
    inputs: Sequence[str],
    problem: Problem,
    *,
    brute: Solution | None,
    generator: Solution | None,
    sandbox: Sandbox | None = None,
) -> testgen.GeneratedSuite:
    """Generated tests from `inputs`, answered by `brute` when it passes the samples; the generator kept
    when it builds, uses N and prints well-shaped inputs."""
    return testgen.check_suite(inputs, problem, brute=brute, generator=generator, sandbox=sandbox)


def stress(
    solution: Solution,
    brute: Solution,
    generator: Solution,
    problem: Problem,
    params: GateParams,
    *,
    seed: int = 1,
    sandbox: Sandbox | None = None,
    gate: InputGate | None = None,
    panel: Sequence[Solution] = (),
) -> StressReport:
    """`solution` against `brute` (with the other brute forces of the `panel`: their agreed answer) on small
    inputs from `generator`, then up the size ladder, on the inputs the `gate` lets through; raises
    `StressError` when it cannot run."""
    small = small_stress(
        solution, brute, generator, problem, params, seed=seed, sandbox=sandbox, gate=gate, panel=panel
    )
    if small.status == "found":
        return small
    large = ladder(solution, brute, generator, problem, params, seed=seed, sandbox=sandbox, gate=gate, panel=panel)
    if large is None:
        return small
    return large.model_copy(
        update={
            "runs": small.runs + large.runs,
            "invalid": small.invalid + large.invalid,
            "seconds": round(small.seconds + large.seconds, 2),
            "contested": small.contested + large.contested,
            "reason": large.reason if large.status == "found" else f"{small.reason}; {large.reason}",
        }
    )


def small_stress(
    solution: Solution,
    brute: Solution,
    generator: Solution,
    problem: Problem,
    params: GateParams,
    *,
    seed: int = 1,
    sandbox: Sandbox | None = None,
    gate: InputGate | None = None,
    panel: Sequence[Solution] = (),
) -> StressReport:
    """The first part of `stress`: `stress_runs` runs at sizes 1..`stress_size` (`stress_seconds`: safety net)."""
    return stress_attempt(
        solution,
        brute,
        generator,
        problem,
        sandbox=sandbox,
        max_runs=params.stress_runs,
        max_seconds=params.stress_seconds,
        max_size=params.stress_size,
        seed=seed,
        gate=gate,
        panel=panel,
    )


def ladder(
    solution: Solution,
    brute: Solution,
    generator: Solution,
    problem: Problem,
    params: GateParams,
    *,
    seed: int = 1,
    sandbox: Sandbox | None = None,
    gate: InputGate | None = None,
    panel: Sequence[Solution] = (),
) -> StressReport | None:
    """The second part of `stress`: the size ladder (None when it is turned off or has no sizes)."""
    sizes = ladder_sizes(problem, params)
    if not params.ladder_seconds or not sizes:
        return None
    return ladder_attempt(
        solution,
        brute,
        generator,
        problem,
        sizes=sizes,
        sandbox=sandbox,
        seeds_per_size=params.ladder_seeds,
        brute_ms=params.ladder_brute_ms,
        max_seconds=params.ladder_seconds,
        seed=seed,
        gate=gate,
        panel=panel,
    )


def ladder_sizes(problem: Problem, params: GateParams) -> list[int]:
    """The size ladder: doubling from twice the small stress's largest size up to the statement's bound
    (`LADDER_TOP` when it gives none), the bound last."""
    top = profile_size(problem, params) or LADDER_TOP
    sizes, n = [], 2 * params.stress_size
    while n < top:
        sizes.append(n)
        n *= 2
    return [*sizes, top] if top > params.stress_size else sizes


def profile_size(problem: Problem, params: GateParams) -> int | None:
    """The largest size to profile at: the statement's largest bound, capped by `params.max_n` (either
    alone when the other is unknown; None when both are)."""
    bound = problem_bounds(problem).max_size()
    if params.max_n and bound:
        return min(params.max_n, bound)
    return params.max_n or bound


def profile(
    solution: Solution,
    generator: Solution,
    problem: Problem,
    params: GateParams,
    *,
    sandbox: Sandbox | None = None,
    gate: InputGate | None = None,
) -> ProfileReport:
    """Profile `solution` on `generator`'s inputs up to `profile_size`; raises a `CpbotError` when it cannot
    (an input the `gate` drops included)."""
    return analyst.profile_attempt(
        CodeAttempt(language=solution.language, source=solution.source),
        generator,
        problem,
        max_n=profile_size(problem, params),
        sandbox=sandbox,
        repeats=params.repeats,
        count=params.count,
        largest_seeds=PROFILE_LARGEST_SEEDS,
        gate=gate,
    )


def profile_accepts(report: ProfileReport) -> bool:
    """Whether the strategy accepts a profile: the analyst finds it efficient (no model asked)."""
    return bool(analyst.analyse(report).verdict.efficient)
