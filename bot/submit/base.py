"""What every site's submitter offers: a site's submit protocol wrapped with the ledger.

`SiteSubmitter` is the one submitter: it posts through the site's protocol (`Site.submit_protocol`,
in the site's package) and keeps the `SubmissionLedger` true around each post, settling the intents a
crash left with one `reconcile` for every site. The protocol's errors and `RemoteVerdict` are defined
with the protocol (`cpbot.scrapers.submission`) and exported here for the bot layer.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from pydantic import BaseModel, ConfigDict

from cpbot.core.errors import FetchError, SubmitError
from cpbot.judge.model import Problem, Solution
from cpbot.scrapers.sites import find_site, get_site
from cpbot.scrapers.submission import (
    CaptchaRequired,
    DuplicateSubmission,
    LoginRequired,
    Post,
    PostUncertain,
    RemoteVerdict,
    SubmitProtocol,
    SubmitTooSoon,
)

if TYPE_CHECKING:
    from cpbot.bot.submit.ledger import SubmissionLedger
    from cpbot.scrapers.http import HttpClient

__all__ = [
    "CaptchaRequired",
    "DuplicateSubmission",
    "LoginRequired",
    "RemoteVerdict",
    "SiteSubmitter",
    "SubmissionRecord",
    "SubmitError",
    "SubmitTooSoon",
    "Submitter",
    "source_sha256",
    "submitter_for",
    "wait_for_verdict",
]


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

    def submit(self, problem: Problem, solution: Solution, *, confirm: Callable[[Post], None] | None = None) -> str:
        """Post `solution` for `problem` (through the ledger); return the site's submission id. `confirm`
        sees the prepared post before it is sent."""
        ...

    def post_once(self, problem: Problem, solution: Solution, *, stop: threading.Event | None = None) -> str:
        """`submit`, except that a source already posted is adopted and, with `stop`, a post too soon
        waits its turn (until `stop` is set)."""
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


class SiteSubmitter:
    """A site's submit protocol with the ledger around it: never the same source twice, a minimum
    interval between posts, an intent written before each post and settled after it (or by `reconcile`
    after a crash)."""

    def __init__(
        self, protocol: SubmitProtocol, ledger: SubmissionLedger, *, reconcile_window_s: float = 300.0
    ) -> None:
        self.protocol = protocol
        self.ledger = ledger
        self.site = protocol.site
        self.reconcile_window_s = reconcile_window_s

    def close(self) -> None:
        self.protocol.close()

    def submission_url(self, problem: Problem, submission_id: str) -> str:
        return self.protocol.submission_url(problem, submission_id)

    def submit(self, problem: Problem, solution: Solution, *, confirm: Callable[[Post], None] | None = None) -> str:
        """Post `solution` for `problem`; the site's submission id. `confirm` sees the prepared post (the
        language option, the account) before anything is sent, and may abort."""
        self.reconcile()
        post = self.protocol.prepare(problem, solution)
        if confirm is not None:
            confirm(post)
        row = self.ledger.reserve(self.site, problem.id, source_sha256(solution.source), solution.language)
        try:
            sub_id = post(self.ledger.known_ids(self.site))
        except PostUncertain:
            raise
        except FetchError as e:
            # The POST may or may not have landed: the intent stays for reconcile() to settle.
            title = get_site(self.site).title
            raise SubmitError(f"posting to {title} failed: {e.message}", hint="run the command again") from e
        except SubmitError as e:
            self.ledger.abandon(row, e.message)
            raise
        self.ledger.resolve(row, sub_id)
        return sub_id

    def post_once(self, problem: Problem, solution: Solution, *, stop: threading.Event | None = None) -> str:
        """The one way cpbot posts (`cpbot submit` and `cpbot watch` alike): the submission id of this
        source for this problem, posting it only if the ledger holds no post of it (a process that died
        after the POST left one). A post too soon raises `SubmitTooSoon`, or, given `stop`, waits its
        turn until `stop` is set; a duplicate the ledger refuses adopts the post it holds."""
        sha = source_sha256(solution.source)
        while True:
            adopted = self.ledger.posted(self.site, problem.id, sha)
            if adopted is not None and adopted.submission_id:
                return adopted.submission_id
            try:
                return self.submit(problem, solution)
            except SubmitTooSoon as e:
                if stop is None or stop.wait(max(0.05, e.wait_s)):
                    raise
            except DuplicateSubmission:
                adopted = self.ledger.posted(self.site, problem.id, sha)
                if adopted is None or not adopted.submission_id:
                    raise
                return adopted.submission_id

    def poll(self, problem: Problem, submission_id: str) -> RemoteVerdict:
        """The site's verdict now (kept in the ledger), or NOT_LISTED while the site does not show it."""
        verdict = self.protocol.poll(problem, submission_id)
        if verdict is None:
            return RemoteVerdict(
                site=self.site, submission_id=submission_id, problem_id=problem.id, status_text="NOT_LISTED"
            )
        self.ledger.record_verdict(self.site, submission_id, verdict)
        return verdict

    def wait(self, problem: Problem, submission_id: str, *, timeout_s: float, interval_s: float) -> RemoteVerdict:
        return wait_for_verdict(lambda: self.poll(problem, submission_id), timeout_s=timeout_s, interval_s=interval_s)

    def reconcile(self) -> int:
        """Settle intents a crash left: adopt the submission the site lists for the same problem and
        source (made since shortly before the intent), or drop the intent when there is none. Returns how
        many were settled."""
        pending = self.ledger.pending(self.site)
        if not pending:
            return 0
        listed = self.protocol.listed({entry.problem_id for entry in pending})
        known = self.ledger.known_ids(self.site)
        for entry in pending:
            match = None
            for sub in listed:
                if sub.problem_id != entry.problem_id or sub.submission_id in known:
                    continue
                if sub.created_unix < entry.intent_at - self.reconcile_window_s:
                    continue
                source = self.protocol.source_of(sub)
                if source is not None and source_sha256(source) == entry.source_sha256:
                    match = sub.submission_id
                    break
            if match is not None:
                self.ledger.resolve(entry.row_id, match, note="reconciled from the site's submission list")
                known.add(match)
            else:
                self.ledger.abandon(entry.row_id, "not on the site's submission list: the POST never landed")
        return len(pending)


def submitter_for(
    problem: Problem,
    *,
    client: HttpClient,
    ledger: SubmissionLedger,
    handle: str | None = None,
    password: str | None = None,
) -> Submitter:
    """The submitter of the problem's site: its protocol (`Site.submit_protocol`) over `client` (an
    `HttpClient` with the session cookies) with `ledger` around it; `handle` and `password` are for
    sites that can log in with them (`Site.password_login`)."""
    site = find_site(problem.site)
    if site is None:
        raise SubmitError(
            f"cpbot cannot submit {problem.id}: no submitter for site {problem.site!r}",
            hint="submissions go to problems fetched from a site's URL",
        )
    return SiteSubmitter(site.submit_protocol(client, handle=handle, password=password), ledger)
