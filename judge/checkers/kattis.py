"""Kattis's validator protocol: an output validator runs as `validator input answer feedback_dir [args] < output`
and an input validator as `validator [args] < input`; exit 42 accepts, 43 rejects, anything else is the
validator's own failure. Its messages go to `judgemessage.txt` in the feedback folder (here the run's work dir)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from cpbot.judge.checkers.base import CheckInput, CheckResult
from cpbot.judge.checkers.testlib import CHECKER_LIMITS, FEEDBACK_BYTES
from cpbot.judge.languages import Program
from cpbot.judge.model import Verdict
from cpbot.judge.sandbox import RunResult, Sandbox

ACCEPT, REJECT = 42, 43


def _message(log_fd: int, note_fd: int) -> str:
    text = os.pread(note_fd, FEEDBACK_BYTES, 0) + os.pread(log_fd, FEEDBACK_BYTES, 0)
    return text.decode(errors="replace").strip()[:1000]


def kattis_verdict(result: RunResult, message: str, who: str) -> CheckResult:
    """42 accepts, 43 rejects; a crash, a limit or another code is the validator's failure (IE)."""
    if result.status == "exited" and not result.killed and result.exit_code in (ACCEPT, REJECT):
        accepted = result.exit_code == ACCEPT
        return CheckResult(Verdict.AC if accepted else Verdict.WA, message or ("ok" if accepted else "rejected"))
    why = f"killed by the {result.killed} limit" if result.killed else f"exit code {result.exit_code}"
    if result.status != "exited":
        why = f"{result.status} (signal {result.signal})"
    return CheckResult(Verdict.IE, f"{who} failed: {why}; {message}".strip("; "))


def testlib_validator_verdict(result: RunResult, message: str, who: str) -> CheckResult:
    """A testlib validator exits 0 on a valid input and 3 (FAIL) on another; a crash or a limit is its failure."""
    if result.status == "exited" and not result.killed:
        valid = result.exit_code == 0
        return CheckResult(Verdict.AC if valid else Verdict.WA, message or ("ok" if valid else "rejected"))
    return kattis_verdict(result, message, who)


def run_validator(
    program: Program,
    sandbox: Sandbox,
    stdin: Path | bytes,
    args: Sequence[str] = (),
    files: dict[str, Path | bytes] | None = None,
    who: str = "validator",
    protocol: str = "kattis",
) -> CheckResult:
    """One run of a validator on `stdin`; AC when it accepts, WA when it rejects, IE otherwise. `protocol` "testlib"
    is a testlib validator's: exit 0 accepts, another exit code rejects."""
    log_fd = os.memfd_create("validator-log", os.MFD_CLOEXEC)
    note_fd = os.memfd_create("validator-note", os.MFD_CLOEXEC)
    try:
        with sandbox.judge_slot() as slot:
            result = slot.run(
                [*program.argv, *args],
                stdin=stdin,
                stdout=log_fd,
                stderr=log_fd,
                limits=CHECKER_LIMITS,
                files=files or {},
                collect={"judgemessage.txt": note_fd},
            )
        if protocol == "testlib":
            return testlib_validator_verdict(result, _message(log_fd, note_fd), who)
        return kattis_verdict(result, _message(log_fd, note_fd), who)
    finally:
        os.close(log_fd)
        os.close(note_fd)


class KattisValidator:
    """A package's custom output validator as a cpbot checker."""

    __test__ = False
    uses_sandbox = True

    def __init__(self, program: Program, sandbox: Sandbox, args: Sequence[str] = (), name: str = "validator") -> None:
        self.program = program
        self.sandbox = sandbox
        self.args = tuple(args)
        self.name = name

    def check(self, files: CheckInput) -> CheckResult:
        output = files.output_path
        return run_validator(
            self.program,
            self.sandbox,
            output,
            ["input.txt", "answer.txt", "./", *self.args],
            files={"input.txt": files.input_path, "answer.txt": files.answer_path or b""},
            who=f"output validator {self.name}",
        )
