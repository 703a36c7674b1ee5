"""`blockchain`: BlockChain Coder, a planner, an optimizer and a tracing debugger over chains of code blocks.

Two approaches, each with its own planner and optimizer (`approach="question"`, `"unit_test"`, or
`"both"`: the question-based one first, which the paper found better at pass@1, then the unit-test one):

- Unit-test approach: the planner works from one sample at a time (at most `samples` of them): it
  reflects on the statement, walks the sample through by hand, plans one block per step and writes each
  block with a unit test from that walk-through. Every plan is judged on all samples; the one that
  passes most is kept (the first that passes all ends the search). The optimizer then goes over the
  blocks, one change per round (`optimize_rounds`), until it says no block is worth changing; a changed
  block is kept only if the block's unit test still passes (a block without a test must keep every
  sample that passed).
- Question-based approach: the planner writes keywords, hints and insights, restates the task, plans and
  writes the blocks. The optimizer, behind its `OPTIMIZE: yes|no` state token, may simplify the whole
  chain; the simpler chain is kept unless it breaks a sample that passed.
- Both approaches then judge the program on the samples; while it fails, the debugger (at most `debugs`
  rounds, 3 in the paper) has the program instrumented with trace lines, runs it on the first failing
  sample, reads the traces from the last block back to the first, corrects the plan and rewrites the
  blocks. Every round leaves a lesson in the run's knowledge pool (what was tried and whether it
  helped), and every round's prompt carries the pool, so later rounds and later problems of the run do
  not repeat a fix that did not help.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.roles import blockchain, debugger
from cpbot.agents.roles.blocks import BlockChain, run_unit_test
from cpbot.agents.roles.common import case_for, fenced
from cpbot.agents.roles.optimizer import keep_if_passing
from cpbot.agents.roles.stdio import skeleton_for
from cpbot.agents.strategies.base import Lesson, SolveContext, regressions, verdict_line
from cpbot.agents.tracing import ReportEvent
from cpbot.judge.model import JudgeReport, Problem, Solution, TestCase, Verdict

Approach = Literal["question", "unit_test"]


@dataclass
class _State:
    """The current chain, its program's code iteration and its report on the samples."""

    chain: BlockChain
    iteration: int
    report: JudgeReport


def _symptom(report: JudgeReport, test: TestCase | None) -> str:
    first = report.first_failure
    where = f"on input {test.input.strip()[:60]!r}" if test is not None else ""
    if first is not None and first.diff is not None:
        return f"{first.verdict} {where}: expected {first.diff.expected!r}, got {first.diff.got!r}".replace("  ", " ")
    return f"{verdict_line(report)} {where}".strip()


@dataclass
class BlockChainCoder:
    """The BlockChain Coder workflow; see the module's docstring for the options."""

    approach: Literal["question", "unit_test", "both"] = "both"
    samples: int = 3
    optimize_rounds: int = 3
    debugs: int = 3
    name: str = "blockchain"

    def _submit(
        self, ctx: SolveContext, chain: BlockChain, sender: str, branch: str, *, preferred: bool = False
    ) -> _State:
        attempt, iteration = ctx.code(chain.attempt(notes=branch), sender=sender)
        report = ctx.judge(attempt, iteration, branch=branch)
        if preferred:  # the optimizer's version, when it passes as much, is the one to return
            ctx.offer(attempt, iteration, report, branch=branch, wins_ties=True)
        return _State(chain, iteration, report)

    # ---- unit-test approach ---------------------------------------------------------------------

    def _unit_test(self, ctx: SolveContext) -> _State:
        best: _State | None = None
        for index in range(1, max(1, min(self.samples, len(ctx.problem.samples))) + 1):
            ctx.route("planner", approach="unit_test", sample=index)
            chain = blockchain.plan_from_example(ctx.model, ctx.problem, index, language=ctx.language)
            if chain.notes:
                ctx.note("chain read", notes=chain.notes)
            state = self._submit(ctx, chain, blockchain.PLANNER, f"unit_test sample {index}")
            if best is None or state.report.passed > best.report.passed:
                best = state
            if state.report.accepted or state.report.verdict == Verdict.IE:
                break
        assert best is not None  # the loop runs at least once
        return self._optimize_blocks(ctx, best)

    def _optimize_blocks(self, ctx: SolveContext, state: _State) -> _State:
        tried: list[str] = []
        changed = False
        chain = state.chain
        for round_ in range(1, self.optimize_rounds + 1):
            ctx.route("optimizer", approach="unit_test", round=round_)
            block = blockchain.propose_block_change(ctx.model, ctx.problem, chain, tried=tried)
            if block is None:
                ctx.note("optimizer stops", round=round_)
                break
            tried.append(block.name)
            candidate = chain.replace(block.name, block.source)
            kept, reason = self._keep(ctx, chain, candidate, block.name, state)
            ctx.note("optimizer change kept" if kept else "optimizer change dropped", block=block.name, reason=reason)
            if kept:
                chain, changed = candidate, True
        if not changed:
            return state
        return self._submit(ctx, chain, blockchain.OPTIMIZER, "unit_test optimized", preferred=True)

    def _keep(
        self, ctx: SolveContext, chain: BlockChain, candidate: BlockChain, name: str, state: _State
    ) -> tuple[bool, str]:
        """Whether a changed block stays: its unit test must pass; without one, no sample may break."""
        original_test = chain.test_program(name, ctx.problem.kind)
        candidate_test = candidate.test_program(name, ctx.problem.kind)
        if original_test is None or candidate_test is None:
            attempt, iteration = ctx.code(candidate.attempt(notes=f"block {name} changed"), sender=blockchain.OPTIMIZER)
            report = ctx.judge(attempt, iteration, branch="unit_test optimizer")
            broken = regressions(state.report, report)
            if broken:
                return False, f"block {name} has no unit test and the change breaks samples {broken}"
            return True, f"block {name} has no unit test; no sample that passed breaks"
        language = chain.language

        def judge(solution: Solution, problem: Problem, tests: list[TestCase]) -> JudgeReport:
            report = run_unit_test(candidate, name, problem, sandbox=ctx.sandbox)
            ctx.tracer.emit(ReportEvent.of(report, task_id=ctx.task_id, iteration=state.iteration))
            return report

        outcome = keep_if_passing(
            CodeAttempt(language=language, source=original_test),
            CodeAttempt(language=language, source=candidate_test),
            ctx.problem,
            [TestCase(input="", origin="user", name=f"unit test of {name}")],
            judge=judge,
        )
        return outcome.accepted, "its unit test still passes" if outcome.accepted else outcome.reason

    # ---- question-based approach ----------------------------------------------------------------

    def _question(self, ctx: SolveContext) -> _State:
        ctx.route("planner", approach="question")
        chain = blockchain.plan_from_question(ctx.model, ctx.problem, language=ctx.language)
        if chain.notes:
            ctx.note("chain read", notes=chain.notes)
        state = self._submit(ctx, chain, blockchain.PLANNER, "question")
        if state.report.verdict == Verdict.IE:
            return state
        ctx.route("optimizer", approach="question")
        skeleton = skeleton_for(ctx.problem, ctx.language)
        template = fenced(skeleton.source, ctx.language) if skeleton else "(none: the judge calls the class)"
        simpler = blockchain.simplify(ctx.model, ctx.problem, chain, template=template)
        if simpler is None:
            ctx.note("optimizer stops", approach="question")
            return state
        candidate = self._submit(ctx, simpler, blockchain.OPTIMIZER, "question optimized")
        broken = regressions(state.report, candidate.report)
        if broken:
            ctx.note("optimizer change dropped", approach="question", broke=broken)
            return state
        ctx.offer(simpler.attempt(), candidate.iteration, candidate.report, branch="question optimized", wins_ties=True)
        ctx.note("optimizer change kept", approach="question", result=verdict_line(candidate.report))
        return candidate

    # ---- the shared debugger --------------------------------------------------------------------

    def _debug(self, ctx: SolveContext, state: _State, approach: Approach) -> _State:
        samples = list(ctx.problem.samples)
        for step in range(1, self.debugs + 1):
            report = state.report
            if report.accepted or report.verdict == Verdict.IE or not samples:
                break
            first = report.first_failure
            test = (case_for(first, samples) if first is not None else None) or samples[0]
            ctx.route("debugger", approach=approach, step=step, verdict=str(report.verdict))
            instrumented = debugger.instrument(ctx.model, ctx.problem, state.chain.attempt(), test)
            trace = debugger.run_traced(instrumented, test, ctx.problem, sandbox=ctx.sandbox)
            ctx.note("traced", step=step, lines=len(trace.traces), verdict=str(trace.verdict or "ran"))
            fixed, why = blockchain.debug_chain(
                ctx.model, ctx.problem, state.chain, test, trace, lessons=ctx.knowledge.text()
            )
            new = self._submit(ctx, fixed, blockchain.DEBUGGER, f"{approach} debug {step}")
            helped = new.report.accepted
            outcome = "fixed it" if helped else f"did not help (then {verdict_line(new.report)})"
            ctx.knowledge.add(
                Lesson(
                    problem_id=ctx.problem.id, symptom=_symptom(report, test), fix=f"{why or 'a rewrite'}: {outcome}"
                )
            )
            state = new
        return state

    def run(self, ctx: SolveContext) -> str:
        """The chosen approach(es), each planned, optimized, judged and debugged; see the module's docstring."""
        order: list[Approach] = ["question", "unit_test"] if self.approach == "both" else [self.approach]
        state: _State | None = None
        for approach in order:
            state = self._question(ctx) if approach == "question" else self._unit_test(ctx)
            if state.report.verdict == Verdict.IE:
                return f"the judge failed: {state.report.reason}"
            state = self._debug(ctx, state, approach)
            if state.report.accepted:
                return f"accepted on the samples ({approach.replace('_', '-')} approach)"
        last = verdict_line(state.report) if state is not None else "nothing judged"
        return f"no program passed the samples ({', '.join(order)}; {last})"


def make(**options: Any) -> BlockChainCoder:
    """The registry's constructor (`approach=`, `samples=`, `optimize_rounds=`, `debugs=`)."""
    return BlockChainCoder(**options)
