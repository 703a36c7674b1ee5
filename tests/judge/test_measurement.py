"""The sandbox measures the program's own memory and CPU time, not the judge's."""

from __future__ import annotations

import pytest

from cpbot.judge.model import Limits, Solution, TestCase
from cpbot.judge.runner import judge_solution
from tests.judge import programs as P

ONE = [TestCase(input="", name="only")]


def peak_kb(source: str, sandbox, lang: str = "cpp17") -> int:
    report = judge_solution(
        Solution(language=lang, source=source),
        ONE,
        limits=Limits(time_ms=5000, memory_mb=1024),
        sandbox=sandbox,
    )
    return report.results[0].peak_kb


@pytest.fixture(scope="module")
def big_judge():
    """The judge itself holds 300 MB, as a long-running bot might."""
    ballast = bytearray(300 << 20)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    yield ballast


def test_trivial_program_measures_a_few_mb_however_big_the_judge_is(sandbox, big_judge):
    assert peak_kb("int main() { return 0; }\n", sandbox) < 5 * 1024


@pytest.mark.parametrize("mb", [30, 100, 300])
def test_peak_memory_is_within_2mb_of_what_the_program_allocates(mb, sandbox, big_judge):
    base = peak_kb(P.CPP_ALLOC_MB.format(mb=0), sandbox)
    measured = peak_kb(P.CPP_ALLOC_MB.format(mb=mb), sandbox)
    assert abs(measured - base - mb * 1024) <= 2048


def test_cpu_time_is_the_programs_own(sandbox):
    report = judge_solution(
        Solution(language="python3", source=P.PY_BURN_CPU.format(ms=300)),
        ONE,
        limits=Limits(time_ms=2000, memory_mb=64),
        sandbox=sandbox,
    )
    assert 300 <= report.results[0].cpu_ms < 400
