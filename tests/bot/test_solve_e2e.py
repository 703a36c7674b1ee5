"""`cpbot solve` end to end over real HTTP on 127.0.0.1: a recorded Codeforces page, a scripted model that
first writes a subtly wrong program and then a right one, the real judge, and the transcript store.

The scrapers only fetch from Codeforces hosts, so the test keeps the real URL and points the site's base
URL (CPBOT_CODEFORCES_URL, honoured by the one client factory) at a loopback server serving the page.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import cpbot.bot.commands.solve as solve_module
from cpbot.agents.solve import SolveResult
from cpbot.bot.store.transcripts import TranscriptStore
from tests.agents.support.scripted_server import Reply, ScriptedServer
from tests.paths import CODEFORCES_PAGES

PAGE = CODEFORCES_PAGES / "cf_1702A_modern_single_line_cases.html"
URL = "https://codeforces.com/contest/1702/problem/A"
KEY = "sk-e2e-very-secret-key"
# Round Down the Price: m minus the largest power of ten not above m. The wrong one forgets that a
# one-digit m has 1 as that power.
WRONG = (
    "t = int(input())\nfor _ in range(t):\n    m = int(input())\n"
    "    p = 10 ** (len(str(m)) - 1) if m >= 10 else 0\n    print(m - p)\n"
)
RIGHT = "t = int(input())\nfor _ in range(t):\n    m = int(input())\n    print(m - 10 ** (len(str(m)) - 1))\n"


@pytest.fixture
def codeforces_site(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """A loopback server answering every GET with the recorded page; yields the paths requested."""
    paths: list[str] = []
    body = PAGE.read_bytes()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            paths.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.block_on_close = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    port = httpd.server_address[1]

    monkeypatch.setenv("CPBOT_CODEFORCES_URL", f"http://127.0.0.1:{port}")
    try:
        yield paths
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def code(source: str, prompt_tokens: int, completion_tokens: int) -> Reply:
    return Reply(f"```python\n{source}```", prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)


# the error checker routes the failure to the debugger; once the samples pass, the test generator adds an
# input (no generator or brute force: nothing to stress or profile with)
FIX = Reply('{"decision": "FIX", "error": "a one-digit m is handled wrongly"}', prompt_tokens=200, completion_tokens=20)
TESTS = Reply("## Inputs\n```text\n1\n5\n```\n## Generator\nnone\n## Brute force\nnone\n", 250, 30)


def test_solve_finds_the_failing_case_debugs_it_and_records_everything(
    codeforces_site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    out = tmp_path / "out"
    with ScriptedServer([code(WRONG, 300, 40), FIX, code(RIGHT, 500, 45), TESTS]) as model:
        args = [
            URL,
            "--lang",
            "python3",
            "--base-url",
            model.base_url,
            "--model",
            "m",
            "--api-key",
            KEY,
            "-o",
            str(out),
            "--json",
            "--candidates",
            "1",  # one program at a time: the script answers each call in turn
            "--strategy-option",
            "brutes=1",  # and one test designer's reply
        ]
        rc = solve_module.solve.main(args, prog_name="cpbot solve", standalone_mode=False)
        requests = model.requests
    captured = capsys.readouterr()
    result = SolveResult.model_validate_json(captured.out)

    assert codeforces_site == ["/contest/1702/problem/A?locale=en"]
    # AC on every test tried, but with no brute force and no generator it was neither stressed nor profiled:
    # unverified, with what is missing, and exit code 3
    assert rc == 3 and result.status == "unverified" and result.verdict == "AC"
    assert result.missing_evidence == [
        "not stressed: no brute force was written",
        "not profiled: no generator was written",
    ]
    assert result.strategy == "cpbot" and result.calls == 4 and result.tokens == 1385
    assert [t.input for t in result.generated_tests] == ["1\n5\n"] and result.generated_report is not None
    assert (out / "solution.py").read_text() == RIGHT and (out / "problem.json").is_file()
    assert "judge     WA 0/1" in captured.err and "judge     AC 1/1" in captured.err

    # the third call is the wrong-answer debugger, shown the failing input and the first difference
    debug_prompt = "\n".join(m["content"] for m in requests[2].body["messages"])
    assert "7\n1\n2\n178\n20" in debug_prompt
    assert "expected '0', got '1'" in debug_prompt
    assert WRONG.strip() in debug_prompt

    with TranscriptStore() as store:
        run_id = captured.err.strip().splitlines()[-1].removeprefix("transcript: ")
        summary = store.run(run_id)
        calls = store.llm_calls(run_id)
        events = store.events(run_id)
    assert summary.status == "unverified" and summary.problem_id == "codeforces:1702A"
    assert [(c.role, c.prompt_tokens, c.completion_tokens) for c in calls] == [
        ("coder", 300, 40),
        ("checker", 200, 20),
        ("debugger", 500, 45),
        ("testgen", 250, 30),
    ]
    kinds = [e.kind for e in events]
    assert kinds[0] == "run_start" and kinds[-1] == "run_end" and kinds.count("llm_call") == 4
    reports = [e.payload for e in events if e.kind == "report"]
    assert [(r["report_kind"], r["report"]["verdict"]) for r in reports] == [
        ("judge", "WA"),
        ("judge", "AC"),
        ("judge", "AC"),  # on the samples plus the generated input
    ]
    assert [
        e.payload["data"]["missing"] for e in events if e.kind == "note" and e.payload["message"] == "unverified"
    ] == [result.missing_evidence]
    envelope_types = [e.payload["envelope"]["header"]["type"] for e in events if e.kind == "envelope"]
    assert envelope_types[0] == "task" and envelope_types[-1] == "final_answer"
    assert envelope_types.count("code") == 2 and envelope_types.count("judge_feedback") == 3
    db_bytes = b"".join(p.read_bytes() for p in (tmp_path / "data").rglob("*") if p.is_file())
    assert KEY.encode() not in db_bytes


def test_a_solve_that_fails_with_an_error_still_names_its_transcript(
    codeforces_site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cpbot.bot.cli.main import main
    from tests.agents.support.scripted_server import HTTPFailure

    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    # a server refusing the key refuses every request; none is retried, so the solve fails at once
    with ScriptedServer([], default=HTTPFailure(401, "invalid api key")) as model:
        args = ["solve", URL, "--lang", "python3", "--base-url", model.base_url, "--model", "m", "--api-key", KEY]
        rc = main([*args, "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert rc != 0 and "error: " in err
    lines = [line for line in err.splitlines() if line.startswith("transcript: ")]
    assert len(lines) == 1
    with TranscriptStore() as store:
        summary = store.run(lines[0].removeprefix("transcript: "))
    assert summary.status == "error" and summary.problem_id == "codeforces:1702A"


def test_solve_json_never_prints_a_secret(
    codeforces_site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    leaky = RIGHT + f"# the key I was called with: {KEY}\n"
    with ScriptedServer([code(leaky, 300, 40), TESTS]) as model:
        args = [URL, "--lang", "python3", "--base-url", model.base_url, "--model", "m", "--api-key", KEY]
        args += ["-o", str(tmp_path / "out"), "--json", "--candidates", "1"]
        solve_module.solve.main(args, prog_name="cpbot solve", standalone_mode=False)
    captured = capsys.readouterr()
    assert KEY not in captured.out and KEY not in captured.err
    result = SolveResult.model_validate_json(captured.out)
    assert result.solution is not None and "[REDACTED]" in result.solution.source
