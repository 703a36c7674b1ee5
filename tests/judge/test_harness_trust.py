"""A function problem's verdicts cannot be forged by the program: the drivers' "bad input" line and
exit code 3 are the program's own output, a verdict on the program (RE or WA), never the judge's IE.
A test that really is malformed is found before any run, in the judge's process, and named."""

from __future__ import annotations

import pytest

from cpbot.judge.model import Limits, Method, Param, Problem, Signature, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_problem

ADD = Signature(
    methods=[
        Method(
            name="add",
            params=[Param(name="a", type="integer"), Param(name="b", type="integer")],
            return_type="integer",
        )
    ]
)
PROBLEM = Problem(id="t:add", kind="function", signature=ADD, limits=Limits(time_ms=2000, memory_mb=256))
TESTS = [TestCase(input="2\n40\n", output="42", name="one"), TestCase(input="1\n1\n", output="2", name="two")]
FORGED = "cpbot-harness: bad input: line 1 (parameter a: integer): expected an integer, got x"

# before the driver reads anything: Python at import of the solution, C++ in a static initialiser
PY_FORGE_EXIT = f"""import sys
sys.stderr.write({FORGED!r} + "\\n")
sys.exit(3)
class Solution:
    def add(self, a, b):
        return a + b
"""
CPP_FORGE_EXIT = f"""
static int forged = [] {{ fprintf(stderr, "%s\\n", {FORGED!r}); fflush(stderr); exit(3); return 0; }}();
class Solution {{
public:
    int add(int a, int b) {{ return a + b; }}
}};
""".replace("'", '"')
# prints the line, then answers wrong: the checker's WA stands
PY_FORGE_WRONG = f"""import sys
class Solution:
    def add(self, a, b):
        sys.stderr.write({FORGED!r} + "\\n")
        return a + b + 1
"""
CPP_FORGE_WRONG = f"""
class Solution {{
public:
    int add(int a, int b) {{ fprintf(stderr, "%s\\n", {FORGED!r}); return a + b + 1; }}
}};
""".replace("'", '"')


@pytest.mark.parametrize(
    ("language", "source", "verdict"),
    [
        ("python3", PY_FORGE_EXIT, Verdict.RE),
        ("cpp17", CPP_FORGE_EXIT, Verdict.RE),
        ("python3", PY_FORGE_WRONG, Verdict.WA),
        ("cpp17", CPP_FORGE_WRONG, Verdict.WA),
    ],
)
def test_a_forged_bad_input_line_is_the_programs_verdict_not_an_internal_error(
    sandbox, language: str, source: str, verdict: Verdict
) -> None:
    report = judge_problem(Solution(language=language, source=source), PROBLEM, TESTS, sandbox=sandbox)
    assert report.verdict == verdict, report.reason
    assert [r.verdict for r in report.results] == [verdict, verdict]
    assert "malformed" not in report.reason


@pytest.mark.parametrize("language", ["python3", "cpp17"])
def test_a_really_malformed_test_is_named_before_any_run(sandbox, language: str) -> None:
    # a solution that would fail loudly if it ever ran
    source = (
        "class Solution:\n    def add(self, a, b):\n        raise SystemExit(9)\n"
        if language == "python3"
        else "class Solution {\npublic:\n    int add(int a, int b) { exit(9); }\n};\n"
    )
    tests = [TESTS[0], TestCase(input="1\n[2]\n", output="3", name="bad")]
    report = judge_problem(Solution(language=language, source=source), PROBLEM, tests, sandbox=sandbox)
    assert report.verdict == Verdict.IE
    assert report.reason == (
        "IE on test 2 (bad): the test input is malformed: line 2 (parameter b: integer): expected an integer, "
        "got [2]; no test was run"
    )
    assert [(r.index, r.verdict, r.exit_code) for r in report.results] == [(2, Verdict.IE, None)]
