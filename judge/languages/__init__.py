"""The language registry: adding a language is one module and one line here."""

from __future__ import annotations

from pathlib import Path

from judge.errors import ConfigError
from judge.languages.base import Build, Language, Program
from judge.languages.cpp import Cpp
from judge.languages.python import Python, cpython_candidates

LANGUAGES: dict[str, Language] = {
    lang.name: lang
    for lang in (
        Cpp("cpp17", "c++17"),
        Cpp("cpp20", "c++20"),
        Python("python3", cpython_candidates()),
        Python("pypy3", ["pypy3"]),
    )
}

# The language a file extension means when none is given.
BY_EXTENSION = {".cpp": "cpp17", ".cc": "cpp17", ".cxx": "cpp17", ".py": "python3"}


def get_language(name: str) -> Language:
    """The language called `name`, if it is known and usable on this machine."""
    lang = LANGUAGES.get(name)
    if lang is None:
        raise ConfigError(f"unknown language {name!r}", hint=f"use one of: {', '.join(LANGUAGES)}")
    reason = lang.unavailable_reason()
    if reason:
        raise ConfigError(f"language {name} is not available: {reason}", hint="run `cpbot doctor`")
    return lang


def language_for(path: str | Path) -> str:
    """The language name for a source file, from its extension."""
    suffix = Path(path).suffix.lower()
    if suffix not in BY_EXTENSION:
        raise ConfigError(
            f"cannot tell the language of {Path(path).name}",
            hint=f"pass --lang ({', '.join(LANGUAGES)})",
        )
    return BY_EXTENSION[suffix]


__all__ = ["BY_EXTENSION", "LANGUAGES", "Build", "Language", "Program", "get_language", "language_for"]
