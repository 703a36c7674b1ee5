"""The strategy's side of the input gate: what it does, and traces, when generated inputs meet the validator.

`agents/inputs.py` holds the solve's record (`SolveInputs`) and what the result shows; these helpers open the
gate when the test designer's suite arrives, drop an input the validator rejects (counted, never a test), and
note in the transcript when a stress or a profile rests on no valid input or on a generator that ignores N;
ask, once per solve, for inputs aimed at the leading program (`agents/roles/aimed.py`); and run the stress
and the profile on the generator kinds the designer wrote (exhaustive small inputs first, then random ones
with extremes; the worst-case shapes for the profile), every input through the gate.
"""

from __future__ import annotations

from collections.abc import Sequence

from cpbot.agents import verification
from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.extract import ExtractionError
from cpbot.agents.inputs import growth_issue
from cpbot.agents.llm_failures import LLMError
from cpbot.agents.roles import aimed, testgen
from cpbot.agents.roles.common import RoleError
from cpbot.agents.strategies.base import SolveContext
from cpbot.core.errors import CpbotError
from cpbot.judge.generator import IgnoresN
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import ProfileReport, Solution, StressReport, TestCase


def adopt(ctx: SolveContext, suite: testgen.GeneratedSuite, top: int | None) -> None:
    """Open the solve's gate with the suite's checked validator (or none), count the inputs it dropped, let the
    samples and the kept tests through it (for coverage), and check that the generator's input grows with N
    up to `top`."""
    inputs = ctx.evidence.inputs
    gate = inputs.open(ctx.problem, ctx.sandbox, suite.validator, suite.validator_note)
    inputs.small_generator = inputs.small_generator or suite.small_generator
    inputs.slow_generator = inputs.slow_generator or suite.slow_generator
    inputs.invalid_before += suite.invalid
    for sample in ctx.problem.samples:  # they count towards the bounds reached, as the programs are judged on them
        gate.admit(sample.input.encode(), "sample")
    for test in suite.tests.tests:
        gate.admit(test.input.encode(), "generated")
    ctx.note(
        "inputs validated" if gate.validates else "inputs not validated",
        why=suite.validator_note,
        dropped=suite.invalid,
    )
    if suite.generator is not None and not inputs.generator_ignores_n:
        issue = growth_issue(suite.generator, top, ctx.sandbox)
        if issue:
            inputs.generator_ignores_n = issue
            ctx.note("generator ignores N", why=issue)


def admitted(ctx: SolveContext, data: bytes, origin: str) -> bool:
    """Whether `data` passes the solve's gate (always, before it is open); a dropped input is noted."""
    gate = ctx.evidence.inputs.gate
    if gate is None:
        return True
    why = gate.admit(data, origin)
    if why is not None:
        ctx.note("input dropped", origin=origin, why=why)
    return why is None


def stress_usable(ctx: SolveContext, report: StressReport, phase: str) -> bool:
    """Whether a stress report says anything: False (noted "not stressed") when every input it generated broke
    the constraints; the inputs it dropped are noted either way."""
    if report.invalid:
        ctx.note("stress inputs dropped", phase=phase, count=report.invalid, why="the validator rejects them")
    if report.status == "clean" and report.runs - report.invalid - report.starved <= 0:
        ctx.skip("stress", "every generated input breaks the constraints (the validator rejects them)", phase=phase)
        return False
    return True


def profile_failed(ctx: SolveContext, error: CpbotError) -> None:
    """Record a profile that could not run because the generator ignores N (the `entry` status reads it)."""
    if isinstance(error, IgnoresN) and not ctx.evidence.inputs.generator_ignores_n:
        ctx.evidence.inputs.generator_ignores_n = error.message


def aimed_case(
    ctx: SolveContext,
    tests: list[TestCase],
    attempt: CodeAttempt,
    *,
    brute: Solution | None,
    count: int,
    size: int | None,
) -> TestCase | None:
    """Once per solve: inputs aimed at `attempt` (validated, answered by `brute`, a brute force of the panel that
    kept its vote, or left without answers when there is none; the slow one kept when the program fails on it)
    join the evidence and `tests`; the last is returned for the settling loop to judge with the rest (None when
    there is none, or the request was made already or failed)."""
    inputs = ctx.evidence.inputs
    if not count or inputs.aimed or not problem_kind(ctx.problem.kind).stress_applies:
        return None  # an interactive problem's inputs are its interactor's hidden data, never run by a program alone
    ctx.route("aimed", size=size)
    try:
        draft = aimed.ask(ctx.model, ctx.problem, attempt.solution(), count=count)
    except (ExtractionError, RoleError, LLMError) as e:
        inputs.aimed = f"the aimed request failed: {e.message}"
        ctx.note("aimed inputs", summary=inputs.aimed)
        return None
    result = aimed.check(
        draft,
        ctx.problem,
        attempt.solution(),
        brute=brute,
        gate=inputs.gate,
        size=size,
        sandbox=ctx.sandbox,
    )
    inputs.aimed = result.summary
    ctx.note("aimed inputs", summary=result.summary, dropped=result.dropped)
    if not result.tests:
        return None
    ctx.adopt_tests(result.tests)
    tests.extend(result.tests[:-1])
    return result.tests[-1]


def stress(
    ctx: SolveContext,
    solution: Solution,
    params: verification.GateParams,
    *,
    seed: int,
    panel: Sequence[Solution] = (),
) -> StressReport:
    """`solution` against the brute forces of `panel` (their agreed answer; the solve's brute force when none is
    given): on the small generator's exhaustive inputs first (when there is one), then on the random generator's
    up the size ladder (`verification.stress`); one report for both."""
    evidence = ctx.evidence
    brutes = list(panel) or ([evidence.brute] if evidence.brute is not None else [])
    assert brutes and evidence.generator is not None
    gate, problem, sandbox, brute, others = evidence.inputs.gate, ctx.problem, ctx.sandbox, brutes[0], brutes[1:]
    first = None
    if evidence.inputs.small_generator is not None:
        small = evidence.inputs.small_generator
        first = verification.small_stress(
            solution, brute, small, problem, params, seed=seed, sandbox=sandbox, gate=gate, panel=others
        )
        if first.status == "found":
            return first.model_copy(update={"reason": f"{first.reason} (exhaustive small inputs)"})
    report = verification.stress(
        solution, brute, evidence.generator, problem, params, seed=seed, sandbox=sandbox, gate=gate, panel=others
    )
    if first is None:
        return report
    return report.model_copy(
        update={
            "runs": first.runs + report.runs,
            "invalid": first.invalid + report.invalid,
            "contested": first.contested + report.contested,
            "starved": first.starved + report.starved,
            "seconds": round(first.seconds + report.seconds, 2),
            "reason": report.reason if report.status == "found" else f"exhaustive: {first.reason}; {report.reason}",
        }
    )


def profile(
    ctx: SolveContext, solution: Solution, generator: Solution, params: verification.GateParams
) -> ProfileReport:
    """The profile on `generator`'s inputs (the slow generator's when there is one); when that generator
    cannot serve (it fails, ignores N, breaks the constraints), the random generator's, and the note says so."""
    gate = ctx.evidence.inputs.gate
    try:
        return verification.profile(solution, generator, ctx.problem, params, sandbox=ctx.sandbox, gate=gate)
    except CpbotError as e:
        random = ctx.evidence.generator
        if random is None or generator is random:
            raise
        ctx.note("slow generator not used", why=e.message)
        return verification.profile(solution, random, ctx.problem, params, sandbox=ctx.sandbox, gate=gate)
