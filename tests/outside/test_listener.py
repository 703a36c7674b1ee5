"""`cpbot listen`'s server takes only whole bodies, from a request naming a loopback host, and lets a
client that has gone go without a traceback (it keeps serving the next one)."""

from __future__ import annotations

import http.client
import json
import socket
import threading

import pytest

from cpbot.scrapers.companion_server import CompanionServer, is_loopback_host

BODY = json.dumps(
    {"name": "A. Sum", "group": "Codeforces - Round", "url": "https://codeforces.com/contest/1/problem/A",
     "tests": [{"input": "1 2\n", "output": "3\n"}], "timeLimit": 1000, "memoryLimit": 256}
).encode()  # fmt: skip


HEAD = f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {len(BODY)}\r\n\r\n"


@pytest.fixture
def listener():
    got: list = []
    errors: list = []
    server = CompanionServer(got.append, errors.append, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server, got, errors
    server.shutdown()
    thread.join(timeout=5)
    server.close()


def _raw(port: int, request: bytes, *, half_close: bool = True) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=20) as conn:
        conn.sendall(request)
        if half_close:
            conn.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := conn.recv(4096):
            data += chunk
        return data


def _post(port: int, headers: dict[str, str]) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest("POST", "/", skip_host=True)
        for k, v in {"Content-Type": "application/json", "Content-Length": str(len(BODY)), **headers}.items():
            conn.putheader(k, v)
        conn.endheaders(BODY)
        return conn.getresponse().status
    finally:
        conn.close()


def test_a_body_shorter_than_its_content_length_is_refused(listener):
    server, got, _ = listener
    head = HEAD
    reply = _raw(server.port, head.encode() + BODY[: len(BODY) // 2])
    assert reply.startswith(b"HTTP/1.0 400") and b"shorter than its Content-Length" in reply
    assert got == []


@pytest.mark.parametrize("host", ["evil.example:10043", "evil.example", "127.0.0.1.evil.example", "", "localhost:x"])
def test_a_request_naming_another_host_is_refused(listener, host):
    server, got, _ = listener
    headers = {"Host": host} if host else {}
    assert _post(server.port, headers) == 421
    assert got == []


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost:10043", "[::1]:10043", "LOCALHOST"])
def test_a_loopback_host_is_taken(listener, host):
    server, got, _ = listener
    assert _post(server.port, {"Host": host}) == 200
    assert len(got) == 1


def test_a_client_that_has_gone_costs_no_traceback_and_the_server_keeps_serving(listener, capfd):
    server, _, _ = listener
    head = HEAD
    for _ in range(5):  # send and leave at once: the reply meets a closed socket
        conn = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # RST on close
        conn.sendall(head.encode() + BODY)
        conn.close()
    assert _post(server.port, {"Host": "127.0.0.1"}) == 200
    assert "Traceback" not in capfd.readouterr().err


def test_loopback_host_names():
    assert all(map(is_loopback_host, ["127.0.0.1", "127.0.0.1:1", "localhost", "[::1]", "[::1]:8"]))
    assert not any(map(is_loopback_host, [None, "", "10.0.0.1", "[::2]", "localhost.evil", "[::1]x", "a:b:c"]))
