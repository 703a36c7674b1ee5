"""The stress role: an attempt against a brute force, through the harness for function problems."""

from __future__ import annotations

import pytest

from cpbot.agents.roles.stresser import StressError, ladder_attempt, stress_attempt
from cpbot.judge.model import Solution
from tests.agents.roles.helpers import codeforces, sum_problem

GENERATOR = Solution(
    language="python3",
    source="import random, sys\nn, s = int(sys.argv[1]), int(sys.argv[2])\nrandom.seed(s)\n"
    "print(n, random.randint(1, n))\n",
)
BRUTE = Solution(language="python3", source="a, b = map(int, input().split())\nprint(sum([a, b]))\n")


def test_a_difference_is_found_and_shrunk(sandbox):
    wrong = Solution(language="python3", source="a, b = map(int, input().split())\nprint(a + b if a != b else 0)\n")
    report = stress_attempt(wrong, BRUTE, GENERATOR, sum_problem(), sandbox=sandbox, max_runs=10, max_size=3)
    assert report.status == "found" and report.failure is not None
    assert report.failure.input == "1 1\n" and report.failure.expected.strip() == "2"


def test_a_brute_force_that_fails_makes_the_run_inconclusive_not_clean(sandbox):
    crashing = Solution(language="python3", source="raise SystemExit(1)\n")
    with pytest.raises(StressError, match="inconclusive"):
        stress_attempt(BRUTE, crashing, GENERATOR, sum_problem(), sandbox=sandbox, max_runs=3, max_size=2)


def test_interactive_problems_cannot_be_stressed(sandbox):
    with pytest.raises(StressError, match="interactive"):
        stress_attempt(BRUTE, BRUTE, GENERATOR, codeforces("cf_2220D2_interactive"), sandbox=sandbox)


# a 32-bit sum: right while a + b fits, wrong past it; the generator's b grows with n
OVERFLOWING = Solution(
    language="python3",
    source="a, b = map(int, input().split())\ns = (a + b) & 0xFF\nprint(s)\n",
)


def test_the_size_ladder_finds_what_small_sizes_cannot(sandbox):
    small = stress_attempt(OVERFLOWING, BRUTE, GENERATOR, sum_problem(), sandbox=sandbox, max_runs=30, max_size=8)
    assert small.status == "clean"
    report = ladder_attempt(OVERFLOWING, BRUTE, GENERATOR, sum_problem(), sizes=[16, 32, 256], sandbox=sandbox)
    assert report.status == "found" and report.failure is not None
    assert report.failure.size == 256 and "size ladder" in report.reason


def test_the_ladder_stops_cleanly_where_the_brute_force_needs_more_cpu_than_its_cut_off(sandbox):
    slow = Solution(
        language="python3",
        source="import time\na, b = map(int, input().split())\nwhile a > 20 and time.process_time() < 2:\n    pass\n"
        "print(a + b)\n",
    )
    report = ladder_attempt(
        OVERFLOWING, slow, GENERATOR, sum_problem(), sizes=[16, 32, 256], sandbox=sandbox, brute_ms=500
    )
    assert report.status == "clean"
    assert "up to 16" in report.reason and "n=32" in report.reason
