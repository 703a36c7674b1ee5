"""The submitter `cpbot watch --submit` uses: the site's own submitter (bot.submit) behind the ledger,
with the session from --cookies and the stored credentials (whose secrets are never written)."""

from __future__ import annotations

import threading
from contextlib import ExitStack
from pathlib import Path

from cpbot.bot.cli.browser import tell_user
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.submit.base import Submitter, submitter_for
from cpbot.bot.submit.credentials import SiteCredentials, jar_secrets, load_credentials, session_jar
from cpbot.bot.submit.ledger import SubmissionLedger
from cpbot.bot.watch.adapters import LedgerSubmitter
from cpbot.judge.model import Problem
from cpbot.scrapers.browser_settings import BrowserSettings
from cpbot.scrapers.endpoints import Endpoints, site_client
from cpbot.scrapers.sites import get_site


def open_submitter(
    stack: ExitStack,
    *,
    store: TranscriptStore,
    endpoints: Endpoints,
    cookies: Path | None,
    min_interval_s: float,
    poll_interval_s: float,
    verdict_timeout_s: float = 600.0,
    stop: threading.Event | None = None,
    browser: BrowserSettings | None = None,
) -> LedgerSubmitter:
    """A `LedgerSubmitter` whose per-site submitters are made on first use and closed with `stack`."""
    ledger = stack.enter_context(SubmissionLedger(min_interval_s=min_interval_s))

    def make(problem: Problem) -> Submitter:
        creds: SiteCredentials | None = load_credentials(problem.site)
        jar = session_jar(problem.site, cookies, creds)
        for secret in [*(creds.secrets() if creds else []), *jar_secrets(jar)]:
            store.add_secret(secret)
        client = stack.enter_context(
            site_client(endpoints, cookies=jar, sites=[get_site(problem.site)], browser=browser, notify=tell_user)
        )
        password = creds.password.get_secret_value() if creds and creds.password else None
        return submitter_for(
            problem, client=client, ledger=ledger, handle=creds.handle if creds else None, password=password
        )

    return LedgerSubmitter(
        make, ledger, verdict_timeout_s=verdict_timeout_s, poll_interval_s=poll_interval_s, stop=stop
    )
