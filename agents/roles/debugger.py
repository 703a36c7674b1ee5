"""The debugger: three blocks (STD-IO, runtime error, wrong answer) and a variable-tracing variant.

`choose_block` routes a judge report the way MACS-Coder's debugging agent does, with one refinement: a
program that runs fine but answers wrongly goes to the wrong-answer block; one that fails to run goes
to the STD-IO block the first time (new programs mostly fail on reading input), or whenever its error
output looks like an input-parsing failure, and to the runtime block afterwards. Each block's prompt
carries only the failing tests, with what that block needs: the input, the expected and actual
output and their first difference, the exit status and the error output.

The tracing variant (after BlockChain Coder's debugger) asks the model to instrument the program with
marked trace lines, runs the instrumented program on the failing input, and hands the traces back so
the model can find the first block whose values go wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cpbot.agents.chat import ChatModel
from cpbot.agents.envelopes import CodeAttempt, Plan
from cpbot.agents.prompts import clip, render_prompt
from cpbot.agents.roles.common import (
    CASE_CHARS,
    RoleError,
    ask_code,
    case_for,
    code_attempt,
    failing_results,
    fence_tag,
    fenced,
    language_name,
    plan_text,
    problem_text,
    result_line,
    samples_text,
)
from cpbot.judge.build import build_solution
from cpbot.judge.execute import execute
from cpbot.judge.languages import language_profile
from cpbot.judge.model import JudgeReport, Problem, TestCase, TestResult, Verdict
from cpbot.judge.sandbox import Sandbox, default_sandbox

ROLE = "debugger"

Block = Literal["stdio", "runtime", "wrong_answer"]
TRACE_MARK = "@@TRACE"
TRACE_LINES = 60  # shown to the model: the first and last halves of this many
LOOP_TRACES = 5

_PARSE_FAILURE = re.compile(
    r"ValueError: invalid literal|could not convert|EOFError|StopIteration|not enough values to unpack"
    r"|too many values to unpack|NumberFormatException|std::invalid_argument|stoi|stoll",
)


def choose_block(report: JudgeReport, *, earlier_failures: int = 0) -> Block | None:
    """The block for a failed judge report; None when there is nothing to debug (AC, or IE: the judge's fault).
    `earlier_failures` counts the earlier runs of this attempt's line that failed to run."""
    first = report.first_failure
    if report.verdict in (Verdict.AC, Verdict.IE) or (first is None and report.verdict != Verdict.CE):
        return None
    verdict = first.verdict if first is not None else report.verdict
    if verdict in (Verdict.WA, Verdict.PE):
        return "wrong_answer"
    if verdict in (Verdict.CE, Verdict.TLE, Verdict.MLE):
        return "runtime"
    stderr = first.stderr if first is not None else ""
    if _PARSE_FAILURE.search(stderr):
        return "stdio"
    # a program killed by a signal (a C++ segfault or abort) crashed in its logic, not while reading input
    if first is not None and first.signal:
        return "runtime"
    return "stdio" if earlier_failures == 0 else "runtime"


def _block(text: str) -> str:
    return f"```text\n{clip(text.rstrip(), CASE_CHARS)}\n```" if text.strip() else "(empty)"


def failure_text(result: TestResult, test: TestCase | None, block: Block) -> str:
    """One failing test as the `block` needs it."""
    parts = [result_line(result)]
    if test is not None:
        parts.append("Input:\n" + _block(test.input))
        if test.output is not None and block != "runtime":
            parts.append("Expected output:\n" + _block(test.output))
    if block != "runtime" or result.stdout.strip():
        parts.append("The program's output:\n" + _block(result.stdout))
    if result.diff is not None and block == "wrong_answer":
        d = result.diff
        token = f", token {d.token}" if d.token is not None else ""
        parts.append(f"First difference: line {d.line}{token}: expected {d.expected!r}, got {d.got!r}")
    if block != "wrong_answer" and result.stderr.strip():
        parts.append("Error output:\n" + _block(result.stderr))
    return "\n".join(parts)


def failures_text(report: JudgeReport, tests: Sequence[TestCase], block: Block, *, max_cases: int = 2) -> str:
    """The failing tests of `report` (at most `max_cases`), or the compiler output for a compile error."""
    if report.verdict == Verdict.CE:
        return "It does not compile. Compiler output:\n" + _block(report.compile_log)
    failed = failing_results(report)
    texts = [failure_text(r, case_for(r, tests), block) for r in failed[:max_cases]]
    more = f"\n({len(failed) - max_cases} more tests fail.)" if len(failed) > max_cases else ""
    return f"{report.passed} of {report.total} tests pass.\n\n" + "\n\n".join(texts) + more


def debug(
    model: ChatModel,
    problem: Problem,
    attempt: CodeAttempt,
    report: JudgeReport,
    *,
    tests: Sequence[TestCase] | None = None,
    plan: Plan | None = None,
    block: Block | None = None,
    earlier_failures: int = 0,
    max_cases: int = 2,
    suite: Sequence[TestCase] | None = None,
) -> CodeAttempt:
    """A corrected program from the block that fits `report` (or the given `block`). `tests` are the tests
    the report is about (the problem's samples by default); `suite`, when given, is shown whole after the
    failures (NALA's debugger sees every unit test)."""
    block = block or choose_block(report, earlier_failures=earlier_failures)
    if block is None:
        raise RoleError(
            f"nothing to debug: the verdict is {report.verdict}",
            hint="an IE is the judge's failure, not the program's" if report.verdict == Verdict.IE else "",
        )
    messages = render_prompt(
        f"debug_{block}",
        problem=problem_text(problem),
        plan=plan_text(plan),
        code=fenced(attempt.source, attempt.language),
        failures=failures_text(report, problem.samples if tests is None else tests, block, max_cases=max_cases)
        + (f"\n\nThe whole test suite:\n{samples_text(suite)}" if suite else ""),
        language=language_name(attempt.language),
        fence=fence_tag(attempt.language),
    )
    code, _ = ask_code(model, ROLE, messages, attempt.language)
    return code_attempt(code, attempt.language, plan_iteration=attempt.plan_iteration, notes=f"debugged ({block})")


# ---- variable tracing ------------------------------------------------------------------------------


class TraceRun(BaseModel):
    """What the instrumented program printed on the failing input."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    traces: list[str]  # the trace lines, marker removed
    output: str  # everything else it printed: the program's own answer
    verdict: Verdict | None = None  # None when it ran to the end
    message: str = ""
    stderr: str = ""

    def text(self, limit: int = TRACE_LINES) -> str:
        """The trace lines for a prompt: all of them, or the first and last halves of `limit`."""
        lines = self.traces
        if len(lines) > limit:
            half = limit // 2
            lines = [*lines[:half], f"... {len(self.traces) - 2 * half} trace lines left out ...", *lines[-half:]]
        text = "\n".join(lines) if lines else "(the program printed no trace lines)"
        if self.verdict is not None:
            text += f"\nThe run ended with {self.verdict}: {self.message}"
        return text


def split_traces(stdout: str) -> tuple[list[str], str]:
    """(trace lines without the marker, the other lines) of an instrumented program's output."""
    traces, rest = [], []
    for line in stdout.splitlines():
        if TRACE_MARK in line:
            traces.append(line.split(TRACE_MARK, 1)[1].strip())
        else:
            rest.append(line)
    return traces, "\n".join(rest) + ("\n" if rest else "")


def strip_traces(code: str, language: str) -> str:
    """`code` without lines that print trace marks (a Python line becomes `pass` if removing it breaks
    a block)."""
    if TRACE_MARK not in code:
        return code
    lines = code.splitlines()
    kept = [ln for ln in lines if TRACE_MARK not in ln]
    cleaned = "\n".join(kept) + "\n"
    syntax_error = language_profile(language).syntax_error
    if syntax_error is not None and syntax_error(cleaned) is not None:
        cleaned = "\n".join(re.sub(r"^(\s*).*$", r"\1pass", ln) if TRACE_MARK in ln else ln for ln in lines) + "\n"
    return cleaned


def instrument(model: ChatModel, problem: Problem, attempt: CodeAttempt, test: TestCase) -> CodeAttempt:
    """`attempt` with trace lines added by the model, to run on `test`."""
    messages = render_prompt(
        "debug_instrument",
        problem=problem_text(problem, with_samples=False),
        code=fenced(attempt.source, attempt.language),
        input=_block(test.input),
        marker=TRACE_MARK,
        loop_limit=LOOP_TRACES,
        language=language_name(attempt.language),
        fence=fence_tag(attempt.language),
    )
    code, _ = ask_code(model, ROLE, messages, attempt.language)
    return code_attempt(code, attempt.language, plan_iteration=attempt.plan_iteration, notes="instrumented")


def run_traced(
    instrumented: CodeAttempt, test: TestCase, problem: Problem, *, sandbox: Sandbox | None = None
) -> TraceRun:
    """Build and run the instrumented program on `test` in the sandbox; its traces and its own output."""
    sandbox = sandbox or default_sandbox()
    build = build_solution(instrumented.solution(), sandbox)
    if build.program is None:
        return TraceRun(traces=[], output="", verdict=Verdict.CE, message=clip(build.log.strip(), CASE_CHARS))
    run = execute(build.program, test.input.encode(), sandbox, limits=problem.limits)
    traces, output = split_traces(run.stdout.decode(errors="replace"))
    return TraceRun(traces=traces, output=output, verdict=run.verdict, message=run.message, stderr=run.stderr)


def debug_with_traces(
    model: ChatModel,
    problem: Problem,
    attempt: CodeAttempt,
    test: TestCase,
    run: TraceRun,
    *,
    plan: Plan | None = None,
) -> CodeAttempt:
    """A corrected `attempt` from the traces its instrumented version printed on the failing `test`."""
    messages = render_prompt(
        "debug_traces",
        problem=problem_text(problem, with_samples=False),
        plan=plan_text(plan),
        code=fenced(attempt.source, attempt.language),
        input=_block(test.input),
        expected=_block(test.output or "") if test.output is not None else "(unknown)",
        got=_block(run.output),
        traces=f"```text\n{run.text()}\n```",
        language=language_name(attempt.language),
        fence=fence_tag(attempt.language),
    )
    code, _ = ask_code(model, ROLE, messages, attempt.language)
    fixed = code_attempt(code, attempt.language, plan_iteration=attempt.plan_iteration, notes="debugged (traces)")
    return fixed.model_copy(update={"source": strip_traces(fixed.source, attempt.language)})


def trace_debug(
    model: ChatModel,
    problem: Problem,
    attempt: CodeAttempt,
    test: TestCase,
    *,
    plan: Plan | None = None,
    sandbox: Sandbox | None = None,
) -> tuple[CodeAttempt, TraceRun]:
    """Instrument, run on `test`, and fix from the traces: two model calls and one sandboxed run."""
    instrumented = instrument(model, problem, attempt, test)
    run = run_traced(instrumented, test, problem, sandbox=sandbox)
    return debug_with_traces(model, problem, attempt, test, run, plan=plan), run
