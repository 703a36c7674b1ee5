"""Competitive Companion JSON in and out, and the loopback server that receives it."""

from __future__ import annotations

import http.client
import json
from typing import Any

import pytest

from cpbot.core.errors import ConfigError, ParseError
from cpbot.scrapers.codeforces.parse import parse_problem
from cpbot.scrapers.companion import parse_companion, to_companion
from cpbot.scrapers.companion_server import CompanionServer, Received
from tests.scrapers.scraper_support import fixture_path

CC_PROBLEM: dict[str, Any] = {
    "name": "G. Castle Defense",
    "group": "Codeforces - Educational Codeforces Round 40",
    "url": "https://codeforces.com/problemset/problem/954/G",
    "interactive": False,
    "memoryLimit": 256,
    "timeLimit": 1500,
    "tests": [{"input": "5 0 6\n5 4 3 4 9\n", "output": "5\n"}],
    "testType": "single",
    "input": {"type": "stdin"},
    "output": {"type": "stdout"},
    "languages": {"java": {"mainClass": "Main", "taskClass": "GCastleDefense"}},
    "batch": {"id": "123e4567-e89b-12d3-a456-426614174000", "size": 1},
    "srcPath": "kept/by/another/tool",
}


def test_companion_problem_becomes_a_problem_with_id_limits_and_samples() -> None:
    problem = parse_companion(json.dumps(CC_PROBLEM))
    assert (problem.id, problem.index, problem.title) == ("codeforces:954G", "G", "Castle Defense")
    assert (problem.limits.time_ms, problem.limits.memory_mb) == (1500, 256)
    assert problem.contest == "Educational Codeforces Round 40"
    assert [(t.input, t.output) for t in problem.samples] == [("5 0 6\n5 4 3 4 9\n", "5\n")]


def test_round_trip_keeps_fields_cpbot_does_not_know() -> None:
    out = to_companion(parse_companion(CC_PROBLEM), batch_id=CC_PROBLEM["batch"]["id"])
    assert out == CC_PROBLEM


def test_a_parsed_codeforces_problem_is_written_in_companion_format() -> None:
    problem = parse_problem(fixture_path("codeforces", "cf_2220D2_interactive.html").read_bytes())
    out = to_companion(problem, batch_id="b", batch_size=3)
    assert out["name"] == "D2. Unique Values (Hard version)"
    assert out["interactive"] is True
    assert (out["timeLimit"], out["memoryLimit"]) == (2000, 256)
    assert all(t["input"].endswith("\n") and t["output"].endswith("\n") for t in out["tests"])
    assert out["batch"] == {"id": "b", "size": 3}
    assert parse_companion(out).samples == [s.model_copy(update={"cases": None}) for s in problem.samples]


def test_file_input_output_and_the_chelper_prefix_are_understood() -> None:
    data = dict(
        CC_PROBLEM, input={"type": "file", "fileName": "input.txt"}, output={"type": "file", "fileName": "output.txt"}
    )
    problem = parse_companion("json\n" + json.dumps(data))
    assert (problem.input_file, problem.output_file) == ("input.txt", "output.txt")


def test_a_problem_without_a_name_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="missing name"):
        parse_companion({"tests": []})


def _post(port: int, body: bytes, headers: dict[str, str] | None = None) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", "/", body=body, headers={"Content-Type": "application/json", **(headers or {})})
        return conn.getresponse().status
    finally:
        conn.close()


@pytest.fixture
def server():
    got: list[Received] = []
    errors: list[Exception] = []
    srv = CompanionServer(got.append, errors.append, port=0)
    import threading

    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv, got, errors
    srv.shutdown()
    thread.join(timeout=5)
    srv.close()


def test_server_counts_the_problems_of_a_batch(server) -> None:
    srv, got, errors = server
    for name in ("A. One", "B. Two"):
        body = dict(CC_PROBLEM, name=name, batch={"id": "contest-1", "size": 2})
        assert _post(srv.port, json.dumps(body).encode()) == 200
    assert [(r.problem.index, r.batch_received, r.batch_complete) for r in got] == [("A", 1, False), ("B", 2, True)]
    assert errors == []


def test_server_refuses_web_pages_and_reports_bad_json(server) -> None:
    srv, got, errors = server
    assert _post(srv.port, json.dumps(CC_PROBLEM).encode(), {"Origin": "https://evil.example"}) == 403
    assert _post(srv.port, b"{not json") == 400
    assert got == []
    assert len(errors) == 1 and isinstance(errors[0], ParseError)


def test_server_binds_only_to_loopback() -> None:
    with pytest.raises(ConfigError, match="refusing to listen"):
        CompanionServer(lambda r: None, lambda e: None, port=0, host="0.0.0.0")


def test_server_accepts_only_the_extension_and_json(server) -> None:
    srv, got, _ = server
    body = json.dumps(CC_PROBLEM).encode()
    assert _post(srv.port, body, {"Origin": "null"}) == 403
    assert _post(srv.port, body, {"Origin": "file://"}) == 403
    assert _post(srv.port, body, {"Content-Type": "text/plain"}) == 415
    assert _post(srv.port, body, {"Content-Type": "application/x-www-form-urlencoded"}) == 415
    assert got == []
    assert _post(srv.port, body, {"Origin": "moz-extension://0f3a"}) == 200
    assert _post(srv.port, body, {"Content-Type": "application/json; charset=utf-8"}) == 200
    assert len(got) == 2


def test_server_caps_the_tests_of_a_problem(server) -> None:
    from cpbot.scrapers.companion_server import MAX_SAMPLE_BYTES, MAX_SAMPLES

    srv, got, errors = server
    many = dict(CC_PROBLEM, tests=[{"input": "1\n", "output": "1\n"}] * (MAX_SAMPLES + 1))
    huge = dict(CC_PROBLEM, tests=[{"input": "1" * (MAX_SAMPLE_BYTES + 1), "output": "1\n"}])
    assert _post(srv.port, json.dumps(many).encode()) == 400
    assert _post(srv.port, json.dumps(huge).encode()) == 400
    assert got == [] and len(errors) == 2


def test_server_drops_an_idle_connection(monkeypatch) -> None:
    import socket
    import threading

    from cpbot.scrapers import companion_server

    monkeypatch.setattr(companion_server, "IDLE_TIMEOUT_S", 0.5)
    srv = CompanionServer(lambda r: None, lambda e: None, port=0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=30) as conn:
            conn.sendall(
                b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
            )
            # the server gives up on the missing 99 bytes after its idle timeout and closes the connection
            assert conn.recv(4096) == b""
    finally:
        srv.shutdown()
        thread.join(timeout=5)
        srv.close()
