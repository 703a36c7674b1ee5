"""A C++ build is used again while what the compiler read is unchanged: a checker's build survives edits
to the other files of its folder (the solution beside it), a folder staged under another path, and is
made again when one of its headers changes, when a header of that name appears earlier on the include
path, or when the flags differ."""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from pathlib import Path

import pytest

from cpbot.judge.build import build_program_file
from cpbot.judge.languages import BuildOptions, get_language
from cpbot.judge.languages.cpp import Cpp
from cpbot.judge.languages.headers import parse_make_deps

HELPER = "inline int helper() { return 0; }\n"


RUN = uuid.uuid4().hex  # the compile cache outlives a test session: sources of this session's own


def checker(tag: str) -> str:
    """A checker source of its own per test and session."""
    return f'#include "helper.h"\n// {tag} {RUN}\nint main() {{ return helper(); }}\n'


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources actually compiled (cache misses), in order."""
    seen: list[str] = []
    real = Cpp._compile

    def counting(self, source, filename, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(filename)
        return real(self, source, filename, *args, **kwargs)

    monkeypatch.setattr(Cpp, "_compile", counting)
    return seen


def test_a_checker_is_not_rebuilt_when_the_solution_beside_it_changes(tmp_path, sandbox, compiles):
    (tmp_path / "checker.cpp").write_text(checker(tmp_path.name))
    (tmp_path / "helper.h").write_text(HELPER)
    (tmp_path / "solution.cpp").write_text("int main() {}\n")
    first = build_program_file(tmp_path / "checker.cpp", sandbox, role="checker")
    (tmp_path / "solution.cpp").write_text("int main() { return 0; }\n")
    (tmp_path / "notes.txt").write_text("edited\n")
    again = build_program_file(tmp_path / "checker.cpp", sandbox, role="checker")
    assert compiles == ["checker.cpp"]
    assert again.key == first.key


def test_a_changed_header_builds_the_checker_again(tmp_path, sandbox, compiles):
    (tmp_path / "checker.cpp").write_text(checker(tmp_path.name))
    (tmp_path / "helper.h").write_text(HELPER)
    first = build_program_file(tmp_path / "checker.cpp", sandbox, role="checker")
    (tmp_path / "helper.h").write_text("inline int helper() { return 1; }\n")
    again = build_program_file(tmp_path / "checker.cpp", sandbox, role="checker")
    assert compiles == ["checker.cpp", "checker.cpp"]
    assert again.key != first.key


def test_the_same_headers_under_another_path_reuse_the_build(tmp_path, sandbox, compiles):
    """A folder staged for the sandbox lies under a new path in every process: the key holds contents."""
    cpp = get_language("cpp17")
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "helper.h").write_text(HELPER)
    builds = [
        cpp.build(
            checker(tmp_path.name), sandbox, BuildOptions(include_dirs=(tmp_path / name,), filename="checker.cpp")
        )
        for name in ("one", "two")
    ]
    assert compiles == ["checker.cpp"]
    assert builds[1].cached and builds[1].program is not None


def test_a_header_appearing_earlier_on_the_include_path_builds_again(tmp_path, sandbox, compiles):
    cpp = get_language("cpp17")
    early, late = tmp_path / "early", tmp_path / "late"
    early.mkdir()
    late.mkdir()
    (late / "helper.h").write_text(HELPER)
    options = BuildOptions(include_dirs=(early, late), filename="checker.cpp")
    cpp.build(checker(tmp_path.name), sandbox, options)
    (early / "helper.h").write_text("inline int helper() { return 2; }\n")
    cpp.build(checker(tmp_path.name), sandbox, options)
    assert compiles == ["checker.cpp", "checker.cpp"]


def test_a_header_of_the_first_of_two_sources_is_watched_too(tmp_path, sandbox, compiles):
    """With a grader (--with), g++ -MMD lists only the last source's headers: every header counts then."""
    cpp = get_language("cpp17")
    inc = tmp_path / "inc"  # an include dir programs may read (tmp_path is 0700)
    inc.mkdir()
    (inc / "helper.h").write_text(HELPER)
    grader = ("grader.cpp", f"// {tmp_path.name} {RUN}\nint solve();\nint main() {{ return solve(); }}\n")
    options = BuildOptions(include_dirs=(inc,), filename="sol.cpp", extra_sources=(grader,))
    source = '#include "helper.h"\nint solve() { return helper(); }\n'
    builds = [cpp.build(source, sandbox, options) for _ in range(2)]
    (inc / "helper.h").write_text("inline int helper() { return 5; }\n")
    builds.append(cpp.build(source, sandbox, options))
    assert all(b.program is not None for b in builds), builds[0].log
    assert compiles == ["sol.cpp", "sol.cpp"]


def test_other_flags_are_another_build(tmp_path, sandbox, compiles):
    cpp = get_language("cpp17")
    source = f"// {tmp_path.name} {RUN}\nint main() {{\n#ifdef LOCAL\n  return 3;\n#endif\n}}\n"
    plain = cpp.build(source, sandbox, BuildOptions(filename="a.cpp"))
    local = cpp.build(source, sandbox, BuildOptions(filename="a.cpp", flags=("-DLOCAL",)))
    cpp.build(source, sandbox, BuildOptions(filename="a.cpp", flags=("-DLOCAL",)))
    assert compiles == ["a.cpp", "a.cpp"]
    assert plain.program and local.program and plain.program.key != local.program.key


@pytest.mark.skipif(os.geteuid() != 0, reason="a folder only root can read needs root")
def test_a_checker_in_a_private_folder_is_built_once(sandbox, compiles):
    folder = Path(tempfile.mkdtemp(prefix="cpbot-private-"))  # 0700: staged with its headers
    try:
        (folder / "checker.cpp").write_text(checker(folder.name))
        (folder / "helper.h").write_text(HELPER)
        build_program_file(folder / "checker.cpp", sandbox, role="checker")
        (folder / "solution.cpp").write_text("int main() {}\n")
        build_program_file(folder / "checker.cpp", sandbox, role="checker")
        assert compiles == ["checker.cpp"]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_make_deps_are_read_with_escapes_and_continuations():
    text = "solution: solution.cpp /a/b\\ c/x.h \\\n /d/y.h\n"
    assert parse_make_deps(text) == ["solution.cpp", "/a/b c/x.h", "/d/y.h"]
