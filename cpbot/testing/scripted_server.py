"""An OpenAI-compatible chat server on 127.0.0.1 that answers from a script, for tests, examples and benchmarks.

Each POST to `/v1/chat/completions` takes the next step of the script: a `Reply` (text and usage), an
`HTTPFailure` (status, body, headers such as Retry-After), a `RawReply` (any bytes), a `Stream` (a body
without end, or dripped a byte at a time), a `Delay` (then another step, for timeouts), or a callable
that receives the request body and returns one of those. Every request is recorded,
with the seconds the server spent on it, so tests can assert what the client sent.

Run as a script, it serves the rules of a JSON file (see `RuleBook`) until interrupted, or while one
command runs with `CPBOT_BASE_URL`, `CPBOT_MODEL` and `CPBOT_API_KEY` pointing at it:

    python -m cpbot.testing.scripted_server RULES.json [--port 8765] [-- COMMAND...]
    python -m cpbot.testing.scripted_server RULES.json -- cpbot bench DATASET ...
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Reply:
    """A chat completion; `text=None` sends `content: null`, `usage=False` leaves usage out."""

    text: str | None = ""
    prompt_tokens: int = 10
    completion_tokens: int = 20
    reasoning_tokens: int | None = None
    reasoning_content: str | None = None
    reasoning_field: str = "reasoning_content"  # newer vLLM and Ollama name it "reasoning"
    finish_reason: str = "stop"
    model: str | None = None
    usage: bool = True
    no_choices: bool = False


@dataclass(frozen=True)
class HTTPFailure:
    """An error response: a status, an OpenAI-style error body, and extra headers."""

    status: int
    message: str = "scripted failure"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RawReply:
    """Any body, sent as it is (a broken server or proxy: HTML, text that is not JSON, invalid UTF-8)."""

    body: str | bytes
    status: int = 200
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Stream:
    """A misbehaving body sent in pieces, chunked (no Content-Length): `head`, then `piece` `times` times
    (None: until the client hangs up or the server stops), then `tail`, `interval` seconds between pieces.
    `drip_headers` sends the status line and headers one byte per `interval` too."""

    head: bytes = b""
    piece: bytes = b"a" * 65536
    times: int | None = None
    tail: bytes = b""
    interval: float = 0.0
    status: int = 200
    content_type: str = "application/json"
    drip_headers: bool = False


@dataclass(frozen=True)
class Delay:
    """Wait `seconds` (cut short when the server stops), then answer with `then`."""

    seconds: float
    then: Step | None = None


Step = (
    Reply
    | HTTPFailure
    | RawReply
    | Stream
    | Delay
    | Callable[[dict[str, Any]], "Reply | HTTPFailure | RawReply | Stream | Delay"]
)


def rate_limited(retry_after: str | None = "1") -> HTTPFailure:
    """A 429 answer, with a Retry-After header unless `retry_after` is None."""
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return HTTPFailure(429, "rate limit reached", headers)


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    server_seconds: float = 0.0


class ScriptedServer:
    """The server; use as a context manager or call `start()`/`stop()`."""

    def __init__(
        self,
        steps: Iterable[Step] = (),
        *,
        default: Step | None = None,
        model: str = "scripted-model",
        port: int = 0,
        model_info: dict[str, Any] | None = None,
        props: dict[str, Any] | None = None,
    ):
        self.model_info = model_info or {}  # extra fields of the /models entry (vLLM's max_model_len, ...)
        self.props = props  # llama.cpp's /props answer, when set
        self._steps = list(steps)
        self._port = port  # 0: any free port
        self._default = default
        self.model = model
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._connections: set[socket.socket] = set()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # script ------------------------------------------------------------------------------------

    def add(self, *steps: Step) -> None:
        """Append steps to the script."""
        with self._lock:
            self._steps.extend(steps)

    def _next_step(self, body: dict[str, Any]) -> Step:
        with self._lock:
            step = self._steps.pop(0) if self._steps else self._default
        if step is None:
            return HTTPFailure(500, "the test script has no more steps")
        return step

    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    @property
    def remaining(self) -> int:
        with self._lock:
            return len(self._steps)

    # lifecycle ---------------------------------------------------------------------------------

    def start(self) -> ScriptedServer:
        """Listen on 127.0.0.1 (on the given port, else a free one) and serve in a background thread."""
        handler = _make_handler(self)
        httpd = ThreadingHTTPServer(("127.0.0.1", self._port), handler)
        # join the handler threads on close, so no thread outlives the test
        httpd.daemon_threads = False
        httpd.block_on_close = True
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, cut pending delays and idle keep-alive connections, join every thread."""
        if self._httpd is None:
            return
        self._stopping.set()
        self._httpd.shutdown()
        with self._lock:
            for conn in list(self._connections):
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # already closed by the client
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join()
        self._httpd = None

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _completion(server: ScriptedServer, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    if reply.reasoning_content is not None:
        message[reply.reasoning_field] = reply.reasoning_content
    out: dict[str, Any] = {
        "id": f"chatcmpl-{len(server.requests)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": reply.model or body.get("model") or server.model,
        "choices": [] if reply.no_choices else [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
    }
    if reply.usage:
        usage: dict[str, Any] = {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
        }
        if reply.reasoning_tokens is not None:
            usage["completion_tokens_details"] = {"reasoning_tokens": reply.reasoning_tokens}
        out["usage"] = usage
    return out


def _make_handler(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self) -> None:
            super().setup()
            # answer at once: without this, Nagle's algorithm and delayed ACKs add ~40 ms per reply
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with server._lock:
                server._connections.add(self.connection)

        def finish(self) -> None:
            with server._lock:
                server._connections.discard(self.connection)
            try:
                super().finish()
            except OSError:
                pass  # the client hung up first (a timed-out request)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output clean

        def handle(self) -> None:
            try:
                super().handle()
            except OSError:
                pass  # connection cut by the client or by stop()

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                entry = {"id": server.model, "object": "model", **server.model_info}
                self._send(200, {"object": "list", "data": [entry]})
            elif self.path.rstrip("/").endswith("/props") and server.props is not None:
                self._send(200, server.props)
            else:
                self._send(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:
            started = time.perf_counter()
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {"_raw": raw.decode(errors="replace")}
            record = RecordedRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            with server._lock:
                server.requests.append(record)
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            step = server._next_step(body)
            while True:
                if callable(step) and not isinstance(step, Reply | HTTPFailure | RawReply | Stream | Delay):
                    step = step(body)
                if isinstance(step, Delay):
                    if server._stopping.wait(step.seconds) or step.then is None:
                        self.close_connection = True
                        return
                    step = step.then
                    continue
                break
            if isinstance(step, HTTPFailure):
                error = {"error": {"message": step.message, "type": "scripted", "code": step.status}}
                self._send(step.status, error, step.headers)
            elif isinstance(step, RawReply):
                data = step.body.encode() if isinstance(step.body, str) else step.body
                self._send_bytes(step.status, data, step.content_type, step.headers)
            elif isinstance(step, Stream):
                self._stream(step)
            else:
                self._send(200, _completion(server, step, body))
            record.server_seconds = time.perf_counter() - started

        def _stream(self, step: Stream) -> None:
            """Send `step` until its end, the client hangs up, or the server stops."""
            self.close_connection = True
            head = (
                f"HTTP/1.1 {step.status} {HTTPStatus(step.status).phrase}\r\n"
                f"Content-Type: {step.content_type}\r\nTransfer-Encoding: chunked\r\n\r\n"
            ).encode()
            pieces = [head[i : i + 1] for i in range(len(head))] if step.drip_headers else [head]

            def chunk(data: bytes) -> bytes:
                return f"{len(data):x}\r\n".encode() + data + b"\r\n" if data else b""

            sent = 0
            try:
                for piece in pieces:
                    self.wfile.write(piece)
                    self.wfile.flush()
                    if step.drip_headers and server._stopping.wait(step.interval):
                        return
                self.wfile.write(chunk(step.head))
                while step.times is None or sent < step.times:
                    if server._stopping.wait(step.interval) if step.interval else server._stopping.is_set():
                        return
                    self.wfile.write(chunk(step.piece))
                    self.wfile.flush()
                    sent += 1
                self.wfile.write(chunk(step.tail) + b"0\r\n\r\n")
                self.wfile.flush()
            except OSError:
                pass  # the client stopped reading and hung up: what a bounded client does

        def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            self._send_bytes(status, json.dumps(payload).encode(), "application/json", headers)

        def _send_bytes(
            self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None
        ) -> None:
            try:
                reason = HTTPStatus(status).phrase
            except ValueError:
                reason = "Unknown"
            lines = [
                f"HTTP/1.1 {status} {reason}",
                f"Content-Type: {content_type}",
                f"Content-Length: {len(data)}",
                *(f"{name}: {value}" for name, value in (headers or {}).items()),
            ]
            # headers and body in one write
            self.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
            self.wfile.flush()

    return Handler


# ---- serving rules from a file ------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """Answer `reply` when the request's messages contain `when`; `retry_reply` when they also contain `retry_when`."""

    when: str
    reply: str
    retry_when: str | None = None
    retry_reply: str | None = None


@dataclass(frozen=True)
class RuleBook:
    """A script read from JSON: the first rule whose text occurs in the prompt answers, else `otherwise`.

    {"model": "scripted", "otherwise": "I do not know this problem.",
     "rules": [{"when": "# Sum", "reply": "```python\\nprint(sum(map(int, input().split())))\\n```"},
               {"when": "# Maximum", "reply": "...", "retry_when": "Reconsider", "retry_reply": "..."}]}
    """

    rules: tuple[Rule, ...]
    otherwise: str = "I do not know this problem."
    model: str = "scripted-model"

    @classmethod
    def load(cls, path: Path) -> RuleBook:
        data = json.loads(path.read_text(encoding="utf-8"))
        rules = tuple(Rule(**rule) for rule in data["rules"])
        return cls(rules, data.get("otherwise", cls.otherwise), data.get("model", cls.model))

    def __call__(self, body: dict[str, Any]) -> Reply:
        text = "\n".join(str(m.get("content") or "") for m in body.get("messages", []))
        for rule in self.rules:
            if rule.when in text:
                retried = rule.retry_when is not None and rule.retry_when in text
                return Reply(rule.retry_reply if retried and rule.retry_reply is not None else rule.reply)
        return Reply(self.otherwise)


def main(argv: list[str] | None = None) -> int:
    """Serve a rule file on 127.0.0.1 until interrupted, or while a command given after `--` runs."""
    parser = argparse.ArgumentParser(
        description="An OpenAI-compatible model on 127.0.0.1 answering from a rule file.", epilog=COMMAND_HELP
    )
    parser.add_argument("rules", type=Path, help="the JSON rule file (see RuleBook)")
    parser.add_argument("--port", type=int, default=None, help="default 8765; a free one when running a command")
    parser.usage = "%(prog)s RULES.json [--port N] [-- COMMAND...]"
    # the command is what follows `--`, so the server's own options may come before or after the file
    own, command = split_command(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(own)
    book = RuleBook.load(args.rules)
    port = args.port if args.port is not None else (0 if command else 8765)
    with ScriptedServer(default=book, model=book.model, port=port) as server:
        print(
            f"scripted model {book.model!r} at {server.base_url} ({len(book.rules)} rules)", file=sys.stderr, flush=True
        )
        return run_with_server(server, command)


COMMAND_HELP = "-- COMMAND ...: run a command against the model (CPBOT_BASE_URL etc. set); its exit code is kept"


def split_command(argv: list[str]) -> tuple[list[str], list[str]]:
    """The server's own arguments and the command after `--` (empty when there is none)."""
    if "--" not in argv:
        return argv, []
    cut = argv.index("--")
    return argv[:cut], argv[cut + 1 :]


def run_with_server(server: ScriptedServer, command: list[str]) -> int:
    """Run `command` with `CPBOT_BASE_URL`, `CPBOT_MODEL` and `CPBOT_API_KEY` pointing at the running
    `server` and return its exit code; without a command, serve until interrupted (0)."""
    if command:
        env = {**os.environ, "CPBOT_BASE_URL": server.base_url, "CPBOT_MODEL": server.model}
        env["CPBOT_API_KEY"] = "sk-scripted"  # the client wants a key; this server ignores it
        return subprocess.run(command, env=env, check=False).returncode
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
