"""A small problem package in the Library Checker layout, judged without editing any of its files.

The package has a generator including `../params.h`, a checker given as source with a small
testlib-like header beside it (written for this test), a solution including `../fastio.h`, and a
grader-style solution whose `main` lives in a separate grader file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpbot.bot.cli.main import main
from cpbot.judge.build import build_program_file
from cpbot.judge.generator import generate

# A few lines in the spirit of testlib's checker protocol: argv input output answer, exit 0 ok, 1 wrong.
MINI_CHECK_H = """#pragma once
#include <cstdio>
#include <cstdlib>
struct Stream {
    FILE* f;
    long long next_long() {
        long long x;
        if (fscanf(f, "%lld", &x) != 1) { fputs("wrong answer: expected a number\\n", stderr); exit(1); }
        return x;
    }
};
inline Stream in_stream, out_stream, answer_stream;
inline void open_streams(int argc, char** argv) {
    if (argc < 4) { fputs("usage: checker input output answer\\n", stderr); exit(3); }
    in_stream.f = fopen(argv[1], "r"); out_stream.f = fopen(argv[2], "r"); answer_stream.f = fopen(argv[3], "r");
    if (!in_stream.f || !out_stream.f || !answer_stream.f) { fputs("fail: cannot open files\\n", stderr); exit(3); }
}
[[noreturn]] inline void accept(const char* why) { fprintf(stderr, "ok %s\\n", why); exit(0); }
[[noreturn]] inline void reject(const char* why) { fprintf(stderr, "wrong answer %s\\n", why); exit(1); }
"""

CHECKER = """#include "mini_check.h"
int main(int argc, char** argv) {
    open_streams(argc, argv);
    long long a = in_stream.next_long(), b = in_stream.next_long();
    long long got = out_stream.next_long();
    if (got != a + b) reject("sum differs");
    accept("sum matches");
}
"""

PARAMS_H = "#pragma once\nconstexpr long long MAX_VALUE = 1000;\n"

GENERATOR = """#include <cstdio>
#include <cstdlib>
#include "../params.h"
int main(int argc, char** argv) {
    long long n = atoll(argv[1]), seed = atoll(argv[2]);
    srand((unsigned)seed);
    printf("%lld %lld\\n", (n * 7 + rand()) % MAX_VALUE, (n + rand()) % MAX_VALUE);
}
"""

FASTIO_H = """#pragma once
#include <cstdio>
inline long long read_long() { long long x; if (scanf("%lld", &x) != 1) return 0; return x; }
inline void write_long(long long x) { printf("%lld\\n", x); }
"""

CORRECT = '#include "../fastio.h"\nint main() { long long a = read_long(), b = read_long(); write_long(a + b); }\n'
WRONG = '#include "../fastio.h"\nint main() { long long a = read_long(), b = read_long(); write_long(a - b); }\n'
GRADER = (
    "#include <cstdio>\nlong long solve(long long a, long long b);\n"
    'int main() { long long a, b; scanf("%lld %lld", &a, &b); printf("%lld\\n", solve(a, b)); }\n'
)
FUNCTION_STYLE = "long long solve(long long a, long long b) { return a + b; }\n"


@pytest.fixture
def package(tmp_path: Path, sandbox) -> Path:
    root = tmp_path / "aplusb"
    for rel, text in {
        "checker.cpp": CHECKER,
        "mini_check.h": MINI_CHECK_H,
        "params.h": PARAMS_H,
        "fastio.h": FASTIO_H,
        "gen/random.cpp": GENERATOR,
        "sol/correct.cpp": CORRECT,
        "sol/wrong.cpp": WRONG,
        "sol/function_style.cpp": FUNCTION_STYLE,
        "grader/grader.cpp": GRADER,
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    generator = build_program_file(root / "gen" / "random.cpp", sandbox, role="generator", include_dirs=[root])
    tests = root / "tests"
    tests.mkdir()
    for i in range(1, 5):
        data = generate(generator, i, seed=i, sandbox=sandbox).decode()
        a, b = map(int, data.split())
        (tests / f"random_{i:02}.in").write_text(data)
        (tests / f"random_{i:02}.out").write_text(f"{a + b}\n")
    (tests / "unanswered.in").write_text("1 1\n")  # no answer: run, counted apart
    return root


def judge(package: Path, solution: str, *extra: str) -> int:
    return main(["judge", str(package / solution), "--tests", str(package / "tests"), "-I", str(package), *extra])


def test_a_package_is_judged_as_it_is(package: Path, capsys):
    before = {p: p.read_bytes() for p in package.rglob("*") if p.is_file()}
    checker = ["--checker", str(package / "checker.cpp")]
    assert judge(package, "sol/correct.cpp", *checker) == 0
    out = capsys.readouterr().out
    assert "AC 4/4 checked tests, 1 ran unchecked" in out
    assert judge(package, "sol/wrong.cpp", *checker) == 1
    assert "sum differs" in capsys.readouterr().out
    assert judge(package, "sol/function_style.cpp", "--with", str(package / "grader" / "grader.cpp"), *checker) == 0
    assert "AC 4/4" in capsys.readouterr().out
    assert {p: p.read_bytes() for p in package.rglob("*") if p.is_file()} == before  # nothing edited


def test_without_the_include_dir_the_local_header_is_missing(package: Path, capsys):
    code = main(["judge", str(package / "sol" / "correct.cpp"), "--tests", str(package / "tests")])
    assert code == 1
    assert "fastio.h: No such file" in capsys.readouterr().out


def test_a_checker_that_does_not_compile_is_named_and_json_says_why(package: Path, capsys):
    (package / "bad_checker.cpp").write_text('#include "mini_check.h"\nint main() { return undefined_name; }\n')
    code = judge(package, "sol/correct.cpp", "--checker", str(package / "bad_checker.cpp"), "--json")
    assert code != 0
    captured = capsys.readouterr()
    error = json.loads(captured.out)["error"]
    assert "the checker bad_checker.cpp does not compile" in error["message"]
    assert "bad_checker.cpp:2" in error["message"] and "solution.cpp" not in error["message"]
    assert error["exit_code"] == code


def test_json_reports_usage_errors_as_an_object(tmp_path: Path, capsys):
    code = main(["judge", str(tmp_path / "missing.cpp"), "--json"])
    assert code != 0
    error = json.loads(capsys.readouterr().out)["error"]
    assert "missing.cpp" in error["message"] and error["exit_code"] == code


def test_a_python_grader_and_the_module_it_imports_are_judged_side_by_side(package: Path, capsys):
    # IOI style: the grader holds main and imports the contestant's module by its name
    (package / "py").mkdir()
    grader = package / "py" / "grader.py"
    grader.write_text("from sum_module import add\na, b = map(int, input().split())\nprint(add(a, b))\n")
    right = package / "py" / "sum_module.py"
    right.write_text("def add(a, b):\n    return a + b\n")
    tests = ["--tests", str(package / "tests")]
    assert main(["judge", str(grader), "--with", str(right), *tests]) == 0
    assert "AC 4/4" in capsys.readouterr().out

    wrong = package / "py" / "other" / "sum_module.py"
    wrong.parent.mkdir()
    wrong.write_text("def add(a, b):\n    return a - b\n")
    assert main(["judge", str(grader), "--with", str(wrong), *tests]) == 1
    capsys.readouterr()

    broken = package / "py" / "broken" / "sum_module.py"
    broken.parent.mkdir()
    broken.write_text("def add(a, b)\n    return a + b\n")
    assert main(["judge", str(grader), "--with", str(broken), *tests, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "CE" and "sum_module.py" in report["compile_log"]
