"""Where the sites live: their base URLs (configurable, so tests point them at a local server).

Scrapers and submitters always build the sites' real URLs (https://codeforces.com/...); a
`RoutingTransport` under the HTTP client sends the requests of a site whose base URL was changed to
that base instead. Cookie domains, redirects and absolute links keep working as on the real site.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable, Mapping
from http.cookiejar import CookieJar
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, ConfigDict

from cpbot.core.errors import ConfigError
from cpbot.scrapers.browser import say_to_stderr
from cpbot.scrapers.browser_settings import BrowserSettings
from cpbot.scrapers.browser_transport import site_transports
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.ratelimit import DEFAULT_INTERVALS, RateLimiter

CANONICAL = {"codeforces": "https://codeforces.com", "leetcode": "https://leetcode.com"}
ENV = {"codeforces": "CPBOT_CODEFORCES_URL", "leetcode": "CPBOT_LEETCODE_URL"}
_SITE_DOMAINS = {"codeforces": "codeforces.com", "leetcode": "leetcode.com"}


class Endpoints(BaseModel):
    """The base URL of each site (default: the real one)."""

    model_config = ConfigDict(extra="forbid")

    codeforces: str = CANONICAL["codeforces"]
    leetcode: str = CANONICAL["leetcode"]

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Endpoints:
        """Base URLs from `CPBOT_CODEFORCES_URL` / `CPBOT_LEETCODE_URL`, the real sites otherwise."""
        env = os.environ if env is None else env
        values = {site: env[name].rstrip("/") for site, name in ENV.items() if env.get(name)}
        for site, url in values.items():
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ConfigError(f"{ENV[site]}={url} is not an http(s) base URL", hint="e.g. http://127.0.0.1:8080")
        return cls(**values)

    def routes(self) -> dict[str, str]:
        """Site domain -> base URL, for the sites whose base URL is not the real one."""
        return {
            _SITE_DOMAINS[site]: getattr(self, site).rstrip("/")
            for site in CANONICAL
            if getattr(self, site).rstrip("/") != CANONICAL[site]
        }

    def is_local(self) -> bool:
        """True when every changed base URL is on a loopback address (a test server)."""
        routes = self.routes()
        return bool(routes) and all(_is_loopback(urlsplit(u).hostname or "") for u in routes.values())


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class RoutingTransport(httpx.BaseTransport):
    """Sends requests for a routed site domain (and its subdomains) to that site's base URL.

    With `strict`, a request to any other host fails instead of leaving the machine: tests use it so
    that nothing can reach a real site.
    """

    def __init__(
        self,
        routes: Mapping[str, str],
        *,
        strict: bool = False,
        inner: httpx.BaseTransport | None = None,
        transports: Mapping[str, httpx.BaseTransport] | None = None,
    ):
        self.routes = {domain: httpx.URL(base) for domain, base in routes.items()}
        self.strict = strict
        self.inner = inner or httpx.HTTPTransport()
        self.transports = dict(transports or {})  # site domain -> that site's own transport (the browser's)

    def target(self, url: httpx.URL) -> httpx.URL | None:
        """Where a request for `url` goes instead, or None when it is not routed."""
        host = url.host.lower()
        for domain, base in self.routes.items():
            if host == domain or host.endswith("." + domain):
                path = base.path.rstrip("/") + url.path
                return url.copy_with(scheme=base.scheme, host=base.host, port=base.port, path=path)
        return None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        host = request.url.host.lower()
        site_domain = next((d for d in self.transports if host == d or host.endswith("." + d)), None)
        transport = self.transports[site_domain] if site_domain is not None else self.inner
        target = self.target(request.url)
        if target is None:
            if self.strict:
                raise httpx.ConnectError(f"{request.url.host} is not routed to a local server", request=request)
            return transport.handle_request(request)
        routed = httpx.Request(
            request.method, target, headers=request.headers, stream=request.stream, extensions=request.extensions
        )
        return transport.handle_request(routed)

    def close(self) -> None:
        self.inner.close()
        for transport in self.transports.values():
            transport.close()


def site_client(
    endpoints: Endpoints | None = None,
    *,
    cookies: CookieJar | None = None,
    strict: bool | None = None,
    timeout_s: float = 20.0,
    max_retries: int = 3,
    browser: BrowserSettings | None = None,
    notify: Callable[[str], None] = say_to_stderr,
) -> HttpClient:
    """An `HttpClient` whose site requests go to `endpoints` (from the environment by default).

    A loopback test server gets no politeness delay and `strict` routing unless told otherwise. With
    `browser`, a site that answers with a challenge page goes on through that browser.
    """
    endpoints = endpoints or Endpoints.from_env()
    routes = endpoints.routes()
    local = endpoints.is_local()
    limiter = RateLimiter({} if local else DEFAULT_INTERVALS, default_interval=0.0 if local else 1.0)
    # the browser transport: one per site, chosen by the site's real domain before routing
    own = site_transports(browser, notify) if browser is not None and browser.enabled else {}
    routed = bool(routes or own)
    transport = RoutingTransport(routes, strict=local if strict is None else strict, transports=own) if routed else None
    return HttpClient(
        cookies=cookies,
        timeout_s=timeout_s,
        max_retries=max_retries,
        backoff_s=0.05 if local else 1.0,
        limiter=limiter,
        transport=transport,
    )
