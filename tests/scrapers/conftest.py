"""Fixtures of the scraper tests."""

from __future__ import annotations

import httpx
import pytest

from cpbot.core.http_deadline import DeadlineTransport
from tests.scrapers.scraper_support import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    """A fake monotonic clock whose `sleep` advances it and records the pause."""
    return FakeClock()


@pytest.fixture(autouse=True)
def recorded_http_reaches_httpx_mock(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest-httpx answers for httpx's own transport: with `httpx_mock`, the scrapers' transport (which
    keeps a total deadline at its sockets) hands its requests to that one."""
    if "httpx_mock" not in request.fixturenames:
        return
    plain = httpx.HTTPTransport()
    monkeypatch.setattr(DeadlineTransport, "handle_request", lambda self, req: plain.handle_request(req))
