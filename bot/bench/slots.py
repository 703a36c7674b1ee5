"""Slots shared by every process of one machine: at most N holders at once, across threads and processes.

A bench may run as threads of one process or as Ray workers in many; either way the LLM calls and the
hidden judgings of one node must stay within their limits. Each slot is a lock file in the node's temp
dir; holding its `flock` holds the slot, and the kernel frees it when the holder dies, even by SIGKILL.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

POLL_SECONDS = 0.01


def slots_dir() -> Path:
    """Where this user's slot files live on this machine."""
    path = Path(tempfile.gettempdir()) / f"cpbot-slots-{os.geteuid()}"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


class NodeSlots:
    """`with NodeSlots("llm", 4).hold():` waits for one of 4 node-wide "llm" slots and holds it in the block."""

    def __init__(self, name: str, count: int) -> None:
        if count < 1:
            raise ValueError("a slot pool needs at least one slot")
        self.name = name
        self.count = count

    def _take(self) -> int:
        directory = slots_dir()
        while True:
            for i in range(self.count):
                fd = os.open(directory / f"{self.name}-{i}.lock", os.O_RDWR | os.O_CREAT, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(fd)
                    continue
                return fd
            time.sleep(POLL_SECONDS)

    @contextmanager
    def hold(self) -> Iterator[None]:
        """Wait for a free slot and hold it for the block (safe from any thread)."""
        fd = self._take()
        try:
            yield
        finally:
            os.close(fd)  # closing the file drops its lock
