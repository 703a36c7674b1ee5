"""Compiler flags for the solution (--cxxflags, [judge] cxxflags) and the --debug build: sanitizers and
the checked STL run in the sandbox, a leak is not an error, and a plain build's segfault says --debug."""

from __future__ import annotations

from pathlib import Path

from cpbot.bot.cli.main import main

# no bits/stdc++.h: a new flag set would first build its precompiled header (10-60 s)
LOCAL = (
    '#include <iostream>\nint main() {\n#ifdef LOCAL\n  std::cout << "local\\n";\n#else\n'
    '  std::cout << "judge\\n";\n#endif\n}\n'
)
USE_AFTER_FREE = (
    "#include <iostream>\n#include <vector>\nint main() { int i; std::cin >> i;\n"
    "  std::vector<int> v(3); int* p = v.data();\n"
    '  v.resize(1000); std::cout << p[i % 3] << "\\n"; }\n'
)
LEAKS = '#include <iostream>\nint main() { int* p = new int[10]; p[0] = 7; std::cout << p[0] << "\\n"; }\n'
OUT_OF_BOUNDS = (
    "#include <iostream>\n#include <vector>\nint main() { long long i; std::cin >> i; std::vector<int> v(3);\n"
    '  v[i] = 1; std::cout << v[0] << "\\n"; }\n'
)
SEGFAULT = (
    "#include <iostream>\nint a[10];\n"
    'int main() { long long i; std::cin >> i; a[i] = 1; std::cout << a[0] << "\\n"; }\n'
)


def _folder(tmp_path: Path, source: str, given: str, wanted: str) -> Path:
    (tmp_path / "sol.cpp").write_text(source)
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "a.in").write_text(given)
    (tests / "a.out").write_text(wanted)
    return tmp_path / "sol.cpp"


def test_cxxflags_reach_the_compiler(tmp_path, capsys):
    solution = _folder(tmp_path, LOCAL, "\n", "local\n")
    assert main(["judge", str(solution)]) == 1
    assert main(["judge", str(solution), "--cxxflags", "-DLOCAL -Wall"]) == 0


def test_judge_cxxflags_in_the_config_file_apply_to_the_commands(tmp_path, capsys, monkeypatch):
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text('[judge]\ncxxflags = "-DLOCAL"\n')
    monkeypatch.setenv("CPBOT_CONFIG_DIR", str(config))
    solution = _folder(tmp_path, LOCAL, "\n", "local\n")
    assert main(["judge", str(solution)]) == 0
    assert main(["judge", str(solution), "--cxxflags", ""]) == 1  # the command line wins


def test_the_debug_build_runs_address_sanitizer_in_the_sandbox(tmp_path, capsys):
    solution = _folder(tmp_path, USE_AFTER_FREE, "1\n", "0\n")
    assert main(["judge", str(solution), "--debug"]) == 1
    out = capsys.readouterr().out
    assert "AddressSanitizer: heap-use-after-free" in out
    assert "in main sol.cpp:5" in out  # where it happened, in the user's file
    assert "Shadow byte legend" not in out


def test_the_debug_build_checks_the_stl_and_ignores_leaks(tmp_path, capsys):
    solution = _folder(tmp_path, OUT_OF_BOUNDS, "5\n", "0\n")
    assert main(["judge", str(solution), "--debug"]) == 1
    assert "out-of-bounds index 5" in capsys.readouterr().out  # _GLIBCXX_DEBUG's own message
    leaky = _folder(tmp_path / "leak", LEAKS, "\n", "7\n") if (tmp_path / "leak").mkdir() is None else None
    assert leaky is not None and main(["judge", str(leaky), "--debug"]) == 0


def test_a_segfault_of_a_plain_build_suggests_the_debug_build(tmp_path, capsys):
    solution = _folder(tmp_path, SEGFAULT, "100000000\n", "0\n")
    assert main(["judge", str(solution)]) == 1
    out = capsys.readouterr().out
    assert "SIGSEGV" in out and "--debug" in out
    assert main(["judge", str(solution), "--debug"]) == 1
    out = capsys.readouterr().out
    assert "sol.cpp:3:" in out and "out of bounds" in out and "run again with --debug" not in out
