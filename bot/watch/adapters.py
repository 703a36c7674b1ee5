"""The real implementations of the contest loop's ports: the scrapers, the agents and a site's submitter."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from cpbot.agents.budget import Budget
from cpbot.agents.chat import ChatModel
from cpbot.agents.solve import SolveResult, solve
from cpbot.agents.strategies.base import KnowledgePool
from cpbot.agents.tracing import Tracer
from cpbot.bot.submit.base import (
    RemoteVerdict,
    SubmitError,
    Submitter,
)
from cpbot.bot.submit.ledger import LedgerEntry, SubmissionLedger
from cpbot.bot.watch.standing import ShadowProblem, Standing, compute_standing
from cpbot.bot.watch.state import ContestRow, ProblemRow
from cpbot.core.errors import ParseError
from cpbot.judge.model import Language, Problem, Solution
from cpbot.judge.sandbox import Sandbox
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.listing import ContestProblem
from cpbot.scrapers.sites import fetch_url, get_site


class ScrapedSite:
    """A contest's problems through the scrapers (Codeforces API + pages, LeetCode contest info + GraphQL)."""

    def __init__(self, client: HttpClient, now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.client = client
        self.now = now
        self._lock = threading.Lock()  # one request at a time: the sites' rate limits are per client

    def problems(self, contest: ContestRow) -> list[ContestProblem]:
        """The contest's problem list (an error until the contest has started)."""
        with self._lock:
            found = get_site(contest.site).contest_problems(contest.contest_id, self.client, self.now())
        if not found:
            raise ParseError(f"{contest.url} lists no problems yet", hint="cpbot retries until they are published")
        return found

    def practice_open(self, contest: ContestRow) -> bool:
        """Whether the site takes practice submissions for the contest now that it is over."""
        with self._lock:
            return get_site(contest.site).practice_open(contest.contest_id, self.client, self.now())

    def standing(self, contest: ContestRow, problems: list[ShadowProblem]) -> Standing:
        """The standing `problems` (the shadow result) would have had in the contest's official ranking."""
        site = get_site(contest.site)
        with self._lock:
            ranklist = site.ranklist(contest.contest_id, self.client, self.now())
        scored = [p.model_copy(update={"max_points": ranklist.max_points.get(p.index, p.max_points)}) for p in problems]

        def rank_of(points: float, penalty: float) -> int:
            with self._lock:
                return 1 + site.count_ahead(ranklist, points, penalty, self.client)

        standing = compute_standing(
            ranklist.scoring,
            scored,
            ranklist.rows,
            duration_s=ranklist.duration_s or contest.duration_s,
            total_participants=ranklist.participants,
            rank_of=rank_of,
        )
        with self._lock:  # a site with a performance figure of its own (AtCoder's) gives it here
            own = site.performance(ranklist, standing.points, standing.penalty, self.client)
        if own is not None:
            value, note, assumptions = own
            standing = standing.model_copy(
                update={
                    "performance": value,
                    "performance_note": note,
                    "assumptions": standing.assumptions + assumptions,
                }
            )
        return standing

    def fetch(self, problem: ProblemRow) -> Problem:
        """The problem's statement, limits and samples."""
        with self._lock:
            found = fetch_url(problem.url, self.client)
        for p in found:
            if p.id == problem.problem_id or (problem.index and p.index == problem.index):
                return p
        if len(found) == 1:
            return found[0]
        raise ParseError(f"{problem.url} does not hold problem {problem.problem_id}")


class AgentSolver:
    """`agents.solve` with one strategy (and its options), language and model, judging in a shared sandbox."""

    def __init__(
        self,
        model: ChatModel,
        *,
        strategy: str,
        language: Language,
        sandbox: Sandbox | None,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.model = model
        self.strategy = strategy
        self.language: Language = language
        self.sandbox = sandbox
        self.options = dict(options or {})  # the strategy's own options (e.g. cpbot's max_n)

    def __call__(self, problem: Problem, budget: Budget, tracer: Tracer, knowledge: KnowledgePool) -> SolveResult:
        """Solve one problem under `budget`, tracing into the solve's own run."""
        return solve(
            problem,
            strategy=self.strategy,
            language=self.language,
            model=self.model,
            budget=budget,
            tracer=tracer,
            sandbox=self.sandbox,
            knowledge=knowledge,
            options=self.options,
        )


class LedgerSubmitter:
    """A site's `Submitter` as the loop uses it: a source the ledger already holds as posted is adopted
    (the process died after the POST), a too-early post waits its turn, and verdicts are awaited."""

    def __init__(
        self,
        make: Callable[[Problem], Submitter],
        ledger: SubmissionLedger,
        *,
        verdict_timeout_s: float = 600.0,
        poll_interval_s: float = 2.0,
        stop: threading.Event | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.make = make
        self.ledger = ledger
        self._submitters: dict[str, Submitter] = {}
        self._make_lock = threading.Lock()
        self.verdict_timeout_s = verdict_timeout_s
        self.poll_interval_s = poll_interval_s
        self.stop = stop or threading.Event()
        self.sleep = sleep
        self._lock = threading.Lock()  # one post at a time, so the minimum interval holds in this process

    def submitter(self, problem: Problem) -> Submitter:
        """The submitter of the problem's site (made on first use)."""
        with self._make_lock:
            if problem.site not in self._submitters:
                self._submitters[problem.site] = self.make(problem)
            return self._submitters[problem.site]

    def submit(self, problem: Problem, solution: Solution) -> LedgerEntry:
        """Post `solution` once; returns the ledger's row of the post (an earlier post of it is adopted)."""
        with self._lock:
            submission_id = self.submitter(problem).post_once(problem, solution, stop=self.stop)
            entry = self.ledger.find(problem.site, submission_id)
            if entry is None:
                raise SubmitError(
                    f"submission {submission_id} of {problem.id} was posted but is not in the ledger",
                    hint="this is a bug in cpbot's submitter for the site",
                )
            return entry

    def wait(self, problem: Problem, submission_id: str) -> RemoteVerdict:
        """The final verdict, or the last one seen after `verdict_timeout_s`."""
        return self.submitter(problem).wait(
            problem, submission_id, timeout_s=self.verdict_timeout_s, interval_s=self.poll_interval_s
        )

    def url(self, problem: Problem, submission_id: str) -> str:
        """The submission's page on the site."""
        return self.submitter(problem).submission_url(problem, submission_id)
