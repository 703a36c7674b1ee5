"""The error checker: PASS, FIX or RETHINK after an attempt was judged (MAS-Algorithm's control signal).

It asks for a JSON decision; a prose reply is read for a labelled decision (`Decision: FIX`), else the
last of the three words written in capitals. Two rules need no model: an attempt that passed every
test is PASS without asking (unless `trust_passing` is off), and a model's PASS for an attempt that
fails tests becomes FIX, since the evidence says otherwise. A judge failure (IE) is not the program's
fault, so the checker refuses to judge it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict

from cpbot.agents.chat import ChatModel
from cpbot.agents.envelopes import CheckerDecision, CodeAttempt, Plan
from cpbot.agents.prompts import clip, render_prompt
from cpbot.agents.roles.common import RoleError, ask_structured, fenced, plan_text, problem_text
from cpbot.agents.roles.debugger import failures_text
from cpbot.core.errors import JudgeError
from cpbot.judge.model import JudgeReport, Problem, TestCase, Verdict

ROLE = "checker"

Decision = Literal["PASS", "FIX", "RETHINK"]
DECISIONS: tuple[Decision, ...] = ("PASS", "FIX", "RETHINK")
REASON_CHARS = 1200


class CheckerReply(BaseModel):
    """The answer the model is asked for."""

    model_config = ConfigDict(extra="ignore")

    analysis: str = ""
    error: str = ""
    guidance: str = ""
    decision: str


_LABELLED = re.compile(
    r"(?:decision|signal|control signal|verdict|next step|action|recommendation)\W{0,5}\s*(?:is\s*)?[:=\-]?\s*"
    r"[*_`\"']*\s*(PASS|FIX|RETHINK)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"\b(PASS|FIX|RETHINK)\b")
# a decision word under a negation or a contrast is the option turned down: "no need to RETHINK"
_NEGATED = re.compile(
    r"(?:\bno need to|\bnot|\bn't|\bno|\bnever|\bwithout|\brather than|\binstead of|\bunnecessary to|\bnor)"
    r"\W+(?:\w+\W+){0,2}$",
    re.IGNORECASE,
)


def parse_decision(text: str) -> Decision | None:
    """The decision a prose reply states, read by meaning: a labelled one first (`Decision: FIX`), else
    the PASS/FIX/RETHINK written in capitals that is not turned down ("FIX it; no need to RETHINK" is
    FIX), the last such one when several remain."""
    labelled = _LABELLED.findall(text)
    if labelled:
        return cast(Decision, labelled[-1].upper())
    kept = [m.group(1) for m in _WORD.finditer(text) if not _NEGATED.search(text[max(0, m.start() - 40) : m.start()])]
    if kept:
        return cast(Decision, kept[-1])
    words = _WORD.findall(text)
    return cast(Decision, words[-1]) if words else None


def read_decision(text: str) -> tuple[Decision | None, str]:
    """The decision a prose reply states and the reason it gives (the prose without the decision line)."""
    return parse_decision(text), _reason(None, text)


def _reason(reply: CheckerReply | None, text: str) -> str:
    if reply is not None:
        parts = [p.strip() for p in (reply.error, reply.guidance) if p.strip()] or [reply.analysis.strip()]
        return clip(" ".join(parts), REASON_CHARS)
    lines = [ln for ln in text.splitlines() if ln.strip() and not _LABELLED.search(ln)]
    return clip("\n".join(lines).strip(), REASON_CHARS)


def check(
    model: ChatModel,
    problem: Problem,
    attempt: CodeAttempt,
    report: JudgeReport,
    *,
    plan: Plan | None = None,
    tests: Sequence[TestCase] | None = None,
    trust_passing: bool = True,
) -> CheckerDecision:
    """PASS, FIX or RETHINK for `attempt` given the judge's `report` on `tests` (the samples by default)."""
    if report.verdict == Verdict.IE:
        raise JudgeError(f"the judge failed, so there is nothing to check: {report.reason}", hint="run `cpbot doctor`")
    failing = [r.index for r in report.results if r.verdict != Verdict.AC]
    passed_all = report.accepted
    if passed_all and trust_passing:
        return CheckerDecision(decision="PASS", reason=f"all {report.total} tests pass")
    tests = problem.samples if tests is None else tests
    first = report.first_failure
    block = "wrong_answer" if first is not None and first.verdict in (Verdict.WA, Verdict.PE) else "stdio"
    shown = failures_text(report, tests, block, max_cases=3) if not passed_all else f"All {report.total} tests pass."
    messages = render_prompt(
        "checker",
        problem=problem_text(problem),
        plan=plan_text(plan),
        code=fenced(attempt.source, attempt.language),
        report=f"Verdict {report.verdict}.\n{shown}",
    )
    parsed, reply = ask_structured(model, ROLE, messages, CheckerReply)
    decision = parsed.decision.strip().upper() if parsed is not None else None
    if decision not in DECISIONS:
        decision = parse_decision(reply.text)  # an off-list decision in the JSON: the prose may say more
    if decision is None:
        raise RoleError("the checker's reply holds no PASS, FIX or RETHINK", hint="retry, or use a stronger model")
    reason = _reason(parsed, reply.text) or f"the checker said {decision} without giving a reason"
    if decision == "PASS" and not passed_all:
        decision = "FIX"
        reason = (
            f"the checker said PASS, but the attempt fails ({report.verdict}, {report.passed}/{report.total}): {reason}"
        )
    return CheckerDecision(decision=cast(Decision, decision), reason=reason, failing_tests=failing)
