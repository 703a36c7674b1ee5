"""What a language is to the judge (how to build a source into a runnable program) and what a family of
languages is to the rest of cpbot (`FamilyProfile`: fences, prompts, skeletons, site slugs, harness)."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from cpbot.core.registry import Family, LanguageSpec
from cpbot.judge.sandbox import Sandbox
from cpbot.judge.sandbox.pool import visible_in_sandbox


@dataclass(frozen=True)
class Program:
    """A built program: the argv that runs it (paths in the sandbox's read-only staging area)."""

    language: str
    argv: list[str]
    key: str = ""
    sanitized: bool = False  # built with sanitizers: its runs need no address-space cap (ASan's shadow memory)
    # (path in the sandbox, name the user knows): what its messages (a traceback) say instead of the path
    shown_paths: tuple[tuple[str, str], ...] = ()

    def shown(self, text: str) -> str:
        """`text` (what the program wrote) with its sandbox paths replaced by the names the user knows."""
        for path, name in self.shown_paths:
            text = text.replace(path, name)
        return text


@dataclass(frozen=True)
class BuildOptions:
    """How to build beyond the source itself: a problem package's include dirs, extra source files."""

    include_dirs: tuple[Path, ...] = ()  # shown read-only to the compiler and passed as -I, in order
    extra_sources: tuple[tuple[str, str], ...] = ()  # (file name, text): compiled with it (a grader)
    filename: str = ""  # the source's name in compiler messages (default: solution.<ext>)
    flags: tuple[str, ...] = ()  # compiler flags after the language's own (--cxxflags, --debug); part of the key
    # where the source lives: inside an include dir it is compiled in place, so `#include "../x.h"` works
    source_path: Path | None = None


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

    def build(self, source: str, sandbox: Sandbox, options: BuildOptions | None = None) -> Build: ...


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
    """Whether a sandboxed run can execute `path`: it must lie in the sandbox's minimal root (/usr and
    the like, or a dir in CPBOT_SANDBOX_READ_ONLY), and as root (runs are nobody) be world-accessible."""
    return visible_in_sandbox(path) and (os.geteuid() != 0 or world_accessible(path))


@dataclass(frozen=True)
class FamilyProfile:
    """Everything cpbot knows about one family of languages (C++, Python), in that family's module of
    `judge/languages/` (in the style of DMOJ's executors); `language_profile(name)` finds it."""

    family: Family
    title: str  # the family for people and prompts: "C++"
    fence: str  # the info word cpbot writes on a code fence: ```cpp
    fence_tags: tuple[str, ...]  # every info word a model may write for it (lower-case)
    comment: str  # a line comment starts with this: "//"
    checklist: tuple[str, ...]  # the usual contest mistakes, for prompts without a skeleton
    snippet_key: str  # LeetCode's langSlug, also the key of its starting code in `Problem.code_snippets`
    snippet_aliases: tuple[str, ...]  # other keys a saved problem may use for its starting code
    builder: Callable[[LanguageSpec], Language]  # one per registered language of the family
    # code recognition in a model's reply: telltale patterns and how many make a block this language's
    signs: tuple[str, ...]
    min_signs: int
    whole_program: str  # a pattern found in a whole program (or a LeetCode class), not in a snippet
    is_cut: Callable[[str], bool]  # the code visibly stops before its end
    skeleton_extension: str = ""  # templates/stdio/<shape>.<ext>; empty: no skeletons, the model writes I/O
    harness_driver: str = ""  # the module whose `build(source, parsed)` wraps a LeetCode class; empty: none
    harness_fixed_width: bool = False  # that driver's integers have fixed widths and its characters one byte
    syntax_error: Callable[[str], SyntaxError | None] | None = None  # a cheap syntax check, where there is one
    # a reply with no fence: the program runs from the first line matching this to the last closing brace
    # and must match `unfenced_whole`; empty: the whole reply, when it reads as this language
    unfenced_start: str = ""
    unfenced_whole: str = ""
