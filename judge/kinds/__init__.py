"""The registry of problem kinds: one `ProblemKind` per value of `Problem.kind`, one module each."""

from __future__ import annotations

from cpbot.core.errors import ConfigError
from cpbot.judge.kinds import function, heuristic, interactive, stdio
from cpbot.judge.kinds.base import ProblemKind

KINDS: dict[str, ProblemKind] = {k.name: k for k in (stdio.KIND, function.KIND, interactive.KIND, heuristic.KIND)}
STDIO, FUNCTION, INTERACTIVE, HEURISTIC = stdio.KIND, function.KIND, interactive.KIND, heuristic.KIND


def problem_kind(name: str) -> ProblemKind:
    """The kind called `name` (a `Problem.kind`)."""
    kind = KINDS.get(name)
    if kind is None:
        raise ConfigError(f"unknown problem kind {name!r}", hint=f"use one of: {', '.join(KINDS)}")
    return kind


__all__ = ["FUNCTION", "HEURISTIC", "INTERACTIVE", "KINDS", "STDIO", "ProblemKind", "problem_kind"]
