"""`nala`: the NALA_MAINZ pipeline, two generation tries and then a debugger that sees only the failures.

1. Optionally (`extra_tests=True`), the test generator writes a few extra inputs; only those that parse
   like the samples (and, with a trusted brute force, get its answers) join the samples as tests.
2. Generation, at most two tries: a program from the statement alone; if it fails any test, a second
   generation from the statement, told that an earlier program failed (not which tests, nor its code).
3. Debugging, `debugs` rounds: the failing tests, each with its error trace (output, first difference,
   exit status, error output), and the whole test suite go to the debugger. The repaired program is
   judged on every test again. (The paper runs generation with a low reasoning effort and debugging with
   a high one: `[llm.roles.coder]` and `[llm.roles.debugger]` in config.toml can do the same.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.roles import coder, debugger, testgen
from cpbot.agents.roles.knowledge import Note
from cpbot.agents.strategies.base import SolveContext, verdict_line
from cpbot.judge.model import JudgeReport, TestCase, Verdict

RETRY_NOTE = (
    "A program written for this task before failed at least one of the hidden tests ({line}). Reconsider "
    "the task from the statement and write the whole program again."
)


def only_failures(report: JudgeReport) -> JudgeReport:
    """`report` narrowed to the tests that failed (their 1-based indices kept), for the debugger."""
    failed = [r for r in report.results if r.verdict != Verdict.AC]
    return report.model_copy(update={"results": failed, "passed": 0, "total": len(failed)})


@dataclass
class Nala:
    """Generate twice, then debug on the failing cases only; `extra_tests` adds parsed generated tests."""

    debugs: int = 1
    extra_tests: bool = False
    name: str = "nala"

    def _tests(self, ctx: SolveContext) -> list[TestCase]:
        tests = list(ctx.problem.samples)
        if not self.extra_tests:
            return tests
        ctx.route("testgen")
        suite = testgen.generate_tests(ctx.model, ctx.problem, sandbox=ctx.sandbox)
        ctx.send(suite.tests, sender=testgen.ROLE)
        ctx.adopt_tests(suite.tests.tests, generator=suite.generator, brute=suite.brute)
        if suite.dropped:
            ctx.note("generated tests dropped", reasons=suite.dropped)
        return [*tests, *suite.tests.tests]

    def _generate(self, ctx: SolveContext, tests: Sequence[TestCase]) -> tuple[CodeAttempt, int, JudgeReport]:
        ctx.route("coder", phase="generate", attempt=1)
        attempt = coder.write_code(ctx.model, ctx.problem, None, language=ctx.language, use_skeleton=False)
        attempt, iteration = ctx.code(attempt, sender=coder.ROLE)
        report = ctx.judge(attempt, iteration, tests, branch="generate")
        if report.accepted or report.verdict == Verdict.IE:
            return attempt, iteration, report
        ctx.route("coder", phase="generate", attempt=2)
        # the paper's second generation: again from the instruction, told only that the first one failed
        retry = Note(
            name="retry",
            title="An earlier try",
            tags=[],
            keywords=[],
            body=RETRY_NOTE.format(line=verdict_line(report)),
        )
        attempt = coder.write_code(
            ctx.model, ctx.problem, None, language=ctx.language, use_skeleton=False, knowledge=[retry]
        )
        attempt, iteration = ctx.code(attempt, sender=coder.ROLE)
        return attempt, iteration, ctx.judge(attempt, iteration, tests, branch="generate")

    def run(self, ctx: SolveContext) -> str:
        """Generation (two tries), then debugging on the failing tests; see the module's docstring."""
        tests = self._tests(ctx)
        attempt, _, report = self._generate(ctx, tests)
        if report.accepted:
            return f"accepted by generation on {report.total} tests"
        for step in range(1, self.debugs + 1):
            if report.verdict == Verdict.IE:
                return f"the judge failed: {report.reason}"
            failing = only_failures(report)
            block = debugger.choose_block(failing)
            if block is None:
                break
            indices = [r.index for r in failing.results]
            ctx.route(f"debug_{block}", step=step, failing=indices)
            attempt = debugger.debug(
                ctx.model, ctx.problem, attempt, failing, tests=tests, block=block, max_cases=len(indices), suite=tests
            )
            attempt, iteration = ctx.code(attempt, sender=debugger.ROLE)
            report = ctx.judge(attempt, iteration, tests, branch="debug")
            if report.accepted:
                return f"accepted after debug step {step} on {report.total} tests"
        return f"no program passed after two tries and {self.debugs} debug steps ({verdict_line(report)})"


def make(**options: Any) -> Nala:
    """The registry's constructor (`debugs=`, `extra_tests=`)."""
    return Nala(**options)
