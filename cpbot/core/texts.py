"""Numbers and times as every view prints them (the terminal, the watch table, the HTML export)."""

from __future__ import annotations


def tokens_text(n: int) -> str:
    """A token count with thousands separators."""
    return f"{n:,}"


def clock(seconds: float) -> str:
    """h:mm:ss (days in front when longer)."""
    total = max(0, int(seconds))
    days, rest = divmod(total, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    text = f"{h}:{m:02d}:{s:02d}"
    return f"{days}d {text}" if days else text


def count(n: int, noun: str, plural: str = "") -> str:
    """`1 test`, `2 tests`: a number and its noun in agreement."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
