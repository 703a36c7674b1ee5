"""Running one built program on one input and keeping what it printed: for profiling, stress and generators."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from cpbot.judge.languages import Program
from cpbot.judge.model import Limits, Verdict
from cpbot.judge.sandbox import RunLimits, RunResult, Sandbox
from cpbot.judge.verdicts import classify, run_limits


@dataclass(frozen=True)
class Execution:
    run: RunResult
    stdout: bytes
    stderr: str
    verdict: Verdict | None  # None: it ran fine (a checker may still judge the output)
    message: str


@dataclass(frozen=True)
class Captured:
    """A finished run whose stdout and stderr are still open memory files."""

    run: RunResult
    stdout_fd: int
    stderr_fd: int

    def stdout_size(self) -> int:
        return os.fstat(self.stdout_fd).st_size

    def read_stdout(self, limit: int | None = None) -> bytes:
        size = self.stdout_size() if limit is None else limit
        return os.pread(self.stdout_fd, size, 0) if size else b""

    def read_stderr(self, limit: int) -> str:
        """Stderr, or when longer than `limit` its start and its end (where a traceback ends, where
        `what()` and `MemoryError` are), each half of `limit`, with the bytes left out counted between."""
        size = os.fstat(self.stderr_fd).st_size
        if size <= limit:
            return os.pread(self.stderr_fd, size, 0).decode(errors="replace")
        half = limit // 2
        head = os.pread(self.stderr_fd, half, 0).decode(errors="replace")
        tail = os.pread(self.stderr_fd, half, size - half).decode(errors="replace")
        return f"{head}\n[... {size - 2 * half} bytes left out ...]\n{tail}"


@contextlib.contextmanager
def captured_run(
    argv: Sequence[str],
    stdin: bytes | Path,
    sandbox: Sandbox,
    limits: RunLimits,
    *,
    env: Mapping[str, str] | None = None,
    files: Mapping[str, bytes] | None = None,
) -> Iterator[Captured]:
    """Run in a slot with stdout and stderr in memory files, open until the block ends.

    Memory files are cheaper than creating files, and they outlive the slot (an external checker
    needs a slot of its own), which stays empty and costs nothing to reset.
    """
    out_fd = os.memfd_create("stdout", os.MFD_CLOEXEC)
    err_fd = os.memfd_create("stderr", os.MFD_CLOEXEC)
    try:
        with sandbox.slot() as slot:
            run = slot.run(argv, stdin=stdin, stdout=out_fd, stderr=err_fd, limits=limits, env=env, files=files)
        yield Captured(run, out_fd, err_fd)
    finally:
        os.close(out_fd)
        os.close(err_fd)


def execute(
    program: Program,
    stdin: bytes | Path,
    sandbox: Sandbox,
    *,
    limits: Limits,
    args: list[str] | None = None,
    run_limits_override: RunLimits | None = None,
    files: Mapping[str, bytes] | None = None,
) -> Execution:
    """Run `program [args]` on `stdin` in a slot, with `files` in its work dir; the output is kept whole
    (keep inputs small)."""
    argv = [*program.argv, *(args or [])]
    limits_for_run = run_limits_override or run_limits(limits, sanitized=program.sanitized)
    with captured_run(argv, stdin, sandbox, limits_for_run, files=files) as cap:
        stdout = cap.read_stdout()
        stderr = program.shown(cap.read_stderr(4096))
    verdict, message = classify(cap.run, limits, stderr, len(stdout))
    return Execution(cap.run, stdout, stderr, verdict, message)
