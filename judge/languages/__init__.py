"""The judge's side of the language registry: one implementation per `Family`, one instance per
registered language (`cpbot.core.registry.LANGUAGE_SPECS`). A new dialect of a known family is one line
there; a new family is one module here and one line in `_BUILDERS`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cpbot.core.errors import ConfigError
from cpbot.core.registry import LANGUAGE_NAMES, LANGUAGE_SPECS, Family, LanguageSpec, language_for_path, language_spec
from cpbot.judge.languages.base import Build, BuildOptions, Language, Program
from cpbot.judge.languages.cpp import Cpp
from cpbot.judge.languages.python import Python

_BUILDERS: dict[Family, Callable[[LanguageSpec], Language]] = {Family.CPP: Cpp, Family.PYTHON: Python}

LANGUAGES: dict[str, Language] = {spec.name: _BUILDERS[spec.family](spec) for spec in LANGUAGE_SPECS}


def get_language(name: str) -> Language:
    """The language called `name`, if it is known and usable on this machine."""
    language_spec(name)  # unknown -> ConfigError naming the known ones
    lang = LANGUAGES[name]
    reason = lang.unavailable_reason()
    if reason:
        raise ConfigError(f"language {name} is not available: {reason}", hint="run `cpbot doctor`")
    return lang


def language_for(path: str | Path) -> str:
    """The language name for a source file, from its extension."""
    return language_for_path(path)


__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "Build",
    "BuildOptions",
    "Language",
    "Program",
    "get_language",
    "language_for",
]
