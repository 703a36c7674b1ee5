"""The contest loop: fetch every problem once the contest starts, solve them (easiest first, a few at a
time), gate, submit, follow the verdicts and feed a wrong one back into the next solve.

Every step reads the problem's status from `WatchState`, does one thing and records the next status in
one transaction, so a loop killed at any moment resumes where it stopped when run again. The transcript
store gets a contest run (kind "contest") with one child run per solve, and the events
"contest_state", "gate", "submission" and "remote_verdict".
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

from cpbot.agents.budget import Budget
from cpbot.agents.strategies.base import KnowledgePool, Lesson
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.submit.base import SubmitError, source_sha256
from cpbot.bot.submit.events import GateEvent, RemoteVerdictEvent, SubmissionEvent
from cpbot.bot.submit.gate import GateDecision, GateEvidence, gate
from cpbot.bot.watch.events import ContestStateEvent, RulesEvent, ShadowSubmissionEvent, StandingEvent
from cpbot.bot.watch.ports import ContestSite, LoopOptions, Solver, SubmitPort
from cpbot.bot.watch.rules import Participation, decide
from cpbot.bot.watch.standing import ShadowProblem, Standing
from cpbot.bot.watch.state import (
    CONTEST_ENDED,
    TERMINAL,
    ContestRow,
    ProblemRow,
    ProblemStatus,
    WatchState,
    verdict_detail,
)
from cpbot.core.errors import CpbotError
from cpbot.core.texts import clock
from cpbot.judge.model import Problem, Verdict
from cpbot.scrapers.listing import ContestProblem

_log = logging.getLogger("cpbot.watch")
# a solve left unfinished by a crash still counts, but less: kills must not give a problem up early
_INTERRUPTED_PER_ATTEMPT = 3


class ContestLoop:
    """Works on one watched contest until every problem is settled, the budget is spent, or it ends."""

    def __init__(
        self,
        state: WatchState,
        store: TranscriptStore,
        key: str,
        *,
        site: ContestSite,
        solver: Solver,
        submitter: SubmitPort | None,
        options: LoopOptions,
        stop: threading.Event | None = None,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        say: Callable[[str], None] = lambda line: _log.warning("%s", line),
    ) -> None:
        if options.submit and submitter is None:
            raise ValueError("a submitting loop needs a submitter")
        self.state = state
        self.store = store
        self.key = key
        self.site = site
        self.solver = solver
        self.submitter = submitter
        self.options = options
        self.stop = stop or threading.Event()
        self.now = now
        self.say = say  # what the user must be told (the sites' rules), as it happens
        self.knowledge = KnowledgePool()
        self.run_id = ""
        self._fatal: BaseException | None = None

    # ---- the contest ----

    def run(self) -> ContestRow:
        """Work on the contest; returns its final row. A fatal submit error (login, captcha) stops every
        problem and is raised after the others have stopped."""
        contest = self.state.contest(self.key)
        if contest.status == "done":
            return contest
        self.run_id = self._open_run(contest)
        first = contest.status == "watching"
        contest = self.state.set_contest(self.key, status="running", run_id=self.run_id)
        self._contest_event("started" if first else "resumed")
        contest = self._participation(contest)
        if not self._discover(contest):
            if self.stop.is_set():
                return self._pause()
            return self._close("no problems", "the problem list was never published")
        self._work_on_open_problems()
        if self.stop.is_set():
            return self._pause()
        if self.state.contest(self.key).participation == Participation.SHADOW and not self._after_the_round():
            return self._pause()
        standing = self._standing()
        rows = self.state.problems(self.key)
        solved = sum(p.status == "solved" for p in rows)
        summary = f"{solved}/{len(rows)} solved" + ("" if self.options.submit else " (dry run)")
        if standing is not None:
            summary += f"; in the shadow: rank {standing.rank} of {standing.participants}"
        return self._close("finished", summary)

    def _work_on_open_problems(self) -> None:
        """Drive every problem not settled yet, a few at a time; a fatal error is raised once all stopped."""
        pending = [p for p in self.state.problems(self.key) if p.status not in TERMINAL]
        with ThreadPoolExecutor(self.options.jobs, thread_name_prefix="cpbot-solve") as pool:
            futures = [pool.submit(self._guarded, p.problem_id) for p in pending]
            for f in futures:
                f.result()
        if self._fatal is not None:
            self._contest_event("stopped", detail=str(self._fatal))
            self.store.finish_run(self.run_id, "error", reason=str(self._fatal))
            raise self._fatal

    # ---- the sites' rules: live, shadow, practice ----

    def _participation(self, contest: ContestRow) -> ContestRow:
        """Decide once, at the contest's start, how cpbot may take part (bot/watch/rules.py), and say why."""
        if contest.participation is not None:
            return contest
        running = contest.mode == "live" and not self._ended()
        decision = decide(
            contest.site,
            contest.contest_id,
            running=running,
            gym=contest.gym,
            submit=self.options.submit,
            allowed=self.options.ai_allowed,
            name=contest.name,
        )
        self.store.record(self.run_id, RulesEvent(**dict(decision)))
        for reminder in decision.reminders:
            self.say(f"{contest.key}: {reminder}")
        self._contest_event("rules", detail=f"{decision.participation}: {decision.reason}")
        return self.state.set_contest(self.key, participation=decision.participation.value)

    def _shadow(self, row: ProblemRow) -> bool:
        """Record the submission cpbot would make now, instead of making it (a live round that forbids AI)."""
        if self._ended():
            self._move(row, "given_up", f"{CONTEST_ENDED} before it was gated")
            return False
        contest = self.state.contest(self.key)
        attempt = self.state.last_done_attempt(self.key, row.problem_id)
        assert attempt is not None and attempt.result is not None
        solution = attempt.result.solution
        assert solution is not None
        at_s = (self.now() - contest.start).total_seconds() if contest.start else 0.0
        sha = source_sha256(solution.source)
        detail = f"would have submitted at {clock(at_s)} (nothing is posted during the round)"
        self.state.record_shadow(
            self.key, row.problem_id, attempt.n, at_s=at_s, source_sha=sha, language=solution.language, detail=detail
        )
        shadow = ShadowSubmissionEvent(
            problem_id=row.problem_id, attempt=attempt.n, at_s=at_s, source_sha256=sha, language=solution.language
        )
        self.store.record(self.run_id, shadow)
        self._contest_event("shadowed", row, detail=detail)
        return False

    def _after_the_round(self) -> bool:
        """After a round taken part in in the shadow: wait for its end and, with --submit, for the site to
        take practice submissions; then post the shadow sources as practice (and go on upsolving what the
        site rejects). False when cpbot is stopping."""
        while not self._ended():
            left = self._deadline() or 0.0
            if self.stop.wait(min(self.options.fetch_retry_s, max(0.05, left))):
                return False
        if not self.options.submit:
            return True
        contest = self.state.contest(self.key)
        give_up_at = time.monotonic() + self.options.fetch_timeout_s
        while not self._retry("practice", lambda: self.site.practice_open(contest)):
            if self.stop.is_set():
                return False
            if time.monotonic() >= give_up_at:
                self._contest_event("practice", detail="the site never opened the contest for practice")
                return True
            self.stop.wait(self.options.fetch_retry_s)
        # from now on a practice contest: no deadline, the shadow sources first, then upsolving
        self.state.set_contest(self.key, mode="virtual", participation=Participation.PRACTICE)
        reopened = self.state.reopen_shadowed(self.key) + self.state.reopen_ended(self.key)
        self._contest_event("practice", detail=f"posting as practice: {', '.join(reopened) or 'nothing'}")
        self._work_on_open_problems()
        return not self.stop.is_set()

    def _standing(self) -> Standing | None:
        """The standing the shadow submissions earned, by the verdicts their practice posts got."""
        shadows = self.state.shadows(self.key)
        if not shadows:
            return None
        contest = self.state.contest(self.key)
        problems = []
        for row in self.state.problems(self.key):
            mine = [s for s in shadows if s.problem_id == row.problem_id]
            verdicts = {s.source_sha: s.verdict for s in self.state.submissions(self.key, row.problem_id)}
            problems.append(
                ShadowProblem(
                    index=row.index or row.problem_id,
                    times_s=[s.at_s for s in mine],
                    accepted=[None if verdicts.get(s.source_sha) is None else verdicts[s.source_sha] == Verdict.AC
                              for s in mine],
                )
            )  # fmt: skip
        try:
            standing = self.site.standing(contest, problems)
        except CpbotError as e:
            self._contest_event("standing", detail=f"no standing: {e.message}")
            return None
        self.state.set_contest(self.key, standing=standing)
        self.store.record(self.run_id, StandingEvent(**dict(standing)))
        self._contest_event("standing", detail=f"rank {standing.rank} of {standing.participants}")
        return standing

    def _open_run(self, contest: ContestRow) -> str:
        run_id = contest.run_id
        if run_id is None:
            # a crash right after the run was opened left it unrecorded here: take it over, not a second one
            found = [r for r in self.store.list_runs(limit=None, kind="contest") if r.problem_id == contest.key]
            run_id = found[0].id if found else None
        if run_id is not None:
            self.store.resume_run(run_id)
            return run_id
        return self.store.start_run(
            "contest",
            problem_id=contest.key,
            strategy=self.options.strategy,
            model=self.options.model or None,
            config={
                "contest": contest.model_dump(mode="json"),
                "options": self.options.model_dump(mode="json"),
            },
        )

    def _pause(self) -> ContestRow:
        detail = "cpbot is stopping; a restart resumes the contest"
        self._contest_event("paused", detail=detail)
        self.store.finish_run(self.run_id, "paused", reason=detail)
        return self.state.contest(self.key)

    def _close(self, state: str, detail: str) -> ContestRow:
        spent = self.state.spent(self.key)
        self._contest_event(state, detail=detail)
        self.store.finish_run(self.run_id, "done", reason=detail, totals=spent.model_dump())
        return self.state.set_contest(self.key, status="done", detail=detail)

    def _discover(self, contest: ContestRow) -> bool:
        """Record the contest's problems (retrying until the list is published); False if it never is."""
        if self.state.problems(self.key):
            return True
        listed = self._retry("problem list", lambda: self.site.problems(contest))
        if not listed:
            return False
        self.state.add_problems([row.model_copy(update={"rank": rank}) for rank, row in _ranked(contest.key, listed)])
        self._contest_event("problems", detail=", ".join(p.index or p.problem_id for p in listed))
        return True

    # ---- one problem ----

    def _guarded(self, problem_id: str) -> None:
        try:
            self._drive(problem_id)
        except BaseException as e:
            # e.g. the site wants a login or a captcha: nothing else can be submitted either, so all stop
            _log.error("%s: %s", problem_id, e)
            self._fatal = e
            self.stop.set()

    def _drive(self, problem_id: str) -> None:
        """Step a problem through its statuses until it is settled (or the loop must stop)."""
        steps: dict[str, Callable[[ProblemRow], bool]] = {
            "pending": self._fetch,
            "fetching": self._fetch,
            "solving": self._solve,
            "judged": self._gate,
            "gated": self._submit,
            "shadowed": lambda row: False,  # settled for the round; practice reopens it after
            "submitted": self._await_verdict,
            "verdict": self._follow_verdict,
        }
        while not self.stop.is_set():
            row = self.state.problem(self.key, problem_id)
            if row.status in TERMINAL:
                return
            if not steps[row.status](row):
                return

    def _fetch(self, row: ProblemRow) -> bool:
        self._move(row, "fetching", "fetching the statement")
        problem = self._retry(f"problem {row.index or row.problem_id}", lambda: self.site.fetch(row))
        if problem is None:
            if not self.stop.is_set():
                self._move(row, "given_up", "the statement was never published")
            return False
        self._move(row, "solving", f"fetched: {problem.title}", problem=problem)
        return True

    def _solve(self, row: ProblemRow) -> bool:
        why_not = self._out_of_budget(row)
        if why_not:
            self._move(row, "given_up", why_not)
            return False
        problem = self._problem(row)
        for lost in self.state.interrupt_attempts(self.key, row.problem_id):
            if lost.run_id:
                self.store.finish_run(lost.run_id, "interrupted", reason="cpbot stopped during this solve")
        budget = self._solve_budget()
        child = self.store.start_run(
            "solve",
            problem_id=problem.id,
            strategy=self.options.strategy,
            model=self.options.model or None,
            config={
                "language": self.options.language,
                "strategy_options": self.options.strategy_options,
                "budget": budget.model_dump(),
                "feedback": row.feedback,
            },
            parent=self.run_id,
        )
        attempt = self.state.begin_attempt(self.key, row.problem_id, child)
        self._contest_event("solving", row, detail=f"attempt {attempt.n}")
        try:
            result = self.solver(
                _with_feedback(problem, row.feedback), budget, self.store.tracer(child), self.knowledge
            )
        except CpbotError as e:
            self.store.finish_run(child, "error", reason=e.message)
            self.state.finish_attempt(
                self.key,
                row.problem_id,
                attempt.n,
                result=None,
                calls=0,
                tokens=0,
                seconds=0.0,
                then="solving",
                detail=f"attempt {attempt.n} failed: {e.message}",
            )
            self._contest_event("solving", row, detail=f"attempt {attempt.n} failed: {e.message}")
            self.stop.wait(self.options.fetch_retry_s)  # e.g. the model endpoint is down: do not spin
            return True
        totals = {"calls": result.calls, "tokens": result.tokens, "seconds": result.seconds}
        self.store.finish_run(child, result.status, reason=result.reason, totals=totals)
        then: ProblemStatus = "judged" if result.solution is not None else "solving"
        detail = f"attempt {attempt.n}: {result.status}, {result.verdict or 'no program'}"
        self.state.finish_attempt(
            self.key,
            row.problem_id,
            attempt.n,
            result=result,
            calls=result.calls,
            tokens=result.tokens,
            seconds=result.seconds,
            then=then,
            detail=detail,
        )
        self._contest_event(then, row, detail=detail)
        return True

    def _gate(self, row: ProblemRow) -> bool:
        problem = self._problem(row)
        attempt = self.state.last_done_attempt(self.key, row.problem_id)
        if attempt is None or attempt.result is None:
            self._move(row, "solving", "no finished attempt to gate")
            return True
        result = attempt.result
        assert result.solution is not None  # only a solve with a program moves to judged
        sha = source_sha256(result.solution.source)
        earlier = next((s for s in self.state.submissions(self.key, row.problem_id) if s.source_sha == sha), None)
        if earlier is not None:
            note = (
                f"The program of attempt {attempt.n} is the same as submission {earlier.remote_id}, which the "
                f"judge rejected ({earlier.verdict or 'no verdict'}); it must not be sent again."
            )
            self.state.set_gate(
                self.key,
                row.problem_id,
                attempt.n,
                "{}",
                then="solving",
                detail="same program as a rejected one",
                add_feedback=note,
            )
            self._contest_event("solving", row, detail="same program as a rejected submission")
            return True
        decision = gate(problem, result.solution, GateEvidence.from_solve_result(result), self.options.gate)
        self.store.record(self.run_id, GateEvent.of(decision, attempt.n))
        if decision.allowed:
            self.state.set_gate(
                self.key, row.problem_id, attempt.n, decision.model_dump_json(), then="gated", detail="gate passed"
            )
            self._contest_event("gated", row, detail="gate passed")
            return True
        self.state.set_gate(
            self.key,
            row.problem_id,
            attempt.n,
            decision.model_dump_json(),
            then="solving",
            detail="gate refused: " + "; ".join(decision.reasons),
            add_feedback=_gate_feedback(attempt.n, decision),
        )
        self._contest_event("solving", row, detail="gate refused: " + "; ".join(decision.reasons))
        return True

    def _submit(self, row: ProblemRow) -> bool:
        if self.state.contest(self.key).participation == Participation.SHADOW:
            return self._shadow(row)
        if not self.options.submit:
            return False  # a dry run stops here: everything but the POST was done
        posted = self.state.submissions(self.key, row.problem_id)
        if (
            self.state.contest(self.key).participation == Participation.PRACTICE
            and len(posted) >= self.options.practice_per_problem
        ):
            self._move(row, "given_up", f"{len(posted)} practice submissions made (the limit)")
            return False
        if self._ended():
            self._move(row, "given_up", f"{CONTEST_ENDED} before it was submitted")
            return False
        assert self.submitter is not None
        problem = self._problem(row)
        attempt = self.state.last_done_attempt(self.key, row.problem_id)
        assert attempt is not None and attempt.result is not None
        solution = attempt.result.solution
        assert solution is not None
        entry = self.submitter.submit(problem, solution)
        submission_id = entry.submission_id or ""
        self.state.record_submission(self.key, row.problem_id, attempt.n, entry)
        event = SubmissionEvent(
            problem_id=row.problem_id,
            attempt=attempt.n,
            submission_id=submission_id,
            language=solution.language,
            source_sha256=entry.source_sha256,
            url=self.submitter.url(problem, submission_id),
            practice=self.state.contest(self.key).participation == Participation.PRACTICE,
        )
        self.store.record(self.run_id, event)
        self._contest_event("submitted", row, detail=f"submission {submission_id}")
        return True

    def _await_verdict(self, row: ProblemRow) -> bool:
        assert self.submitter is not None
        problem = self._problem(row)
        sub = self.state.submissions(self.key, row.problem_id)[-1]
        verdict = self.submitter.wait(problem, sub.remote_id)
        while not verdict.final and not self.stop.is_set():
            verdict = self.submitter.wait(problem, sub.remote_id)
        if not verdict.final:
            return False
        detail = verdict_detail(verdict)
        self.state.record_verdict(sub, verdict)
        self.store.record(self.run_id, RemoteVerdictEvent(**dict(verdict)))
        self._contest_event("verdict", row, detail=f"{verdict.verdict or verdict.status_text} {detail}".strip())
        return True

    def _follow_verdict(self, row: ProblemRow) -> bool:
        sub = self.state.submissions(self.key, row.problem_id)[-1]
        if sub.verdict == Verdict.AC:
            self._move(row, "solved", f"accepted (submission {sub.remote_id})")
            return False
        note = (
            f"Submission {sub.remote_id} (attempt {sub.attempt}) passed the local checks but the judge answered "
            f"{sub.verdict}{' ' + sub.detail if sub.detail else ''}. Find the case it misses and fix it."
        )
        self.knowledge.add(Lesson(problem_id=row.problem_id, symptom=f"remote {sub.verdict} {sub.detail}", fix=""))
        self._move(row, "solving", f"remote {sub.verdict}: trying again", add_feedback=note)
        return True

    # ---- helpers ----

    def _move(self, row: ProblemRow, to: ProblemStatus, detail: str, **fields: Any) -> None:
        if self.state.transition(self.key, row.problem_id, to, detail=detail, **fields):
            self._contest_event(to, row, detail=detail)

    def _contest_event(self, state: str, row: ProblemRow | None = None, *, detail: str = "") -> None:
        contest_id = self.key.split(":", 1)[1]
        problem_id = row.problem_id if row is not None else None
        self.store.record(
            self.run_id, ContestStateEvent(contest_id=contest_id, state=state, detail=detail, problem_id=problem_id)
        )

    def _problem(self, row: ProblemRow) -> Problem:
        fresh = self.state.problem(self.key, row.problem_id)
        if fresh.problem is None:
            raise CpbotError(f"{row.problem_id} has no statement stored", hint="this is a bug in cpbot watch")
        return fresh.problem

    def _deadline(self) -> float | None:
        """Seconds left before the contest ends (live contests only)."""
        end = self.state.contest(self.key).end
        return None if end is None else (end - self.now()).total_seconds()

    def _ended(self) -> bool:
        left = self._deadline()
        return left is not None and left <= 0

    def _retry(self, what: str, fetch: Callable[[], Any]) -> Any:
        """`fetch()` until it works, the contest ends, the fetch timeout passes or the loop stops; None then."""
        give_up_at = time.monotonic() + self.options.fetch_timeout_s
        while not self.stop.is_set():
            try:
                return fetch()
            except CpbotError as e:
                if isinstance(e, SubmitError):
                    raise
                left = self._deadline()
                if (left is not None and left <= 0) or time.monotonic() >= give_up_at:
                    _log.warning("%s: giving up: %s", what, e.message)
                    return None
                _log.info("%s not available yet (%s); retrying", what, e.message)
                self.stop.wait(self.options.fetch_retry_s)
        return None

    def _out_of_budget(self, row: ProblemRow) -> str:
        """Why no new solve may start for this problem ("" when one may)."""
        if self._ended():
            return CONTEST_ENDED
        b = self.options.budget
        attempts = self.state.attempts(self.key, row.problem_id)
        finished = sum(a.status == "done" for a in attempts)
        if finished >= b.attempts:
            return f"{finished} attempts made (the limit)"
        if len(attempts) >= b.attempts * _INTERRUPTED_PER_ATTEMPT:
            return f"{len(attempts)} attempts started (the limit, counting interrupted ones)"
        spent = self.state.spent(self.key)
        if b.calls is not None and spent.calls >= b.calls:
            return f"the contest's budget of {b.calls} LLM calls is spent"
        if b.tokens is not None and spent.tokens >= b.tokens:
            return f"the contest's budget of {b.tokens} tokens is spent"
        if b.seconds is not None and spent.seconds >= b.seconds:
            return f"the contest's budget of {b.seconds:g} solving seconds is spent"
        return ""

    def _solve_budget(self) -> Budget:
        """The solve's own budget, cut to what is left of the contest's and of its time."""
        b = self.options.budget
        spent = self.state.spent(self.key)
        calls, tokens, seconds = b.solve.max_calls, b.solve.max_tokens, b.solve.max_seconds
        if b.calls is not None:
            calls = min(calls or b.calls, max(1, b.calls - spent.calls))
        if b.tokens is not None:
            tokens = min(tokens or b.tokens, max(1, b.tokens - spent.tokens))
        if b.seconds is not None:
            seconds = min(seconds or b.seconds, max(1.0, b.seconds - spent.seconds))
        left = self._deadline()
        if left is not None:
            seconds = min(seconds or left, max(1.0, left))
        return Budget(max_calls=calls, max_tokens=tokens, max_seconds=seconds)


def _ranked(key: str, listed: list[ContestProblem]) -> list[tuple[float, ProblemRow]]:
    """Easiest first: by rating (Codeforces) or points (LeetCode) when known, then in the listed order."""
    out = []
    for position, p in enumerate(listed):
        weight = p.rating or p.points or 0
        row = ProblemRow(contest_key=key, problem_id=p.problem_id, index=p.index, name=p.name, url=p.url)
        out.append((float(weight) * 1000 + position, row))
    return out


def _with_feedback(problem: Problem, feedback: list[str]) -> Problem:
    """The problem as the next solve sees it: what earlier attempts taught, appended to its notes."""
    if not feedback:
        return problem
    lines = "\n".join(f"- {item}" for item in feedback)
    notes = f"{problem.notes.rstrip()}\n\n## What earlier attempts at this problem taught\n{lines}\n".lstrip()
    return problem.model_copy(update={"notes": notes})


def _gate_feedback(n: int, decision: GateDecision) -> str:
    return f"The program of attempt {n} failed cpbot's local checks: " + "; ".join(decision.reasons)
