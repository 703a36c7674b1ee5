"""The stress tester finds planted bugs fast, shrinks the input, and refuses bad generators clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.judge.build import build_program_file
from cpbot.judge.checkers import builtin_checker
from cpbot.judge.generator import GeneratorError
from cpbot.judge.model import Limits, Verdict
from cpbot.judge.stress import BruteForceError, stress_programs

DATA = Path(__file__).parent / "stress"
LIMITS = Limits(time_ms=2000, memory_mb=256)


def run(solution: str, brute: str, sandbox, generator: str = "gen_small.py", **kw):
    programs = [build_program_file(DATA / name, sandbox, role="program") for name in (solution, brute, generator)]
    return stress_programs(*programs, checker=builtin_checker("tokens"), limits=LIMITS, sandbox=sandbox, **kw)


def test_finds_a_planted_off_by_one_and_shrinks_it_to_two_numbers(sandbox):
    report = run("max_off_by_one.cpp", "max_brute.py", sandbox)
    assert report.status == "found"
    assert report.first_failure_size is not None and report.first_failure_size <= 3, "found at the first sizes tried"
    failure = report.failure
    assert failure is not None and failure.verdict == Verdict.WA
    assert failure.size == 2, "one number cannot show it; two can"
    numbers = list(map(int, failure.input.split()[1:]))
    assert int(failure.expected) == max(numbers) != int(failure.got)


def test_finds_a_planted_overflow_and_shrinks_it_to_three_numbers(sandbox):
    report = run("sum_overflow.cpp", "sum_brute.py", sandbox)
    assert report.first_failure_size is not None and report.first_failure_size <= 3, "found at the first sizes tried"
    failure = report.failure
    assert failure is not None
    assert failure.size == 3, "two numbers up to 1e9 still fit in 32 bits"
    assert int(failure.expected) > 2**31 - 1
    assert int(failure.expected) == sum(map(int, failure.input.split()[1:]))


def test_a_right_solution_is_clean_within_the_budget(sandbox):
    report = run("sum_right.cpp", "sum_brute.py", sandbox, max_runs=60)
    assert report.status == "clean"
    assert report.runs == 60
    assert report.failure is None


def test_the_same_seed_gives_the_same_result(sandbox):
    a = run("sum_overflow.cpp", "sum_brute.py", sandbox, seed=7)
    b = run("sum_overflow.cpp", "sum_brute.py", sandbox, seed=7)
    assert a.failure == b.failure
    assert a.runs == b.runs


def test_a_failing_brute_force_is_an_error_not_a_verdict(sandbox):
    with pytest.raises(BruteForceError, match=r"n=1, seed=1"):
        run("sum_right.cpp", "brute_crash.py", sandbox)


@pytest.mark.parametrize(
    ("generator", "message"),
    [
        ("gen_crash.py", r"n=10, seed=1: exit code 1 cannot make inputs this big"),
        ("gen_silent.py", r"n=1, seed=1: it printed nothing"),
        ("gen_forever.py", r"n=1, seed=1: it did not finish within 0.5 s"),
        ("gen_ignores_n.py", r"generator ignores N: n=1 and n=10"),
    ],
)
def test_bad_generators_give_a_clear_error_naming_size_and_seed(generator, message, sandbox):
    with pytest.raises(GeneratorError, match=message):
        run("sum_right.cpp", "sum_brute.py", sandbox, generator=generator, generator_time_ms=500)


def test_the_search_is_bounded_by_runs_and_the_clock_only_as_a_reported_safety_net(sandbox):
    counted = run("sum_right.cpp", "sum_brute.py", sandbox, max_runs=25)
    assert counted.runs == 25 and not counted.time_limited and "safety net" not in counted.reason
    # a safety net already used up when the search starts: no run, and the report says why
    netted = run("sum_right.cpp", "sum_brute.py", sandbox, max_runs=25, max_seconds=1e-9)
    assert netted.status == "clean" and netted.time_limited and netted.runs == 0
    assert "safety net" in netted.reason


def test_a_run_starved_of_cpu_is_run_again_and_skipped_if_it_always_starves(sandbox, monkeypatch):
    import cpbot.judge.stress as stress_module

    real = stress_module.execute
    calls = {"brute": 0}

    def starving_brute(program, data, sandbox, **kw):
        ex = real(program, data, sandbox, **kw)
        if "python" in program.argv[0]:  # the brute force (the solution is C++; the generator runs elsewhere)
            calls["brute"] += 1
            busy = {"killed": "wall", "wall_ms": 9000.0, "cpu_ms": 5.0, "waited_ms": 8000.0}
            starved = ex.run.model_copy(update=busy)
            return type(ex)(starved, ex.stdout, ex.stderr, Verdict.TLE, "starved")
        return ex

    monkeypatch.setattr(stress_module, "execute", starving_brute)
    report = run("sum_overflow.cpp", "sum_brute.py", sandbox, max_runs=4)
    assert report.status == "clean" and report.runs == 4 and report.starved == 4, "no verdict from a starved brute"
    assert calls["brute"] == 4 * (1 + stress_module.STARVED_RETRIES)
    assert "4 skipped: starved of CPU" in report.reason


def test_a_second_candidate_reuses_the_inputs_and_the_brute_force_answers_of_the_first(sandbox):
    from cpbot.judge.generator import INPUTS
    from cpbot.judge.stress import BRUTE_RUNS

    first = run("sum_right.cpp", "sum_brute.py", sandbox, max_runs=30, seed=41)
    inputs, answers = INPUTS.hits, BRUTE_RUNS.hits
    second = run("sum_overflow.cpp", "sum_brute.py", sandbox, max_runs=30, seed=41)
    assert first.status == "clean" and second.status == "found", "the verdicts are those of fresh runs"
    # the overflow is found on an input the first candidate already had: generated and answered once
    assert INPUTS.hits > inputs and BRUTE_RUNS.hits > answers


def run_panel(solution: str, panel: list[str], sandbox, **kw):
    build = [build_program_file(DATA / name, sandbox, role="program") for name in (solution, *panel, "gen_small.py")]
    sol, brute, *others, gen = build
    return stress_programs(
        sol, brute, gen, checker=builtin_checker("tokens"), limits=LIMITS, sandbox=sandbox, panel=others, **kw
    )


def test_a_brute_force_sharing_the_overflow_makes_no_counterexample_and_says_the_panel_disagreed(sandbox):
    # the first brute force overflows like the solution: where it does, the two brute forces disagree
    report = run_panel("sum_overflow.cpp", ["sum_overflow.cpp", "sum_brute.py"], sandbox, max_runs=40)
    assert report.status == "clean" and report.failure is None
    assert report.contested > 0 and "the brute forces disagreed" in report.reason
    # nor does it reject the right program: the inputs it gets wrong are skipped, not failures
    right = run_panel("sum_right.cpp", ["sum_overflow.cpp", "sum_brute.py"], sandbox, max_runs=40)
    assert right.status == "clean" and right.contested > 0


def test_a_majority_of_the_panel_makes_the_counterexample(sandbox):
    report = run_panel("sum_overflow.cpp", ["sum_overflow.cpp", "sum_brute.py", "sum_brute_too.py"], sandbox)
    assert report.status == "found" and report.failure is not None
    assert int(report.failure.expected) == sum(map(int, report.failure.input.split()[1:])) > 2**31 - 1
    agreeing = run_panel("sum_right.cpp", ["sum_brute.py", "sum_brute_too.py"], sandbox, max_runs=30)
    assert agreeing.status == "clean" and agreeing.contested == 0
