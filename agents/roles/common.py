"""What several roles share: the role error, a problem as prompt text, judge results as prompt text,
structured answers with a lenient fallback, and asking again once when a reply has no usable code."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from cpbot.agents.chat import ChatModel, LLMReply
from cpbot.agents.dialect import with_note
from cpbot.agents.envelopes import (
    CheckerDecision,
    CodeAttempt,
    ComplexityVerdict,
    JudgeFeedback,
    Patch,
    Payload,
    Plan,
    ProfileFeedback,
    PruneDecision,
    StressFeedback,
)
from cpbot.agents.extract import ExtractedCode, ExtractionError, extract_code
from cpbot.agents.prompts import clip
from cpbot.agents.structured import StructuredOutputError
from cpbot.core.errors import ModelError
from cpbot.core.registry import LANGUAGES
from cpbot.judge.kinds import problem_kind
from cpbot.judge.languages import language_profile
from cpbot.judge.model import JudgeReport, Language, Problem, TestCase, TestResult, Verdict

M = TypeVar("M", bound=BaseModel)

SAMPLE_CHARS = 1500  # per sample input or output shown in a prompt
CASE_CHARS = 2000  # per failing input, expected or actual output shown to a debugger


class RoleError(ModelError):
    """A role could not turn the model's answer into its typed output."""


def language_name(language: Language | str) -> str:
    """The exact dialect for prompts ("C++17 (g++)", "Python 3 (PyPy)"), or the family's name ("C++")
    for a family given by name."""
    spec = LANGUAGES.get(str(language))
    return spec.title if spec is not None else language_profile(language).title


def contest_checklist(language: Language | str) -> str:
    """A short checklist of the usual contest mistakes in `language`, for prompts without a skeleton."""
    return "Before you answer, check: " + "; ".join(language_profile(language).checklist) + "."


def fence_tag(language: Language | str) -> str:
    """The info word of a code fence in `language` (cpp, python)."""
    return language_profile(language).fence


def fenced(code: str, language: Language | str) -> str:
    """`code` in a fenced block labelled with its language."""
    return f"```{fence_tag(language)}\n{code.rstrip()}\n```"


def limits_text(problem: Problem) -> str:
    """ "2 s, 256 MB"."""
    return f"{problem.limits.time_ms / 1000:g} s, {problem.limits.memory_mb} MB"


def samples_text(samples: Sequence[TestCase], limit: int = SAMPLE_CHARS) -> str:
    """The samples as numbered input/output blocks."""
    if not samples:
        return "(no samples given)"
    parts = []
    for i, test in enumerate(samples, start=1):
        parts.append(f"Sample {i} input:\n```text\n{clip(test.input.rstrip(), limit)}\n```")
        if test.output is not None:
            parts.append(f"Sample {i} output:\n```text\n{clip(test.output.rstrip(), limit)}\n```")
    return "\n".join(parts)


def problem_text(problem: Problem, *, with_samples: bool = True) -> str:
    """The problem as a model should read it: title, statement, input, output, limits, samples, notes."""
    parts = [f"# {problem.title or problem.id}", problem.statement.strip()]
    if problem.input_spec.strip():
        parts.append("## Input\n" + problem.input_spec.strip())
    if problem.output_spec.strip():
        parts.append("## Output\n" + problem.output_spec.strip())
    parts.append(problem_kind(problem.kind).io_section(problem))
    parts.append(f"Limits: {limits_text(problem)} per test.")
    if with_samples:
        parts.append("## Examples\n" + samples_text(problem.samples))
    if problem.notes.strip():
        parts.append("## Notes\n" + problem.notes.strip())
    return "\n\n".join(p for p in parts if p)


def plan_text(plan: Plan | None) -> str:
    """A plan as a numbered list under its algorithm and claimed complexity."""
    if plan is None:
        return "(no plan: work from the statement)"
    lines = [f"Algorithm: {plan.algorithm}"]
    if plan.complexity:
        lines.append(f"Claimed complexity: {plan.complexity}")
    lines += [f"{i}. {step}" for i, step in enumerate(plan.steps, start=1)]
    if plan.rationale:
        lines.append(f"Why: {plan.rationale}")
    return "\n".join(lines)


def result_line(result: TestResult) -> str:
    """One judged test in a line: verdict, where it differs, how it ended."""
    text = f"test {result.index}: {result.verdict}"
    if result.diff is not None:
        where = f"line {result.diff.line}" + (f", token {result.diff.token}" if result.diff.token is not None else "")
        text += f" (first difference at {where}: expected {result.diff.expected!r}, got {result.diff.got!r})"
    elif result.checker_message:
        text += f" ({result.checker_message})"
    if result.exit_code not in (None, 0):
        text += f", exit code {result.exit_code}"
    if result.signal:
        text += f", killed by signal {result.signal}"
    return text


def report_text(report: JudgeReport) -> str:
    """A judge report in a few lines: overall verdict, passed count, one line per failing test."""
    lines = [f"Verdict {report.verdict}: {report.passed} of {report.total} tests passed."]
    if report.verdict == Verdict.CE:
        lines.append("Compiler output:\n```text\n" + clip(report.compile_log.strip(), CASE_CHARS) + "\n```")
    lines += [result_line(r) for r in report.results if r.verdict != Verdict.AC]
    return "\n".join(lines)


def failing_results(report: JudgeReport) -> list[TestResult]:
    """The tests the attempt failed, in order."""
    return [r for r in report.results if r.verdict != Verdict.AC]


def case_for(result: TestResult, tests: Sequence[TestCase]) -> TestCase | None:
    """The test a result is about (results are numbered from 1 in the order the tests were given)."""
    return tests[result.index - 1] if 0 < result.index <= len(tests) else None


def feedback_text(feedback: str | Payload) -> str:
    """Any feedback message (a string or a payload from the judge, checker, pruner, analyst) as text."""
    if isinstance(feedback, str):
        return feedback
    if isinstance(feedback, CheckerDecision):
        tests = f" (failing tests: {', '.join(map(str, feedback.failing_tests))})" if feedback.failing_tests else ""
        return f"The error checker says {feedback.decision}{tests}: {feedback.reason}"
    if isinstance(feedback, PruneDecision):
        return f"The plan was {'accepted' if feedback.accepted else 'rejected'} before coding: {feedback.reason}"
    if isinstance(feedback, ComplexityVerdict):
        state = "fast enough" if feedback.efficient else "too slow"
        return f"Profiling says the program is {state}. {feedback.advice}".strip()
    if isinstance(feedback, Patch):
        return feedback.instructions + (f"\n```diff\n{feedback.diff}\n```" if feedback.diff else "")
    if isinstance(feedback, JudgeFeedback):
        return (feedback.summary + "\n" if feedback.summary else "") + report_text(feedback.report)
    if isinstance(feedback, ProfileFeedback):
        r = feedback.report
        return f"Measured {r.complexity or 'an unknown class'}; {r.reason}".strip()
    if isinstance(feedback, StressFeedback):
        if not feedback.found:
            return f"Stress testing found no difference in {feedback.trials} random tests."
        return (
            "Stress testing found an input where the program and a brute force disagree.\n"
            f"Input:\n```text\n{clip(feedback.input, CASE_CHARS)}\n```\n"
            f"Brute force:\n```text\n{clip(feedback.expected, CASE_CHARS)}\n```\n"
            f"Program:\n```text\n{clip(feedback.got, CASE_CHARS)}\n```"
        )
    return feedback.model_dump_json()


def ask_structured(
    model: ChatModel, role: str, messages: Sequence[dict[str, Any]], schema: type[M]
) -> tuple[M | None, LLMReply]:
    """Ask for a `schema` object; (None, reply) when the reply holds none, so the role can read the prose."""
    try:
        reply = model.complete(role, messages, response_format=schema)
    except StructuredOutputError as e:
        return None, e.reply
    parsed = reply.parsed if isinstance(reply.parsed, schema) else None
    return parsed, reply


# How a re-ask differs from the first request, by what was wrong with the reply.
_REASK = {
    "truncated": "Your previous answer was cut off by the output limit before the program was complete. "
    "Think briefly this time and write the whole program at once, without explanations.",
    "empty": "Your previous answer was empty. Write the complete program now.",
    "no_code": "Your previous answer had no program in it. Write the complete program now.",
    "wrong_language": "Your previous answer was in the wrong programming language.",
}
REASK_ECHO_CHARS = 1500  # a short unusable reply is shown back; a long one would only fill the context


def ask_code(
    model: ChatModel, role: str, messages: Sequence[dict[str, Any]], language: Language, *, retries: int = 2
) -> tuple[ExtractedCode, LLMReply]:
    """Ask for a program; when the reply has none (or it is cut off), ask again up to `retries` times,
    each time saying what was wrong. A cut or long reply is not sent back (it would overflow a small
    context): the question is asked again with the reason added to its last user message.
    Raises the last `ExtractionError` when no reply had usable code."""
    for attempt in range(retries + 1):
        if attempt == 0:
            history = list(messages)
        reply = model.complete(role, history)
        try:
            return extract_code(
                reply.text, language, finish_reason=reply.finish_reason, reasoning=reply.reasoning
            ), reply
        except ExtractionError as e:
            if attempt == retries:
                raise
            ask = (
                f"{_REASK.get(e.reason, 'I could not use your previous answer.')} ({e.message}.) Reply with the whole "
                f"{language_name(language)} program in one ```{fence_tag(language)} block."
            )
            short = e.reason not in ("truncated", "empty") and len(reply.text) <= REASK_ECHO_CHARS
            if short:
                history = [*messages, {"role": "assistant", "content": reply.text}, {"role": "user", "content": ask}]
            else:
                history = with_note(messages, ask)
    raise AssertionError("unreachable")  # the loop returns or raises


def code_attempt(
    code: ExtractedCode, language: Language, *, plan_iteration: int | None, notes: str = ""
) -> CodeAttempt:
    """An extracted program as a `CodeAttempt` payload."""
    extra = "; ".join(code.notes)
    return CodeAttempt(
        language=language,
        source=code.code,
        plan_iteration=plan_iteration,
        notes="; ".join(n for n in (notes, extra) if n),
    )
