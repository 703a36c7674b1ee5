"""A loopback HTTP server that receives problems from the Competitive Companion extension.

The user's browser gets past Cloudflare; the extension then POSTs each problem's JSON to
127.0.0.1. Problems of one contest share a batch id; the server tells its caller when a batch is
complete. Only the extension may feed problems: a request with a web page's Origin (http(s), or the
`null` of a sandboxed frame or a file) is refused, and so is any body not sent as `application/json`
(a page cannot send that cross-site without a CORS preflight, which this server never answers).
Bodies, samples and idle connections are capped, so a local page or program cannot exhaust it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cpbot.core.errors import ConfigError, CpbotError
from cpbot.judge.model import Problem
from cpbot.scrapers.companion import batch_of, parse_companion

DEFAULT_PORT = 10043
MAX_BODY = 4 * 1024 * 1024
MAX_SAMPLES = 50  # tests per problem
MAX_SAMPLE_BYTES = 1024 * 1024  # input or output of one test
IDLE_TIMEOUT_S = 10.0  # a connection that sends nothing for this long is closed
EXTENSION_ORIGINS = ("moz-extension://", "chrome-extension://", "safari-web-extension://")
LOOPBACK = ("127.0.0.1", "::1", "localhost")
_log = logging.getLogger("cpbot.listen")


@dataclass(frozen=True)
class Received:
    """One problem as it arrived, with its place in its batch."""

    problem: Problem
    batch_id: str
    batch_size: int
    batch_received: int

    @property
    def batch_complete(self) -> bool:
        """True when this problem is the last one of its batch to arrive."""
        return self.batch_received >= self.batch_size


class BatchTracker:
    """Counts the problems of each batch (thread-safe)."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}
        self._lock = threading.Lock()

    def add(self, batch_id: str) -> int:
        """Record one more problem of `batch_id`; returns how many have arrived."""
        with self._lock:
            self._seen[batch_id] = self._seen.get(batch_id, 0) + 1
            return self._seen[batch_id]


class CompanionServer:
    """Serve Competitive Companion POSTs on a loopback port and hand each problem to `on_problem`.

    `on_error` receives what went wrong with a request (bad JSON, a failing callback); it is
    reported, never dropped.
    """

    def __init__(
        self,
        on_problem: Callable[[Received], None],
        on_error: Callable[[Exception], None],
        port: int = DEFAULT_PORT,
        host: str = "127.0.0.1",
    ) -> None:
        if host not in LOOPBACK:
            raise ConfigError(f"refusing to listen on {host}", hint="cpbot listen only binds to 127.0.0.1")
        self.on_problem = on_problem
        self.on_error = on_error
        self.batches = BatchTracker()
        try:
            self._server = ThreadingHTTPServer((host, port), _handler_for(self))
        except OSError as e:
            raise ConfigError(
                f"cannot listen on {host}:{port}: {e.strerror or e}",
                hint="another program (cph, CP Editor, ...) may hold the port; choose another with --port",
            ) from e
        self._server.daemon_threads = True

    @property
    def port(self) -> int:
        """The port actually bound (useful when 0 was asked for)."""
        return int(self._server.server_address[1])

    def serve_forever(self) -> None:
        """Handle requests until `shutdown` is called."""
        self._server.serve_forever(poll_interval=0.1)

    def shutdown(self) -> None:
        """Stop serving (safe to call from a request handler: it does not wait there)."""
        threading.Thread(target=self._server.shutdown, daemon=True).start()

    def close(self) -> None:
        """Release the socket."""
        self._server.server_close()

    def receive(self, body: bytes) -> Received:
        """Parse one POSTed body, check its size, count it in its batch and pass it on."""
        problem = parse_companion(body)
        if len(problem.samples) > MAX_SAMPLES:
            raise ConfigError(f"{len(problem.samples)} tests in one problem; at most {MAX_SAMPLES} are accepted")
        for test in problem.samples:
            if max(len(test.input), len(test.output or "")) > MAX_SAMPLE_BYTES:
                raise ConfigError(f"a test of {problem.title or problem.id} is larger than {MAX_SAMPLE_BYTES} bytes")
        batch_id, size = batch_of(problem.raw)
        received = Received(problem, batch_id, size, self.batches.add(batch_id))
        self.on_problem(received)
        return received


def _handler_for(server: CompanionServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        timeout = IDLE_TIMEOUT_S  # socket timeout: an idle or trickling connection is dropped

        def do_POST(self) -> None:
            origin = self.headers.get("Origin")
            if origin is not None and not origin.startswith(EXTENSION_ORIGINS):
                self._reply(403, "requests from web pages (or a null origin) are refused")
                return
            content_type = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
            if content_type != "application/json":
                self._reply(415, "expected Content-Type: application/json")
                return
            length_text = self.headers.get("Content-Length") or "0"
            length = int(length_text) if length_text.isdigit() else 0
            if length <= 0 or length > MAX_BODY:
                self._reply(400, "expected a JSON body")
                return
            body = self.rfile.read(length)
            try:
                server.receive(body)
            except CpbotError as e:
                server.on_error(e)
                self._reply(400, e.message)
                return
            except Exception as e:  # a failing callback must not kill the server; it is reported
                server.on_error(e)
                self._reply(500, "cpbot could not save the problem")
                return
            self._reply(200, "ok")

        def do_GET(self) -> None:
            self._reply(200, "cpbot is listening for Competitive Companion")

        def _reply(self, status: int, text: str) -> None:
            data = (text + "\n").encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:
            _log.info("listen: " + format, *args)

    return Handler
