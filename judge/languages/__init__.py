"""The language families: one module per `Family` holding its `PROFILE` (how to build and run it, how
prompts, fences, skeletons, LeetCode and the harness name it), one instance per registered language
(`cpbot.core.registry.LANGUAGE_SPECS`). A new dialect of a known family is one line there; a new family
is one module here and one line in `PROFILES`."""

from __future__ import annotations

from pathlib import Path

from cpbot.core.errors import ConfigError
from cpbot.core.registry import (
    LANGUAGE_ALIASES,
    LANGUAGE_NAMES,
    LANGUAGE_SPECS,
    Family,
    language_for_path,
    language_spec,
)
from cpbot.core.registry import (
    LANGUAGES as SPECS,
)
from cpbot.judge.languages import cpp, python
from cpbot.judge.languages.base import Build, BuildOptions, FamilyProfile, Language, Program

PROFILES: dict[Family, FamilyProfile] = {p.family: p for p in (cpp.PROFILE, python.PROFILE)}
# The key of a family's starting code in `Problem.code_snippets`: LeetCode's langSlug, since LeetCode is
# the site that hands out starting code.
SNIPPET_KEYS: dict[Family, str] = {p.family: p.snippet_key for p in PROFILES.values()}

LANGUAGES: dict[str, Language] = {spec.name: PROFILES[spec.family].builder(spec) for spec in LANGUAGE_SPECS}


def language_profile(language: str) -> FamilyProfile:
    """The profile of a language's family, given a registered language (`cpp17`), an alias (`c++`), a
    family (`python`) or a fence's info word (`py`); ValueError for anything else."""
    name = LANGUAGE_ALIASES.get(language.lower(), language.lower())
    if name in SPECS:
        return PROFILES[SPECS[name].family]
    found = next((p for p in PROFILES.values() if name == p.family.value or name in p.fence_tags), None)
    if found is None:
        raise ValueError(f"no language family for {language!r}")
    return found


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
    "PROFILES",
    "SNIPPET_KEYS",
    "Build",
    "BuildOptions",
    "FamilyProfile",
    "Language",
    "Program",
    "get_language",
    "language_for",
    "language_profile",
]
