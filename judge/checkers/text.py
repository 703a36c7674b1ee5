"""Helpers shared by the built-in checkers: token positions and short, readable excerpts."""

from __future__ import annotations

import re

from cpbot.judge.model import Diff

_TOKEN = re.compile(rb"\S+")


def excerpt(data: bytes, limit: int = 80) -> str:
    text = data.decode(errors="replace")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def token_diff(output: bytes, index: int, expected: bytes | None, got: bytes | None) -> Diff:
    """A Diff for the `index`-th token (0-based) of `output`: its line number there and the two tokens."""
    line = 1
    for i, m in enumerate(_TOKEN.finditer(output)):
        if i == index:
            line = output.count(b"\n", 0, m.start()) + 1
            break
    else:
        line = output.count(b"\n") + 1
    return Diff(
        line=line,
        token=index + 1,
        expected=excerpt(expected) if expected is not None else "<end of output>",
        got=excerpt(got) if got is not None else "<end of output>",
    )


def first_token_mismatch(got: list[bytes], want: list[bytes]) -> int | None:
    """Index of the first differing token, or None when the sequences are equal."""
    for i, (a, b) in enumerate(zip(got, want, strict=False)):
        if a != b:
            return i
    return None if len(got) == len(want) else min(len(got), len(want))
