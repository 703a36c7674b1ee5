"""Going on past an unusable role reply: the selector, planner and checker each have a stand-in answer.

A reply that cannot be read should not end a solve that can still go on. Each helper asks the role and,
when it raises `RoleError`, traces a note saying the reply was unusable and returns the stand-in. Model
failures (`LLMError`, budget) are not caught: `agents.solve` returns the best attempt so far for those.
"""

from __future__ import annotations

from collections.abc import Sequence

from cpbot.agents.envelopes import CheckerDecision, CodeAttempt, Payload, Plan
from cpbot.agents.roles import checker, planner, selector
from cpbot.agents.roles.common import RoleError
from cpbot.agents.roles.knowledge import Note
from cpbot.agents.strategies.base import SolveContext
from cpbot.judge.model import JudgeReport, TestCase, Verdict


def select(ctx: SolveContext, *, max_branches: int = 3) -> selector.Selection:
    """The selector's branches, or the fallback branch (traced) when its reply is unusable."""
    selection, error = selector.select_or_fall_back(ctx.model, ctx.problem, max_branches=max_branches)
    if error is not None:
        ctx.note("selector reply unusable", error=error, fallback=selection.tags)
    return selection


def plan(ctx: SolveContext, *, tags: Sequence[str], knowledge: Sequence[Note]) -> Plan:
    """`planner.plan`, or a plan from the statement and `tags` (traced) when the reply holds none."""
    try:
        return planner.plan(ctx.model, ctx.problem, language=ctx.language, tags=tags, knowledge=knowledge)
    except RoleError as e:
        return _stand_in(ctx, e, tags)


def replan(
    ctx: SolveContext,
    previous: Plan,
    feedback: str | Payload | Sequence[str | Payload],
    *,
    tags: Sequence[str],
    knowledge: Sequence[Note],
) -> Plan:
    """`planner.replan`, or a plan from the statement and `tags` (traced) when the reply holds none."""
    try:
        return planner.replan(
            ctx.model, ctx.problem, previous, feedback, language=ctx.language, tags=tags, knowledge=knowledge
        )
    except RoleError as e:
        return _stand_in(ctx, e, tags)


def check(
    ctx: SolveContext,
    attempt: CodeAttempt,
    report: JudgeReport,
    *,
    plan: Plan | None,
    tests: Sequence[TestCase],
    trust_passing: bool = True,
) -> CheckerDecision:
    """`checker.check`, or FIX (traced) when the reply holds no decision: the attempt fails, so fixing it
    is the safe next step (PASS for an attempt that passes every test: nothing says otherwise).
    `trust_passing=False` asks the checker about a passing attempt too (hidden-test and time risks)."""
    try:
        return checker.check(
            ctx.model, ctx.problem, attempt, report, plan=plan, tests=tests, trust_passing=trust_passing
        )
    except RoleError as e:
        if report.accepted:
            ctx.note("checker reply unusable", error=e.message, fallback="PASS")
            return CheckerDecision(decision="PASS", reason=f"every test passes; no readable review ({e.message})")
        ctx.note("checker reply unusable", error=e.message, fallback="FIX")
        return CheckerDecision(
            decision="FIX",
            reason=f"no readable decision ({e.message}); fixing",
            failing_tests=[r.index for r in report.results if r.verdict != Verdict.AC],
        )


def _stand_in(ctx: SolveContext, error: RoleError, tags: Sequence[str]) -> Plan:
    stand_in = planner.fallback_plan(ctx.problem, tags)
    ctx.note("planner reply unusable", error=error.message, fallback=stand_in.algorithm)
    return stand_in
