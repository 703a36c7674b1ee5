"""Judging that stops at the first failure (as `cpbot grade` and the lab do): no test runs after a failing
one, and a near-limit TLE, which a re-run alone may clear, does not stop the tests after it."""

from __future__ import annotations

import uuid

from cpbot.judge.model import Limits, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_solution
from tests.judge import programs as P


def judged(source: str, tests: list[TestCase], sandbox, limits: Limits, slot_runs: list, **kw):
    """The report, and how many runs were the program's own (not its syntax check)."""
    solution = Solution(language="python3", source=f"# {uuid.uuid4().hex}\n{source}")
    report = judge_solution(solution, tests, limits=limits, sandbox=sandbox, jobs=1, **kw)
    return report, sum("syntax-check" not in " ".join(argv) for argv in slot_runs)


def test_no_test_runs_after_the_first_failure(sandbox, slot_runs):
    crash_first = "raise SystemExit(1)\n"
    tests = [TestCase(input=f"{i} {i}\n", output=f"{2 * i}\n") for i in range(1, 5)]
    limits = Limits(time_ms=2000, memory_mb=64)
    report, programs_run = judged(crash_first, tests, sandbox, limits, slot_runs, stop_on_failure=True)
    assert report.verdict == Verdict.RE and [r.index for r in report.results] == [1]
    assert programs_run == 1
    wrong_second = P.PY_WRONG  # wrong where a is 5: the second of these tests
    tests = [TestCase(input=f"{a} 1\n", output=f"{a + 1}\n") for a in (1, 5, 2, 3)]
    slot_runs.clear()
    report, programs_run = judged(wrong_second, tests, sandbox, limits, slot_runs, stop_on_failure=True)
    assert [r.verdict for r in report.results] == [Verdict.AC, Verdict.WA]
    assert programs_run == 2
    slot_runs.clear()
    report, programs_run = judged(wrong_second, tests, sandbox, limits, slot_runs)  # all of them without the stop
    assert [r.verdict for r in report.results] == [Verdict.AC, Verdict.WA, Verdict.AC, Verdict.AC]
    assert programs_run == 4


def test_a_near_limit_tle_does_not_stop_the_tests_after_it(sandbox, slot_runs):
    # 105% of the limit on its own clock: a near miss, re-run alone at the end (still TLE there)
    near_miss_first = "import sys, time\nif sys.stdin.read() == '':\n" + "".join(
        "    " + line + "\n" for line in P.PY_BURN_CPU.format(ms=420).splitlines()
    )
    tests = [TestCase(input="", output="0\n"), TestCase(input="quick\n", output="")]
    report, _ = judged(
        near_miss_first, tests, sandbox, Limits(time_ms=400, memory_mb=64), slot_runs, stop_on_failure=True
    )
    assert report.verdict == Verdict.TLE and report.results[0].reruns == 2
    assert [r.index for r in report.results] == [1, 2]  # the second test ran: the first was not final


def test_the_output_is_checked_on_the_idle_slot_s_cpu_when_nothing_waits_queued(sandbox, slot_runs):
    """Stopping at the first failure, the next test is queued only after the last one is checked: the slot's
    CPU is idle meanwhile, so the check may run there instead of taking the other slot's program's CPU.
    With tests queued (no stop), the checking thread keeps off the slot's CPU, where the next run starts."""
    import os

    from cpbot.judge.checkers import make_checker

    tokens = make_checker("tokens", sandbox)
    seen: list[set[int]] = []

    class Recording:
        def check(self, files):  # type: ignore[no-untyped-def]
            seen.append(os.sched_getaffinity(0))
            return tokens.check(files)

    tests = [TestCase(input=f"{a} 1\n", output=f"{a + 1}\n") for a in (1, 2, 3)]
    limits = Limits(time_ms=2000, memory_mb=64)
    everywhere = os.sched_getaffinity(0)
    report, _ = judged(P.PY_SUM, tests, sandbox, limits, slot_runs, stop_on_failure=True, checker=Recording())
    assert report.verdict == Verdict.AC and seen == [everywhere] * 3
    seen.clear()
    report, _ = judged(P.PY_SUM, tests, sandbox, limits, slot_runs, checker=Recording())
    assert report.verdict == Verdict.AC and len(seen) == 3
    cpus = {slot.cpu for slot in sandbox._all} - {None}
    if len(everywhere) >= 2 and cpus:  # pinned slots: each check ran off its own slot's CPU
        assert all(len(s) < len(everywhere) for s in seen)
