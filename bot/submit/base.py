"""What every site's submitter offers, the remote verdict it reports, and the errors it raises."""

from __future__ import annotations

import hashlib
import importlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from cpbot.core.errors import SubmitError
from cpbot.judge.model import SCHEMA_VERSION, Problem, Solution, Verdict
from cpbot.scrapers.sites import find_site

if TYPE_CHECKING:
    from cpbot.bot.submit.ledger import SubmissionLedger
    from cpbot.scrapers.http import HttpClient

__all__ = [
    "CaptchaRequired",
    "DuplicateSubmission",
    "LoginRequired",
    "RemoteVerdict",
    "SubmissionRecord",
    "SubmitError",
    "SubmitTooSoon",
    "Submitter",
    "SubmitterFactory",
    "source_sha256",
    "submitter_for",
    "wait_for_verdict",
]

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
        known = find_site(site)
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


class SubmissionRecord(BaseModel):
    """One posted submission, as the transcript's "submission" event stores it."""

    model_config = ConfigDict(extra="forbid")

    submission_id: str
    problem_id: str
    language: str
    source_sha256: str
    url: str | None = None


class Submitter(Protocol):
    """One site's submitter: posts a solution and follows its verdict."""

    site: str

    def submit(self, problem: Problem, solution: Solution) -> str:
        """Post `solution` for `problem` (through the ledger); return the site's submission id."""
        ...

    def poll(self, problem: Problem, submission_id: str) -> RemoteVerdict:
        """Ask the site once for the verdict of `submission_id`."""
        ...

    def wait(self, problem: Problem, submission_id: str, *, timeout_s: float, interval_s: float) -> RemoteVerdict:
        """Poll until the verdict is final or `timeout_s` passes (then the last, non-final verdict)."""
        ...

    def submission_url(self, problem: Problem, submission_id: str) -> str:
        """Where a person can look at the submission."""
        ...

    def close(self) -> None:
        """Release the HTTP session."""
        ...


def source_sha256(source: str) -> str:
    """The hash that identifies a source for the "never twice" rule (line endings and trailing space
    ignored, as sites compare)."""
    normal = "\n".join(line.rstrip() for line in source.replace("\r\n", "\n").split("\n")).strip("\n")
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()


def wait_for_verdict(
    poll: Callable[[], RemoteVerdict],
    *,
    timeout_s: float,
    interval_s: float,
    max_interval_s: float | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> RemoteVerdict:
    """Call `poll` until it reports a final verdict or `timeout_s` passes; the interval grows by half
    each time up to `max_interval_s` (default 4 x `interval_s`)."""
    cap = max_interval_s if max_interval_s is not None else 4 * interval_s
    deadline = clock() + timeout_s
    delay = interval_s
    while True:
        verdict = poll()
        if verdict.final:
            return verdict
        left = deadline - clock()
        if left <= 0:
            return verdict
        sleep(min(delay, left))
        delay = min(cap, delay * 1.5)


class SubmitterFactory(Protocol):
    """What a submitter module exposes as `make_submitter`: a site's submitter over a client that
    carries the session cookies, posting through `ledger`; `handle` and `password` are for sites that
    can log in with them (`Site.password_login`)."""

    def __call__(
        self, client: HttpClient, ledger: SubmissionLedger, *, handle: str | None, password: str | None
    ) -> Submitter: ...


def submitter_for(
    problem: Problem,
    *,
    client: HttpClient,
    ledger: SubmissionLedger,
    handle: str | None = None,
    password: str | None = None,
) -> Submitter:
    """The submitter of the problem's site (the module its registry entry names as `submitter`),
    using `client` (an `HttpClient` with the session cookies) and `ledger`."""
    site = find_site(problem.site)
    if site is None:
        raise SubmitError(
            f"cpbot cannot submit {problem.id}: no submitter for site {problem.site!r}",
            hint="submissions go to problems fetched from a site's URL",
        )
    make: SubmitterFactory = importlib.import_module(site.spec.submitter).make_submitter
    return make(client, ledger, handle=handle, password=password)
