"""Line by line: each line's tokens must match; trailing blank lines are ignored.

Right tokens split into different lines are PE, as a strict judge would call them.
"""

from __future__ import annotations

from cpbot.judge.checkers.base import OK, CheckInput, CheckResult
from cpbot.judge.checkers.exact import first_line_diff
from cpbot.judge.checkers.tokens import compare_tokens
from cpbot.judge.model import Verdict


def _lines(data: bytes) -> list[bytes]:
    lines = [b" ".join(line.split()) for line in data.replace(b"\r\n", b"\n").split(b"\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


class LinesChecker:
    name = "lines"

    def check(self, files: CheckInput) -> CheckResult:
        output, answer = files.output(), files.answer()
        got, want = _lines(output), _lines(answer)
        if got == want:
            return OK
        diff = first_line_diff(got, want)
        if compare_tokens(output, answer).verdict == "AC":
            return CheckResult(Verdict.PE, "same tokens, different lines", diff)
        return CheckResult(Verdict.WA, f"line {diff.line} differs", diff)
