"""The C++ harness runtime (templates/harness/*.hpp) on its own: it compiles cleanly with warnings as
errors in both C++ dialects, and its value reader and printer round-trip LeetCode values directly,
without a solution or a judge around them (tests/harness/runtime/roundtrip.cpp drives them)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from cpbot.judge.harness.templates import template

RUNTIME_TEST = Path(__file__).parent / "runtime" / "roundtrip.cpp"
WARNINGS = ["-Wall", "-Wextra", "-Wpedantic", "-Werror"]


def translation_unit() -> str:
    """The runtime as the generated programs embed it: LeetCode's preamble, the node structs, the runtime."""
    parts = ["#include <bits/stdc++.h>\nusing namespace std;\n"]
    parts += [template(name) for name in ("cpp_list_node.hpp", "cpp_tree_node.hpp", "cpp_runtime.hpp")]
    return "".join(parts)


@pytest.fixture(scope="module")
def roundtrip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed (scripts/setup.sh installs it)")
    work = tmp_path_factory.mktemp("runtime")
    source = work / "roundtrip.cpp"
    source.write_text(translation_unit() + RUNTIME_TEST.read_text())
    binary = work / "roundtrip"
    done = subprocess.run(
        ["g++", "-std=c++17", "-O0", *WARNINGS, str(source), "-o", str(binary)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return binary


def run(binary: Path, type_name: str, line: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(binary)], input=f"{type_name}\n{line}\n", capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("standard", ["c++17", "c++20"])
def test_the_runtime_headers_compile_without_warnings(tmp_path: Path, standard: str) -> None:
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed (scripts/setup.sh installs it)")
    source = tmp_path / "runtime.cpp"
    source.write_text(translation_unit() + "int main() { return 0; }\n")
    done = subprocess.run(
        ["g++", f"-std={standard}", "-fsyntax-only", *WARNINGS, str(source)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-4000:]


@pytest.mark.parametrize(
    ("type_name", "line", "printed"),
    [
        ("integer", " -7 ", "-7"),
        ("long", "-9223372036854775808", "-9223372036854775808"),
        ("double", "0.1", "0.1"),
        ("double", "3", "3"),
        ("boolean", "true", "true"),
        ("character", '"x"', '"x"'),
        ("integer[]", "[1, 2,3]", "[1,2,3]"),
        ("integer[]", "[]", "[]"),
        ("integer[][]", "[[1,2],[],[3]]", "[[1,2],[],[3]]"),
        ("boolean[]", "[true,false]", "[true,false]"),
        ("string[]", '["a","b c",""]', '["a","b c",""]'),
        ("TreeNode", "[1,null,2,3]", "[1,null,2,3]"),
        ("TreeNode", "[1,2,null,null,null]", "[1,2]"),  # trailing nulls are dropped
        ("TreeNode", "[]", "[]"),
        ("ListNode", "[4,5,6]", "[4,5,6]"),
        ("ListNode[]", "[[1,2],[],[3]]", "[[1,2],[],[3]]"),
    ],
)
def test_values_read_and_print_back_in_leetcodes_format(
    roundtrip: Path, type_name: str, line: str, printed: str
) -> None:
    done = run(roundtrip, type_name, line)
    assert (done.returncode, done.stdout) == (0, printed + "\n"), done.stderr


def test_strings_with_escapes_print_as_json_of_the_same_text(roundtrip: Path) -> None:
    done = run(roundtrip, "string", r'"a\"b\\c\u00e9\n"')
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == 'a"b\\c\u00e9\n'


@pytest.mark.parametrize(
    ("type_name", "line", "message"),
    [
        ("integer", "3000000000", "3000000000 does not fit in an integer"),
        ("integer[]", '[1,"a"]', "line 2 (value), element [1]: expected an integer, got a string"),
        ("integer[]", "[1,2", "line 2 (value)"),
        ("integer", "", "the line is empty"),
        ("integer", "1 2", "unexpected '2' after the value"),
        ("TreeNode", "[1,null,null,2]", "value 2 at position 3 has no parent in level order"),
        ("character", '"xy"', "line 2 (value)"),
    ],
)
def test_malformed_values_exit_3_naming_where_and_what(
    roundtrip: Path, type_name: str, line: str, message: str
) -> None:
    done = run(roundtrip, type_name, line)
    assert done.returncode == 3
    assert done.stderr.startswith("cpbot-harness: bad input: ")
    assert message in done.stderr
