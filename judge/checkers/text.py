"""Helpers shared by the built-in checkers: token positions and short, readable excerpts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

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


CHUNK = 1 << 20  # bytes read at a time by the streaming token reader


def _chunks(data: bytes | Path) -> Iterator[bytes]:
    if isinstance(data, bytes):
        for start in range(0, len(data), CHUNK):
            yield data[start : start + CHUNK]
        return
    with open(data, "rb") as f:
        while chunk := f.read(CHUNK):
            yield chunk


def token_blocks(data: bytes | Path) -> Iterator[list[bytes]]:
    """The whitespace-separated tokens of a file or bytes, a chunk's worth at a time (memory bounded by
    the chunk, not the file; a token cut by a chunk's end is carried into the next)."""
    carry = b""
    for chunk in _chunks(data):
        chunk = carry + chunk
        tokens = chunk.split()
        carry = tokens.pop() if tokens and not chunk[-1:].isspace() else b""
        if tokens:
            yield tokens
    if carry:
        yield [carry]


def count_tokens(data: bytes | Path) -> int:
    return sum(len(block) for block in token_blocks(data))


def token_line(data: bytes | Path, index: int) -> int:
    """The line (1-based) of the `index`-th token (0-based) of `data`, or the last line past its end."""
    seen = newlines = 0
    carry = b""
    for chunk in _chunks(data):
        chunk = carry + chunk
        tokens = chunk.split()
        carry = tokens.pop() if tokens and not chunk[-1:].isspace() else b""
        if seen + len(tokens) > index:
            m = next(m for i, m in enumerate(_TOKEN.finditer(chunk)) if i == index - seen)
            return newlines + chunk.count(b"\n", 0, m.start()) + 1
        seen += len(tokens)
        newlines += chunk.count(b"\n")  # a carried partial token holds no newline
    return newlines + 1


@dataclass(frozen=True)
class TokenMismatch:
    index: int  # 0-based
    got: bytes | None  # None: the output ended
    expected: bytes | None  # None: the answer ended
    got_count: int  # tokens in all (only counted when one side ended early)
    expected_count: int


def first_token_difference(output: bytes | Path, answer: bytes | Path) -> TokenMismatch | None:
    """Stream both token sequences and stop at the first difference (None: equal), in bounded memory."""
    got_blocks, want_blocks = token_blocks(output), token_blocks(answer)
    got: list[bytes] = []
    want: list[bytes] = []
    g = w = index = 0
    while True:
        if g == len(got):
            got, g = next(got_blocks, []), 0
        if w == len(want):
            want, w = next(want_blocks, []), 0
        if not got or not want:
            if not got and not want:
                return None
            got_count = index + len(got) - g + sum(len(b) for b in got_blocks)
            want_count = index + len(want) - w + sum(len(b) for b in want_blocks)
            return TokenMismatch(index, got[g] if got else None, want[w] if want else None, got_count, want_count)
        n = min(len(got) - g, len(want) - w)
        if got[g : g + n] != want[w : w + n]:
            k = next(k for k in range(n) if got[g + k] != want[w + k])
            return TokenMismatch(index + k, got[g + k], want[w + k], 0, 0)
        g, w, index = g + n, w + n, index + n
