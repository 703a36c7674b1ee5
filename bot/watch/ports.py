"""What the contest loop needs from the outside world, as small protocols (so tests can give fakes),
and the options and budget it runs under."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from cpbot.agents.budget import Budget
from cpbot.agents.solve import SolveResult
from cpbot.agents.strategies.base import KnowledgePool
from cpbot.agents.tracing import Tracer
from cpbot.bot.submit.base import RemoteVerdict
from cpbot.bot.submit.gate import GateConfig
from cpbot.bot.submit.ledger import LedgerEntry
from cpbot.bot.watch.standing import ShadowProblem, Standing
from cpbot.bot.watch.state import ContestRow, ProblemRow
from cpbot.core.errors import ConfigError
from cpbot.core.registry import DEFAULT_STRATEGY
from cpbot.judge.model import Language, Problem, Solution
from cpbot.scrapers.listing import ContestProblem


class ContestSite(Protocol):
    """A contest's problems: the list, then each statement (both may fail until the contest starts)."""

    def problems(self, contest: ContestRow) -> list[ContestProblem]:
        """The problem list; raises `CpbotError` (e.g. `FetchError`) while it is not published."""
        ...

    def fetch(self, problem: ProblemRow) -> Problem:
        """One problem's statement, limits and samples."""
        ...

    def practice_open(self, contest: ContestRow) -> bool:
        """Whether the site takes practice submissions for the contest (it has ended, system tests done)."""
        ...

    def standing(self, contest: ContestRow, problems: list[ShadowProblem]) -> Standing:
        """The standing of a shadow result in the contest's official ranking."""
        ...


# problem, budget for this solve, the solve's tracer, the contest's shared knowledge -> result
Solver = Callable[[Problem, Budget, Tracer, KnowledgePool], SolveResult]


class SubmitPort(Protocol):
    """Posting through the ledger and following the verdict."""

    def submit(self, problem: Problem, solution: Solution) -> LedgerEntry:
        """Post once and return the ledger's row of the post (an earlier post of this source is adopted)."""
        ...

    def wait(self, problem: Problem, submission_id: str) -> RemoteVerdict:
        """The final verdict (or the last one seen when the wait times out)."""
        ...

    def url(self, problem: Problem, submission_id: str) -> str:
        """Where a person can look at the submission."""
        ...


class ContestBudget(BaseModel):
    """What one contest may spend in all (None: no limit) and what each solve may spend."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    calls: int | None = Field(400, ge=1)
    tokens: int | None = Field(4_000_000, ge=1)
    seconds: float | None = Field(None, gt=0)  # solving time summed over problems
    attempts: int = Field(4, ge=1)  # finished solves per problem
    solve: Budget = Budget()

    @classmethod
    def parse(cls, text: str) -> ContestBudget:
        """From `--budget`: comma-separated key=value among calls, tokens, seconds, attempts,
        solve-calls, solve-tokens, solve-seconds; `none` lifts a contest-wide limit; `30m`/`2h` for seconds."""
        contest: dict[str, object] = {}
        solve: dict[str, object] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, sep, value = part.partition("=")
            key = key.strip().lower().replace("_", "-")
            if not sep:
                raise ConfigError(f"--budget: {part!r} is not key=value", hint=_BUDGET_HINT)
            target, name = (solve, key[6:]) if key.startswith("solve-") else (contest, key)
            if name not in ("calls", "tokens", "seconds") and not (target is contest and name == "attempts"):
                raise ConfigError(f"--budget: unknown key {key!r}", hint=_BUDGET_HINT)
            target["max_" + name if target is solve else name] = _amount(value.strip(), name, key)
        try:
            return cls(**contest, solve=Budget(**solve))
        except ValueError as e:
            raise ConfigError(f"--budget {text!r}: {e}", hint=_BUDGET_HINT) from e


_BUDGET_HINT = "e.g. --budget tokens=2000000,calls=300,seconds=2h,attempts=4,solve-tokens=300000"
_DURATION = re.compile(r"^(\d+(?:\.\d+)?)\s*(s|m|h)?$")


def _amount(value: str, name: str, key: str) -> float | int | None:
    if value.lower() == "none":
        return None
    if name == "seconds":
        m = _DURATION.match(value.lower())
        if not m:
            raise ConfigError(f"--budget: {key}={value} is not a duration", hint=_BUDGET_HINT)
        return float(m.group(1)) * {"s": 1, "m": 60, "h": 3600}[m.group(2) or "s"]
    try:
        return int(float(value))
    except ValueError as e:
        raise ConfigError(f"--budget: {key}={value} is not a number", hint=_BUDGET_HINT) from e


class LoopOptions(BaseModel):
    """How a contest is worked on."""

    model_config = ConfigDict(extra="forbid")

    strategy: str = DEFAULT_STRATEGY
    strategy_options: dict[str, bool | int | float | str | None] = {}  # passed to the strategy's constructor
    language: Language = "cpp17"
    model: str = ""
    submit: bool = False
    jobs: int = Field(2, ge=1)  # problems solved at once
    budget: ContestBudget = ContestBudget()
    gate: GateConfig = GateConfig()
    fetch_retry_s: float = Field(10.0, gt=0)  # pause between tries while the problems are not published
    # contests whose rules the user says allow AI-written code (`codeforces:1900`): live, not shadow
    ai_allowed: frozenset[str] = frozenset()
    practice_per_problem: int = Field(3, ge=1)  # practice posts per problem after the round, at most
    fetch_timeout_s: float = Field(1800.0, gt=0)  # give up fetching after this long (virtual contests)
    # a heuristic contest after its end: AtCoder publishes the results (each rank's performance) some time after
    # the final standings; looked for first this long after them, each wait twice the last (at most
    # `results_poll_max_s`), for `results_wait_s` in all (0: not looked for; the estimate stands)
    results_poll_s: float = Field(600.0, gt=0)
    results_poll_max_s: float = Field(6 * 3600.0, gt=0)
    results_wait_s: float = Field(48 * 3600.0, ge=0)
