"""Errors that cannot heal by waiting fail at once; the ones that may heal are still retried."""

from __future__ import annotations

import socket

import httpx
import pytest

from cpbot.core.errors import FetchError
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.ratelimit import RateLimiter


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens there once the socket is closed


def _client(sleeps: list[float], transport: httpx.BaseTransport | None = None) -> HttpClient:
    return HttpClient(
        sleep=sleeps.append, limiter=RateLimiter(default_interval=0.0, sleep=sleeps.append), transport=transport
    )


def test_connection_refused_fails_after_one_attempt_naming_the_host_with_a_hint() -> None:
    sleeps: list[float] = []
    port = _closed_port()
    with _client(sleeps) as client, pytest.raises(FetchError) as caught:
        client.get(f"http://127.0.0.1:{port}/api/contest.list")
    assert sleeps == []  # no backoff: one attempt
    assert "cannot reach 127.0.0.1" in caught.value.message
    assert "connection refused" in caught.value.message
    assert caught.value.hint and "CPBOT_CODEFORCES_URL" in caught.value.hint


def test_an_unknown_host_fails_after_one_attempt() -> None:
    tries: list[httpx.Request] = []

    def no_such_host(request: httpx.Request) -> httpx.Response:
        tries.append(request)
        try:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        except socket.gaierror as e:
            raise httpx.ConnectError(str(e), request=request) from e

    sleeps: list[float] = []
    with _client(sleeps, httpx.MockTransport(no_such_host)) as client, pytest.raises(FetchError) as caught:
        client.get("https://codeforces.example/contests")
    assert len(tries) == 1 and sleeps == []
    assert "cannot reach codeforces.example" in caught.value.message
    assert "no such host" in caught.value.message


@pytest.mark.parametrize(
    "error", [httpx.RemoteProtocolError("server disconnected"), httpx.ReadError("connection reset by peer")]
)
def test_a_dropped_connection_is_still_retried(error: httpx.TransportError) -> None:
    tries: list[httpx.Request] = []

    def drop_once(request: httpx.Request) -> httpx.Response:
        tries.append(request)
        if len(tries) == 1:
            raise error
        return httpx.Response(200, text="ok")

    sleeps: list[float] = []
    with _client(sleeps, httpx.MockTransport(drop_once)) as client:
        assert client.get("https://codeforces.example/contests").text == "ok"
    assert len(tries) == 2
    assert len(sleeps) == 1 and sleeps[0] >= 1.0  # one backoff before the second try
