"""Fixtures of the submitter tests: the fake sites, sessions on them, and a fresh ledger."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cpbot.bot.submit.ledger import SubmissionLedger
from cpbot.scrapers.cookies import cookies_from_header
from cpbot.scrapers.http import HttpClient
from tests.fakes import FakeSiteServer
from tests.fakes.fixtures import fake_server, fake_site  # noqa: F401 - pytest fixtures

CF_B = "https://codeforces.com/contest/1873/problem/B"
LC_DECODE = "https://leetcode.com/problems/decode-ways/"


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[SubmissionLedger]:
    with SubmissionLedger(tmp_path / "ledger.sqlite3", min_interval_s=0) as led:
        yield led


@pytest.fixture
def cf_client(fake_server: FakeSiteServer) -> Iterator[HttpClient]:  # noqa: F811
    """A client with the Codeforces session cookie the fake site knows."""
    jar = cookies_from_header(f"JSESSIONID={fake_server.site.cf_session}", "codeforces.com")
    with fake_server.client(jar) as client:
        yield client


@pytest.fixture
def lc_client(fake_server: FakeSiteServer) -> Iterator[HttpClient]:  # noqa: F811
    site = fake_server.site
    jar = cookies_from_header(f"LEETCODE_SESSION={site.lc_session}; csrftoken={site.lc_csrf}", "leetcode.com")
    with fake_server.client(jar) as client:
        yield client
