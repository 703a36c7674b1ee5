"""What every site offers cpbot: one object per site (`cpbot.scrapers.<site>.site.SITE`) implements `Site`.

A site recognises its URLs and saved pages, fetches and parses its problems, lists its contests and
their problems, reads its standings, builds its HTTP client and hands out its submit protocol
(`cpbot.scrapers.submission.SubmitProtocol`), which the bot layer wraps with the ledger and the gate:
the scrapers never import the bot. `cpbot.scrapers.sites` looks the objects up by name, URL or content.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from cpbot.core.errors import ConfigError, SubmitError
from cpbot.core.registry import SiteSpec
from cpbot.judge.model import Problem
from cpbot.scrapers.listing import Contest, ContestProblem

if TYPE_CHECKING:  # imported by the methods that need them, so that the lookups stay cheap
    from pathlib import Path

    import httpx

    from cpbot.scrapers.http import HttpClient
    from cpbot.scrapers.ranklist import Ranklist
    from cpbot.scrapers.scored import Placing
    from cpbot.scrapers.submission import SubmitProtocol


@dataclass(frozen=True)
class ProblemName:
    """What cpbot calls a problem of a site: its id, its index in the contest and its title."""

    id: str
    index: str | None
    title: str


class Site(ABC):
    """One competitive-programming site. Subclasses set `spec` and implement the abstract methods."""

    spec: SiteSpec
    # The cookies a login stores when no cookies.txt is given (asked for by `cpbot login`).
    session_cookies: tuple[str, ...] = ()
    # The least time between two requests to the site (its API's published limit, or a courtesy).
    min_interval_s: float = 1.0

    @property
    def name(self) -> str:
        """The site's name in problem ids, state and config ("codeforces")."""
        return self.spec.name

    @property
    def title(self) -> str:
        """The site's name for people ("Codeforces")."""
        return self.spec.title

    @property
    def password_login(self) -> bool:
        """Whether the site's submitter can log in with a handle and password."""
        return self.spec.password_login

    # ---- recognising ----

    @abstractmethod
    def owns_url(self, url: str) -> bool:
        """True when `url` is on this site (any of its hosts), whatever the page."""

    @abstractmethod
    def owns_content(self, data: bytes) -> bool:
        """True when `data` is a page saved from this site or an answer of its API."""

    @abstractmethod
    def name_problem(self, url: str, shown_name: str) -> ProblemName | None:
        """The id, index and title of the problem at `url` whose name the site shows as `shown_name`
        (what Competitive Companion sends), or None when `url` is no problem of this site."""

    def rate_bucket(self, host: str) -> str | None:
        """The rate-limit bucket of `host` when the host is this site's (mirrors share one), else None."""
        return self.spec.domain if self.owns_url(f"https://{host}/") else None

    # ---- problems ----

    @abstractmethod
    def fetch_problems(self, url: str, client: HttpClient) -> list[Problem]:
        """The problem at `url` (or, for a contest URL, every problem of the contest)."""

    @abstractmethod
    def parse_problems(self, data: bytes, url: str | None = None) -> list[Problem]:
        """The problems in saved content (`url`, the page's address, gives their ids)."""

    # ---- contests ----

    @abstractmethod
    def upcoming_contests(self, client: HttpClient, now: datetime) -> list[Contest]:
        """Contests that have not ended yet (running ones included), soonest first."""

    @abstractmethod
    def recent_contests(self, client: HttpClient, now: datetime, limit: int = 10) -> list[Contest]:
        """The latest contests that have ended, newest first."""

    @abstractmethod
    def find_contest(self, contest_id: str, client: HttpClient, now: datetime) -> Contest:
        """One contest by its id on the site, finished ones included; `ConfigError` when unknown."""

    @abstractmethod
    def contest_problems(self, contest_id: str, client: HttpClient, now: datetime) -> list[ContestProblem]:
        """The problem list of one contest (an error or nothing before it starts)."""

    # ---- HTTP ----

    def transport(self) -> httpx.BaseTransport | None:
        """How the site's requests travel; None: plain HTTP(S) through httpx.

        The client factory (`cpbot.scrapers.endpoints.site_client`) asks every site, so a site
        behind a browser check can hand over a transport of its own here.
        """
        return None

    @abstractmethod
    def practice_open(self, contest_id: str, client: HttpClient, now: datetime) -> bool:
        """Whether the site takes practice submissions for a contest that has ended (Codeforces only once
        system testing is over)."""

    @abstractmethod
    def ranklist(self, contest_id: str, client: HttpClient, now: datetime) -> Ranklist:
        """The contest's official ranking (see `cpbot.scrapers.ranklist.Ranklist`)."""

    def count_ahead(self, ranklist: Ranklist, points: float, penalty: float, client: HttpClient) -> int:
        """How many official participants finish ahead of a result of `points` and `penalty`; by default
        counted over `ranklist.rows` (a site whose ranking comes in pages searches them instead)."""
        from cpbot.scrapers.ranklist import ahead

        return sum(ahead(r, points, penalty) for r in ranklist.rows)

    # ---- submitting ----

    def submit_protocol(
        self, client: HttpClient, *, handle: str | None = None, password: str | None = None
    ) -> SubmitProtocol:
        """How cpbot posts to this site over `client` (which carries the session cookies); `handle` and
        `password` are for sites that can log in with them (`password_login`). By default a site takes
        no submissions from cpbot."""
        raise SubmitError(
            f"cpbot cannot submit to {self.title}", hint=f"submit from the browser at {self.spec.base_url}"
        )

    def performance(
        self, ranklist: Ranklist, points: float, penalty: float, client: HttpClient
    ) -> tuple[int, str, list[str]] | None:
        """The site's own performance figure for a result in `ranklist` (value, note, assumptions), or None
        when the rows' ratings give it (Codeforces' formula, `bot.watch.standing`)."""
        return None

    def solvable(self, contest: Contest) -> bool:
        """Whether cpbot works on this contest when watching (False: listed only)."""
        return True

    # ---- score-based (heuristic) contests: `bot/watch/heuristic.py` asks these ----

    def scored_contest(self, contest_id: str, name: str = "") -> bool:
        """Whether the contest's problems are score-based (a heuristic contest): `cpbot watch` works on it with a
        scored strategy until its end (`bot/watch/heuristic.py`) rather than problem by problem."""
        return False

    def fetch_tools(self, problem: Problem, folder: Path, client: HttpClient) -> Problem:
        """`problem` with the contest's local tools (generator, scorer) downloaded into `folder` and named in its
        `heuristic` spec, relative to `folder`."""
        raise ConfigError(f"cpbot cannot fetch the tools of {self.title}'s contests")

    def submit_interval_s(self, duration_s: float) -> float:
        """The wait the site sets between two submissions in a score-based contest of this length."""
        return 0.0

    def place_score(self, contest_id: str, total: float, *, relative: bool, client: HttpClient) -> Placing | None:
        """Where a total would rank in the contest's final standings and its performance; None while the
        final standings are not out."""
        raise ConfigError(f"cpbot cannot rank a score in {self.title}'s contests")

    def closed_to_ai(self, contest_id: str, name: str = "") -> str | None:
        """Why the site's rules close a live contest to AI-written code whatever the user lists (a sentence),
        or None; asked for sites whose rule is `LiveAiRule.LISTED`."""
        return None

    def unknown_contest(self, contest_id: str) -> ConfigError:
        """The error for a contest id the site does not list."""
        return ConfigError(
            f"{self.name} lists no contest {contest_id!r}", hint=f"`cpbot contests --site {self.name}` shows them"
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
