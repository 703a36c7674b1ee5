"""A per-site minimum interval between requests, with an injectable clock and sleep for tests.

Each site says how far apart its requests go (`Site.min_interval_s`) and which hosts share one bucket
(`Site.rate_bucket`: all Codeforces mirrors count as one); a host of no site is a bucket of its own.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from functools import cache


@cache
def _site_bucket(host: str) -> tuple[str, float] | None:
    """(bucket, interval) of the registered site that owns `host`, if any."""
    from cpbot.scrapers.sites import all_sites

    for site in all_sites():
        bucket = site.rate_bucket(host)
        if bucket:
            return bucket, site.min_interval_s
    return None


def site_key(host: str) -> str:
    """The rate-limit bucket of a host: the owning site's (`Site.rate_bucket`), else the host itself."""
    host = (host or "").lower()
    owned = _site_bucket(host)
    return owned[0] if owned else host


class RateLimiter:
    """Spaces requests to the same site at least `interval` seconds apart (thread-safe).

    `intervals` (bucket -> seconds) replaces the sites' own intervals when given; buckets it does not
    name wait `default_interval`."""

    def __init__(
        self,
        intervals: Mapping[str, float] | None = None,
        default_interval: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.intervals = None if intervals is None else dict(intervals)
        self.default_interval = default_interval
        self._clock = clock
        self._sleep = sleep
        self._next: dict[str, float] = {}
        self._lock = threading.Lock()

    def interval(self, host: str) -> float:
        """The minimum spacing for requests to `host`."""
        if self.intervals is not None:
            return self.intervals.get(site_key(host), self.default_interval)
        owned = _site_bucket((host or "").lower())
        return owned[1] if owned else self.default_interval

    def wait(self, host: str) -> float:
        """Block until a request to `host` may start; returns how long it waited."""
        key = site_key(host)
        with self._lock:
            now = self._clock()
            start = max(now, self._next.get(key, now))
            # Reserve the slot before sleeping so concurrent callers queue up behind it.
            self._next[key] = start + self.interval(host)
        delay = start - now
        if delay > 0:
            self._sleep(delay)
        return delay
