"""The complexity profiler: classes from real runs, extrapolation to the limits, marked failures."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from cpbot.judge.build import build_program_file
from cpbot.judge.complexity import choose
from cpbot.judge.counting import find_valgrind
from cpbot.judge.generator import GeneratorError
from cpbot.judge.model import Limits
from cpbot.judge.profile import profile_program, size_schedule

SUITE = Path(__file__).parent / "complexity"
STRESS = Path(__file__).parent / "stress"


def profile(name: str, sandbox, max_n: int, generator: str = "gen_array.cpp", tl: int = 1000, count=True, **kw):
    """Profile a suite program. Classes are read from instruction counts (exact, blind to machine load), as
    `cpbot profile` does by default; CPU time alone would make these tests depend on how busy the machine is."""
    program = build_program_file(SUITE / name, sandbox, role="solution")
    gen = build_program_file(SUITE / generator if (SUITE / generator).exists() else STRESS / generator, sandbox, "gen")
    limits = Limits(time_ms=tl, memory_mb=512)
    return profile_program(program, gen, max_n=max_n, limits=limits, sandbox=sandbox, count=count, **kw)


def test_linear_program_is_linear_and_fits_the_limit(sandbox):
    report = profile("linear_sum.cpp", sandbox, 2_000_000)
    assert report.complexity == "O(n)"
    assert report.efficient is True
    assert 0 < report.predicted_ms_at_max < 1000
    assert report.slope is not None and 0.8 < report.slope < 1.2
    assert all(p.status == "ok" for p in report.points)
    assert report.points[0].size == 1, "the start-up baseline is measured and kept"


def test_quadratic_program_is_quadratic(sandbox):
    report = profile("pairs.cpp", sandbox, 20_000)
    assert report.complexity == "O(n^2)"
    assert report.slope is not None and 1.7 < report.slope < 2.2


def test_extrapolation_past_the_time_limit_is_not_efficient(sandbox):
    report = profile("pairs.cpp", sandbox, 1_000_000, tl=300)
    assert report.efficient is False
    assert report.points[-1].status == "tle", "a timed-out size is a marked point, not an abort"
    assert "TLE at n=" in report.reason
    assert report.complexity == "O(n^2)"


def test_constant_program_is_constant_or_flagged_ambiguous(sandbox):
    report = profile("const.py", sandbox, 10**6, generator="gen_n.cpp")
    assert report.complexity == "O(1)"
    assert report.ambiguous is True
    assert report.efficient is True


def test_a_crashing_size_is_a_marked_point(sandbox):
    report = profile("crash_big.cpp", sandbox, 4000, generator="gen_n.cpp", repeats=1)
    statuses = {p.size: p.status for p in report.points}
    crashed = [n for n, s in statuses.items() if s == "crash"]
    assert crashed and min(crashed) > 1000, "the first size past the program's breaking point is marked"
    assert 4000 not in statuses, "sizes after a failure are not run: they would only fail again"
    assert all(s == "ok" for n, s in statuses.items() if n <= 1000)
    assert report.efficient is False


def test_generator_that_ignores_n_is_refused(sandbox):
    with pytest.raises(GeneratorError, match="generator ignores N"):
        profile("linear_sum.cpp", sandbox, 1000, generator="gen_ignores_n.py")


def test_size_schedule_doubles_up_to_the_maximum():
    sizes = size_schedule(200_000)
    assert sizes[-1] == 200_000
    assert 8 <= len(sizes) <= 10
    assert all(b / a == pytest.approx(2, rel=0.01) for a, b in itertools.pairwise(sizes))
    assert size_schedule(20) == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]


NS = [2**k for k in range(12, 22)]


@pytest.mark.parametrize(
    ("cost", "expected"),
    [
        (lambda n: 3e-5 * n, "O(n)"),
        (lambda n: 2e-5 * n + 4e-6 * n * math.log2(n), "O(n log n)"),  # reading plus sorting
        (lambda n: 1e-9 * n * n + 1e-5 * n, "O(n^2)"),
        (lambda n: 1e-15 * n**3, "O(n^3)"),
    ],
)
def test_fit_chooses_the_class_of_clean_data(cost, expected):
    fit = choose(NS, [cost(n) for n in NS])
    assert fit.best.name == expected


def test_fit_tells_exponential_from_polynomial():
    ns = list(range(14, 26))
    assert choose(ns, [1e-6 * 2**n for n in ns]).best.name == "O(2^n)"


def test_flat_data_is_constant_and_ambiguous():
    fit = choose(NS, [10.0 + (i % 2) * 0.1 for i in range(len(NS))])
    assert fit.best.name == "O(1)"
    assert fit.ambiguous


def test_counted_sizes_spread_over_the_widest_range():
    from cpbot.judge.profile import _spread

    # doubling sizes plus the midpoints refining adds near the top
    sizes = [1953, 3906, 7812, 15625, 31250, 62500, 125000, 250000, 353553, 420448, 500000, 594604, 707107, 1000000]
    picked = _spread(sizes, 6)
    assert picked == [1000000, 500000, 250000, 125000, 62500, 31250]
    assert _spread([10, 11, 12], 6) == [12], "too close together to add anything"


def test_no_size_runs_after_the_first_one_past_the_limit(sandbox):
    # README: sizes stop at the first run that fails; the midpoints added later lie between sizes that ran
    measured = []
    report = profile(
        "stuck_above.cpp", sandbox, 1_000_000, generator="gen_n.cpp", tl=300, count=False, progress=measured.append
    )
    (failed,) = [p for p in measured if p.status != "ok"]  # one run past the limit, not one per midpoint
    assert failed.status == "tle" and failed.size >= 3000
    assert all(p.size < failed.size for p in measured if p is not failed)
    assert report.efficient is False and f"TLE at n={failed.size}" in report.reason


def test_the_largest_size_runs_on_several_inputs_and_keeps_the_slowest(sandbox):
    # the generator's third seed makes the one input this program cannot finish
    one = profile("rare_slow.cpp", sandbox, 2000, generator="gen_rare.py", tl=300, count=False, repeats=1)
    assert one.efficient is True and all(p.status == "ok" for p in one.points)
    three = profile(
        "rare_slow.cpp", sandbox, 2000, generator="gen_rare.py", tl=300, count=False, repeats=1, largest_seeds=3
    )
    assert three.efficient is False and three.points[-1].status == "tle" and three.points[-1].size == 2000
    assert "TLE at n=2000" in three.reason


def test_the_largest_size_is_counted_on_the_input_that_was_kept(sandbox, monkeypatch):
    # the slowest of three inputs at the largest size (seed 3's shape) is the one whose instructions are counted
    from cpbot.judge import profile as profile_module
    from cpbot.judge import runners
    from cpbot.judge.counting import Count
    from cpbot.judge.model import ProfilePoint

    def run(self, n: int, data: bytes) -> ProfilePoint:  # CPU time from the input alone: no timing in the test
        slow = data.split()[1] == b"1"
        return ProfilePoint(size=n, cpu_ms=1.0 + n / (40 if slow else 100), peak_kb=1000, status="ok")

    counted: dict[int, bytes] = {}

    def count(program, stdin: bytes, sandbox, *, native_cpu_ms: float, memory_mb: int, valgrind: str) -> Count:
        counted[int(stdin.split()[0])] = stdin
        return Count(instructions=1000 * len(stdin), cpu_ms=native_cpu_ms)

    monkeypatch.setattr(profile_module._Profiler, "_run", run)
    monkeypatch.setattr(profile_module, "find_valgrind", lambda: "valgrind")
    monkeypatch.setattr(runners, "count_instructions", count)
    report = profile("rare_slow.cpp", sandbox, 2000, generator="gen_rare.py", repeats=1, largest_seeds=3)
    assert report.points[-1].size == 2000 and report.points[-1].cpu_ms == 1.0 + 2000 / 40
    assert counted[2000].split()[:2] == [b"2000", b"1"], "counted on seed 3's input, the one kept"
    assert all(data.split()[1] == b"0" for n, data in counted.items() if n != 2000)


# ---- an interactive problem: the program runs through its interactor on the hidden data a generator makes ----

DATA = Path(__file__).parent / "data"


def profile_through_interactor(program_file: str | Path, sandbox, max_n: int = 10_000, tl: int = 500, **kw):
    """Profile a program of the inversions problem (tests/judge/data) through its interactor, as an interactive
    problem's kind runs it (`ProblemKind.input_runner`)."""
    from cpbot.judge.runners import ThroughInteractor

    program = build_program_file(DATA / program_file, sandbox, role="solution")
    gen = build_program_file(DATA / "gen_permutation.py", sandbox, role="generator")
    interactor = build_program_file(DATA / "inversions_interactor.py", sandbox, role="interactor")
    limits = Limits(time_ms=tl, memory_mb=256)
    runner = ThroughInteractor(interactor, sandbox)
    return profile_program(program, gen, max_n=max_n, limits=limits, sandbox=sandbox, runner=runner, **kw)


def test_an_interactive_program_is_profiled_through_its_interactor_up_to_the_bound(sandbox):
    report = profile_through_interactor("inversions_bit.py", sandbox, repeats=1)
    assert all(p.status == "ok" for p in report.points), report.reason
    assert report.points[-1].size == 10_000, "the hidden data reaches the bound"
    assert report.efficient is True, report.reason
    if find_valgrind():  # its own instructions counted under valgrind, in the dialogue: the class is exact
        assert report.metric == "instructions", report.reason
        assert report.complexity in ("O(n)", "O(n log n)"), report.reason


def test_an_interactive_program_too_slow_at_the_bound_is_caught(sandbox):
    # right on every small input (the interactor accepts its count), O(n^2): far past 500 ms at n = 10^4
    report = profile_through_interactor("inversions_pairs.py", sandbox, repeats=1, count=False)
    assert report.efficient is False
    assert report.points[-1].status == "tle" and "TLE at n=" in report.reason
    assert all(p.status == "ok" for p in report.points[:-1]), "it is right, only slow"


def test_a_program_that_never_flushes_fails_its_profile_through_the_interactor(sandbox, tmp_path):
    silent = (DATA / "inversions_bit.py").read_text().replace('print("?", 1, n, flush=True)', 'print("?", 1, n)')
    assert 'print("?", 1, n)\n' in silent
    (tmp_path / "silent.py").write_text(silent)
    report = profile_through_interactor(tmp_path / "silent.py", sandbox, max_n=64, repeats=1, count=False)
    assert report.efficient is False and report.points[1].status == "tle", "its question never reaches the interactor"


def test_an_answer_the_interactor_rejects_is_a_wrong_point_not_a_time(sandbox, tmp_path):
    (tmp_path / "zero.py").write_text('n = int(input())\nprint("! 0", flush=True)\n')
    report = profile_through_interactor(tmp_path / "zero.py", sandbox, max_n=64, repeats=1, count=False)
    assert report.efficient is False and report.points[1].status == "wrong" and "WRONG at n=" in report.reason
