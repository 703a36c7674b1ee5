"""The model-free checks of cpbot's gate, in one home: the `cpbot` strategy runs them on a solve's
programs and `cpbot lab` runs them on labelled programs to measure what they let through.

The checks, in the order the strategy runs them once a program passes the samples:
- generated tests: inputs (written by the model, or by a generator in the lab) kept only when they have
  the samples' shape, answered by a brute force that passes the samples (`testgen.check_suite`);
- stress: the program against that brute force on small generated inputs (`stresser.stress_attempt`);
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
from cpbot.agents.roles.stresser import stress_attempt
from cpbot.judge.model import Problem, ProfileReport, Solution, StressReport
from cpbot.judge.sandbox import Sandbox


class GateParams(BaseModel):
    """How hard each check tries (the `cpbot` strategy's options of the same names)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tests: int = Field(5, ge=0)  # generated inputs asked for
    stress_rounds: int = Field(3, ge=0)  # stress runs per solve
    stress_runs: int = Field(200, ge=1)  # programs compared per stress run
    stress_seconds: float = Field(5.0, gt=0)
    stress_size: int = Field(8, ge=1)  # largest size of the small-input stress
    profile: bool = True
    max_n: int | None = None  # profile up to this size (default: the statement's largest bound)
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
) -> StressReport:
    """`solution` against `brute` on inputs from `generator`; raises `StressError` when it cannot run."""
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
    )


def profile_size(problem: Problem, params: GateParams) -> int | None:
    """The largest size to profile at: `params.max_n`, else the statement's largest bound (None: unknown)."""
    return params.max_n or problem_bounds(problem).max_size()


def profile(
    solution: Solution, generator: Solution, problem: Problem, params: GateParams, *, sandbox: Sandbox | None = None
) -> ProfileReport:
    """Profile `solution` on `generator`'s inputs up to `profile_size`; raises a `CpbotError` when it cannot."""
    return analyst.profile_attempt(
        CodeAttempt(language=solution.language, source=solution.source),
        generator,
        problem,
        max_n=profile_size(problem, params),
        sandbox=sandbox,
        repeats=params.repeats,
        count=params.count,
    )


def profile_accepts(report: ProfileReport) -> bool:
    """Whether the strategy accepts a profile: the analyst finds it efficient (no model asked)."""
    return bool(analyst.analyse(report).verdict.efficient)
