"""Fakes of the contest loop's ports: a site whose problems appear after a while, a scripted solver,
and a submitter with a scripted judge that remembers every post."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from cpbot.agents.budget import Budget
from cpbot.agents.solve import SolveResult
from cpbot.agents.strategies.base import KnowledgePool
from cpbot.agents.tracing import NoteEvent, Tracer
from cpbot.bot.submit.base import RemoteVerdict, source_sha256
from cpbot.bot.submit.ledger import LedgerEntry, SubmissionLedger
from cpbot.bot.watch.state import ContestRow, ProblemRow
from cpbot.core.errors import FetchError
from cpbot.judge.model import JudgeReport, Limits, Problem, Solution, TestCase, Verdict
from cpbot.scrapers.listing import ContestProblem


def listed(contest: str, index: str, rating: int | None = None) -> ContestProblem:
    pid = f"codeforces:{contest}{index}"
    url = f"https://codeforces.com/contest/{contest}/problem/{index}"
    return ContestProblem(
        site="codeforces", contest_id=contest, problem_id=pid, index=index, name=f"P{index}", url=url, rating=rating
    )


class FakeSite:
    """Lists `problems`; both the list and the statements fail with FetchError for the first `hidden` calls."""

    def __init__(self, problems: list[ContestProblem], hidden: int = 0) -> None:
        self.listed = problems
        self.hidden = hidden
        self.calls: list[str] = []
        self._lock = threading.Lock()

    def _gate(self, what: str) -> None:
        with self._lock:
            self.calls.append(what)
            if self.hidden > 0:
                self.hidden -= 1
                raise FetchError(f"{what}: the contest has not started")

    def problems(self, contest: ContestRow) -> list[ContestProblem]:
        self._gate("list")
        return self.listed

    def fetch(self, problem: ProblemRow) -> Problem:
        self._gate(problem.problem_id)
        return Problem(
            id=problem.problem_id,
            site="codeforces",
            url=problem.url,
            title=problem.name,
            index=problem.index,
            statement="Print the answer.",
            limits=Limits(time_ms=1000, memory_mb=256),
            samples=[TestCase(input="1\n", output="1\n")],
        )


def accepted_result(problem: Problem, source: str, verdict: Verdict = Verdict.AC) -> SolveResult:
    report = JudgeReport(verdict=verdict, passed=1 if verdict == Verdict.AC else 0, total=1)
    return SolveResult(
        problem_id=problem.id,
        strategy="direct",
        language="python3",
        status="solved" if verdict == Verdict.AC else "best_effort",
        verdict=verdict,
        solution=Solution(language="python3", source=source),
        report=report,
        calls=1,
        tokens=100,
        seconds=0.01,
    )


@dataclass
class FakeSolver:
    """Answers each problem with `programs[problem_id][k]` on its k-th solve (the last one repeats)."""

    programs: dict[str, list[str]]
    seen: list[tuple[str, str, Budget]] = field(default_factory=list)  # (problem id, notes, budget)
    on_solve: Callable[[Problem], None] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, problem: Problem, budget: Budget, tracer: Tracer, knowledge: KnowledgePool) -> SolveResult:
        with self._lock:
            k = sum(1 for pid, _, _ in self.seen if pid == problem.id)
            self.seen.append((problem.id, problem.notes, budget))
        if self.on_solve is not None:
            self.on_solve(problem)
        tracer.emit(NoteEvent(task_id=problem.id, message="fake solve", data={"k": k}))
        options = self.programs[problem.id]
        return accepted_result(problem, options[min(k, len(options) - 1)])


class FakeSubmitter:
    """Judges by `verdicts[source]` (AC by default); keeps every post; posts through `ledger` as a site's
    submitter does, so a source posted before (say, just before a crash) is adopted, not posted again."""

    def __init__(self, ledger: SubmissionLedger, verdicts: dict[str, RemoteVerdict] | None = None) -> None:
        self.ledger = ledger
        self.verdicts = verdicts or {}
        self.posts: list[tuple[str, str]] = []  # (problem id, source)
        self.sources: dict[str, str] = {}  # submission id -> source
        self.crash_after_post = False

    def submit(self, problem: Problem, solution: Solution) -> LedgerEntry:
        sha = source_sha256(solution.source)
        earlier = self.ledger.posted(problem.site, problem.id, sha)
        if earlier is not None:
            return earlier
        row = self.ledger.reserve(problem.site, problem.id, sha, solution.language)
        self.posts.append((problem.id, solution.source))
        submission_id = str(1000 + len(self.posts))
        self.sources[submission_id] = solution.source
        self.ledger.resolve(row, submission_id)
        if self.crash_after_post:
            raise KeyboardInterrupt("killed right after the POST")
        return self.ledger.entry(row)

    def wait(self, problem: Problem, submission_id: str) -> RemoteVerdict:
        found = self.verdicts.get(self.sources[submission_id])
        if found is not None:
            return found.model_copy(update={"submission_id": submission_id, "problem_id": problem.id})
        return RemoteVerdict(
            site="codeforces",
            submission_id=submission_id,
            problem_id=problem.id,
            verdict=Verdict.AC,
            final=True,
            status_text="OK",
        )

    def url(self, problem: Problem, submission_id: str) -> str:
        return f"https://codeforces.com/contest/x/submission/{submission_id}"


def wrong_answer(test: int) -> RemoteVerdict:
    return RemoteVerdict(
        site="codeforces",
        submission_id="",
        problem_id="",
        verdict=Verdict.WA,
        final=True,
        status_text="WRONG_ANSWER",
        failed_test=test,
    )
