"""Byte-exact comparison (CRLF counts as LF); right tokens in the wrong layout are PE."""

from __future__ import annotations

from cpbot.judge.checkers.base import OK, CheckInput, CheckResult
from cpbot.judge.checkers.text import excerpt
from cpbot.judge.checkers.tokens import compare_tokens
from cpbot.judge.model import Diff, Verdict


def first_line_diff(got: list[bytes], want: list[bytes]) -> Diff:
    for i in range(max(len(got), len(want))):
        a = got[i] if i < len(got) else None
        b = want[i] if i < len(want) else None
        if a != b:
            return Diff(
                line=i + 1,
                expected=excerpt(b) if b is not None else "<end of output>",
                got=excerpt(a) if a is not None else "<end of output>",
            )
    return Diff(line=1, expected="", got="")


class ExactChecker:
    name = "exact"

    def check(self, files: CheckInput) -> CheckResult:
        output = files.output().replace(b"\r\n", b"\n")
        answer = files.answer().replace(b"\r\n", b"\n")
        if output == answer:
            return OK
        diff = first_line_diff(output.split(b"\n"), answer.split(b"\n"))
        if compare_tokens(output, answer).verdict == "AC":
            return CheckResult(Verdict.PE, "same tokens, different whitespace", diff)
        return CheckResult(Verdict.WA, f"line {diff.line} differs", diff)
