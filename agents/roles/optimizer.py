"""The optimizer: proposes a faster version of a passing program, kept only if it still passes.

The model first states whether a change is worth it (`OPTIMIZE: yes|no`, BlockChain Coder's state
token); "no" leaves the program alone. A proposed version is only a candidate: `keep_if_passing`
judges it on the same tests and keeps it only when every test passes (and, if asked, when it is not
slower than the original); otherwise the original stays, with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict

from cpbot.agents.chat import ChatModel
from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.extract import extract_code
from cpbot.agents.prompts import render_prompt
from cpbot.agents.roles.common import code_attempt, fence_tag, fenced, language_name, problem_text
from cpbot.judge.model import JudgeReport, Problem, ProfileReport, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import Sandbox

ROLE = "optimizer"

Judge = Callable[[Solution, Problem, list[TestCase]], JudgeReport]
_DECISION = re.compile(r"OPTIMI[SZ]E\W*\s*[:=]?\s*\**\s*(yes|no)\b", re.IGNORECASE)


class OptimizeOutcome(BaseModel):
    """Which program to keep after an optimization attempt, and why."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kept: CodeAttempt
    accepted: bool  # True when the candidate replaced the original
    reason: str
    report: JudgeReport | None = None  # the candidate's report, when it was judged


def wants_change(text: str) -> bool:
    """False when the reply's state token says `OPTIMIZE: no`; a reply without the token is read by its code."""
    decision = _DECISION.search(text)
    return decision is None or decision.group(1).lower() == "yes"


def profile_text(profile: ProfileReport | None) -> str:
    """The profile's findings for the prompt."""
    if profile is None:
        return "It passes its tests; it was not profiled."
    return profile.reason or f"measured {profile.complexity}"


def propose_optimization(
    model: ChatModel, problem: Problem, attempt: CodeAttempt, *, profile: ProfileReport | None = None
) -> CodeAttempt | None:
    """A faster candidate version of `attempt`, or None when the model finds no change worth making (or
    returns the same program). Raises `ExtractionError` when it proposes a change but gives no usable code."""
    messages = render_prompt(
        "optimizer",
        problem=problem_text(problem),
        code=fenced(attempt.source, attempt.language),
        profile=profile_text(profile),
        language=language_name(attempt.language),
        fence=fence_tag(attempt.language),
    )
    reply = model.complete(ROLE, messages)
    if not wants_change(reply.text):
        return None
    code = extract_code(reply.text, attempt.language, finish_reason=reply.finish_reason)
    if code.code.strip() == attempt.source.strip():
        return None
    return code_attempt(code, attempt.language, plan_iteration=attempt.plan_iteration, notes="optimized")


def _default_judge(sandbox: Sandbox | None) -> Judge:
    def run(solution: Solution, problem: Problem, tests: list[TestCase]) -> JudgeReport:
        return judge_problem(solution, problem, tests, sandbox=sandbox)

    return run


def _cpu(report: JudgeReport) -> float:
    return sum(r.cpu_ms for r in report.results)


def keep_if_passing(
    original: CodeAttempt,
    candidate: CodeAttempt | None,
    problem: Problem,
    tests: Sequence[TestCase] | None = None,
    *,
    require_faster: bool = False,
    original_report: JudgeReport | None = None,
    sandbox: Sandbox | None = None,
    judge: Judge | None = None,
) -> OptimizeOutcome:
    """The candidate if it passes every test in `tests` (the samples by default), and with
    `require_faster` also uses no more CPU time in total than the original; otherwise the original."""
    if candidate is None:
        return OptimizeOutcome(kept=original, accepted=False, reason="no optimization proposed")
    judge = judge or _default_judge(sandbox)
    tests = list(problem.samples if tests is None else tests)
    report = judge(candidate.solution(), problem, tests)
    if report.verdict != Verdict.AC or report.passed != report.total:
        why = report.reason or report.verdict
        return OptimizeOutcome(
            kept=original,
            accepted=False,
            reason=f"the optimized version fails ({report.passed}/{report.total} tests pass: {why}); "
            "keeping the original",
            report=report,
        )
    if require_faster:
        before = original_report or judge(original.solution(), problem, tests)
        if _cpu(report) > _cpu(before):
            return OptimizeOutcome(
                kept=original,
                accepted=False,
                reason=f"the optimized version is not faster ({_cpu(report):.0f} ms against {_cpu(before):.0f} ms)",
                report=report,
            )
    return OptimizeOutcome(kept=candidate, accepted=True, reason=f"all {report.total} tests still pass", report=report)
