"""Hand-written C++ solutions for every supported type, and broken variants, through the harness."""

from __future__ import annotations

import pytest
from conftest import PROBLEMS, load_problem, solution_file
from harness_local_judge import judge_tests

from cpbot.judge.harness import build_program, checker_for
from cpbot.judge.model import Limits, Method, Param, Problem, Signature, Solution, Verdict

CPP_SOLUTIONS = sorted(p.name for p in PROBLEMS.glob("*.cpp") if p.name.count(".") == 1)
BROKEN = sorted(p.name for p in PROBLEMS.glob("*.*.cpp"))
PY_SOLUTIONS = sorted(p.name for p in PROBLEMS.glob("*.py3") if p.name.count(".") == 1)
BROKEN_PY = sorted(p.name for p in PROBLEMS.glob("*.*.py3"))
EXPECTED = {
    "wa": {Verdict.WA},
    "re": {Verdict.RE},
    "ce": {Verdict.CE},
    "tle": {Verdict.TLE},
    "syntax": {Verdict.CE},
}


def judge_file(name: str, limits: Limits | None = None):
    slug = name.split(".", 1)[0]
    problem = load_problem(slug)
    full = Problem(id=f"test:{slug}", kind="function", signature=problem.signature, statement=problem.statement)
    program = build_program(solution_file(name), problem.signature)
    return judge_tests(program, problem.tests, checker_for(full), limits=limits or Limits())


def test_cpp_solutions_cover_every_supported_type_and_at_least_twelve_signatures() -> None:
    seen = set()
    for name in CPP_SOLUTIONS:
        sig = load_problem(name.split(".")[0]).signature
        for m in [*sig.methods, *([sig.constructor] if sig.constructor else [])]:
            seen.update(p.type for p in m.params)
            seen.add(m.return_type or "void")
        seen.add(sig.kind)
    required = {
        "integer",
        "long",
        "double",
        "boolean",
        "string",
        "character",
        "integer[]",
        "string[]",
        "character[][]",
        "integer[][]",
        "TreeNode",
        "ListNode",
        "ListNode[]",
        "void",
        "design",
    }
    assert required <= seen
    assert any(t.startswith("list<") for t in seen)
    assert len(CPP_SOLUTIONS) >= 12


@pytest.mark.usefixtures("needs_gpp")
@pytest.mark.parametrize("name", CPP_SOLUTIONS)
def test_correct_cpp_solution_is_ac(name: str) -> None:
    report = judge_file(name)
    assert report.verdict == Verdict.AC, (report.compile_log, report.first_failure)


@pytest.mark.usefixtures("needs_gpp")
@pytest.mark.parametrize("name", BROKEN)
def test_broken_cpp_solution_gets_the_verdict_its_bug_deserves(name: str) -> None:
    kind = name.split(".")[1]
    limits = Limits(time_ms=500) if kind == "tle" else None
    report = judge_file(name, limits)
    assert report.verdict in EXPECTED[kind], report.first_failure


@pytest.mark.parametrize("name", PY_SOLUTIONS)
def test_correct_python_solution_is_ac(name: str) -> None:
    report = judge_file(name)
    assert report.verdict == Verdict.AC, report.first_failure


@pytest.mark.parametrize("name", BROKEN_PY)
def test_broken_python_solution_gets_the_verdict_its_bug_deserves(name: str) -> None:
    report = judge_file(name)
    assert report.verdict in EXPECTED[name.split(".")[1]], report.first_failure


@pytest.mark.usefixtures("needs_gpp")
def test_cpp_compile_error_points_at_the_solutions_own_line() -> None:
    report = judge_file("two-sum.ce.cpp")
    assert "solution.cpp:5:5: error" in report.compile_log


@pytest.mark.usefixtures("needs_gpp")
def test_cpp_solution_output_goes_to_stderr(run) -> None:
    sig = Signature(methods=[Method(name="f", params=[Param(name="n", type="integer")], return_type="integer")])
    body = 'int f(int n) { cout << "noise" << endl; printf("more\\n"); return n * 2; }'
    source = f"class Solution {{\npublic:\n    {body}\n}};\n"
    ran = run(Solution(language="cpp17", source=source), sig, "21\n")
    assert (ran.code, ran.stdout) == (0, "42\n")
    assert "noise" in ran.stderr and "more" in ran.stderr


@pytest.mark.usefixtures("needs_gpp")
@pytest.mark.parametrize(
    ("stdin", "needle"),
    [
        ("[2,7]\n", "expected 2 lines (one per parameter: nums, target), got 1"),
        ("[2,7\n9\n", "line 1 (parameter nums: integer[]): expected ',' or ']'"),
        ("[2,7]\n3000000000\n", "line 2 (parameter target: integer): 3000000000 does not fit in an integer"),
        ('[2,"7"]\n9\n', "line 1 (parameter nums: integer[]), element [1]: expected an integer, got a string"),
        ("[2,7]\n9 9\n", "line 2 (parameter target: integer): unexpected '9' after the value"),
    ],
)
def test_cpp_malformed_input_exits_3_naming_the_line(run, stdin: str, needle: str) -> None:
    ran = run(solution_file("two-sum.cpp"), load_problem("two-sum").signature, stdin)
    assert ran.code == 3
    assert needle in ran.stderr


@pytest.mark.usefixtures("needs_gpp")
def test_cpp_malformed_design_input_names_the_operation(run) -> None:
    problem = load_problem("lru-cache")
    ran = run(solution_file("lru-cache.cpp"), problem.signature, '["LRUCache","get","peek"]\n[[1],[1],[]]\n')
    assert ran.code == 3
    assert "element [2]: unknown method peek (the class has: get, put)" in ran.stderr


@pytest.mark.usefixtures("needs_gpp")
def test_cpp20_builds_the_same_program(run) -> None:
    problem = load_problem("merge-k-sorted-lists")
    source = solution_file("merge-k-sorted-lists.cpp").source
    ran = run(Solution(language="cpp20", source=source), problem.signature, problem.tests[0].input)
    assert ran.stdout == "[1,1,2,3,4,4,5,6]\n", ran.stderr


@pytest.mark.usefixtures("needs_gpp")
def test_cpp_doubles_print_at_full_precision(run) -> None:
    sig = Signature(methods=[Method(name="third", params=[Param(name="x", type="double")], return_type="double[]")])
    source = "class Solution {\npublic:\n    vector<double> third(double x) { return {x / 3, 1.0 / 0.0, 2}; }\n};\n"
    ran = run(Solution(language="cpp17", source=source), sig, "1.0\n")
    assert ran.stdout == "[0.3333333333333333,Infinity,2]\n"


@pytest.mark.usefixtures("needs_gpp")
@pytest.mark.parametrize(
    ("stdin", "code", "needle"),
    [
        ("[1,2,null,null,null,null]\n", 0, "[1,null,2]\n"),
        ("[1,null,null,5]\n", 3, "value 5 at position 3 has no parent in level order"),
    ],
)
def test_cpp_tree_trailing_nulls_are_ignored_but_orphans_are_bad_input(run, stdin: str, code: int, needle: str) -> None:
    ran = run(solution_file("invert-binary-tree.cpp"), load_problem("invert-binary-tree").signature, stdin)
    assert ran.code == code
    assert needle in (ran.stdout if code == 0 else ran.stderr)


def test_cpp_program_starts_with_bits_stdcpp_so_the_precompiled_header_applies() -> None:
    program = build_program(solution_file("two-sum.cpp"), load_problem("two-sum").signature)
    code_lines = [line for line in program.source.splitlines() if line.strip() and not line.startswith("//")]
    assert code_lines[:2] == ["#include <bits/stdc++.h>", "using namespace std;"]


@pytest.mark.usefixtures("needs_gpp")
def test_cpp_solution_that_redefines_int_still_builds_and_runs(run) -> None:
    source = "#define int long long\n" + solution_file("two-sum.cpp").source
    ran = run(Solution(language="cpp17", source=source), load_problem("two-sum").signature, "[3,3]\n6\n")
    assert (ran.code, ran.stdout) == (0, "[0,1]\n"), ran.stderr
