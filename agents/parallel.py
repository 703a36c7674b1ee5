"""Independent calls of one solve, run together: k candidates, the brute force, the generator, test inputs.

`gather([lambda: ..., lambda: ...])` runs each callable in its own thread and returns their results in
the order given, an exception in place of the result of a call that raised, so one failed call never
loses the others' finished work. The model client bounds how many requests reach an endpoint at once
(`agents.inflight`), and the budget counts every call (`agents.budget`), so the callables may simply
call the model. `values` keeps the results and raises the first exception, for callers that need all.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from cpbot.agents import seeding

T = TypeVar("T")


def gather(calls: Sequence[Callable[[], T]], *, max_workers: int | None = None) -> list[T | Exception]:
    """Run `calls` at once (at most `max_workers` threads, default one per call) and return each one's
    result, or the exception it raised, in the order of `calls`."""
    if not calls:
        return []
    if len(calls) == 1:
        return [_run_at(0, calls[0])]
    workers = max(1, min(max_workers or len(calls), len(calls)))
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cpbot-gather") as pool:
        # each call sees the caller's context variables, as it would if run in line
        futures = [pool.submit(contextvars.copy_context().run, _run_at, i, call) for i, call in enumerate(calls)]
        return [future.result() for future in futures]


def values(results: Sequence[T | Exception]) -> list[T]:
    """The results of `gather`, or the first exception among them raised."""
    for result in results:
        if isinstance(result, Exception):
            raise result
    return list(results)  # type: ignore[arg-type]


def _run_at(index: int, call: Callable[[], T]) -> T | Exception:
    with seeding.at(index):  # the call's requests are seeded by its place, not by when they arrive
        return _run(call)


def _run(call: Callable[[], T]) -> T | Exception:
    try:
        return call()
    except Exception as e:  # returned in the call's place: the caller decides what it means
        return e
