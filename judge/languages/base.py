"""What a language is to the judge: how to build a source into a runnable program."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from cpbot.judge.sandbox import Sandbox


@dataclass(frozen=True)
class Program:
    """A built program: the argv that runs it (paths in the sandbox's read-only staging area)."""

    language: str
    argv: list[str]
    key: str = ""


@dataclass(frozen=True)
class Build:
    """The outcome of building a source: a program, or a compile error with the compiler's message."""

    program: Program | None
    log: str = ""
    cached: bool = False
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


class Language(Protocol):
    name: str
    extensions: tuple[str, ...]

    def unavailable_reason(self) -> str | None:
        """None when the language can be used here, else why not."""
        ...

    def version(self) -> str: ...

    def build(self, source: str, sandbox: Sandbox) -> Build: ...


def world_accessible(path: str | Path) -> bool:
    """Whether a program running as nobody can execute `path` (every directory above it searchable)."""
    real = Path(os.path.realpath(path))
    try:
        if not real.stat().st_mode & stat.S_IXOTH:
            return False
        return all(p.stat().st_mode & stat.S_IXOTH for p in real.parents)
    except OSError:
        return False


def usable_by_sandbox(path: str | Path) -> bool:
    """As root the sandbox runs programs as nobody, which cannot reach e.g. an interpreter under /root."""
    return os.geteuid() != 0 or world_accessible(path)
