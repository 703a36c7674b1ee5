"""A per-host minimum interval between requests, with an injectable clock and sleep for tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from cpbot.scrapers.codeforces_urls import is_codeforces_host

# Codeforces' API allows one call per 2 s; its pages get the same courtesy. LeetCode publishes no
# number; one request a second stays well under what its clients report as tolerated.
DEFAULT_INTERVALS = {"codeforces.com": 2.0, "leetcode.com": 1.0, "leetcode.cn": 1.0}


def site_key(host: str) -> str:
    """The rate-limit bucket of a host: all Codeforces mirrors share one."""
    host = (host or "").lower()
    if is_codeforces_host(host):
        return "codeforces.com"
    for site in ("leetcode.com", "leetcode.cn"):
        if host == site or host.endswith("." + site):
            return site
    return host


class RateLimiter:
    """Spaces requests to the same site at least `interval` seconds apart (thread-safe)."""

    def __init__(
        self,
        intervals: dict[str, float] | None = None,
        default_interval: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.intervals = dict(DEFAULT_INTERVALS if intervals is None else intervals)
        self.default_interval = default_interval
        self._clock = clock
        self._sleep = sleep
        self._next: dict[str, float] = {}
        self._lock = threading.Lock()

    def interval(self, host: str) -> float:
        """The minimum spacing for requests to `host`."""
        return self.intervals.get(site_key(host), self.default_interval)

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
