"""Languages, sites and strategies are named in one place: `cpbot.core.registry`.

Everything else asks the registry, so adding one never means hunting for `if site == "..."` chains.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cpbot.core.errors import ConfigError
from cpbot.core.registry import (
    LANGUAGE_NAMES,
    SITE_ALIASES,
    SITE_NAMES,
    STRATEGY_NAMES,
    language_for_path,
    site_name,
    strategy_spec,
)
from tests.conftest import REPO

SOURCE_DIRS = ("cpbot", "bot", "scrapers", "agents", "judge")
REGISTRY = REPO / "cpbot" / "core" / "registry.py"
NAMES = frozenset(LANGUAGE_NAMES) | frozenset(SITE_ALIASES)


def _literal_names(node: ast.AST) -> list[str]:
    """The registered names among the string literals directly in `node` (a constant or a collection)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if node.value in NAMES else []
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [n for elt in node.elts for n in _literal_names(elt)]
    return []


def _offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                names += _literal_names(side)
        elif isinstance(node, ast.MatchValue):
            names += _literal_names(node.value)
        elif isinstance(node, ast.Tuple | ast.List | ast.Set) and len(_literal_names(node)) >= 2:
            names += _literal_names(node)  # the list spelled out again
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None:
                    names += _literal_names(key)
        if names:
            found.append(f"{path.relative_to(REPO)}:{node.lineno}: {', '.join(sorted(set(names)))}")
    return found


def _sources() -> list[Path]:
    files = [p for d in SOURCE_DIRS for p in sorted((REPO / d).rglob("*.py"))]
    return [p for p in files if p != REGISTRY]


def test_no_module_outside_the_registry_compares_a_site_or_language_name_to_a_literal() -> None:
    offences = [o for path in _sources() for o in _offences(path)]
    assert offences == [], "ask cpbot.core.registry instead:\n" + "\n".join(offences)


# every spelling of a language: registered names, aliases, families and the fence words of their profiles
def _language_spellings() -> frozenset[str]:
    from cpbot.core.registry import LANGUAGE_ALIASES
    from cpbot.judge.languages import PROFILES

    words = {*LANGUAGE_NAMES, *LANGUAGE_ALIASES}
    for profile in PROFILES.values():
        words |= {profile.family.value, profile.fence, *profile.fence_tags}
    return frozenset(words)


def _prefix_offences(path: Path) -> list[str]:
    """`x.startswith("cpp")`-style tests: a name's prefix standing for a language family."""
    spellings = _language_spellings()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr != "startswith" or not node.args:
            continue
        arg = node.args[0]
        literals = arg.elts if isinstance(arg, ast.Tuple) else [arg]
        words = [c.value.lower() for c in literals if isinstance(c, ast.Constant) and isinstance(c.value, str)]
        if any(w and any(s.startswith(w) for s in spellings) for w in words):
            found.append(f"{path.relative_to(REPO)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_tells_a_language_family_by_a_name_prefix() -> None:
    offences = [o for path in _sources() for o in _prefix_offences(path)]
    assert offences == [], "ask cpbot.judge.languages.language_profile(...) instead:\n" + "\n".join(offences)


def test_the_prefix_grep_finds_a_planted_test() -> None:
    planted = REPO / "agents" / "_planted_prefix_for_test.py"
    planted.write_text('def f(lang, line):\n    return lang.startswith(("cpp", "c++")) or line.startswith("# ")\n')
    try:
        assert len(_prefix_offences(planted)) == 1
    finally:
        planted.unlink()


def test_the_grep_finds_a_planted_comparison(tmp_path: Path) -> None:
    planted = REPO / "judge" / "_planted_for_test.py"
    planted.write_text('def f(site, lang):\n    return site == "cf" or lang in ("pypy3",) or {"leetcode": 1}\n')
    try:
        assert len(_offences(planted)) == 3
        planted.write_text('LANGS = ("cpp17", "python3")\n')
        assert len(_offences(planted)) == 1
    finally:
        planted.unlink()


def test_site_names_and_aliases_resolve_the_same_everywhere() -> None:
    assert site_name("cf") == site_name("Codeforces") == "codeforces"
    assert site_name("lc") == "leetcode"
    assert set(SITE_NAMES) <= set(SITE_ALIASES)
    with pytest.raises(ConfigError, match="unknown site"):
        site_name("yukicoder")


def test_languages_and_strategies_come_from_their_tables() -> None:
    from cpbot.judge.languages import LANGUAGES
    from cpbot.judge.model import Solution

    assert tuple(LANGUAGES) == LANGUAGE_NAMES
    assert Solution(language=LANGUAGE_NAMES[-1], source="").language == LANGUAGE_NAMES[-1]
    assert language_for_path("a.cc") in LANGUAGE_NAMES
    assert STRATEGY_NAMES[0] == "cpbot"
    with pytest.raises(ConfigError, match="unknown strategy"):
        strategy_spec("nope")


# --- problem kinds -----------------------------------------------------------------------------------

KINDS_HOME = REPO / "judge" / "kinds"


def _kind_offences(path: Path) -> list[str]:
    """Comparisons of a problem's kind (`problem.kind`, `shape.kind`, a bare `kind`) with a kind's name."""
    from cpbot.judge.kinds import KINDS

    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        literal = any(isinstance(s, ast.Constant) and s.value in KINDS for s in sides)
        of_problem = any(
            (isinstance(s, ast.Name) and s.id == "kind")
            or (isinstance(s, ast.Attribute) and s.attr == "kind" and "signature" not in ast.unparse(s.value))
            for s in sides
        )
        if literal and of_problem:
            found.append(f"{path.relative_to(REPO)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_outside_the_kinds_compares_a_problem_kind_to_a_literal() -> None:
    paths = [p for p in _sources() if KINDS_HOME not in p.parents]
    offences = [o for path in paths for o in _kind_offences(path)]
    assert offences == [], "ask cpbot.judge.kinds.problem_kind(...) instead:\n" + "\n".join(offences)


def test_the_kind_grep_finds_a_planted_branch() -> None:
    planted = REPO / "agents" / "_planted_kind_for_test.py"
    planted.write_text(
        "def f(problem, kind, signature):\n"
        '    return problem.kind == "interactive" or kind != "function" or signature.kind == "function"\n'
    )
    try:
        assert len(_kind_offences(planted)) == 2  # the signature's own kind ("function" / "design") is not one
    finally:
        planted.unlink()


def test_every_problem_kind_of_the_model_has_a_kind_object() -> None:
    from typing import get_args

    from cpbot.judge.kinds import KINDS
    from cpbot.judge.model import Problem

    assert tuple(KINDS) == get_args(Problem.model_fields["kind"].annotation)
