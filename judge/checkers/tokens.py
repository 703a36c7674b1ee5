"""The default checker (Codeforces' wcmp): the outputs must have the same whitespace-separated tokens."""

from __future__ import annotations

from cpbot.judge.checkers.base import OK, CheckInput, CheckResult
from cpbot.judge.checkers.text import first_token_mismatch, token_diff
from cpbot.judge.model import Verdict


def compare_tokens(output: bytes, answer: bytes) -> CheckResult:
    got, want = output.split(), answer.split()
    i = first_token_mismatch(got, want)
    if i is None:
        return OK
    diff = token_diff(output, i, want[i] if i < len(want) else None, got[i] if i < len(got) else None)
    if i >= len(got):
        message = f"output ends early: {len(got)} tokens, expected {len(want)}"
    elif i >= len(want):
        message = f"extra output after {len(want)} tokens"
    else:
        message = f"token {i + 1} differs"
    return CheckResult(Verdict.WA, message, diff)


class TokensChecker:
    name = "tokens"

    def check(self, files: CheckInput) -> CheckResult:
        return compare_tokens(files.output(), files.answer())
