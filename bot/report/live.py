"""A progress line on the terminal for commands that run a while (stress, profile): rewritten in place,
at most a few times a second, cleared before anything else is printed; silent when the stream is not a
terminal or the command prints JSON."""

from __future__ import annotations

import sys
import time
from typing import TextIO

WIDTH = 100
INTERVAL_S = 0.1  # the least time between two rewrites


class LiveLine:
    def __init__(self, *, stream: TextIO | None = None, enabled: bool | None = None) -> None:
        self._stream = stream or sys.stderr
        self.enabled = self._stream.isatty() if enabled is None else enabled
        self._shown = False
        self._last = 0.0

    def show(self, text: str, *, force: bool = False) -> None:
        """Put `text` (one line, cut to the width) in place of the last one."""
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and self._shown and now - self._last < INTERVAL_S:
            return
        self._last = now
        self._stream.write("\r\x1b[K" + text.replace("\n", " ")[: WIDTH - 1])
        self._stream.flush()
        self._shown = True

    def clear(self) -> None:
        if self._shown:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._shown = False
