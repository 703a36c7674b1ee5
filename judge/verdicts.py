"""From what the sandbox measured to a verdict, before any checker looks at the output."""

from __future__ import annotations

import errno
import os
import re
import signal

from cpbot.judge.model import Limits, Verdict
from cpbot.judge.sandbox import RunLimits, RunResult
from cpbot.judge.sandbox.pool import DEFAULT_WORKDIR_MB

# A test this close to the limit is re-run alone before it is called TLE; the launcher lets a
# program run this far past the limit so that a near miss can be told from a real TLE.
RERUN_MARGIN = 0.15
WALL_FACTOR = 3
STARVED_RETRIES = 2  # a run the machine starved of CPU (`is_starved`) is run again this many times
NPROC = 128
_ALLOCATION_FAILURE = re.compile(r"std::bad_alloc|MemoryError|Cannot allocate memory|out of memory", re.I)


def run_limits(limits: Limits, *, sanitized: bool = False) -> RunLimits:
    """The launcher's limits for a solution under the problem's limits. A `sanitized` program (built
    with AddressSanitizer) gets no address-space cap: ASan maps terabytes of shadow memory at start."""
    tl = limits.time_ms
    return RunLimits(
        cpu_ms=int(tl * (1 + RERUN_MARGIN)) + 20,
        wall_ms=WALL_FACTOR * tl + 500,
        # the address-space cap only stops runaways; MLE is decided on peak RSS
        address_space_kb=None if sanitized else max(2 * limits.memory_mb, limits.memory_mb + 256) * 1024,
        output_bytes=limits.output_mb << 20,
        nproc=NPROC,
        workdir_mb=workdir_mb(limits),
    )


def workdir_mb(limits: Limits) -> int:
    """The size cap of a solution's tmpfs work dir: the default, or the output limit and a margin if larger."""
    return max(DEFAULT_WORKDIR_MB, limits.output_mb + 64)


def classify(run: RunResult, limits: Limits, stderr: str, output_bytes: int) -> tuple[Verdict | None, str]:
    """The verdict the run alone decides (None: it ran fine, the checker decides) and why.

    The order is the fixed priority: judge failure, time, memory, output, crash. Nothing the program
    printed makes a verdict the judge's own (IE): a function problem's tests are checked against the
    signature before any run (`cpbot.judge.harness.malformed_tests`), so a driver's "bad input" line
    seen here is the program's.
    """
    tl, ml_kb = limits.time_ms, limits.memory_mb * 1024
    if run.status == "error":
        return Verdict.IE, f"sandbox error: {run.message}"
    if run.status == "exec_failed":
        if run.exec_errno == errno.ENOMEM:
            return Verdict.MLE, "the program could not even be loaded within the memory limit"
        return Verdict.IE, f"could not start the program: {os.strerror(run.exec_errno)}"
    if run.killed == "cpu" or run.cpu_ms > tl or run.signal == signal.SIGXCPU:
        return Verdict.TLE, f"CPU time {run.cpu_ms:.0f} ms exceeds the limit of {tl} ms{_children_note(run)}"
    if run.killed == "wall":
        return Verdict.TLE, _wall_reason(run)
    if run.peak_kb > ml_kb:
        return (
            Verdict.MLE,
            f"peak memory {run.peak_kb / 1024:.1f} MB exceeds the limit of {limits.memory_mb} MB",
        )
    if run.signal == signal.SIGXFSZ or output_bytes >= limits.output_mb << 20:
        return Verdict.OLE, f"output exceeds the limit of {limits.output_mb} MB"
    if run.signal or run.exit_code:
        if _ALLOCATION_FAILURE.search(stderr):
            return (
                Verdict.MLE,
                f"an allocation failed: more memory asked for than the {limits.memory_mb} MB limit allows",
            )
        if run.peak_kb >= 0.9 * ml_kb:
            return Verdict.MLE, f"crashed at the memory limit (peak {run.peak_kb / 1024:.1f} MB)"
        if run.signal:
            return Verdict.RE, f"killed by {signal.Signals(run.signal).name}"
        missing = missing_module(stderr)
        if missing:
            return Verdict.RE, (
                f"exit code {run.exit_code}: the program imports {missing}, which the judge's Python does not "
                "have; `cpbot setup-python` makes an environment with the usual contest libraries "
                "(or name an interpreter that has it: --python, or [judge] python in config.toml)"
            )
        return Verdict.RE, f"exit code {run.exit_code}"
    return None, ""


_MISSING_MODULE = re.compile(r"ModuleNotFoundError: No module named '([\w.]+)'|the program imports ([\w.]+), which")


def missing_module(text: str) -> str | None:
    """The top-level module a Python program failed to import, from its stderr or from the reason the judge
    gave for it (`ModuleNotFoundError: No module named 'numpy.linalg'` -> `numpy`), else None."""
    found = _MISSING_MODULE.search(text)
    if found is None:
        return None
    return (found[1] or found[2]).split(".")[0]


def _children_note(run: RunResult) -> str:
    """Say so when most of the CPU time was spent by processes the program started."""
    if run.cpu_ms > 2 * run.own_cpu_ms + 50:
        return f" (all its processes together; the program itself used {run.own_cpu_ms:.0f} ms)"
    return ""


def is_fork_storm(run: RunResult) -> bool:
    """The run filled its process limit: refused process creations (cgroup), or about as many processes
    as the limit allows seen at once (sampled: for a normal user the slot's launcher and the inits made
    ahead count against the same per-slot limit, so the program reaches a few less)."""
    return bool(run.forks_refused) or run.processes >= NPROC - 10


def is_starved(run: RunResult) -> bool:
    """Killed at the wall limit while runnable: it spent more time waiting for a CPU the machine did
    not give than running, and a good share of the wall time (not a sleeping or blocked program)."""
    return (
        run.killed == "wall"
        and not is_fork_storm(run)
        and run.waited_ms is not None
        and run.waited_ms > run.cpu_ms
        and run.waited_ms >= 0.3 * run.wall_ms
    )


def _wall_reason(run: RunResult) -> str:
    """Why a run reached the wall limit: a fork storm, a busy machine, or a program that sleeps."""
    if is_fork_storm(run):
        refused = f", {run.forks_refused} more refused" if run.forks_refused else ""
        return (
            f"fork storm: {run.processes} processes at once{refused} (the limit is {NPROC}); "
            f"wall time {run.wall_ms:.0f} ms"
        )
    if is_starved(run):
        return (
            f"starved of CPU by a busy machine: wall time {run.wall_ms:.0f} ms, of which it ran "
            f"{run.cpu_ms:.0f} ms and waited {run.waited_ms:.0f} ms for a CPU (runnable, not sleeping)"
        )
    return f"idle: wall time {run.wall_ms:.0f} ms with only {run.cpu_ms:.0f} ms of CPU (sleeping or blocked)"


def is_borderline_tle(verdict: Verdict, run: RunResult, limits: Limits) -> bool:
    """A TLE that may be noise, to re-run alone: it ran to completion (or was busy when the wall limit
    hit) near the limit, or the machine starved it of CPU."""
    return verdict == Verdict.TLE and (
        is_starved(run)
        or (
            run.killed != "cpu"
            and run.cpu_ms >= (1 - RERUN_MARGIN) * limits.time_ms
            and run.cpu_ms <= (1 + RERUN_MARGIN) * limits.time_ms
        )
    )
