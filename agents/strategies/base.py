"""What every strategy shares: the `Strategy` protocol and the `SolveContext` it runs in.

A strategy is a state machine over roles. It reads the problem, the language and the model from the
context, and goes through the context for everything with a side effect: sending envelopes, judging
an attempt (which also traces the report and offers the attempt to the best-attempt keeper) and
noting its routing decisions. It returns the reason it stopped; running out of budget is signalled by
`BudgetExhausted`, which `agents.solve.solve` turns into the best attempt so far.

What a strategy learns beyond the samples (generated tests, the generator and brute force behind them,
stress and profile reports) goes into the context's `Evidence`, keyed by program, so the result can
carry the evidence about the program it returns and nothing about any other.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cpbot.agents.budget import Attempt, BestAttempt, BudgetTracker
from cpbot.agents.chat import ChatModel
from cpbot.agents.envelopes import CodeAttempt, Envelope, JudgeFeedback, Payload
from cpbot.agents.inputs import SolveInputs
from cpbot.agents.roles.interactor_writer import WrittenInteractor
from cpbot.agents.tracing import NoteEvent, ReportEvent, Tracer, send
from cpbot.judge.model import (
    JudgeReport,
    Language,
    Problem,
    ProfileReport,
    Solution,
    StressFailure,
    StressReport,
    TestCase,
    Verdict,
)
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import Sandbox, default_sandbox


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


def source_key(solution: Solution) -> str:
    """A short stable key of a program (language and source)."""
    return hashlib.sha256(f"{solution.language}\0{solution.source}".encode()).hexdigest()[:16]


def tests_key(tests: Sequence[TestCase]) -> str:
    """A short stable key of a list of tests (inputs and answers, in order)."""
    digest = hashlib.sha256()
    for test in tests:
        digest.update(f"{len(test.input)}:{test.input}\0{test.output!r}\0".encode())
    return digest.hexdigest()[:16]


@dataclass
class Evidence:
    """What a solve found out beyond the samples, for the result and the submit gate.

    `tests` are the generated tests that survived validation, then any stress counterexamples, in the
    order they were added; stress and profile reports are kept per program (`source_key`), and every
    judge report per (program, tests), so the result can say exactly what is known about its program.
    """

    tests: list[TestCase] = field(default_factory=list)
    generator: Solution | None = None
    brute: Solution | None = None  # the first brute force of the panel
    # every independently drawn brute force that passed the samples (distinct programs; `brute` first): the
    # expected answers are the ones they agree on (agents/oracle.py)
    brutes: list[Solution] = field(default_factory=list)
    stress: dict[str, StressReport] = field(default_factory=dict)
    profiles: dict[str, ProfileReport] = field(default_factory=dict)
    reports: dict[tuple[str, str], JudgeReport] = field(default_factory=dict)
    programs: dict[str, tuple[Solution, int]] = field(default_factory=dict)  # every judged program, by key
    checker: Solution | None = None  # the checker the test designer wrote and the samples vetted (agents/answers.py)
    interactor: WrittenInteractor | None = None  # the interactor and its tests' data, written and vetted the same way
    doubt: str = ""  # why the evidence conflicts, so that no answer of this solve is called solved (selection)
    inputs: SolveInputs = field(default_factory=SolveInputs)  # validation, drops, bound coverage (agents/inputs.py)
    # why the solve had no agreeing oracle ("" when it had one, or never looked for one): no brute force, one that
    # no independent program confirmed, brute forces that disagree with no majority, stress inputs they disagreed
    # on. An answer stressed against no agreeing oracle is not verified (agents/oracle.py)
    no_agreeing_oracle: str = ""
    # why a part of the gate did not run ("stress", "profile", "selection" -> the reason), for an unverified answer
    skipped: dict[str, str] = field(default_factory=dict)

    def report_for(self, solution: Solution, tests: Sequence[TestCase]) -> JudgeReport | None:
        """The report of `solution` on exactly `tests`, if it was judged on them."""
        return self.reports.get((source_key(solution), tests_key(tests)))


_NOT_RUN = {"stress": "not stressed", "profile": "not profiled", "selection": "no selection"}


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
    # every solve judges in a sandbox: the process-wide one unless the caller shares its own
    sandbox: Sandbox = field(default_factory=default_sandbox)
    best: BestAttempt = field(default_factory=BestAttempt)
    knowledge: KnowledgePool = field(default_factory=KnowledgePool)
    evidence: Evidence = field(default_factory=Evidence)
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

    def skip(self, part: str, why: str, **data: Any) -> None:
        """Trace that a part of the gate ("stress", "profile", "selection") did not run, and keep why: an answer
        without that evidence is returned unverified, with the reason."""
        self.evidence.skipped[part] = why
        self.note(_NOT_RUN.get(part, f"no {part}"), why=why, **data)

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
        judged = list(self.problem.samples) if tests is None else list(tests)
        self.evidence.reports[(source_key(attempt.solution()), tests_key(judged))] = report
        self.evidence.programs.setdefault(source_key(attempt.solution()), (attempt.solution(), iteration))
        self.offer(attempt, iteration, report, branch=branch)
        summary = "accepted" if report.verdict == Verdict.AC else report.reason or str(report.verdict)
        self.send(JudgeFeedback(report=report, code_iteration=iteration, summary=summary), sender="judge")
        return report

    def offer(
        self,
        attempt: CodeAttempt,
        iteration: int,
        report: JudgeReport,
        *,
        profile: ProfileReport | None = None,
        branch: str = "",
        wins_ties: bool = False,
    ) -> None:
        """Offer a judged (and maybe profiled) attempt to the best-attempt keeper (`wins_ties`: the strategy
        prefers it to an equally good earlier one)."""
        tokens = self.tracker.snapshot().usage.total_tokens
        self.best.offer(
            Attempt(
                iteration=iteration,
                solution=attempt.solution(),
                report=report,
                profile=profile,
                tokens=tokens,
                branch=branch,
            ),
            wins_ties=wins_ties,
        )

    def adopt_tests(
        self, tests: Sequence[TestCase], *, generator: Solution | None = None, brute: Solution | None = None
    ) -> None:
        """Record validated generated tests (and the generator and brute force that passed their checks)."""
        self.evidence.tests.extend(tests)
        self.evidence.generator = generator or self.evidence.generator
        self.evidence.brute = self.evidence.brute or brute
        if brute is not None and source_key(brute) not in {source_key(b) for b in self.evidence.brutes}:
            self.evidence.brutes.append(brute)

    def add_stress_case(self, failure: StressFailure) -> TestCase:
        """A stress counterexample as a new test (the brute force's output is the answer); recorded."""
        number = sum(t.origin == "stress" for t in self.evidence.tests) + 1
        case = TestCase(input=failure.input, output=failure.expected, origin="stress", name=f"stress-{number}")
        self.evidence.tests.append(case)
        return case

    def record_stress(self, attempt: CodeAttempt, report: StressReport, iteration: int) -> None:
        """Trace a stress report and keep it as evidence about `attempt`."""
        self.evidence.stress[source_key(attempt.solution())] = report
        self.tracer.emit(ReportEvent.of(report, task_id=self.task_id, iteration=iteration))

    def record_profile(self, attempt: CodeAttempt, profile: ProfileReport, iteration: int) -> None:
        """Trace a profile, keep it as evidence about `attempt`, and re-offer the attempt with it."""
        self.evidence.profiles[source_key(attempt.solution())] = profile
        self.tracer.emit(ReportEvent.of(profile, task_id=self.task_id, iteration=iteration))
        for report in (r for (src, _), r in self.evidence.reports.items() if src == source_key(attempt.solution())):
            self.offer(attempt, iteration, report, profile=profile)


class Strategy(Protocol):
    """A solve workflow: `run` drives the roles and returns why it stopped."""

    name: str

    def run(self, ctx: SolveContext) -> str:
        """Solve `ctx.problem`; the best attempt is in `ctx.best`. May raise `BudgetExhausted`."""
        ...


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
