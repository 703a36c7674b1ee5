"""What every strategy shares: the `Strategy` protocol and the `SolveContext` it runs in.

A strategy is a state machine over roles. It reads the problem, the language and the model from the
context, and goes through the context for everything with a side effect: sending envelopes, judging
an attempt (which also traces the report and offers the attempt to the best-attempt keeper) and
noting its routing decisions. It returns the reason it stopped; running out of budget is signalled by
`BudgetExhausted`, which `agents.solve.solve` turns into the best attempt so far.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from agents.budget import Attempt, BestAttempt, BudgetTracker
from agents.envelopes import CodeAttempt, Envelope, JudgeFeedback, Payload
from agents.llm import ChatModel
from agents.tracing import NoteEvent, ReportEvent, Tracer, send
from judge.model import JudgeReport, Language, Problem, TestCase, Verdict
from judge.runner import judge_problem
from judge.sandbox import Sandbox


@dataclass
class Lesson:
    """What one debugging step taught: kept in a `KnowledgePool` for later problems of a run."""

    problem_id: str
    symptom: str  # e.g. "WA on test 1: expected '0', got '1'"
    fix: str  # what the debugger changed, as its note says


@dataclass
class KnowledgePool:
    """Lessons shared by the solves of one run or contest (BlockChain Coder's pool, cpbot's memory)."""

    lessons: list[Lesson] = field(default_factory=list)

    def add(self, lesson: Lesson) -> None:
        """Remember `lesson`."""
        self.lessons.append(lesson)

    def text(self, limit: int = 5) -> str:
        """The latest lessons as prompt lines, or "" when there are none."""
        return "\n".join(f"- {item.symptom}: {item.fix}" for item in self.lessons[-limit:])


@dataclass
class SolveContext:
    """Everything a strategy may use while solving one problem."""

    problem: Problem
    language: Language
    model: ChatModel
    tracker: BudgetTracker
    tracer: Tracer
    task_id: str
    strategy: str = ""
    sandbox: Sandbox | None = None
    best: BestAttempt = field(default_factory=BestAttempt)
    knowledge: KnowledgePool = field(default_factory=KnowledgePool)
    _iterations: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def next_iteration(self) -> int:
        """A fresh iteration number for an envelope (1, 2, 3, ...; 0 is the opening task)."""
        return next(self._iterations)

    def send(self, payload: Payload, *, sender: str, iteration: int | None = None) -> Envelope:
        """Wrap `payload`, trace it, and return the envelope."""
        it = self.next_iteration() if iteration is None else iteration
        return send(self.tracer, Envelope.wrap(payload, task_id=self.task_id, iteration=it, sender=sender))

    def note(self, message: str, **data: Any) -> None:
        """Trace a decision of the strategy (a route taken, a step skipped)."""
        self.tracer.emit(NoteEvent(task_id=self.task_id, message=message, data=data))

    def route(self, to: str, **data: Any) -> None:
        """Trace a routing decision: the next role or block is `to`."""
        self.note("route", to=to, **data)

    def code(self, attempt: CodeAttempt, *, sender: str) -> tuple[CodeAttempt, int]:
        """Trace a new program; returns it with its iteration number."""
        envelope = self.send(attempt, sender=sender)
        return attempt, envelope.header.iteration

    def judge(
        self, attempt: CodeAttempt, iteration: int, tests: Sequence[TestCase] | None = None, *, branch: str = ""
    ) -> JudgeReport:
        """Judge `attempt` on `tests` (the samples by default), trace the report, keep the attempt if it is
        the best so far, and send the judge's feedback."""
        report = judge_problem(
            attempt.solution(), self.problem, list(tests) if tests is not None else None, sandbox=self.sandbox
        )
        self.tracer.emit(ReportEvent.of(report, task_id=self.task_id, iteration=iteration))
        snapshot = self.tracker.snapshot()
        self.best.offer(
            Attempt(
                iteration=iteration,
                solution=attempt.solution(),
                report=report,
                tokens=snapshot.usage.total_tokens,
                branch=branch,
            )
        )
        summary = "accepted" if report.verdict == Verdict.AC else report.reason or str(report.verdict)
        self.send(JudgeFeedback(report=report, code_iteration=iteration, summary=summary), sender="judge")
        return report


class Strategy(Protocol):
    """A solve workflow: `run` drives the roles and returns why it stopped."""

    name: str

    def run(self, ctx: SolveContext) -> str:
        """Solve `ctx.problem`; the best attempt is in `ctx.best`. May raise `BudgetExhausted`."""
        ...


def accepted(report: JudgeReport) -> bool:
    """Every test passed."""
    return report.verdict == Verdict.AC and report.passed == report.total and report.total > 0


def passed_indices(report: JudgeReport) -> set[int]:
    """The 1-based indices of the tests a report passed."""
    return {r.index for r in report.results if r.verdict == Verdict.AC}


def regressions(before: JudgeReport | None, after: JudgeReport) -> list[int]:
    """Tests that passed `before` and fail `after` (both on the same tests), in order."""
    if before is None:
        return []
    return sorted(passed_indices(before) - passed_indices(after))


def verdict_line(report: JudgeReport) -> str:
    """ "WA, 1/2 tests" for reasons and notes."""
    return f"{report.verdict}, {report.passed}/{report.total} tests"
