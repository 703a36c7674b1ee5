"""External checkers speaking the testlib protocol: `checker input output answer`, verdict by exit code."""

from __future__ import annotations

import os
import re

from cpbot.judge.checkers.base import CheckInput, CheckResult
from cpbot.judge.languages import Program
from cpbot.judge.model import Verdict
from cpbot.judge.sandbox import RunLimits, RunResult, Sandbox

CHECKER_LIMITS = RunLimits(cpu_ms=20_000, wall_ms=40_000, address_space_kb=2 << 20, output_bytes=16 << 20)

# testlib's exit codes (default build): 0 ok, 1 wa, 2 pe, 3 fail, 4 dirt, 7 points, 8 unexpected eof
EXIT_VERDICTS = {0: Verdict.AC, 1: Verdict.WA, 2: Verdict.PE, 4: Verdict.PE, 8: Verdict.WA}
FEEDBACK_BYTES = 1 << 16
_POINTS = re.compile(r"points\s+([-+0-9.eE]+)")


def verdict_from_exit(result: RunResult, feedback: str, who: str = "checker") -> CheckResult:
    """Map a testlib program's exit to a verdict; a failing or crashing checker is IE, never the solution's fault."""
    message = feedback.strip()[:1000]
    if result.status != "exited" or result.killed:
        why = f"killed by the {result.killed} limit" if result.killed else f"{result.status} (signal {result.signal})"
        return CheckResult(Verdict.IE, f"{who} failed: {why}; {message}".strip("; "))
    code = result.exit_code
    if code in EXIT_VERDICTS:
        return CheckResult(EXIT_VERDICTS[code], message or ("ok" if code == 0 else "rejected"))
    if code == 3:
        return CheckResult(Verdict.IE, f"{who} reported FAIL: {message}", jury_fault=True)
    if code == 7:
        m = _POINTS.search(message)
        points = float(m.group(1)) if m else None
        if points is None:
            return CheckResult(Verdict.IE, f"{who} exited 7 (points) without a score: {message}")
        return CheckResult(Verdict.WA, f"partial score {points:g}: {message}", points=points)
    return CheckResult(Verdict.IE, f"{who} exited with unknown code {code}: {message}")


class TestlibChecker:
    """A checker program run in its own sandboxed run: the three files are copied into its fresh work dir
    (answers reach no other run), its feedback comes back on a memory file."""

    __test__ = False
    uses_sandbox = True

    def __init__(self, program: Program, sandbox: Sandbox, name: str = "testlib") -> None:
        self.program = program
        self.sandbox = sandbox
        self.name = name

    def check(self, files: CheckInput) -> CheckResult:
        log_fd = os.memfd_create("checker-log", os.MFD_CLOEXEC)
        try:
            with self.sandbox.judge_slot() as slot:
                result = slot.run(
                    [*self.program.argv, "input.txt", "output.txt", "answer.txt"],
                    stdin=None,
                    stdout=log_fd,
                    stderr=log_fd,
                    limits=CHECKER_LIMITS,
                    files={
                        "input.txt": files.input_path,
                        "output.txt": files.output_path,
                        "answer.txt": files.answer_path or b"",
                    },
                )
            return verdict_from_exit(result, os.pread(log_fd, FEEDBACK_BYTES, 0).decode(errors="replace"))
        finally:
            os.close(log_fd)
