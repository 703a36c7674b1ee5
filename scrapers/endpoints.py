"""The one HTTP client factory: where the sites live and how their requests travel.

Scrapers and submitters always build the sites' real URLs (https://codeforces.com/...). A site's base
URL can be changed with the environment variable its registry entry names (`SiteSpec.url_env`, e.g.
`CPBOT_CODEFORCES_URL`), so that tests point it at a local server; a `RoutingTransport` under the
client then sends that site's requests there, and cookie domains, redirects and absolute links keep
working as on the real site. Each site may also choose the transport its requests travel by
(`Site.transport`). Every command builds its client with `site_client`.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable, Iterable, Mapping
from http.cookiejar import CookieJar
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, ConfigDict

from cpbot.core.errors import ConfigError
from cpbot.core.http_deadline import DeadlineTransport
from cpbot.core.registry import SITE_SPECS, site_spec
from cpbot.scrapers.browser_settings import BrowserSettings
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.ratelimit import RateLimiter

if TYPE_CHECKING:
    from cpbot.scrapers.site import Site


class Endpoints(BaseModel):
    """The base URL of each site whose base URL is not the real one (site name -> URL)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    bases: dict[str, str] = {}

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Endpoints:
        """Base URLs from each site's `url_env` variable (`CPBOT_CODEFORCES_URL`, ...), the real sites
        otherwise."""
        env = os.environ if env is None else env
        bases = {}
        for spec in SITE_SPECS:
            url = env.get(spec.url_env, "").rstrip("/")
            if not url:
                continue
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ConfigError(f"{spec.url_env}={url} is not an http(s) base URL", hint="e.g. http://127.0.0.1:8080")
            bases[spec.name] = url
        return cls(bases=bases)

    @classmethod
    def everywhere(cls, url: str) -> Endpoints:
        """Every site at one base URL (a test server that plays them all)."""
        return cls(bases={spec.name: url.rstrip("/") for spec in SITE_SPECS})

    def base(self, site: str) -> str:
        """The base URL requests of `site` go to."""
        spec = site_spec(site)
        return self.bases.get(spec.name, spec.base_url).rstrip("/")

    def routes(self) -> dict[str, str]:
        """Site domain -> base URL, for the sites whose base URL is not the real one."""
        found = {}
        for name, url in self.bases.items():
            spec = site_spec(name)
            if url.rstrip("/") != spec.base_url:
                found[spec.domain] = url.rstrip("/")
        return found

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


def _domain_of(host: str, domains: Iterable[str]) -> str | None:
    host = host.lower()
    return next((d for d in domains if host == d or host.endswith("." + d)), None)


class RoutingTransport(httpx.BaseTransport):
    """Sends the requests for a routed site domain (and its subdomains) to that site's base URL, each
    site's requests through its own transport when it has one.

    With `strict`, a request that would not go to a routed base URL fails instead of leaving the
    machine: tests use it so that nothing can reach a real site.
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
        self.inner = inner or DeadlineTransport()
        self.transports = dict(transports or {})  # site domain -> the site's own transport

    def target(self, url: httpx.URL) -> httpx.URL | None:
        """Where a request for `url` goes instead, or None when it is not routed."""
        domain = _domain_of(url.host, self.routes)
        if domain is None:
            return None
        base = self.routes[domain]
        path = base.path.rstrip("/") + url.path
        return url.copy_with(scheme=base.scheme, host=base.host, port=base.port, path=path)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        domain = _domain_of(request.url.host, self.transports)
        transport = self.transports[domain] if domain is not None else self.inner
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
    sites: Iterable[Site] | None = None,
    browser: BrowserSettings | None = None,
    notify: Callable[[str], None] | None = None,
) -> HttpClient:
    """The `HttpClient` every command uses: site requests go to `endpoints` (from the environment by
    default), through the transport each of `sites` (default: all registered) chooses.

    A loopback test server gets no politeness delay and `strict` routing unless told otherwise. With an
    enabled `browser`, a site that answers with a challenge page goes on through that browser (plain HTTP
    first; `notify` tells the user when a window opens).
    """
    from cpbot.scrapers.sites import all_sites

    endpoints = endpoints or Endpoints.from_env()
    routes = endpoints.routes()
    local = endpoints.is_local()
    chosen = tuple(all_sites() if sites is None else sites)
    own = {site.spec.domain: t for site in chosen if (t := site.transport())}
    if browser is not None and browser.enabled:
        from cpbot.scrapers.browser import say_to_stderr
        from cpbot.scrapers.browser_transport import site_transports

        own.update(site_transports(browser, notify or say_to_stderr))
    # a loopback test server gets no politeness delay; the real sites get each site's own
    limiter = RateLimiter(default_interval=0.0) if local else RateLimiter(sites=chosen)
    routed = routes or own
    transport = RoutingTransport(routes, strict=local if strict is None else strict, transports=own) if routed else None
    return HttpClient(
        cookies=cookies,
        timeout_s=timeout_s,
        max_retries=max_retries,
        backoff_s=0.05 if local else 1.0,
        limiter=limiter,
        transport=transport,
    )
