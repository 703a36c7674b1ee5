"""`swiftsolve`: SwiftSolve's efficiency loop, planner -> static pruner -> coder -> profiler -> analyst.

1. The planner plans; the static pruner checks the plan's claimed complexity against the limits and a
   rejected plan goes back to the planner (at most `prunes` times) before any code is written.
2. The coder writes the program; it must pass the samples first (a failure goes back to the coder with
   the judge's feedback, which uses up an attempt).
3. The profiler runs it over a schedule of input sizes made by an input generator (`generator=`, or
   the one the test generator writes and validates), and the complexity analyst fits the growth.
4. Efficient ends the solve. Otherwise the analyst's patch goes to the coder (the code is slower than
   its plan, or only the constant factor is too big) or to the planner (the algorithm is too slow),
   unless the last change gained less than `threshold` of the predicted time (diminishing returns).
At most `attempts` programs are written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cpbot.agents.envelopes import CodeAttempt, JudgeFeedback, Plan
from cpbot.agents.roles import analyst, coder, planner, pruner, testgen
from cpbot.agents.strategies.base import SolveContext, verdict_line
from cpbot.judge.model import ProfileReport, Solution, Verdict


@dataclass
class SwiftSolve:
    """The SwiftSolve loop; `max_n`/`repeats` shape the profile, `threshold` is the diminishing-returns cut."""

    attempts: int = 3
    prunes: int = 2
    threshold: float = analyst.DIMINISHING
    generator: Solution | None = None
    max_n: int | None = None
    repeats: int = 3
    count: bool = True  # profile by executed instructions where the judge can count them
    name: str = "swiftsolve"

    def _plan(self, ctx: SolveContext, plan: Plan | None, feedback: Any) -> tuple[Plan, int]:
        """A plan the pruner accepts (or the last one when the pruner keeps rejecting), with its iteration."""
        ctx.route("planner", why="start" if plan is None else "patch")
        if plan is None:
            plan = planner.plan(ctx.model, ctx.problem, language=ctx.language)
        else:
            plan = planner.replan(ctx.model, ctx.problem, plan, feedback, language=ctx.language)
        plan_it = ctx.send(plan, sender=planner.ROLE).header.iteration
        for retry in range(1, self.prunes + 1):
            ctx.route("pruner")
            decision = pruner.prune(plan, ctx.problem, language=ctx.language)
            ctx.send(decision.model_copy(update={"plan_iteration": plan_it}), sender=pruner.ROLE)
            if decision.accepted:
                break
            ctx.route("planner", why="pruned", retry=retry)
            plan = planner.replan(ctx.model, ctx.problem, plan, decision, language=ctx.language)
            plan_it = ctx.send(plan, sender=planner.ROLE).header.iteration
        return plan, plan_it

    def _generator(self, ctx: SolveContext) -> Solution | None:
        if self.generator is None:
            ctx.route("testgen", why="input generator for the profiler")
            suite = testgen.generate_tests(ctx.model, ctx.problem, sandbox=ctx.sandbox)
            ctx.send(suite.tests, sender=testgen.ROLE)
            ctx.adopt_tests(suite.tests.tests, generator=suite.generator, brute=suite.brute)
            if suite.dropped:
                ctx.note("generated tests dropped", reasons=suite.dropped)
            self.generator = suite.generator
        return self.generator

    def run(self, ctx: SolveContext) -> str:
        """Plan, prune, code, profile and analyse; see the module's docstring."""
        plan, plan_it = self._plan(ctx, None, None)
        change: Any = None  # what the coder must change in `attempt`, or None for a fresh program
        attempt: CodeAttempt | None = None
        previous: ProfileReport | None = None
        for number in range(1, self.attempts + 1):
            ctx.route("coder", attempt=number)
            if attempt is None or change is None:
                attempt = coder.write_code(
                    ctx.model, ctx.problem, plan, language=ctx.language, use_skeleton=False, plan_iteration=plan_it
                )
            else:
                attempt = coder.revise_code(ctx.model, ctx.problem, attempt, change, plan=plan, plan_iteration=plan_it)
            attempt, code_it = ctx.code(attempt, sender=coder.ROLE)
            report = ctx.judge(attempt, code_it, branch=f"attempt {number}")
            if report.verdict == Verdict.IE:
                return f"the judge failed: {report.reason}"
            if not report.accepted:
                change = JudgeFeedback(report=report, code_iteration=code_it, summary=verdict_line(report))
                continue
            generator = self._generator(ctx)
            if generator is None:
                return "accepted on the samples; not profiled (no usable input generator)"
            ctx.route("profiler", attempt=number)
            profile = analyst.profile_attempt(
                attempt,
                generator,
                ctx.problem,
                max_n=self.max_n,
                sandbox=ctx.sandbox,
                repeats=self.repeats,
                count=self.count,
            )
            ctx.record_profile(attempt, profile, code_it)
            ctx.route("analyst", attempt=number)
            analysis = analyst.analyse(
                profile, plan=plan, attempt=attempt, previous=previous, model=ctx.model, code_iteration=code_it
            )
            ctx.send(analysis.verdict, sender=analyst.ROLE)
            previous = profile
            if analysis.verdict.efficient or analysis.patch is None:
                return f"accepted and efficient at attempt {number}: {profile.reason}"
            if analyst.diminishing(analysis, self.threshold):
                gain = analysis.verdict.perf_gain
                return f"stopped at attempt {number}: the last change gained {gain:.0%} (< {self.threshold:.0%})"
            if number == self.attempts:
                break
            patch = ctx.send(analysis.patch, sender=analyst.ROLE).payload
            ctx.route(analysis.patch.target, why="analyst patch")
            if analysis.patch.target == "planner":
                plan, plan_it = self._plan(ctx, plan, patch)
                change = None
            else:
                change = patch
        return f"no efficient program after {self.attempts} attempts"


def make(**options: Any) -> SwiftSolve:
    """The registry's constructor (`attempts=`, `prunes=`, `threshold=`, `generator=`, `max_n=`, `repeats=`,
    `count=`)."""
    return SwiftSolve(**options)
