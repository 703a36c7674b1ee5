"""httpx transports that send a site's requests through a real browser when the site walls off scripts.

`BrowserTransport` plugs in under the ordinary `HttpClient`: each request is made by `fetch()` inside
a page of the site (`scrapers.browser`), so everything built on the client (fetch, contests, watch,
submit, verdict polling) works unchanged over the browser. `ChallengeTransport` is one site's
transport: plain HTTP first; the first challenge page switches the site to the browser, when one is
configured, for the rest of the process; without one the challenge page goes back to `HttpClient`,
which raises its clear `BlockedError`. `site_transports` makes one per registered site for the
client factory.
"""

from __future__ import annotations

import email.utils
import threading
from collections.abc import Callable
from http.cookies import SimpleCookie
from urllib.parse import urlsplit

import httpx

from cpbot.core.registry import SITE_SPECS, site_spec
from cpbot.scrapers import browser
from cpbot.scrapers.blocking import block_reason
from cpbot.scrapers.browser import BrowserRequestError, BrowserSession, PageResponse, origin_of, say_to_stderr
from cpbot.scrapers.browser_settings import BrowserSettings, signed_in

# Headers a page's fetch() may not set (the browser sends its own), or that describe the old encoding.
_NOT_SENT = frozenset(
    {
        "accept-charset",
        "accept-encoding",
        "connection",
        "content-length",
        "cookie",
        "date",
        "dnt",
        "expect",
        "host",
        "keep-alive",
        "origin",
        "referer",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "user-agent",  # the clearance is bound to the browser's own user agent
        "via",
    }
)
# The body fetch() hands back is already decoded and whole.
_NOT_RETURNED = frozenset({"content-encoding", "content-length", "transfer-encoding", "set-cookie"})
_MAX_FOLLOWED = 8


class BrowserTransport(httpx.BaseTransport):
    """Sends every request through `session` (a browser on one site's profile); whoever got the session
    gives it back."""

    def __init__(self, session: BrowserSession) -> None:
        self.session = session
        # The browser follows redirects itself; httpx is told with a 303 to the final address and gets the
        # page the browser already has when it asks for it, so nothing is requested twice.
        self._followed: dict[str, PageResponse] = {}
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        sent = _cookie_header(request)
        if request.method == "GET":
            with self._lock:
                ready = self._followed.pop(url, None)
            if ready is not None:
                return self._response(request, ready, sent)
        body = request.read() if request.method not in ("GET", "HEAD") else None
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _NOT_SENT and not _sec(k)}
        try:
            got = self.session.fetch(request.method, url, headers, body, referrer=_referrer(request), seed_cookies=sent)
        except BrowserRequestError as e:
            error = httpx.ReadTimeout if e.timeout else httpx.NetworkError
            raise error(e.message, request=request) from e
        if got.redirected and got.url != url:
            with self._lock:
                if len(self._followed) >= _MAX_FOLLOWED:
                    self._followed.clear()
                self._followed[got.url] = got
            location = got.url
            if origin_of(got.url) == origin_of(url):
                parts = urlsplit(got.url)
                location = parts.path + (f"?{parts.query}" if parts.query else "")
            headers_out = [("Location", location), *self._cookies_out(got.url, sent)]
            return httpx.Response(303, headers=headers_out, request=request)
        return self._response(request, got, sent)

    def _response(self, request: httpx.Request, got: PageResponse, sent: dict[str, str]) -> httpx.Response:
        headers = [(k, v) for k, v in got.headers if k.lower() not in _NOT_RETURNED]
        headers += self._cookies_out(got.url, sent)
        return httpx.Response(got.status, headers=headers, content=got.body, request=request)

    def _cookies_out(self, url: str, sent: dict[str, str]) -> list[tuple[str, str]]:
        """The browser's cookies for `url` that the client does not hold yet, as Set-Cookie headers: code
        that reads a cookie from the client (LeetCode's csrftoken) sees the browser's."""
        out = []
        for c in self.session.cookies(url):
            if sent.get(c["name"]) == c["value"]:
                continue
            line = f"{c['name']}={c['value']}; Path={c.get('path') or '/'}"
            expires = c.get("expires") or -1
            if expires > 0:
                line += f"; Expires={email.utils.formatdate(expires, usegmt=True)}"
            out.append(("Set-Cookie", line))
        return out

    def close(self) -> None:
        with self._lock:
            self._followed.clear()


class ChallengeTransport(httpx.BaseTransport):
    """One site's requests: plain HTTP until the site answers with a challenge page, the browser after.

    `settings` None (or disabled) means no browser: challenge pages go back to the client as they are.
    A site whose profile the user signed in to (`cpbot login --browser`) starts in the browser, since
    its session lives there.
    """

    def __init__(
        self,
        site: str,
        settings: BrowserSettings | None,
        *,
        plain: httpx.BaseTransport | None = None,
        notify: Callable[[str], None] = say_to_stderr,
    ) -> None:
        self.spec = site_spec(site)
        self.settings = settings if settings is not None and settings.enabled else None
        self.plain = plain or httpx.HTTPTransport()
        self.notify = notify
        self._browser: BrowserTransport | None = None
        self._session: BrowserSession | None = None
        self._lock = threading.Lock()
        settings = self.settings
        if settings is not None and not settings.cdp_url and signed_in(settings.profile_dir(self.spec.name)):
            self._use_browser(None)

    @property
    def in_browser(self) -> bool:
        """Whether the site's requests go through the browser now."""
        return self._browser is not None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self._browser is None and self.settings is not None and browser.switched(self.spec.name, self.settings):
            self._use_browser(None)  # another client of this process met the challenge already
        if self._browser is None:
            request.read()  # the body may have to be sent again, through the browser
            response = self.plain.handle_request(request)
            if self.settings is None:
                return response
            response.read()
            reason = block_reason(response.status_code, response.headers, response.content)
            if reason is None:
                return response
            response.close()
            self._use_browser(reason)  # the site refused the request, so sending it again is safe
        assert self._browser is not None
        return self._browser.handle_request(request)

    def _use_browser(self, reason: str | None) -> None:
        assert self.settings is not None
        with self._lock:
            if self._browser is not None:
                return
            session = self._session = browser.acquire(self.spec.name, self.settings, self.notify)
            first = not session.switched
            session.switched = True
            self._browser = BrowserTransport(session)
        if reason is not None and first:
            how = "your browser over CDP" if self.settings.cdp_url else f"Chromium on the profile {session.profile}"
            self.notify(f"{self.spec.title} answered with {reason}: going on through {how}")

    def close(self) -> None:
        self.plain.close()
        if self._browser is not None:
            self._browser.close()
        if self._session is not None:
            browser.release(self._session)
            self._session = None


def site_transports(
    settings: BrowserSettings | None, notify: Callable[[str], None] = say_to_stderr
) -> dict[str, ChallengeTransport]:
    """Site domain -> its `ChallengeTransport`, for every registered site (for the client factory)."""
    return {spec.domain: ChallengeTransport(spec.name, settings, notify=notify) for spec in SITE_SPECS}


def _sec(name: str) -> bool:
    lower = name.lower()
    return lower.startswith(("sec-", "proxy-", "access-control-request-"))


def _cookie_header(request: httpx.Request) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    for value in request.headers.get_list("cookie"):
        jar.load(value)
    return {name: morsel.value for name, morsel in jar.items()}


def _referrer(request: httpx.Request) -> str | None:
    """The Referer as fetch() takes it: a page's fetch() only sends one of its own origin, so a site routed
    to another base URL (tests) gets the same path on the origin the request goes to."""
    referer = request.headers.get("referer")
    if not referer:
        return None
    parts = urlsplit(referer)
    if origin_of(referer) == origin_of(str(request.url)):
        return referer
    return origin_of(str(request.url)) + (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
