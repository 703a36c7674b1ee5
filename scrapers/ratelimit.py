"""A per-site minimum interval between requests, with an injectable clock and sleep for tests.

Each site says how far apart its requests go (`Site.min_interval_s`) and which hosts share one bucket
(`Site.rate_bucket`: all Codeforces mirrors count as one); the client factory
(`scrapers.endpoints.site_client`) hands the sites to the limiter. A host of no site is a bucket of its
own and waits `default_interval`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Protocol


class RateRule(Protocol):
    """What the limiter asks a site (`scrapers.site.Site` is one)."""

    min_interval_s: float

    def rate_bucket(self, host: str) -> str | None: ...


class RateLimiter:
    """Spaces requests to the same site at least its interval apart (thread-safe).

    `intervals` (bucket -> seconds) overrides the sites' own intervals; buckets that neither names wait
    `default_interval`."""

    def __init__(
        self,
        intervals: Mapping[str, float] | None = None,
        default_interval: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        *,
        sites: Iterable[RateRule] = (),
    ) -> None:
        self.intervals = dict(intervals or {})
        self.default_interval = default_interval
        self.sites = tuple(sites)
        self._clock = clock
        self._sleep = sleep
        self._next: dict[str, float] = {}
        self._lock = threading.Lock()

    def bucket(self, host: str) -> tuple[str, float]:
        """The bucket of `host` and the minimum spacing of its requests."""
        host = (host or "").lower()
        for site in self.sites:
            key = site.rate_bucket(host)
            if key:
                return key, self.intervals.get(key, site.min_interval_s)
        return host, self.intervals.get(host, self.default_interval)

    def interval(self, host: str) -> float:
        """The minimum spacing for requests to `host`."""
        return self.bucket(host)[1]

    def wait(self, host: str) -> float:
        """Block until a request to `host` may start; returns how long it waited."""
        key, interval = self.bucket(host)
        with self._lock:
            now = self._clock()
            start = max(now, self._next.get(key, now))
            # Reserve the slot before sleeping so concurrent callers queue up behind it.
            self._next[key] = start + interval
        delay = start - now
        if delay > 0:
            self._sleep(delay)
        return delay
