"""Testlib-protocol checkers and interactors, run in the sandbox like any program."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.judge.checkers.testlib import verdict_from_exit
from cpbot.judge.model import Limits, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_solution
from cpbot.judge.sandbox import RunResult

DATA = Path(__file__).parent / "data"
LIMITS = Limits(time_ms=2000, memory_mb=128)

BINARY_SEARCH = """
lo, hi = 1, int(input())
while True:
    mid = (lo + hi) // 2
    print("?", mid, flush=True)
    reply = input().strip()
    if reply == "=":
        print("!", mid, flush=True)
        break
    if reply == "<":
        hi = mid - 1
    else:
        lo = mid + 1
"""
LINEAR_SEARCH = """
n = int(input())
for x in range(1, n + 1):
    print("?", x, flush=True)
    if input().strip() == "=":
        print("!", x, flush=True)
        break
"""
SILENT = "import time\nn = int(input())\ntime.sleep(100)\n"
CRASHES = "n = int(input())\nraise SystemExit(4)\n"


def echo_plus(k: int) -> str:
    return f"print(int(input()) + {k})\n"


def judged_by_parity_checker(source: str, answer: str, sandbox):
    """`source` judged on input 6 with `answer` as the jury's, by the parity checker (a testlib checker program)."""
    return judge_solution(
        Solution(language="python3", source=source),
        [TestCase(input="6\n", output=answer)],
        limits=LIMITS,
        checker=str(DATA / "parity_checker.cpp"),
        sandbox=sandbox,
    )


@pytest.mark.parametrize(
    ("source", "answer", "verdict"),
    [
        (echo_plus(2), "8\n", Verdict.AC),  # 6+2=8, same parity as 8
        (echo_plus(1), "8\n", Verdict.WA),
        ("print('x')\n", "8\n", Verdict.PE),
        (echo_plus(0), "-1\n", Verdict.WA),  # exit 7: partial points are not a full accept
        (echo_plus(0), "\n", Verdict.IE),  # checker FAIL: the judge's problem, never the solution's
    ],
)
def test_testlib_checker_exit_codes_become_verdicts(source, answer, verdict, sandbox):
    report = judged_by_parity_checker(source, answer, sandbox)
    assert report.verdict == verdict
    if verdict == Verdict.WA and answer == "-1\n":
        assert report.results[0].points == 0.5


def test_checker_feedback_reaches_the_result(sandbox):
    report = judged_by_parity_checker(echo_plus(1), "8\n", sandbox)
    assert "parity differs: 7 vs 8" in report.results[0].checker_message


@pytest.mark.parametrize(
    ("source", "verdict"),
    [(BINARY_SEARCH, Verdict.AC), (LINEAR_SEARCH, Verdict.WA), (SILENT, Verdict.TLE), (CRASHES, Verdict.RE)],
)
def test_interactor_decides_after_the_solutions_own_failures(source, verdict, sandbox):
    tests = [TestCase(input="777777\n", name="secret-777777"), TestCase(input="1\n", name="secret-1")]
    report = judge_solution(
        Solution(language="python3", source=source),
        tests,
        limits=Limits(time_ms=500, memory_mb=64),
        interactor=DATA / "guess_interactor.py",
        sandbox=sandbox,
    )
    assert report.results[0].verdict == verdict
    if verdict == Verdict.AC:
        assert report.results[0].stdout.startswith("? 500000")  # the interactor's transcript (tout)


UNFLUSHED = "import sys\nn = int(sys.stdin.readline())\nsys.stdout.write('? 1\\n')\nsys.stdin.readline()\n"


def test_an_interactive_solution_that_does_not_flush_hears_of_the_idleness_limit_and_flushing(sandbox):
    report = judge_solution(
        Solution(language="python3", source=UNFLUSHED),
        [TestCase(input="5\n", name="secret-5")],
        limits=Limits(time_ms=300, memory_mb=64),
        interactor=DATA / "guess_interactor.py",
        sandbox=sandbox,
    )
    result = report.results[0]
    assert result.verdict == Verdict.TLE
    assert "idleness limit" in result.checker_message and "flush" in result.checker_message


def test_interactive_cpp_solution(sandbox):
    source = """#include <bits/stdc++.h>
int main() { long long lo = 1, hi; std::cin >> hi; while (true) { long long mid = (lo + hi) / 2;
  std::cout << "? " << mid << std::endl; std::string r; std::cin >> r;
  if (r == "=") { std::cout << "! " << mid << std::endl; return 0; } if (r == "<") hi = mid - 1; else lo = mid + 1; } }
"""
    report = judge_solution(
        Solution(language="cpp17", source=source),
        [TestCase(input="31337\n")],
        limits=LIMITS,
        interactor=DATA / "guess_interactor.py",
        sandbox=sandbox,
    )
    assert report.verdict == Verdict.AC


@pytest.mark.parametrize(
    ("code", "verdict"),
    [
        (0, Verdict.AC),
        (1, Verdict.WA),
        (2, Verdict.PE),
        (3, Verdict.IE),
        (4, Verdict.PE),
        (8, Verdict.WA),
        (42, Verdict.IE),
    ],
)
def test_testlib_exit_code_table(code, verdict):
    result = verdict_from_exit(RunResult(status="exited", exit_code=code), "msg")
    assert result.verdict == verdict
    assert result.jury_fault == (code == 3)  # FAIL blames the jury's files; a crash or an unknown code does not


def test_crashing_checker_is_an_internal_error():
    result = verdict_from_exit(RunResult(status="signaled", signal=11), "")
    assert result.verdict == Verdict.IE
    assert "checker failed" in result.message


def test_a_checker_runs_while_every_program_slot_is_held(sandbox):
    """A checker program gets a judge slot of its own: two judgings on a two-slot pool, each holding a program slot
    and asking for another for its checker, waited for each other forever (a `cpbot solve` judging two designer
    replies' brute forces at once on a 'print any' problem hung). Here every program slot is held while a
    judging runs: its checker must not need one."""
    import threading

    results = []

    def judge_one() -> None:
        results.append(judged_by_parity_checker(echo_plus(2), "8\n", sandbox).verdict)

    with sandbox.slots(sandbox.size - 1):  # one program slot left, for the judged program itself
        judging = threading.Thread(target=judge_one, daemon=True)
        judging.start()
        judging.join(timeout=600)  # a deadlock detector, not a timing bound: it never returned before the fix
    assert results == [Verdict.AC]
