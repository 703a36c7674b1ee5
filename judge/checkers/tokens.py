"""The default checker (Codeforces' wcmp): the outputs must have the same whitespace-separated tokens.

Both files are streamed and the check stops at the first difference: a huge output of tiny tokens
costs a chunk of memory, not a list of every token."""

from __future__ import annotations

from pathlib import Path

from cpbot.judge.checkers.base import OK, CheckInput, CheckResult
from cpbot.judge.checkers.floats import close_enough
from cpbot.judge.checkers.text import excerpt, first_token_difference, token_line
from cpbot.judge.model import Diff, Verdict


def compare_tokens(output: bytes | Path, answer: bytes | Path) -> CheckResult:
    found = first_token_difference(output, answer)
    if found is None:
        return OK
    diff = Diff(
        line=token_line(output, found.index),
        token=found.index + 1,
        expected=excerpt(found.expected) if found.expected is not None else "<end of output>",
        got=excerpt(found.got) if found.got is not None else "<end of output>",
    )
    if found.got is None:
        message = f"output ends early: {found.got_count} tokens, expected {found.expected_count}"
    elif found.expected is None:
        message = f"extra output after {found.expected_count} tokens"
    else:
        message = f"token {found.index + 1} differs" + float_hint(found.got, found.expected)
    return CheckResult(Verdict.WA, message, diff)


HINT_EPS = "1e-6"  # the error Codeforces' and AtCoder's float problems usually accept


def float_hint(got: bytes, expected: bytes) -> str:
    """When two differing tokens are numbers with a fraction and within 1e-6 of each other (absolute or
    relative): the hint that the problem may accept an error, which this exact comparison does not."""
    if not any(c in expected for c in b".eE"):
        return ""
    try:
        g, w = float(got), float(expected)
    except ValueError:
        return ""
    if not close_enough(g, w, float(HINT_EPS), "either"):
        return ""
    return (
        f" ({excerpt(got, 40)} is within {HINT_EPS} of {excerpt(expected, 40)}: if the problem accepts an absolute "
        f"or relative error, judge with --checker float:{HINT_EPS})"
    )


class TokensChecker:
    name = "tokens"

    def check(self, files: CheckInput) -> CheckResult:
        return compare_tokens(files.output_path, files.answer_path if files.answer_path is not None else b"")
