"""One total deadline per HTTP request, across every read: the guard on time for what servers send.

A per-read timeout alone lets a server that sends one byte a second hold a request forever. Inside
`total_deadline(seconds)`, every socket operation of the thread (connect, TLS, send, each read, the
headers' included) waits at most what is left of the deadline, and a request whose time runs out raises
`TotalTimeout` (an `httpx.ReadTimeout`). `DeadlineTransport` is an httpx transport over an httpcore
connection pool whose network backend keeps the deadline; both are public APIs of the two libraries.
`check_deadline` is for readers of a body that may have come through another transport (a proxy from the
environment): it stops between chunks. The model client (`agents/`) and the scrapers' HTTP layer use it.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import httpcore
import httpx

RAN_OUT = "the request's total time ran out"
T = TypeVar("T")

_deadline = threading.local()


class TotalTimeout(httpx.ReadTimeout):
    """A request's total deadline passed (not one read's timeout)."""


class _CoreTotalTimeout(httpcore.ReadTimeout):
    """As httpcore raises it, inside the pool; `DeadlineTransport` turns it into `TotalTimeout`."""


@contextmanager
def total_deadline(seconds: float) -> Iterator[None]:
    """Every socket operation of this thread inside the block waits at most until `seconds` from now."""
    previous = getattr(_deadline, "until", None)
    _deadline.until = time.monotonic() + seconds
    try:
        yield
    finally:
        _deadline.until = previous


def check_deadline() -> None:
    """Raise `TotalTimeout` when this thread's deadline has passed."""
    until = getattr(_deadline, "until", None)
    if until is not None and time.monotonic() > until:
        raise TotalTimeout(RAN_OUT)


def _left(timeout: float | None) -> float | None:
    """`timeout` cut to what is left of this thread's deadline; raises when nothing is left."""
    until = getattr(_deadline, "until", None)
    if until is None:
        return timeout
    left = until - time.monotonic()
    if left <= 0:
        raise _CoreTotalTimeout(RAN_OUT)
    return left if timeout is None else min(timeout, left)


def _kept(operation: Callable[[float | None], T], timeout: float | None) -> T:
    """`operation(timeout)` with `timeout` cut to the deadline; its timing out at the deadline is the
    deadline's."""
    try:
        return operation(_left(timeout))
    except httpcore.TimeoutException:
        until = getattr(_deadline, "until", None)
        if until is not None and time.monotonic() >= until:
            raise _CoreTotalTimeout(RAN_OUT) from None
        raise


class _DeadlineStream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return _kept(lambda t: self._inner.read(max_bytes, t), timeout)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        _kept(lambda t: self._inner.write(buffer, t), timeout)

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> Any:
        return _DeadlineStream(_kept(lambda t: self._inner.start_tls(ssl_context, server_hostname, t), timeout))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    def __init__(self, inner: httpcore.NetworkBackend) -> None:
        self._inner = inner

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, **options: Any) -> Any:
        return _DeadlineStream(_kept(lambda t: self._inner.connect_tcp(host, port, t, **options), timeout))

    def connect_unix_socket(self, path: str, timeout: float | None = None, **options: Any) -> Any:
        return _DeadlineStream(_kept(lambda t: self._inner.connect_unix_socket(path, t, **options), timeout))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


# every exception httpcore raises for a request; httpx has one of the same name for each
_CORE_ERRORS = (
    httpcore.TimeoutException,
    httpcore.NetworkError,
    httpcore.ProtocolError,
    httpcore.ProxyError,
    httpcore.UnsupportedProtocol,
)


def _as_httpx(error: Exception) -> Exception:
    """httpcore's exception as httpx's of the same name (httpx mirrors httpcore's tree)."""
    if isinstance(error, _CoreTotalTimeout):
        return TotalTimeout(str(error))
    kind = getattr(httpx, type(error).__name__, None)
    if isinstance(kind, type) and issubclass(kind, httpx.TransportError):
        return kind(str(error))
    return httpx.TransportError(f"{type(error).__name__}: {error}")


class _Body(httpx.SyncByteStream):
    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def __iter__(self) -> Iterator[bytes]:
        try:
            yield from self._stream
        except _CORE_ERRORS as e:
            raise _as_httpx(e) from e

    def close(self) -> None:
        self._stream.close()


class DeadlineTransport(httpx.BaseTransport):
    """An HTTP/1.1 transport whose every socket operation keeps `total_deadline`."""

    def __init__(self, max_connections: int = 100, max_keepalive: int = 20) -> None:
        # httpcore makes its default TLS context (certifi's) at the first TLS connection; httpx's honours
        # SSL_CERT_FILE and SSL_CERT_DIR, so it is taken when they are set
        certs = os.environ.get("SSL_CERT_FILE") or os.environ.get("SSL_CERT_DIR")
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context() if certs else None,
            max_connections=max_connections,
            max_keepalive_connections=max_keepalive,
            keepalive_expiry=5.0,
            network_backend=_DeadlineBackend(httpcore.SyncBackend()),
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        sent = httpcore.Request(
            method=request.method,
            url=httpcore.URL(scheme=url.raw_scheme, host=url.raw_host, port=url.port, target=url.raw_path),
            headers=request.headers.raw,
            content=request.stream,  # type: ignore[arg-type]
            extensions=request.extensions,
        )
        try:
            got = self._pool.handle_request(sent)
        except _CORE_ERRORS as e:
            raise _as_httpx(e) from e
        return httpx.Response(got.status, headers=got.headers, stream=_Body(got.stream), extensions=got.extensions)

    def close(self) -> None:
        self._pool.close()
