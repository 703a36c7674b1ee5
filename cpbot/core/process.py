"""Whether a process is still there: stale runs, stale sandbox dirs and locks are told apart by it."""

from __future__ import annotations

import os
from pathlib import Path


def pid_alive(pid: int) -> bool:
    """True while a process with this pid exists (another user's process counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def process_start(pid: int) -> str:
    """The process's start time in clock ticks since boot (field 22 of /proc/PID/stat), or "" when it is
    gone or /proc cannot tell. With the pid it names one process, even after the pid is reused."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    # the command name (field 2) may hold spaces and parentheses: split after its closing parenthesis
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else ""
