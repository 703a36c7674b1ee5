"""The secrets this process has met (cookie values, say), so every redactor removes them.

A layer that reads a secret (scrapers reading a cookies.txt) registers it here; a redactor (bot)
subscribes and is told of every secret, past and future. Core is the one layer both may import.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable

_lock = threading.Lock()
_secrets: list[str] = []
_listeners: weakref.WeakSet = weakref.WeakSet()


def register_secret(value: str) -> None:
    """Treat `value` as a secret everywhere from now on."""
    if not value:
        return
    with _lock:
        if value in _secrets:
            return
        _secrets.append(value)
        listeners = list(_listeners)
    for listener in listeners:
        listener.add(value)


def subscribe(listener: object) -> list[str]:
    """Have `listener.add(secret)` called for every secret registered from now on; returns those so far.

    The listener is held weakly: subscribing never keeps a redactor alive."""
    add: Callable[[str], None] = listener.add  # type: ignore[attr-defined]
    del add  # only checked for presence
    with _lock:
        _listeners.add(listener)
        return list(_secrets)
