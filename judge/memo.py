"""Results of deterministic runs kept for the next asker: a generator's input for (N, seed), a brute
force's answer to an input.

A stress run, the size ladder and the profile of every candidate of a problem ask for the same inputs
and the same brute-force answers (the seeds are the same for each candidate): computing them once per
process turns a check's three runs per input into one. Keys name the program by its build key (a digest
of its source and build), so a changed program is a miss; a run starved of CPU is never kept."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")

MEMO_BYTES = 256 << 20  # per memo; inputs at a statement's bound are a few MB each


class BytesLRU(Generic[V]):
    """A least-recently-used map bounded by the bytes its values hold (`size_of`); safe to share between
    threads (a solve checks candidates at once)."""

    def __init__(self, size_of: Callable[[V], int], budget: int = MEMO_BYTES) -> None:
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._size_of, self._budget, self._held = size_of, budget, 0
        self._lock = threading.Lock()
        self.hits = 0

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
                self.hits += 1
            return value

    def put(self, key: Hashable, value: V) -> None:
        size = self._size_of(value)
        with self._lock:
            if size > self._budget or key in self._items:
                return
            self._items[key] = value
            self._held += size
            while self._held > self._budget:
                _, old = self._items.popitem(last=False)
                self._held -= self._size_of(old)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._held = 0
