"""How many requests may be in flight to one model endpoint at once, shared by every client of the process.

A local server (llama.cpp, Ollama, a one-GPU vLLM) slows down or drops connections when too many
requests arrive together, and a hosted API answers 429. `EndpointLimit` lets at most `limit` requests
through at a time. A sign of overload (a 429, a 503, a dropped connection) halves the limit, never below
one, and each run of `limit` successes raises it by one again up to the configured maximum (additive
increase, multiplicative decrease, as TCP does). Overload signals from requests that were sent before
the last decrease count once, so a burst of 429s halves the limit once, not once per request.
A Retry-After holds back every other caller's new requests until it has passed; the caller that
received it waits it out itself (`LLMClient.backoff`).

`endpoint_limit(base_url, maximum)` returns the one limit of an endpoint in this process.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

Outcome = Literal["ok", "overloaded", "other"]


@dataclass
class Slot:
    """One request's place in flight; `epoch` says which limit it was sent under."""

    epoch: int
    queued_s: float = 0.0  # how long it waited for its place
    outcome: Outcome = "other"


class EndpointLimit:
    """At most `limit` requests in flight at once; thread-safe. `peak` is the most seen at once,
    `waiting` how many callers wait for a place now."""

    def __init__(self, maximum: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        if maximum < 1:
            raise ValueError("an endpoint needs room for at least one request")
        self.maximum = maximum
        self.limit = maximum
        self.in_flight = 0
        self.peak = 0
        self.waiting = 0
        self._clock = clock
        self._epoch = 0
        self._successes = 0
        self._resume_at = 0.0
        self._pauser: int | None = None  # the thread that received the Retry-After
        self._cond = threading.Condition()

    def set_maximum(self, maximum: int) -> None:
        """Change the configured maximum (a later client of the endpoint asked for another one)."""
        with self._cond:
            # a limit that was never lowered follows the new maximum; a lowered one stays lowered
            self.limit = max(1, maximum) if self.limit == self.maximum else min(self.limit, max(1, maximum))
            self.maximum = max(1, maximum)
            self._cond.notify_all()

    def acquire(self, timeout: float | None = None) -> Slot | None:
        """Wait for a place (at most `timeout` seconds); the `Slot`, or None when the time ran out."""
        started = self._clock()
        deadline = None if timeout is None else started + timeout
        me = threading.get_ident()
        with self._cond:
            while True:
                now = self._clock()
                paused = self._resume_at - now if me != self._pauser else 0.0
                if paused <= 0 and self.in_flight < self.limit:
                    self.in_flight += 1
                    self.peak = max(self.peak, self.in_flight)
                    return Slot(epoch=self._epoch, queued_s=now - started)
                wait = paused if paused > 0 else None
                if deadline is not None:
                    left = deadline - now
                    if left <= 0:
                        return None
                    wait = left if wait is None else min(wait, left)
                self.waiting += 1
                try:
                    self._cond.wait(wait)
                finally:
                    self.waiting -= 1

    def release(self, slot: Slot) -> None:
        """Give the place back; `slot.outcome` moves the limit (see the module's docstring)."""
        with self._cond:
            self.in_flight -= 1
            if slot.outcome == "ok":
                self._successes += 1
                if self._successes >= self.limit and self.limit < self.maximum:
                    self.limit += 1
                    self._successes = 0
            elif slot.outcome == "overloaded" and slot.epoch == self._epoch:
                self.limit = max(1, self.limit // 2)
                self._successes = 0
                self._epoch += 1
            self._cond.notify_all()

    def pause(self, seconds: float) -> None:
        """Hold back other callers' new requests for `seconds` (a Retry-After this thread received)."""
        with self._cond:
            self._resume_at = max(self._resume_at, self._clock() + seconds)
            self._pauser = threading.get_ident()
            self._cond.notify_all()

    @contextmanager
    def slot(self, timeout: float | None = None) -> Iterator[Slot | None]:
        """`with limit.slot() as slot:` holds a place in the block (None when `timeout` ran out first);
        set `slot.outcome` before leaving to move the limit."""
        held = self.acquire(timeout)
        try:
            yield held
        finally:
            if held is not None:
                self.release(held)


_LIMITS: dict[str, EndpointLimit] = {}
_LIMITS_LOCK = threading.Lock()


def endpoint_limit(base_url: str, maximum: int) -> EndpointLimit:
    """The process's limit for the endpoint at `base_url`, made on first use; a different `maximum`
    from a later client replaces the configured one."""
    key = base_url.rstrip("/").lower()
    with _LIMITS_LOCK:
        limit = _LIMITS.get(key)
        if limit is None:
            limit = _LIMITS[key] = EndpointLimit(maximum)
            return limit
    if limit.maximum != maximum:
        limit.set_maximum(maximum)
    return limit
