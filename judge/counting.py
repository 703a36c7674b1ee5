"""Counting the instructions a program executes, with valgrind's cachegrind (cache simulation off).

Time measures the machine as much as the algorithm: a `std::set` of a million nodes spends most of its
time waiting for memory, so its time grows faster than n log n and looks quadratic. The number of
executed instructions has no cache, no neighbours and no noise, so the profiler reads the growth class
from it and uses time only to predict the running time at the limits. A counted run is 5-20 times
slower than a native one, so only sizes that run quickly natively are counted.

Python's start-up hashes with a random seed, which moves the count by about 2%; counted Python runs use
a fixed seed (and leave out -I, which would ignore it: the sandbox's environment is clean anyway).
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass

from cpbot.core.registry import Family, language_spec
from cpbot.judge.execute import captured_run
from cpbot.judge.languages import Program
from cpbot.judge.sandbox import RunLimits, RunResult, Sandbox

ENV_VALGRIND = "CPBOT_VALGRIND"  # a path, or "off" to profile by time alone
COUNT_RE = re.compile(r"==\d+== I\s+refs:\s+([\d,]+)")
STDERR_TAIL = 8192
SLOWDOWN = 40  # generous bound on a counted run's CPU time against the native one
# valgrind gives the main thread 16 MB of stack whatever the limit; contest programs recurse deeply
MAIN_STACK_BYTES = 1 << 30
VALGRIND_FLAGS = [
    "--tool=cachegrind",
    "--cache-sim=no",
    "--cachegrind-out-file=/dev/null",
    f"--main-stacksize={MAIN_STACK_BYTES}",
]


def find_valgrind() -> str | None:
    """The valgrind binary to count with, or None when it is missing or turned off."""
    configured = os.environ.get(ENV_VALGRIND, "")
    if configured == "off":
        return None
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    return shutil.which("valgrind", path="/usr/local/bin:/usr/bin:/bin")


def unavailable_reason() -> str | None:
    """None when instructions can be counted here, else why not (for `cpbot doctor`)."""
    if os.environ.get(ENV_VALGRIND) == "off":
        return f"turned off ({ENV_VALGRIND}=off)"
    if find_valgrind() is None:
        return "valgrind is not installed (apt-get install valgrind): complexity is read from CPU time alone"
    return None


@dataclass(frozen=True)
class Count:
    instructions: int | None  # None: the run failed or valgrind said nothing
    cpu_ms: float
    message: str = ""


def counted_command(valgrind: str, program: Program) -> tuple[list[str], dict[str, str]]:
    """The command and environment that run `program` under cachegrind."""
    argv = list(program.argv)
    env: dict[str, str] = {}
    if language_spec(program.language).family is Family.PYTHON:
        argv = [argv[0], "-s", *(a for a in argv[1:] if a != "-I")]
        env["PYTHONHASHSEED"] = "0"
    return [valgrind, *VALGRIND_FLAGS, *argv], env


def counted_limits(native_cpu_ms: float, memory_mb: int) -> RunLimits:
    """The limits of a counted run of a program that took `native_cpu_ms` natively."""
    cpu_cap = int(SLOWDOWN * native_cpu_ms) + 5000  # valgrind's own start-up is about a second
    return RunLimits(
        cpu_ms=cpu_cap,
        wall_ms=3 * cpu_cap,
        # valgrind maps its own tools and shadow state: the native address-space cap would stop it
        address_space_kb=(4 * memory_mb + 4096) * 1024,
        output_bytes=256 << 20,
    )


def stderr_tail(stderr_fd: int) -> str:
    """The last `STDERR_TAIL` bytes of a run's stderr file, where valgrind prints its count."""
    size = os.fstat(stderr_fd).st_size
    return os.pread(stderr_fd, STDERR_TAIL, max(0, size - STDERR_TAIL)).decode(errors="replace")


def read_count(run: RunResult, tail: str) -> Count:
    """The count valgrind printed at the end of a counted run's stderr (`tail`; None when the run failed)."""
    found = COUNT_RE.findall(tail)
    if run.status != "exited" or run.exit_code != 0 or not found:
        why = run.killed or (f"signal {run.signal}" if run.signal else f"exit code {run.exit_code}")
        return Count(None, run.cpu_ms, f"counted run failed ({why})")
    return Count(int(found[-1].replace(",", "")), run.cpu_ms)


def count_instructions(
    program: Program, stdin: bytes, sandbox: Sandbox, *, native_cpu_ms: float, memory_mb: int, valgrind: str
) -> Count:
    """Run `program` on `stdin` under cachegrind and read the executed-instruction count."""
    argv, env = counted_command(valgrind, program)
    with captured_run(argv, stdin, sandbox, counted_limits(native_cpu_ms, memory_mb), env=env) as cap:
        tail = stderr_tail(cap.stderr_fd)
        run = cap.run
    return read_count(run, tail)
