"""`macs`: MACS-Coder's workflow, a fast path and then p planning cycles of d debug attempts each.

1. Fast path: one program from the statement alone; if it passes the samples, stop at once.
2. Deep path, for each of `plans` cycles: a fresh plan (the planner lists candidate methods and picks
   the simplest that fits the limits; the approaches already tried are named so that it does not repeat
   one), a fresh STD-IO skeleton, the program, judged, and debugged up to `debugs` times
   (`fresh_plans=False` re-plans from the last failure instead). The debug
   block follows the paper's routing: the first failure to run goes to the STD-IO block (new programs
   mostly fail on reading input), later failures to run go to the runtime block, and a wrong answer goes
   to the wrong-answer block (`debugger.choose_block`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cpbot.agents.envelopes import JudgeFeedback, Plan
from cpbot.agents.roles import coder, debugger, planner
from cpbot.agents.roles.knowledge import Note
from cpbot.agents.roles.stdio import skeleton_for
from cpbot.agents.strategies.base import SolveContext, verdict_line
from cpbot.judge.model import JudgeReport, Verdict

RUN_FAILURES = (Verdict.RE, Verdict.CE, Verdict.TLE, Verdict.MLE, Verdict.OLE)


def _fails_to_run(report: JudgeReport) -> bool:
    first = report.first_failure
    verdict = first.verdict if first is not None else report.verdict
    return verdict in RUN_FAILURES


@dataclass
class Macs:
    """The MACS workflow with `plans` x `debugs` caps (the paper's 5 x 5 by default)."""

    plans: int = 5
    debugs: int = 5
    fresh_plans: bool = True  # each cycle plans anew (the paper); False: re-plan from the last failure
    name: str = "macs"

    def run(self, ctx: SolveContext) -> str:
        """Fast path, then plan / code / debug cycles until the samples pass or the caps are reached."""
        ctx.route("coder", phase="fast")
        fast = coder.write_code(ctx.model, ctx.problem, None, language=ctx.language, use_skeleton=False)
        fast, iteration = ctx.code(fast, sender=coder.ROLE)
        report = ctx.judge(fast, iteration, branch="fast")
        if report.accepted:
            return "fast path accepted on the samples"
        if report.verdict == Verdict.IE:
            return f"the judge failed: {report.reason}"
        plan: Plan | None = None
        tried: list[str] = []
        for cycle in range(1, self.plans + 1):
            ctx.route("planner", cycle=cycle, fresh=self.fresh_plans or plan is None)
            if plan is None or self.fresh_plans:
                # the paper starts every cycle from a new plan and template; naming the approaches that
                # failed keeps a new plan from being the old one again
                plan = planner.plan(ctx.model, ctx.problem, language=ctx.language, knowledge=_tried_note(tried))
            else:
                feedback = JudgeFeedback(
                    report=report, summary=f"the last program of the plan got {verdict_line(report)}"
                )
                plan = planner.replan(ctx.model, ctx.problem, plan, feedback, language=ctx.language)
            plan_it = ctx.send(plan, sender=planner.ROLE).header.iteration
            template = skeleton_for(ctx.problem, ctx.language)
            ctx.route("coder", cycle=cycle)
            attempt = coder.write_code(
                ctx.model, ctx.problem, plan, language=ctx.language, template=template, plan_iteration=plan_it
            )
            attempt, iteration = ctx.code(attempt, sender=coder.ROLE)
            report = ctx.judge(attempt, iteration, branch=f"plan {cycle}")
            run_failures = 0
            for step in range(1, self.debugs + 1):
                if report.accepted:
                    return f"accepted on the samples (plan {cycle}, debug step {step - 1})"
                if report.verdict == Verdict.IE:
                    return f"the judge failed: {report.reason}"
                block = debugger.choose_block(report, earlier_failures=run_failures)
                if block is None:
                    break
                if _fails_to_run(report):
                    run_failures += 1
                ctx.route(f"debug_{block}", cycle=cycle, step=step, verdict=str(report.verdict))
                attempt = debugger.debug(ctx.model, ctx.problem, attempt, report, plan=plan, block=block)
                attempt, iteration = ctx.code(attempt, sender=debugger.ROLE)
                report = ctx.judge(attempt, iteration, branch=f"plan {cycle}")
            if report.accepted:
                return f"accepted on the samples (plan {cycle}, debug step {self.debugs})"
            tried.append(f"{plan.algorithm} (its program ended with {verdict_line(report)})")
        return f"no program passed the samples after {self.plans} plans x {self.debugs} debug steps"


def _tried_note(tried: list[str]) -> list[Note]:
    if not tried:
        return []
    body = "\n".join(f"- {item}" for item in tried)
    return [Note(name="tried", title="Approaches already tried that did not pass", tags=[], keywords=[], body=body)]


def make(**options: Any) -> Macs:
    """The registry's constructor (`plans=`, `debugs=`, `fresh_plans=`)."""
    return Macs(**options)
