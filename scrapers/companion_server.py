"""A loopback HTTP server that receives problems from the Competitive Companion extension.

The user's browser gets past Cloudflare; the extension then POSTs each problem's JSON to
127.0.0.1. Problems of one contest share a batch id; the server tells its caller when a batch is
complete. Only the extension may feed problems: a request with a web page's Origin (http(s), or the
`null` of a sandboxed frame or a file) is refused, and so is any body not sent as `application/json`
(a page cannot send that cross-site without a CORS preflight, which this server never answers), and
so is any request whose Host header is not a loopback name (a page of a rebound DNS name). A body shorter
than its Content-Length is refused, and a client that has gone is let go without a traceback.
Bodies, samples and idle connections are capped, so a local page or program cannot exhaust it.
"""

from __future__ import annotations

import logging
import sys
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


def is_loopback_host(host: str | None) -> bool:
    """Whether a Host header names this machine's loopback (`localhost:10043`, `127.0.0.1`, `[::1]:80`)."""
    if not host:
        return False
    name = host.strip().lower()
    if name.startswith("["):  # [::1] or [::1]:port
        name, _, rest = name[1:].partition("]")
        return name == "::1" and (not rest or (rest[0] == ":" and rest[1:].isdigit()))
    name, _, port = name.partition(":")
    return name in ("127.0.0.1", "localhost") and (not port or port.isdigit())


class _QuietServer(ThreadingHTTPServer):
    """A request that fails in a way the handler did not foresee is one log line, not a traceback."""

    def handle_error(self, request: object, client_address: object) -> None:
        _log.warning("listen: a request from %s failed: %s", client_address, sys.exc_info()[1])


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
            self._server = _QuietServer((host, port), _handler_for(self))
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
            if not self._loopback_host():
                return
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
            try:
                body = self.rfile.read(length)
            except OSError as e:  # the socket's timeout: a client that stopped sending
                _log.info("listen: a body not sent whole in time (%s)", e)
                self.close_connection = True
                return
            if len(body) < length:
                self._reply(400, f"the body is {len(body)} bytes, shorter than its Content-Length ({length})")
                return
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
            if self._loopback_host():
                self._reply(200, "cpbot is listening for Competitive Companion")

        def _loopback_host(self) -> bool:
            """A request must name a loopback host: a page of a rebound name (DNS rebinding) sends its own
            name, and is refused (replies False after answering 421)."""
            if is_loopback_host(self.headers.get("Host")):
                return True
            self._reply(421, "the Host header must name 127.0.0.1, localhost or [::1]")
            return False

        def _reply(self, status: int, text: str) -> None:
            data = (text + "\n").encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError as e:  # the client has gone: nothing to tell it
                _log.info("listen: the client left before the reply (%s)", e)
                self.close_connection = True

        def log_message(self, format: str, *args: object) -> None:
            _log.info("listen: " + format, *args)

    return Handler
