"""`cpbot` (the default): a fast path, then guarded debugging, then planning with selection and knowledge.

1. Fast path: one program from the statement; accepted on the samples means done.
2. Guarded debugging of that program: each failure goes to the matching debug block
   (`debugger.choose_block`); a fix that breaks a test that passed before is rejected and the previous
   program is kept (AlphaCodium's test anchors).
3. Deep path, `plans` times: the selector proposes algorithm families, knowledge notes are retrieved for
   them, the planner plans (or plans again from the last failure), the static pruner rejects plans that
   cannot meet the limits (they are re-planned without writing code), the coder starts from the STD-IO
   skeleton, and the guarded debugging runs again.

Every accepted fix adds a lesson to the run's `KnowledgePool`, and the pool's lessons are handed to the
coder of later problems of the same run. Not yet here (see the strategy modules of the papers for the
pieces): generated tests, stress testing against a brute force, profiling, and checker routing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.envelopes import CodeAttempt, JudgeFeedback, Plan
from agents.roles import coder, debugger, knowledge, planner, pruner, selector
from agents.roles.knowledge import Note
from agents.roles.stdio import pick_template
from agents.strategies.base import Lesson, SolveContext, accepted, regressions, verdict_line
from judge.model import JudgeReport, Verdict


def _lessons_note(ctx: SolveContext) -> list[Note]:
    text = ctx.knowledge.text()
    if not text:
        return []
    return [
        Note(name="run-lessons", title="Lessons from earlier problems of this run", tags=[], keywords=[], body=text)
    ]


def _symptom(report: JudgeReport) -> str:
    first = report.first_failure
    if first is not None and first.diff is not None:
        return f"{first.verdict}: expected {first.diff.expected!r}, got {first.diff.got!r}"
    return verdict_line(report)


@dataclass
class Cpbot:
    """cpbot's own workflow; `debugs` guarded fixes per program, `plans` planning rounds."""

    debugs: int = 3
    plans: int = 2
    name: str = "cpbot"

    def _debug(
        self, ctx: SolveContext, attempt: CodeAttempt, report: JudgeReport, plan: Plan | None, phase: str
    ) -> tuple[CodeAttempt, JudgeReport]:
        run_failures = 0
        for step in range(1, self.debugs + 1):
            if accepted(report) or report.verdict == Verdict.IE:
                break
            block = debugger.choose_block(report, earlier_failures=run_failures)
            if block is None:
                break
            if block != "wrong_answer":
                run_failures += 1
            ctx.route(f"debug_{block}", phase=phase, step=step, verdict=str(report.verdict))
            candidate = debugger.debug(ctx.model, ctx.problem, attempt, report, plan=plan, block=block)
            candidate, iteration = ctx.code(candidate, sender=debugger.ROLE)
            new = ctx.judge(candidate, iteration, branch=phase)
            broken = regressions(report, new)
            if broken:
                ctx.note("fix rejected", phase=phase, step=step, broke=broken)
                continue
            if accepted(new):
                ctx.knowledge.add(Lesson(problem_id=ctx.problem.id, symptom=_symptom(report), fix=candidate.notes))
            attempt, report = candidate, new
        return attempt, report

    def run(self, ctx: SolveContext) -> str:
        """Fast path, guarded debugging, then planned attempts; see the module's docstring."""
        lessons = _lessons_note(ctx)
        ctx.route("coder", phase="fast")
        attempt = coder.write_code(
            ctx.model, ctx.problem, None, language=ctx.language, use_skeleton=False, knowledge=lessons
        )
        attempt, iteration = ctx.code(attempt, sender=coder.ROLE)
        report = ctx.judge(attempt, iteration, branch="fast")
        if report.verdict == Verdict.IE:
            return f"the judge failed: {report.reason}"
        attempt, report = self._debug(ctx, attempt, report, None, "fast")
        if accepted(report):
            return "accepted on the samples"
        plan: Plan | None = None
        for cycle in range(1, self.plans + 1):
            ctx.route("selector", cycle=cycle)
            tags = selector.select_algorithms(ctx.model, ctx.problem).tags
            notes = [*knowledge.retrieve(ctx.problem, tags), *lessons]
            ctx.route("planner", cycle=cycle, tags=tags)
            if plan is None:
                plan = planner.plan(ctx.model, ctx.problem, language=ctx.language, tags=tags, knowledge=notes)
            else:
                feedback = JudgeFeedback(report=report, summary=f"the last program got {verdict_line(report)}")
                plan = planner.replan(
                    ctx.model, ctx.problem, plan, feedback, language=ctx.language, tags=tags, knowledge=notes
                )
            plan_it = ctx.send(plan, sender=planner.ROLE).header.iteration
            decision = pruner.prune(plan, ctx.problem, language=ctx.language)
            ctx.send(decision.model_copy(update={"plan_iteration": plan_it}), sender=pruner.ROLE)
            if not decision.accepted:
                ctx.route("planner", cycle=cycle, why="pruned")
                plan = planner.replan(
                    ctx.model, ctx.problem, plan, decision, language=ctx.language, tags=tags, knowledge=notes
                )
                plan_it = ctx.send(plan, sender=planner.ROLE).header.iteration
            template = pick_template(ctx.problem, ctx.language) if ctx.problem.kind != "function" else None
            ctx.route("coder", cycle=cycle)
            attempt = coder.write_code(
                ctx.model,
                ctx.problem,
                plan,
                language=ctx.language,
                template=template,
                knowledge=notes,
                plan_iteration=plan_it,
            )
            attempt, iteration = ctx.code(attempt, sender=coder.ROLE)
            report = ctx.judge(attempt, iteration, branch=f"plan {cycle}")
            attempt, report = self._debug(ctx, attempt, report, plan, f"plan {cycle}")
            if accepted(report):
                return f"accepted on the samples (plan {cycle})"
        return f"no program passed the samples after {self.plans} plans ({verdict_line(report)})"


def make(**options: Any) -> Cpbot:
    """The registry's constructor (`debugs=`, `plans=`)."""
    return Cpbot(**options)
