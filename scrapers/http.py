"""The one HTTP layer of the scrapers (httpx): polite, patient, and honest about blocks.

Every request carries a User-Agent naming cpbot, waits for its site's rate limit, retries 429 and
5xx answers and dropped connections with exponential backoff (honouring `Retry-After`), and times
out. Errors that cannot heal by waiting (connection refused, no such host) fail at the first attempt. A Cloudflare or
captcha page raises `BlockedError` with a hint on what the user can do. Cookies come from a jar,
e.g. one loaded from a browser's cookies.txt by `scrapers.cookies`. A body is read as it streams in and no
further than `max_page_mb` (`cpbot.core.bounds`), decompressed size, so an endless or a bomb page never
sits in memory whole; and within `max_page_s` in all (`cpbot.core.http_deadline`: every read, the headers'
included, waits only for what is left), so a server that sends a byte a second is left when that runs out.
"""

from __future__ import annotations

import logging
import random
import socket
import time
import urllib.request
import zlib
from collections.abc import Callable, Iterable, Iterator
from http.cookiejar import CookieJar
from typing import Any, Protocol, runtime_checkable
from urllib.parse import urlsplit

import httpx

from cpbot.core.bounds import PAGE, PAGE_TIME, inflate, read_capped
from cpbot.core.errors import ConfigError, FetchError
from cpbot.core.http_deadline import DeadlineTransport, TotalTimeout, check_deadline, total_deadline
from cpbot.core.retry import retry_after_seconds
from cpbot.scrapers.blocking import block_reason, blocked_error
from cpbot.scrapers.ratelimit import RateLimiter

USER_AGENT = "cpbot/0.1 (competitive-programming assistant; rate-limited, read-only)"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_STREAM_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding"})
_log = logging.getLogger("cpbot.http")


@runtime_checkable
class RoutedTransport(Protocol):
    """A transport that sends a site's requests elsewhere (e.g. to a local stand-in, `scrapers.endpoints`)."""

    def target(self, url: httpx.URL) -> httpx.URL | None:
        """Where a request for `url` goes instead, or None when it is not routed."""
        ...


class HttpClient:
    """A small wrapper over `httpx.Client` that every site module uses."""

    def __init__(
        self,
        *,
        cookies: CookieJar | None = None,
        user_agent: str = USER_AGENT,
        timeout_s: float = 20.0,
        max_retries: int = 3,
        backoff_s: float = 1.0,
        max_backoff_s: float = 60.0,
        max_wait_s: float = 300.0,
        jitter: float = 0.1,
        limiter: RateLimiter | None = None,
        sleep: Callable[[float], None] = time.sleep,
        wall_clock: Callable[[], float] = time.time,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.limiter = limiter or RateLimiter(sleep=sleep)
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.max_wait_s = max_wait_s
        self.jitter = jitter
        self.sleep = sleep
        self._wall_clock = wall_clock
        self._random = random.Random()
        self._transport = transport
        if transport is None and not urllib.request.getproxies():
            # httpx reads proxies from the environment only for its own transport: keep it for them
            transport = DeadlineTransport()
        self._client = httpx.Client(
            headers={"User-Agent": user_agent, "Accept-Language": "en"},
            cookies=cookies,
            timeout=httpx.Timeout(timeout_s, connect=min(10.0, timeout_s)),
            follow_redirects=True,
            transport=transport,
        )

    def __enter__(self) -> HttpClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def cookie(self, name: str, domain_suffix: str) -> str | None:
        """The value of cookie `name` set for a domain ending in `domain_suffix`, if any."""
        for c in self._client.cookies.jar:
            if c.name == name and c.domain.lstrip(".").endswith(domain_suffix):
                return c.value
        return None

    def get(self, url: str, *, accept: tuple[int, ...] = (), **kwargs: Any) -> httpx.Response:
        """GET with rate limit, retries and block detection (see `request`)."""
        return self.request("GET", url, accept=accept, **kwargs)

    def post(self, url: str, *, accept: tuple[int, ...] = (), **kwargs: Any) -> httpx.Response:
        """POST with rate limit, retries and block detection (see `request`)."""
        return self.request("POST", url, accept=accept, **kwargs)

    def request(self, method: str, url: str, *, accept: tuple[int, ...] = (), **kwargs: Any) -> httpx.Response:
        """Send a request and return a successful response (or one whose status is in `accept`).

        Raises `BlockedError` for challenge pages and `FetchError` when retries run out or the
        site refuses; never returns an error page as if it were content.
        """
        host = urlsplit(url).hostname or ""
        if not host:
            raise ConfigError(f"not a URL: {url}", hint="give a full http(s):// address")
        for attempt in range(self.max_retries + 1):
            self.limiter.wait(host)
            try:
                response = self._send_capped(method, url, **kwargs)
            except TotalTimeout as e:  # a server this slow would be as slow again
                raise PAGE_TIME.exceeded(f"the answer of {host} for {url}", FetchError) from e
            except (httpx.UnsupportedProtocol, httpx.TooManyRedirects) as e:
                raise FetchError(f"cannot fetch {url}: {e}") from e
            except httpx.TransportError as e:
                _log.info("network: %s %s failed: %s", method, url, e)
                lasting = lasting_failure(e)
                if lasting:
                    where = self._where(url, host)
                    raise FetchError(f"cannot reach {where} for {url}: {lasting}", hint=_lasting_hint(where)) from e
                if attempt == self.max_retries:
                    raise FetchError(
                        f"could not reach {host} for {url} after {attempt + 1} attempts: {e}",
                        hint="check the network connection (or a proxy) and try again",
                    ) from e
                self.sleep(self._backoff(attempt))
                continue
            _log.info("network: %s %s -> %s", method, url, response.status_code)
            reason = block_reason(response.status_code, response.headers, response.content)
            if reason:
                raise blocked_error(url, reason)
            status = response.status_code
            if status in RETRY_STATUSES and status not in accept and attempt < self.max_retries:
                delay = self._retry_after(response)
                if delay is None:
                    delay = self._backoff(attempt)
                if delay > self.max_wait_s:
                    raise FetchError(
                        f"{host} answered HTTP {status} for {url} and asks to wait {delay:.0f} s",
                        hint="try again later",
                    )
                self.sleep(delay)
                continue
            if response.is_success or status in accept:
                return response
            raise _status_error(url, status, attempt + 1)
        raise AssertionError("unreachable: the loop returns or raises")  # pragma: no cover

    def _send_capped(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """The response with its body read while it stays within `max_page_mb` (decompressed): reading
        stops at the bound, so a huge or endless body never sits in memory."""
        request = self._client.build_request(method, url, **kwargs)
        with total_deadline(PAGE_TIME.value()):
            response = self._client.send(request, stream=True)
            host = urlsplit(url).hostname
            # gzip, the usual encoding, is unpacked here a piece at a time (httpx unpacks a chunk whole)
            gzipped = response.headers.get("content-encoding", "").strip().lower() in ("gzip", "x-gzip")
            try:
                chunks = inflate(response.iter_raw(), 31) if gzipped else response.iter_bytes()
                body = read_capped(_in_time(chunks), PAGE, f"the answer of {host} for {url}", FetchError)
            except (zlib.error, httpx.DecodingError) as e:
                raise FetchError(f"{host} answered {url} with a body that does not decode: {e}") from e
            finally:
                response.close()
        # the body as read (decoded): the headers that described the encoded stream no longer apply
        headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in _STREAM_HEADERS]
        capped = httpx.Response(
            response.status_code, headers=headers, content=body, request=response.request, history=response.history
        )
        capped.extensions = response.extensions
        return capped

    def _where(self, url: str, host: str) -> str:
        """The host a request really went to: a routed site names its stand-in, e.g. "127.0.0.1:8001 (for
        codeforces.com)", so an error does not blame the public site for a local server that is down."""
        if isinstance(self._transport, RoutedTransport):
            target = self._transport.target(httpx.URL(url))
            if target is not None:
                port = f":{target.port}" if target.port else ""
                return f"{target.host}{port} (for {host})"
        return host

    def _backoff(self, attempt: int) -> float:
        delay = min(self.max_backoff_s, self.backoff_s * 2**attempt)
        return delay * (1 + self.jitter * self._random.random())

    def _retry_after(self, response: httpx.Response) -> float | None:
        return retry_after_seconds(response.headers, now=self._wall_clock())


def _in_time(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The chunks, stopping when the request's deadline has passed (a transport given from outside, or a
    proxy's, may not keep it at its sockets)."""
    for chunk in chunks:
        check_deadline()
        yield chunk


def lasting_failure(error: BaseException) -> str | None:
    """Why a connection failed, when waiting will not help (nothing listens, the name does not resolve)."""
    if not isinstance(error, httpx.ConnectError):
        return None  # timeouts, resets and dropped connections may heal
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, ConnectionRefusedError):
            return "connection refused (nothing listens there)"
        if isinstance(cause, socket.gaierror):
            return f"no such host ({cause.strerror or cause})"
        cause = cause.__cause__ or cause.__context__
    text = str(error)
    if "Connection refused" in text or "[Errno 111]" in text:
        return "connection refused (nothing listens there)"
    if "Name or service not known" in text or "nodename nor servname" in text or "[Errno -2]" in text:
        return f"no such host ({text})"
    return None


def _lasting_hint(where: str) -> str:
    return (
        f"check that {where} is the right address (CPBOT_CODEFORCES_URL / CPBOT_LEETCODE_URL change it) "
        "and that the network, a proxy or the server is up"
    )


def _status_error(url: str, status: int, attempts: int) -> FetchError:
    if status in RETRY_STATUSES:
        return FetchError(f"{url} still answered HTTP {status} after {attempts} attempts", hint="try again later")
    if status in (401, 403):
        return FetchError(
            f"{url} refused access (HTTP {status})",
            hint="the site may want a logged-in session: pass your browser's cookies with --cookies cookies.txt",
        )
    if status == 404:
        return FetchError(f"{url} does not exist (HTTP 404)", hint="check the URL")
    return FetchError(f"{url} answered HTTP {status}")
