"""The HTTP side of the fake sites: one threaded server on 127.0.0.1 for every fake site.

Routing is by path (the sites' paths do not overlap; each site module answers its own), so requests may
arrive with the real sites' Host headers (through `cpbot.scrapers.endpoints.RoutingTransport`) or with
127.0.0.1.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.fakes import atcoder, codeforces, leetcode
from tests.fakes.http import CAPTCHA_PAGE, CLOUDFLARE_PAGE, Reply, Request
from tests.fakes.state import FakeSite


class FakeSiteServer:
    """Serves a `FakeSite` on 127.0.0.1 (random port); use as a context manager."""

    def __init__(self, site: FakeSite | None = None, host: str = "127.0.0.1", port: int = 0) -> None:
        self.site = site or FakeSite()
        self._httpd = ThreadingHTTPServer((host, port), _handler_class(self.site))
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeSiteServer:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="fakesite", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeSiteServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def env(self) -> dict[str, str]:
        """Environment variables that point cpbot's site clients at this server."""
        return {"CPBOT_CODEFORCES_URL": self.url, "CPBOT_LEETCODE_URL": self.url, "CPBOT_ATCODER_URL": self.url}

    def client(self, cookies: Any = None) -> Any:
        """A `scrapers.http.HttpClient` whose codeforces.com / leetcode.com requests come here (and
        nowhere else)."""
        from cpbot.scrapers.endpoints import Endpoints, site_client

        return site_client(Endpoints.everywhere(self.url), cookies=cookies, strict=True)


def _handler_class(site: FakeSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def _serve(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            req = Request(method, self.path, self.headers, body)
            with site.lock:
                site.requests.append((method, req.path))
            try:
                reply = route(site, req)
            except Exception as e:  # a bug in the fake must show up in the test, as a 500 with the error
                reply = Reply(500, f"fake site error: {type(e).__name__}: {e}", "text/plain")
            self.send_response(reply.status)
            for name, value in reply.headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        def do_GET(self) -> None:
            self._serve("GET")

        def do_POST(self) -> None:
            self._serve("POST")

    return Handler


def route(site: FakeSite, req: Request) -> Reply:
    """Dispatch one request to the site that owns its path."""
    p = req.path
    if site.wall is not None:
        with site.lock:
            agent = req.headers.get("User-Agent", "")
            if not site.wall.admits(req.cookies, agent):
                r = Reply(403, site.wall.challenge_page(agent))
                r.headers += [("cf-mitigated", "challenge"), ("Server", "cloudflare")]
                return r
    if p.startswith("/api/"):
        if site.block is not None and site.block_scope == "all":
            return _blocked(site)
        return codeforces.api(site, req)
    is_submit = p.endswith("/submit") or p.endswith("/submit/")
    if site.block is not None and (site.block_scope in ("pages", "all") or is_submit):
        return _blocked(site)
    if atcoder.owns(p):
        return atcoder.serve(site.atcoder, req)
    return leetcode.serve(site, req) if leetcode.owns(p) else codeforces.pages(site, req)


def _blocked(site: FakeSite) -> Reply:
    if site.block == "cloudflare":
        r = Reply(403, CLOUDFLARE_PAGE)
        r.headers += [("cf-mitigated", "challenge"), ("Server", "cloudflare")]
        return r
    return Reply(200, CAPTCHA_PAGE)
