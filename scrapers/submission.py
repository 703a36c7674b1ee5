"""What a site's submit protocol offers, the remote verdict it reports, and the errors it answers with.

Each site package owns its protocol (`scrapers/<site>/submit.py`, reached through `Site.submit_protocol`):
how to post a solution, how to read one verdict, which submissions the account made lately and their
sources. What cpbot does around a post - the gate, the ledger (never the same source twice, a minimum
interval), settling intents a crash left (`reconcile`) - is the bot layer's, the same for every site
(`cpbot.bot.submit`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Set
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cpbot.core.errors import SubmitError
from cpbot.core.registry import SITE_ALIASES, SITES
from cpbot.judge.model import SCHEMA_VERSION, Problem, Solution, Verdict

COOKIES_HINT = (
    "export your browser's cookies for {site} (a Netscape cookies.txt, including cf_clearance where "
    "present) and pass them with `--cookies cookies.txt` or CPBOT_COOKIES"
)
CAPTCHA_HINT = (
    "the site wants a human check: let cpbot submit through a real browser (`cpbot login --browser --site "
    "{site}` once, then `--browser`; README: Browser transport); or open {site} in your browser, pass the "
    "check, then export the browser's cookies again (--cookies cookies.txt); or submit from the browser and "
    "use `cpbot listen` with Competitive Companion"
)


class LoginRequired(SubmitError):
    """The site showed a login page: the session is missing or expired."""

    def __init__(self, site: str, detail: str = "") -> None:
        message = f"{site} asks for a login" + (f" ({detail})" if detail else "")
        hint = COOKIES_HINT.format(site=site)
        known = SITES.get(SITE_ALIASES.get(site.strip().lower(), ""))
        if known is not None and known.password_login:
            hint += f", or store a handle and password with `cpbot login --site {known.name} --handle NAME`"
        super().__init__(message, hint=hint)


class CaptchaRequired(SubmitError):
    """The site answered with a captcha or an anti-bot challenge instead of the page."""

    def __init__(self, site: str, detail: str = "") -> None:
        super().__init__(
            f"{site} answered with a captcha or challenge page" + (f" ({detail})" if detail else ""),
            hint=CAPTCHA_HINT.format(site=site),
        )


class DuplicateSubmission(SubmitError):
    """This exact source was already submitted for this problem (refused locally, nothing posted)."""


class SubmitTooSoon(SubmitError):
    """The minimum interval since the previous submission has not passed yet."""

    def __init__(self, message: str, wait_s: float) -> None:
        super().__init__(message, hint=f"wait {wait_s:.0f} s and try again")
        self.wait_s = wait_s


class PostUncertain(SubmitError):
    """The post may or may not have reached the site: the intent stays in the ledger for `reconcile`."""


class RemoteVerdict(BaseModel):
    """The site's verdict on one submission, as last seen; `final` once the site stopped judging."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    site: str
    submission_id: str
    problem_id: str
    verdict: Verdict | None = None  # None while queued or testing, or for verdicts cpbot cannot map
    final: bool = False
    status_text: str = ""  # the site's own words: "WRONG_ANSWER", "Wrong Answer", "TESTING"
    failed_test: int | None = None  # 1-based number of the first failing test, when the site says
    passed_tests: int | None = None
    total_tests: int | None = None
    time_ms: int | None = None
    memory_kb: int | None = None
    raw: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class ListedSubmission:
    """One submission the site lists for the account (what `reconcile` compares a pending intent with)."""

    submission_id: str
    problem_id: str
    created_unix: float
    raw: dict[str, Any] = field(default_factory=dict)  # the site's own entry, for `source_of`


@dataclass(frozen=True)
class Post:
    """A prepared submission: `post(known)` sends it and, given the submission ids the ledger already
    knows, returns the new id. It says what a person confirms first: the site's language option the form
    chose and the account whose session posts it (empty where the site does not say)."""

    send: Callable[[Set[str]], str]
    option: str = ""
    account: str = ""

    def __call__(self, known: Set[str]) -> str:
        return self.send(known)


class SubmitProtocol(ABC):
    """One site's way of submitting, over an HTTP client that carries the session."""

    site: str

    @abstractmethod
    def prepare(self, problem: Problem, solution: Solution) -> Post:
        """Everything before the POST (forms, ids, a login); the returned `Post` sends it. Errors raised
        by the `Post` drop the ledger's intent, except `PostUncertain` and a transport failure."""

    @abstractmethod
    def poll(self, problem: Problem, submission_id: str) -> RemoteVerdict | None:
        """The site's verdict on `submission_id` now; None when the site does not list it (yet)."""

    @abstractmethod
    def listed(self, problem_ids: Set[str]) -> list[ListedSubmission]:
        """The account's recent submissions to the problems `problem_ids`, newest first."""

    @abstractmethod
    def source_of(self, listed: ListedSubmission) -> str | None:
        """The source of a listed submission, None when the site does not show it."""

    @abstractmethod
    def submission_url(self, problem: Problem, submission_id: str) -> str:
        """Where a person can look at the submission."""

    @abstractmethod
    def close(self) -> None:
        """Release the HTTP session."""
