"""Interactive problems: the solution and an interactor talk over a crossed pair of pipes. The interactor speaks
testlib's protocol (`interactor input tout answer`, exit 0 accepts) or Kattis's (`validator input answer
feedback_dir`, exit 42 accepts, 43 rejects)."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from cpbot.judge.checkers.base import CheckResult
from cpbot.judge.checkers.kattis import kattis_verdict
from cpbot.judge.checkers.testlib import verdict_from_exit
from cpbot.judge.counting import stderr_tail
from cpbot.judge.languages import Program
from cpbot.judge.model import Limits, Verdict
from cpbot.judge.sandbox import RunLimits, RunResult, Sandbox
from cpbot.judge.verdicts import classify, is_fork_storm, is_starved, run_limits

INTERACTOR_EXTRA_MS = 2000
UNEXPECTED_EOF = 8  # testlib's exit code when a stream ends too early


@dataclass(frozen=True)
class InteractorProtocol:
    """How an interactor is called and how its exit reads as a verdict."""

    name: str
    prefix: tuple[str, ...]  # before its argv
    args: tuple[str, ...]  # after its argv; names of files in its work dir
    collected: str  # the file it writes that the report keeps (testlib's tout, Kattis's judgemessage)
    verdict: Callable[[RunResult, str], CheckResult]


def _kattis_verdict(result: RunResult, feedback: str) -> CheckResult:
    return kattis_verdict(result, feedback, "interactor")


TESTLIB = InteractorProtocol("testlib", (), ("input.txt", "tout.txt", "answer.txt"), "tout.txt",
                             lambda run, feedback: verdict_from_exit(run, feedback, who="interactor"))  # fmt: skip
# Kattis runs its validator with SIGPIPE ignored: one that writes to a submission gone away reads end-of-file next
# and rejects, where the signal's default would kill it (an ignored signal stays ignored across exec)
IGNORE_SIGPIPE = ("/bin/sh", "-c", 'trap "" PIPE; exec "$@"', "sh")
KATTIS = InteractorProtocol(
    "kattis", IGNORE_SIGPIPE, ("input.txt", "answer.txt", "./"), "judgemessage.txt", _kattis_verdict
)


@dataclass
class InteractiveRun:
    run: RunResult
    verdict: Verdict | None
    message: str
    check: CheckResult | None
    stderr: str
    transcript: bytes  # what the interactor wrote to its output file (testlib's tout, Kattis's judgemessage)
    stderr_tail: str = ""  # the end of the solution's stderr (where valgrind's count is, when it counted)

    def outcome(self) -> tuple[Verdict, str]:
        """The test's verdict and message: the solution's own failure first, then the interactor's verdict; a
        dialogue the interactor accepts after which the solution exited abnormally is RE."""
        if self.verdict is not None or self.check is None:
            return self.verdict or Verdict.AC, self.message
        verdict, message = self.check.verdict, self.check.message
        if verdict == Verdict.AC and (self.run.signal or self.run.exit_code):
            return Verdict.RE, f"interactor accepted but the solution exited abnormally ({message})"
        return verdict, message


@dataclass(frozen=True)
class Wrapped:
    """The solution's side of a dialogue started in a command wrapping it (valgrind counting its instructions),
    with its own environment and limits."""

    argv: Sequence[str]
    env: Mapping[str, str]
    limits: RunLimits


def run_interactive(
    program: Program,
    interactor: Program,
    input_data: Path | bytes,
    answer_data: Path | bytes | None,
    limits: Limits,
    sandbox: Sandbox,
    protocol: InteractorProtocol = TESTLIB,
    *,
    wrapped: Wrapped | None = None,
) -> InteractiveRun:
    """Run one interactive test; the solution's own failures come first, then the interactor's verdict. With
    `wrapped`, the solution runs in that command (its verdict then says little: read the interactor's)."""
    sol_limits = wrapped.limits if wrapped is not None else run_limits(limits, sanitized=program.sanitized)
    sol_argv = wrapped.argv if wrapped is not None else program.argv
    int_limits = RunLimits(
        cpu_ms=limits.time_ms + INTERACTOR_EXTRA_MS,
        wall_ms=(sol_limits.wall_ms or 0) + INTERACTOR_EXTRA_MS,
        address_space_kb=2 << 20,
        output_bytes=64 << 20,
    )
    sol_err = os.memfd_create("solution-stderr", os.MFD_CLOEXEC)
    int_log = os.memfd_create("interactor-log", os.MFD_CLOEXEC)
    tout = os.memfd_create("tout", os.MFD_CLOEXEC)
    try:
        with sandbox.slots(2) as (sol_slot, int_slot):
            to_sol_r, to_sol_w = os.pipe2(os.O_CLOEXEC)
            from_sol_r, from_sol_w = os.pipe2(os.O_CLOEXEC)
            try:
                sol_slot.start(
                    sol_argv, stdin=to_sol_r, stdout=from_sol_w, stderr=sol_err, limits=sol_limits,
                    env=wrapped.env if wrapped is not None else None,
                )  # fmt: skip
                # the interactor runs in a root of its own: the answer exists only in its work dir
                int_slot.start(
                    [*protocol.prefix, *interactor.argv, *protocol.args],
                    stdin=from_sol_r,
                    stdout=to_sol_w,
                    stderr=int_log,
                    limits=int_limits,
                    files={"input.txt": input_data, "answer.txt": answer_data or b""},
                    collect={protocol.collected: tout},
                )
            finally:
                # the launchers hold their own copies; ours must go or nobody ever sees end-of-file
                for fd in (to_sol_r, to_sol_w, from_sol_r, from_sol_w):
                    os.close(fd)
            sol_run = sol_slot.wait()
            int_run = int_slot.wait()
        stderr = os.pread(sol_err, 4096, 0).decode(errors="replace")
        tail = stderr_tail(sol_err)
        feedback = os.pread(int_log, 1 << 16, 0).decode(errors="replace")
        transcript = os.pread(tout, 65536, 0)
    finally:
        for fd in (sol_err, int_log, tout):
            os.close(fd)

    check = protocol.verdict(int_run, feedback)
    verdict, message = classify(sol_run, limits, stderr, 0)
    if verdict == Verdict.TLE and sol_run.killed == "wall" and not is_starved(sol_run) and not is_fork_storm(sol_run):
        message = idleness_message(sol_run)
    # testlib's exit 8 (unexpected end of file) means the solution stopped talking: its own failure
    # comes first. Any other rejection is the interactor ending the dialogue, and a solution that then
    # exits non-zero (end of input) or dies writing to it (SIGPIPE) failed because of that.
    stopped_talking = protocol is TESTLIB and int_run.exit_code == UNEXPECTED_EOF
    consequence = sol_run.signal in (None, signal.SIGPIPE)
    if verdict == Verdict.RE and check.verdict in (Verdict.WA, Verdict.PE) and consequence and not stopped_talking:
        verdict, message = None, ""
    # Kattis: a validator that rejects before the submission fails decides, whatever the submission does after
    rejected_first = check.verdict is Verdict.WA and int_run.wall_ms < sol_run.wall_ms
    if protocol is KATTIS and verdict is not None and rejected_first:
        verdict, message = None, ""
    return InteractiveRun(sol_run, verdict, message, check, program.shown(stderr), transcript, tail)


def idleness_message(run: RunResult) -> str:
    """An interactive solution that sat waiting: judges call this the idleness limit, and the usual cause
    is a query left in the output buffer, which the interactor never sees."""
    return (
        f"idleness limit exceeded: wall time {run.wall_ms:.0f} ms with only {run.cpu_ms:.0f} ms of CPU: the "
        "solution sat waiting, usually for an answer to a query still in its output buffer, which the "
        "interactor never saw; flush after every line you print (C++: cout << endl or fflush(stdout); "
        "Python: print(..., flush=True) or sys.stdout.flush())"
    )
