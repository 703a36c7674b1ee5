"""Each language family is one module of `judge/languages/` whose PROFILE the rest of cpbot reads."""

from __future__ import annotations

import importlib
from importlib import resources

import pytest

from cpbot.core.registry import LANGUAGE_ALIASES, LANGUAGE_SPECS
from cpbot.judge.languages import LANGUAGES, PROFILES, language_profile

SHAPES = ("single", "multi_line", "multi_block", "matrix", "interactive")


def test_every_registered_language_and_alias_reaches_its_familys_profile() -> None:
    for spec in LANGUAGE_SPECS:
        assert language_profile(spec.name).family is spec.family
    for alias, name in LANGUAGE_ALIASES.items():
        assert language_profile(alias) is language_profile(name)
    assert language_profile("C++").title == "C++" and language_profile("py").fence == "python"
    with pytest.raises(ValueError, match="no language family"):
        language_profile("brainfuck")


def test_each_language_is_built_by_its_familys_builder() -> None:
    for spec in LANGUAGE_SPECS:
        assert isinstance(LANGUAGES[spec.name], PROFILES[spec.family].builder)  # type: ignore[arg-type]


def test_no_fence_word_means_two_families() -> None:
    seen: dict[str, object] = {}
    for profile in PROFILES.values():
        for tag in {profile.fence, *profile.fence_tags}:
            assert seen.setdefault(tag, profile.family) is profile.family, tag


def test_a_family_with_skeletons_has_one_per_input_shape_and_its_harness_driver_builds() -> None:
    stdio = resources.files("cpbot.templates").joinpath("stdio")
    for profile in PROFILES.values():
        if profile.skeleton_extension:
            missing = [s for s in SHAPES if not stdio.joinpath(f"{s}.{profile.skeleton_extension}").is_file()]
            assert missing == [], profile.title
        if profile.harness_driver:
            assert callable(importlib.import_module(profile.harness_driver).build)


def test_the_profiles_tell_cut_code_and_whole_programs() -> None:
    cpp, python = language_profile("cpp17"), language_profile("python3")
    assert cpp.is_cut("int main() {\n  return 0;\n") and not cpp.is_cut("int main() { return 0; }\n")
    assert python.is_cut("print((1,\n") and not python.is_cut("print(1)\n")
    assert python.syntax_error is not None and python.syntax_error("x = (") is not None
    assert cpp.syntax_error is None  # C++ has no cheap syntax check: its compiler tells
