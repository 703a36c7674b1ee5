"""Pages and site JSON are read within bounds: the HTTP layer stops reading a body at `max_page_mb`
(decompressed; an endless or a gzip-bomb body never sits in memory whole), a site's JSON nested past
`max_json_depth` is a `ParseError`, and the limits a page or Competitive Companion states are bounded.
`cpbot fetch` from a site routed to 127.0.0.1 (CPBOT_CODEFORCES_URL) shows it on the user's path."""

from __future__ import annotations

import gzip
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cpbot.bot.cli.main import main
from cpbot.core import bounds
from cpbot.core.errors import CpbotError, FetchError, ParseError
from cpbot.scrapers.codeforces.api import parse_envelope
from cpbot.scrapers.companion import parse_companion
from cpbot.scrapers.http import HttpClient

CHUNK = 64 * 1024


class _Hostile(BaseHTTPRequestHandler):
    """/endless: a body that never ends; /bomb: 64 MB of zeros gzipped to a few KB; /deep: deep JSON;
    /trickle...: a body of one byte every 50 ms, without end; /drip: its headers so, without end."""

    sent = 0
    requests = 0

    def do_GET(self) -> None:
        type(self).requests += 1
        if self.path.startswith(("/trickle", "/drip")):
            self._trickle(b"HTTP/1.1 200 OK\r\n" if self.path == "/drip" else None)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json" if self.path == "/deep" else "text/html")
        if self.path == "/bomb":
            body = gzip.compress(b"\0" * (64 * bounds.MB), 9)
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if self.path == "/badgzip":
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", "9")
            self.end_headers()
            self.wfile.write(b"not gzip!")
            return
        if self.path == "/deep":
            body = ("[" * 100_000 + "]" * 100_000).encode()
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.end_headers()  # no length: the body ends when the connection does (never)
        try:
            while True:
                self.wfile.write(b"<p>" + b"x" * (CHUNK - 3))
                type(self).sent += CHUNK
        except OSError:
            return

    def _trickle(self, head: bytes | None) -> None:
        """One byte at a time, each well within any read timeout: only a total deadline ends this."""
        if head is None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
        else:
            self.wfile.write(head)
        try:
            while True:
                time.sleep(0.05)
                self.wfile.write(b"X-Slow: 1\r\n" if head else b"x")
        except OSError:
            return

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def hostile_site():
    _Hostile.sent = 0
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hostile)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_an_endless_page_is_cut_off_at_the_bound(hostile_site, monkeypatch):
    monkeypatch.setenv("CPBOT_MAX_PAGE_MB", "2")
    with HttpClient(max_retries=0) as client, pytest.raises(FetchError, match="max_page_mb = 2 MB") as caught:
        client.get(hostile_site + "/endless")
    assert "CPBOT_MAX_PAGE_MB" in caught.value.hint
    # it stopped reading: what the server got out is the bound and what the sockets' buffers hold
    assert _Hostile.sent < 2 * bounds.MB + 16 * bounds.MB


def test_a_gzip_bomb_is_cut_off_while_it_unpacks(hostile_site, monkeypatch):
    monkeypatch.setenv("CPBOT_MAX_PAGE_MB", "1")
    with HttpClient(max_retries=0) as client, pytest.raises(FetchError, match="max_page_mb"):
        client.get(hostile_site + "/bomb")


def test_a_body_that_does_not_decode_is_a_fetch_error(hostile_site):
    with HttpClient(max_retries=0) as client, pytest.raises(FetchError, match="does not decode"):
        client.get(hostile_site + "/badgzip")


def test_a_page_within_the_bound_reads_whole_and_decoded(hostile_site, monkeypatch):
    monkeypatch.setenv("CPBOT_MAX_PAGE_MB", "65")
    with HttpClient(max_retries=0) as client:
        response = client.get(hostile_site + "/bomb")
    assert response.content == b"\0" * (64 * bounds.MB)


def test_cpbot_fetch_of_an_endless_page_is_a_one_line_error(hostile_site, monkeypatch, capsys):
    monkeypatch.setenv("CPBOT_CODEFORCES_URL", hostile_site)
    monkeypatch.setenv("CPBOT_MAX_PAGE_MB", "1")
    assert main(["fetch", "https://codeforces.com/contest/1/problem/A"]) != 0
    err = capsys.readouterr().err
    assert "max_page_mb = 1 MB" in err and "Traceback" not in err


@pytest.mark.parametrize("path", ["/trickle", "/drip"])
def test_a_server_that_trickles_is_left_when_max_page_s_runs_out(hostile_site, monkeypatch, path):
    monkeypatch.setenv("CPBOT_MAX_PAGE_S", "1")
    _Hostile.requests = 0
    with HttpClient(max_retries=3) as client, pytest.raises(FetchError, match="max_page_s = 1 s") as caught:
        client.get(hostile_site + path)
    assert "CPBOT_MAX_PAGE_S" in caught.value.hint
    assert _Hostile.requests == 1  # as slow again if asked again: not retried


def test_cpbot_fetch_of_a_trickling_page_is_a_one_line_error(hostile_site, monkeypatch, capsys):
    monkeypatch.setenv("CPBOT_CODEFORCES_URL", hostile_site + "/trickle")
    monkeypatch.setenv("CPBOT_MAX_PAGE_S", "1")
    assert main(["fetch", "https://codeforces.com/contest/1/problem/A"]) != 0
    err = capsys.readouterr().err
    assert "max_page_s = 1 s" in err and "Traceback" not in err


def test_deep_site_json_is_a_parse_error(hostile_site):
    with HttpClient(max_retries=0) as client:
        body = client.get(hostile_site + "/deep").content
    with pytest.raises(ParseError, match="max_json_depth"):
        parse_envelope(body, "contest.list")


COMPANION = {"name": "A. T", "group": "Codeforces - R", "url": "https://codeforces.com/contest/1/problem/A",
             "tests": [{"input": "1\n", "output": "1\n"}], "timeLimit": 1000, "memoryLimit": 256}  # fmt: skip


@pytest.mark.parametrize(
    "limits",
    [{"timeLimit": 1e300}, {"timeLimit": float("inf")}, {"timeLimit": float("nan")}, {"timeLimit": -5},
     {"memoryLimit": 1e300}, {"timeLimit": 10**400}, {"timeLimit": "1e300"}],
)  # fmt: skip
def test_companion_limits_past_the_bounds_are_a_parse_error(limits):
    body = json.dumps({**COMPANION, **limits}).encode()
    try:
        problem = parse_companion(body)
    except CpbotError:
        return
    # a memory limit is judged at the bound (the machine's RAM by default)
    assert problem.limits.memory_mb <= bounds.MEMORY_LIMIT.value()
    assert problem.limits.time_ms <= bounds.TIME_LIMIT.value() * 1000


def test_companion_time_limit_of_1e300_is_refused_naming_the_setting():
    with pytest.raises(ParseError, match="max_time_limit_s"):
        parse_companion(json.dumps({**COMPANION, "timeLimit": 1e300}).encode())
