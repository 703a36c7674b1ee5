"""Ctrl-C for the commands that run programs (judge, stress, profile, solve): stop at once, say what
finished, leave nothing behind.

The first Ctrl-C kills every process the command started (the sandbox's servers, their inits and every
program, compiler and checker, wherever it was queued) and raises `KeyboardInterrupt` in the main
thread; the command catches it, prints what it has and exits 130 (`EXIT_INTERRUPTED`). Later Ctrl-Cs are
ignored, so a second press while the command winds down never shows a traceback. Work that ended after
the first press (a worker whose slot died under it) is not reported as a result: `Interrupt.happened`
tells the command to discard it.

Why every descendant, found in /proc: a sandbox server lives in namespaces of its own, below a launcher
process, and the init of a PID namespace ignores the terminal's SIGINT; killing the launcher cpbot
started leaves the server running its program to the limit. The command is made a child subreaper, so
a process whose parent died (the terminal's SIGINT reaches the launchers too) is still found below it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType

EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a job stopped by Ctrl-C


class Interrupt:
    """Whether Ctrl-C was pressed while the command ran."""

    def __init__(self) -> None:
        self.happened = False

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.happened:
            return  # the command is already stopping
        self.happened = True
        with contextlib.suppress(OSError):  # no /proc: the sandbox's runs end at their own limits
            kill_descendants()
        raise KeyboardInterrupt


def interrupted(message: str, *, as_json: bool) -> int:
    """Say that the command was interrupted (and, with --json, print the JSON error object scripts read);
    returns the exit code."""
    import json

    import click

    click.echo(message, err=True)
    if as_json:
        error = {"message": "interrupted", "hint": message, "exit_code": EXIT_INTERRUPTED}
        click.echo(json.dumps({"error": error}))
    return EXIT_INTERRUPTED


PR_SET_CHILD_SUBREAPER = 36


def set_subreaper(on: bool) -> None:
    """With `on`, orphans of this process's descendants become its children (not init's), so none escapes
    a kill (Linux; elsewhere nothing happens)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)


def _parents() -> dict[int, int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue  # gone meanwhile
        parents[int(entry)] = int(stat[stat.rindex(b")") + 2 :].split()[1])
    return parents


def kill_descendants() -> int:
    """SIGKILL every process below this one (found in /proc, all of them before any is killed, so a child
    dying first cannot hide its own); returns how many were signalled."""
    parents = _parents()
    found: set[int] = set()
    frontier = {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    for pid in found:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return len(found)


@contextlib.contextmanager
def stop_on_interrupt() -> Iterator[Interrupt]:
    """Ctrl-C stops the sandboxed work at once while the block runs (main thread only; elsewhere a no-op)."""
    interrupt = Interrupt()
    if threading.current_thread() is not threading.main_thread():
        yield interrupt
        return
    set_subreaper(True)
    previous = signal.signal(signal.SIGINT, interrupt._handle)
    try:
        yield interrupt
    finally:
        if interrupt.happened:  # a second press during the command's last words is ignored too
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        else:  # a long-lived caller (a test run) goes on as it was
            signal.signal(signal.SIGINT, previous)
            set_subreaper(False)
