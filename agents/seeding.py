"""Reproducible draws: with a configured seed, each request gets a seed of its own that depends on what it
is, never on when it arrives.

A request's seed derives from the configured seed, the solve's task (the problem), the role, and its place:
the index of the concurrent call it belongs to (`agents.parallel.gather` numbers its calls, a bench numbers
its independent solves) and how many requests of the same role and text came before it at that place in the
same solve. So the k candidates drawn at once get k different seeds, and the same k seeds however the
threads are scheduled; a server that honours `seed` then gives the same answers in any arrival order.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_PLACE: ContextVar[tuple[int, ...]] = ContextVar("cpbot_draw_place", default=())
_SEEN: ContextVar[_Seen | None] = ContextVar("cpbot_draw_seen", default=None)


class _Seen:
    """How many requests of each (role, place, text) a solve has sent; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[tuple[Any, ...], int] = {}

    def next(self, key: tuple[Any, ...]) -> int:
        with self._lock:
            n = self._counts.get(key, 0)
            self._counts[key] = n + 1
        return n


@contextmanager
def at(index: int) -> Iterator[None]:
    """Requests made inside are the `index`-th of a set of concurrent (or independent) ones."""
    token = _PLACE.set((*_PLACE.get(), index))
    try:
        yield
    finally:
        _PLACE.reset(token)


@contextmanager
def one_solve() -> Iterator[None]:
    """Requests made inside belong to one solve: repeats of a request are counted from zero here."""
    token = _SEEN.set(_Seen())
    try:
        yield
    finally:
        _SEEN.reset(token)


def request_seed(base: int, task_id: str, role: str, messages: Sequence[Mapping[str, Any]]) -> int:
    """The seed to send with one request, when `base` is configured (see the module's docstring)."""
    text = hashlib.sha256("\0".join(str(m.get("content") or "") for m in messages).encode()).hexdigest()
    place = _PLACE.get()
    seen = _SEEN.get()
    repeat = seen.next((task_id, role, place, text)) if seen is not None else 0
    digest = hashlib.sha256(f"{base}\0{task_id}\0{role}\0{place}\0{repeat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF  # a 31-bit seed every server takes
