"""Every verdict, produced by real programs in C++ and Python through the real sandbox."""

from __future__ import annotations

import pytest

from cpbot.judge.model import Limits, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_solution
from cpbot.judge.sandbox import RunResult
from cpbot.judge.verdicts import is_borderline_tle
from tests.judge import programs as P

SUM_TESTS = [
    TestCase(input="1 2\n", output="3\n", name="small"),
    TestCase(input="5 7\n", output="12\n", name="five"),
    TestCase(input="1000000000 1000000000\n", output="2000000000\n", name="big"),
]
FAST = Limits(time_ms=1000, memory_mb=64, output_mb=1)


def judge(lang: str, source: str, sandbox, tests=SUM_TESTS, limits=FAST, **kw):
    return judge_solution(Solution(language=lang, source=source), tests, limits=limits, sandbox=sandbox, **kw)


@pytest.mark.parametrize(("lang", "source"), [("cpp17", P.CPP_SUM), ("python3", P.PY_SUM), ("cpp20", P.CPP_SUM)])
def test_correct_solution_is_accepted_on_every_test(lang, source, sandbox):
    report = judge(lang, source, sandbox)
    assert report.verdict == Verdict.AC
    assert (report.passed, report.total) == (3, 3)
    assert all(0 < r.cpu_ms < 1000 and r.peak_kb > 0 for r in report.results)


@pytest.mark.parametrize(("lang", "source"), [("cpp17", P.CPP_WRONG), ("python3", P.PY_WRONG)])
def test_wrong_answer_names_the_test_and_the_first_difference(lang, source, sandbox):
    report = judge(lang, source, sandbox)
    assert report.verdict == Verdict.WA
    assert [r.verdict for r in report.results] == [Verdict.AC, Verdict.WA, Verdict.AC]
    diff = report.results[1].diff
    assert diff is not None
    assert (diff.line, diff.token, diff.expected, diff.got) == (1, 1, "12", "13")
    assert "test 2" in report.reason


@pytest.mark.parametrize(("lang", "source"), [("cpp17", P.CPP_SPLIT_LINES), ("python3", P.PY_SPLIT_LINES)])
@pytest.mark.parametrize("checker", ["exact", "lines"])
def test_right_tokens_on_the_wrong_lines_are_a_presentation_error(lang, source, checker, sandbox):
    tests = [TestCase(input="4 9\n", output="4 9\n")]
    assert judge(lang, source, sandbox, tests, checker=checker).verdict == Verdict.PE
    assert judge(lang, source, sandbox, tests, checker="tokens").verdict == Verdict.AC


@pytest.mark.parametrize(("lang", "source"), [("cpp17", P.CPP_SPIN), ("python3", P.PY_SPIN)])
def test_tle_when_cpu_time_exceeds_the_limit(lang, source, sandbox):
    report = judge(lang, source, sandbox, SUM_TESTS[:1], Limits(time_ms=300, memory_mb=64))
    result = report.results[0]
    assert report.verdict == Verdict.TLE
    assert result.cpu_ms > 300
    # killed by the CPU limit, or (on a machine too busy to give it that much CPU before the wall limit)
    # found starved and re-run; never taken for a sleeping program
    assert "idle" not in result.checker_message


def test_a_run_killed_far_past_the_cpu_limit_is_not_rerun():
    killed = RunResult(status="signaled", signal=9, killed="cpu", cpu_ms=345, own_cpu_ms=345, wall_ms=400)
    assert not is_borderline_tle(Verdict.TLE, killed, Limits(time_ms=300))


@pytest.mark.parametrize(("lang", "source"), [("cpp17", P.CPP_SLEEP), ("python3", P.PY_SLEEP)])
def test_tle_when_a_sleeping_program_passes_the_wall_limit(lang, source, sandbox):
    report = judge(lang, source, sandbox, SUM_TESTS[:1], Limits(time_ms=200, memory_mb=64))
    result = report.results[0]
    assert report.verdict == Verdict.TLE
    assert "idle" in result.checker_message
    assert result.cpu_ms < 200
    assert result.wall_ms >= 3 * 200 + 500, "not before the wall limit (3 x TL + 0.5 s)"


@pytest.mark.parametrize(("lang", "source"), [("cpp17", P.CPP_ALLOC_MB), ("python3", P.PY_ALLOC_MB)])
def test_mle_when_peak_memory_exceeds_the_limit(lang, source, sandbox):
    report = judge(lang, source.format(mb=100), sandbox, SUM_TESTS[:1], Limits(time_ms=2000, memory_mb=64))
    assert report.verdict == Verdict.MLE
    assert report.results[0].peak_kb > 64 * 1024


@pytest.mark.parametrize(("lang", "source"), [("cpp17", P.CPP_HUGE_VECTOR), ("python3", P.PY_HUGE_LIST)])
def test_an_allocation_failing_at_the_limit_is_mle_not_a_crash(lang, source, sandbox):
    report = judge(lang, source, sandbox, SUM_TESTS[:1], Limits(time_ms=2000, memory_mb=64))
    assert report.verdict == Verdict.MLE


@pytest.mark.parametrize(("lang", "source"), [("cpp17", P.CPP_FLOOD), ("python3", P.PY_FLOOD)])
def test_ole_when_output_passes_the_output_limit(lang, source, sandbox):
    report = judge(lang, source, sandbox, SUM_TESTS[:1], Limits(time_ms=2000, memory_mb=64, output_mb=1))
    assert report.verdict == Verdict.OLE


@pytest.mark.parametrize(
    ("lang", "source", "why"),
    [
        ("cpp17", P.CPP_SEGFAULT, "SIGSEGV"),
        ("python3", P.PY_RAISE, "exit code 1"),
        ("cpp17", P.CPP_EXIT3, "exit code 3"),
        ("python3", P.PY_EXIT3, "exit code 3"),
    ],
)
def test_crash_or_non_zero_exit_is_a_runtime_error(lang, source, why, sandbox):
    report = judge(lang, source, sandbox, SUM_TESTS[:1])
    assert report.verdict == Verdict.RE
    assert why in report.results[0].checker_message


def test_python_exception_reaches_the_report_on_stderr(sandbox):
    report = judge("python3", P.PY_RAISE, sandbox, SUM_TESTS[:1])
    assert "ValueError: boom" in report.results[0].stderr


@pytest.mark.parametrize(
    ("lang", "source", "needle"),
    [
        ("cpp17", P.CPP_SYNTAX_ERROR, "expected ';'"),
        ("python3", P.PY_SYNTAX_ERROR, "SyntaxError"),
    ],
)
def test_compile_error_carries_the_compiler_message(lang, source, needle, sandbox):
    report = judge(lang, source, sandbox)
    assert report.verdict == Verdict.CE
    assert needle in report.compile_log
    assert report.results == []


def test_stack_is_unlimited_so_deep_recursion_works(sandbox):
    report = judge(
        "cpp17",
        P.CPP_DEEP_RECURSION,
        sandbox,
        [TestCase(input="", output="1000000\n")],
        Limits(time_ms=3000, memory_mb=512),
    )
    assert report.verdict == Verdict.AC


@pytest.mark.parametrize(
    ("printed", "checker", "verdict"),
    [
        ("0.3333334", "float:1e-6", Verdict.AC),
        ("0.3334", "float:1e-6", Verdict.WA),
        ("1000000.5", "float-rel:1e-6", Verdict.AC),
        ("1000000.5", "float-abs:1e-6", Verdict.WA),
        ("float('nan')", "float:1e-6", Verdict.WA),
        ("float('inf')", "float:1e-6", Verdict.WA),
    ],
)
def test_float_answers_inside_tolerance_pass_and_outside_fail(printed, checker, verdict, sandbox):
    answer = "1000000.0\n" if printed.startswith("1000000") else "0.33333333\n"
    tests = [TestCase(input="", output=answer)]
    assert judge("python3", P.PY_FLOAT.format(value=printed), sandbox, tests, checker=checker).verdict == verdict


def test_near_limit_tle_is_rerun_alone_before_it_is_called_tle(sandbox):
    # burns 105% of the limit on its own clock: a near miss, re-run twice, still TLE
    report = judge(
        "python3",
        P.PY_BURN_CPU.format(ms=420),
        sandbox,
        [TestCase(input="", output="0\n")],
        Limits(time_ms=400, memory_mb=64),
    )
    assert report.verdict == Verdict.TLE
    assert report.results[0].reruns == 2


def test_a_run_well_inside_the_limit_is_not_rerun(sandbox):
    report = judge(
        "python3",
        P.PY_BURN_CPU.format(ms=150),
        sandbox,
        [TestCase(input="", output="0\n")],
        Limits(time_ms=400, memory_mb=64),
    )
    assert report.verdict == Verdict.AC
    assert report.results[0].reruns == 0


def test_a_test_without_answer_runs_but_is_never_ac(sandbox):
    report = judge("python3", P.PY_SUM, sandbox, [TestCase(input="1 1\n")])
    assert report.results[0].verdict == Verdict.RAN
    assert "no expected output" in report.results[0].checker_message
    assert report.verdict == Verdict.RAN and not report.accepted
    assert "nothing was checked" in report.reason


def test_unchecked_tests_are_counted_apart_from_checked_ones(sandbox):
    tests = [TestCase(input="1 1\n", output="2\n"), TestCase(input="2 2\n")]
    report = judge("python3", P.PY_SUM, sandbox, tests)
    assert [r.verdict for r in report.results] == [Verdict.AC, Verdict.RAN]
    assert (report.verdict, report.passed, report.unchecked, report.total) == (Verdict.AC, 1, 1, 2)
    assert report.accepted
    crash = judge("python3", "raise SystemExit(3)\n", sandbox, tests)
    assert [r.verdict for r in crash.results] == [Verdict.RE, Verdict.RE]  # crashes are still caught
    assert not crash.accepted


def test_overall_verdict_follows_the_fixed_priority(sandbox):
    # test 1 is WA, test 2 crashes: RE outranks WA whatever the order
    source = "a, b = map(int, input().split())\nif a == 5: raise SystemExit(1)\nprint(a + b + 1)\n"
    report = judge("python3", source, sandbox)
    assert [r.verdict for r in report.results] == [Verdict.WA, Verdict.RE, Verdict.WA]
    assert report.verdict == Verdict.RE


def test_report_records_the_isolation_achieved(sandbox):
    report = judge("python3", P.PY_SUM, sandbox, SUM_TESTS[:1])
    assert report.isolation == sandbox.isolation
    keys = {"network", "root", "proc", "ipc", "workdir", "nested_userns", "processes", "user", "fork_limit"}
    assert keys <= set(report.isolation)
    assert report.isolation["workdir"].startswith("tmpfs 256 MB") or report.isolation["workdir"].startswith("shared")
