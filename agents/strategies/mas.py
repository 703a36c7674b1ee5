"""`mas`: MAS-Algorithm's workflow, a selector / knowledge / reasoner / implementer loop steered by a checker.

1. Sample extraction: the samples parsed deterministically from the statement are the tests.
2. The selector proposes several branches (sets of algorithm tags), best first; the first is tried.
3. Knowledge notes are retrieved for the branch; the reasoner plans with them.
4. The implementer writes the program; the judge runs it on the samples.
5. The checker emits PASS, FIX or RETHINK, for passing programs too (`review`: it goes through its list of
   hidden-test and time-limit risks): PASS ends the solve; FIX sends its diagnosis back to the
   implementer, which revises the program under the same plan; RETHINK sends it back to the reasoner,
   which plans again, on the next branch of the selection when there is one (new knowledge with it).
Every judged program counts as one iteration; `iterations` caps them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cpbot.agents.envelopes import CheckerDecision, CodeAttempt, Plan
from cpbot.agents.roles import checker, coder, knowledge, planner, selector
from cpbot.agents.roles.knowledge import Note
from cpbot.agents.strategies import fallbacks
from cpbot.agents.strategies.base import SolveContext, verdict_line
from cpbot.judge.model import JudgeReport, Verdict


@dataclass
class _Branch:
    """The branch being tried: its index in the selection, its tags and its knowledge."""

    index: int
    tags: list[str]
    notes: list[Note]


@dataclass
class Mas:
    """The MAS-Algorithm loop with an `iterations` cap on judged programs."""

    iterations: int = 5
    review: bool = True  # the checker also reviews programs that pass the samples (the paper)
    name: str = "mas"

    def _branch(self, ctx: SolveContext, selection: selector.Selection, index: int) -> _Branch:
        options = selection.branches
        tags = list(options[index % len(options)].tags) if options else []
        ctx.route("knowledge", branch=index + 1, tags=tags)
        return _Branch(index=index, tags=tags, notes=knowledge.retrieve(ctx.problem, tags))

    def _implement(
        self, ctx: SolveContext, plan: Plan, plan_it: int, fix: tuple[CodeAttempt, CheckerDecision] | None
    ) -> tuple[CodeAttempt, int]:
        if fix is None:
            attempt = coder.write_code(
                ctx.model, ctx.problem, plan, language=ctx.language, use_skeleton=False, plan_iteration=plan_it
            )
        else:
            previous, decision = fix
            attempt = coder.revise_code(ctx.model, ctx.problem, previous, decision, plan=plan, plan_iteration=plan_it)
        return ctx.code(attempt, sender=coder.ROLE)

    def run(self, ctx: SolveContext) -> str:
        """Select, retrieve, reason, implement, judge and check until PASS or the cap; see the module."""
        samples = list(ctx.problem.samples)
        ctx.note("samples extracted", count=len(samples))
        ctx.route("selector")
        selection = fallbacks.select(ctx)
        branch = self._branch(ctx, selection, 0)
        ctx.route("reasoner", branch=1)
        plan = fallbacks.plan(ctx, tags=branch.tags, knowledge=branch.notes)
        plan_it = ctx.send(plan, sender=planner.ROLE).header.iteration
        fix: tuple[CodeAttempt, CheckerDecision] | None = None
        report: JudgeReport | None = None
        for iteration in range(1, self.iterations + 1):
            ctx.route("implementer", iteration=iteration, revise=fix is not None)
            attempt, code_it = self._implement(ctx, plan, plan_it, fix)
            report = ctx.judge(attempt, code_it, samples, branch=f"branch {branch.index + 1}")
            if report.verdict == Verdict.IE:
                return f"the judge failed: {report.reason}"
            ctx.route("checker", iteration=iteration)
            # the paper's checker reviews passing programs too, for hidden-test and time-limit risks
            decision = fallbacks.check(ctx, attempt, report, plan=plan, tests=samples, trust_passing=not self.review)
            ctx.send(decision, sender=checker.ROLE)
            if decision.decision == "PASS":
                return f"the checker passed iteration {iteration} ({verdict_line(report)})"
            if decision.decision == "FIX":
                fix = (attempt, decision)
                continue
            fix = None
            if iteration == self.iterations:
                break
            branch = self._branch(ctx, selection, branch.index + 1)
            ctx.route("reasoner", branch=branch.index + 1, why="rethink")
            plan = fallbacks.replan(ctx, plan, decision, tags=branch.tags, knowledge=branch.notes)
            plan_it = ctx.send(plan, sender=planner.ROLE).header.iteration
        last = verdict_line(report) if report is not None else "nothing judged"
        return f"no PASS after {self.iterations} iterations ({last})"


def make(**options: Any) -> Mas:
    """The registry's constructor (`iterations=`, `review=`)."""
    return Mas(**options)
