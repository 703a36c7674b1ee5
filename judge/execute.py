"""Running one built program on one input and keeping what it printed: for profiling, stress and generators."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from judge.languages import Program
from judge.model import Limits, Verdict
from judge.sandbox import RunLimits, RunResult, Sandbox
from judge.verdicts import classify, run_limits


@dataclass(frozen=True)
class Execution:
    run: RunResult
    stdout: bytes
    stderr: str
    verdict: Verdict | None  # None: it ran fine (a checker may still judge the output)
    message: str


def execute(
    program: Program,
    stdin: bytes | Path,
    sandbox: Sandbox,
    *,
    limits: Limits,
    args: list[str] | None = None,
    run_limits_override: RunLimits | None = None,
) -> Execution:
    """Run `program [args]` on `stdin` in a slot; the output is kept whole (keep inputs small)."""
    out_fd = os.memfd_create("stdout", os.MFD_CLOEXEC)
    err_fd = os.memfd_create("stderr", os.MFD_CLOEXEC)
    try:
        with sandbox.slot() as slot:
            run = slot.run(
                [*program.argv, *(args or [])],
                stdin=stdin,
                stdout=out_fd,
                stderr=err_fd,
                limits=run_limits_override or run_limits(limits),
            )
        size = os.fstat(out_fd).st_size
        stdout = os.pread(out_fd, size, 0) if size else b""
        stderr = os.pread(err_fd, 4096, 0).decode(errors="replace")
    finally:
        os.close(out_fd)
        os.close(err_fd)
    verdict, message = classify(run, limits, stderr, len(stdout))
    return Execution(run, stdout, stderr, verdict, message)
