"""What a solve may spend (LLM calls, tokens, wall seconds), what it has spent, and its best attempt so far.

One `BudgetTracker` is shared by every branch of a solve, from any thread. A call is counted when it
starts (so concurrent branches cannot overrun the call limit); its tokens are charged when it ends,
so the token limit can be passed by at most the calls in flight. When anything runs out the tracker
names the reason, and `BestAttempt` gives the answer to return with it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field

from cpbot.agents.envelopes import FinalAnswer
from cpbot.core.errors import CpbotError
from cpbot.judge.model import JudgeReport, ProfileReport, Solution, Verdict


class Usage(BaseModel):
    """Tokens of one or more LLM calls; `estimated` when a server reported none and cpbot counted."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    prompt_tokens: int = Field(0, ge=0)
    completion_tokens: int = Field(0, ge=0)
    # part of completion_tokens (OpenAI's accounting), kept apart because it is invisible in the reply
    reasoning_tokens: int = Field(0, ge=0)
    estimated: bool = False

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            reasoning_tokens=self.reasoning_tokens + other.reasoning_tokens,
            estimated=self.estimated or other.estimated,
        )


class Budget(BaseModel):
    """The limits of one solve; None means unlimited."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_calls: int | None = Field(40, ge=1)
    max_tokens: int | None = Field(500_000, ge=1)
    max_seconds: float | None = Field(900.0, gt=0)


class BudgetSnapshot(BaseModel):
    """What a solve has spent so far, and why it must stop (empty while it may go on)."""

    calls: int
    usage: Usage
    elapsed_s: float
    exhausted: str = ""


class BudgetExhausted(CpbotError):
    """Raised when a solve asks for more than its budget allows; `reason` names the limit."""

    def __init__(self, reason: str) -> None:
        super().__init__(
            f"budget exhausted: {reason}", hint="raise the limit (--max-calls, --budget-tokens, --max-seconds)"
        )
        self.reason = reason


class BudgetTracker:
    """Counts the calls, tokens and seconds of one solve against its `Budget`; thread-safe."""

    def __init__(self, budget: Budget | None = None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.budget = budget or Budget()
        self._clock = clock
        self._started = clock()
        self._lock = threading.Lock()
        self._calls = 0
        self._usage = Usage()

    def _reason(self) -> str:
        b = self.budget
        if b.max_calls is not None and self._calls >= b.max_calls:
            return f"LLM calls: used {self._calls} of {b.max_calls}"
        if b.max_tokens is not None and self._usage.total_tokens >= b.max_tokens:
            return f"tokens: used {self._usage.total_tokens:,} of {b.max_tokens:,}"
        elapsed = self._clock() - self._started
        if b.max_seconds is not None and elapsed >= b.max_seconds:
            return f"wall time: {elapsed:.1f} s of {b.max_seconds:g} s"
        return ""

    def start_call(self) -> None:
        """Count one LLM call, or raise `BudgetExhausted` if no more are allowed."""
        with self._lock:
            reason = self._reason()
            if reason:
                raise BudgetExhausted(reason)
            self._calls += 1

    def charge(self, usage: Usage) -> None:
        """Add the tokens of a finished call."""
        with self._lock:
            self._usage = self._usage + usage

    def exhausted(self) -> str:
        """Why the solve must stop, or "" while it may go on."""
        with self._lock:
            return self._reason()

    def check(self) -> None:
        """Raise `BudgetExhausted` if any limit is reached."""
        reason = self.exhausted()
        if reason:
            raise BudgetExhausted(reason)

    def remaining_seconds(self) -> float | None:
        """Wall seconds left (never negative), None when time is unlimited."""
        if self.budget.max_seconds is None:
            return None
        return max(0.0, self.budget.max_seconds - (self._clock() - self._started))

    def snapshot(self) -> BudgetSnapshot:
        """The spending so far."""
        with self._lock:
            return BudgetSnapshot(
                calls=self._calls,
                usage=self._usage,
                elapsed_s=round(self._clock() - self._started, 3),
                exhausted=self._reason(),
            )


class Attempt(BaseModel):
    """A candidate program and what is known about it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    iteration: int = Field(ge=0)
    solution: Solution
    report: JudgeReport | None = None
    profile: ProfileReport | None = None
    tokens: int = Field(0, ge=0)  # spent to produce it
    branch: str = ""
    refuted: str = ""  # evidence beyond `report` that the program is wrong (a failing generated test, stress)

    @property
    def accepted(self) -> bool:
        return self.report is not None and self.report.accepted and not self.refuted


def efficiency(attempt: Attempt) -> int:
    """1 when a profile says the attempt fits the limits, -1 when a profile says it does not or a test ran
    out of time or memory, 0 when nothing is known (SwiftSolve's EFF: correct is not enough)."""
    report, profile = attempt.report, attempt.profile
    if report is not None and any(r.verdict in (Verdict.TLE, Verdict.MLE) for r in report.results):
        return -1
    if profile is None or profile.efficient is None:
        return 0
    return 1 if profile.efficient else -1


def _rank(attempt: Attempt) -> tuple[int, int, int]:
    # most tests passed, then efficiency, then fewer tokens; an attempt never judged ranks below every judged one
    passed = attempt.report.passed if attempt.report is not None else -1
    return (passed, efficiency(attempt), -attempt.tokens)


class BestAttempt:
    """Keeps the best attempt offered so far: most tests passed, then the efficient one (see `efficiency`),
    then fewer tokens; the earlier wins ties."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._best: Attempt | None = None

    def offer(self, attempt: Attempt, *, wins_ties: bool = False) -> bool:
        """Consider `attempt`; True if it is now the best. With `wins_ties` it also replaces an equally
        ranked best (a strategy's deliberate choice, e.g. an optimized program that passes the same tests)."""
        with self._lock:
            if self._best is None or _rank(attempt) > _rank(self._best):
                self._best = attempt
                return True
            if wins_ties and _rank(attempt)[:2] == _rank(self._best)[:2]:
                self._best = attempt
                return True
            return False

    @property
    def best(self) -> Attempt | None:
        with self._lock:
            return self._best

    def final_answer(self, reason: str, *, tracker: BudgetTracker | None = None) -> FinalAnswer:
        """The answer to return now: solved if the best is accepted, else the best so far, else failed."""
        best = self.best
        spent = tracker.snapshot() if tracker is not None else None
        totals = {"llm_calls": spent.calls, "tokens": spent.usage.total_tokens} if spent else {}
        if best is None:
            return FinalAnswer(status="failed", reason=reason, **totals)
        return FinalAnswer(
            status="solved" if best.accepted else "best_effort",
            reason=reason,
            solution=best.solution,
            report=best.report,
            profile=best.profile,
            code_iteration=best.iteration,
            **totals,
        )
