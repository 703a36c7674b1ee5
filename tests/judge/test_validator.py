"""The input gate: a validator's word on an input, what it saw, and the generated inputs stress and the
profiler drop because they break the constraints."""

from __future__ import annotations

import pytest

from cpbot.judge.build import build_solution
from cpbot.judge.checkers import builtin_checker
from cpbot.judge.generator import GeneratorError
from cpbot.judge.model import Limits, Solution
from cpbot.judge.profile import profile_program
from cpbot.judge.stress import stress_programs
from cpbot.judge.validator import InputGate, read_seen

LIMITS = Limits(time_ms=2000, memory_mb=256)

# n and n values with 1 <= n <= 100, 1 <= a_i <= 1000; says which values it saw
VALIDATOR = r"""import sys
lines = sys.stdin.read().split("\n")
n = int(lines[0])
values = [int(x) for x in lines[1].split()]
if not 1 <= n <= 100 or len(values) != n:
    sys.exit("bad n")
bad = [v for v in values if not 1 <= v <= 1000]
if bad:
    sys.exit(f"a_i = {bad[0]} is out of [1, 1000]")
print(f"seen n {n} {n}")
print(f"seen a_i {min(values)} {max(values)}")
"""
# the largest sum of a contiguous part: with positive values (the statement's) it is the sum of all
RIGHT = "input()\nprint(sum(map(int, input().split())))\n"
BRUTE = (
    "input()\na = list(map(int, input().split()))\n"
    "print(max(sum(a[i:j]) for i in range(len(a)) for j in range(i + 1, len(a) + 1)))\n"
)
# breaks 1 <= a_i on odd seeds: a negative value where the statement says positive
GENERATOR = (
    "import random, sys\nn, seed = int(sys.argv[1]), int(sys.argv[2])\nrandom.seed(seed)\n"
    "a = [random.randint(1, 1000) for _ in range(n)]\nif seed % 2:\n    a[0] = -random.randint(1, 5)\n"
    "print(n)\nprint(*a)\n"
)


def program(source: str, sandbox):
    build = build_solution(Solution(language="python3", source=source), sandbox)
    assert build.program is not None, build.log
    return build.program


def test_the_validator_s_seen_lines_are_read_and_others_ignored():
    assert read_seen("seen n 3 3\nnoise\nseen a_i 9 2\n") == {"n": (3, 3), "a_i": (2, 9)}


def test_the_gate_drops_invalid_inputs_counts_them_and_remembers_what_it_saw(sandbox):
    gate = InputGate(program(VALIDATOR, sandbox), sandbox, targets={100, 1000, 1})
    assert gate.admit(b"3\n1 2 1000\n", "generated") is None
    assert gate.admit(b"2\n5 6\n", "stress") is None
    assert gate.admit(b"2\n-1 6\n", "stress") == "a_i = -1 is out of [1, 1000]"
    assert dict(gate.admitted) == {"generated": 1, "stress": 1} and dict(gate.dropped) == {"stress": 1}
    assert gate.seen == {"n": (2, 3), "a_i": (1, 1000)}
    assert gate.tokens == {1, 1000}  # the inputs let through hold these bound values as tokens


def test_a_validator_that_crashes_lets_the_input_through_unchecked(sandbox):
    gate = InputGate(program("import os\nos.kill(os.getpid(), 9)\n", sandbox), sandbox)
    assert gate.admit(b"1\n1\n", "stress") is None
    assert gate.unchecked == 1 and not gate.dropped


def test_stress_drops_inputs_that_break_the_constraints_instead_of_rejecting_the_right_program(sandbox):
    programs = [program(source, sandbox) for source in (RIGHT, BRUTE, GENERATOR)]
    checker = builtin_checker("tokens")
    unchecked = stress_programs(*programs, checker=checker, limits=LIMITS, sandbox=sandbox, max_runs=20, max_size=4)
    assert unchecked.status == "found"  # a negative value: the right program "fails" on an invalid input
    gate = InputGate(program(VALIDATOR, sandbox), sandbox)
    report = stress_programs(
        *programs, checker=checker, limits=LIMITS, sandbox=sandbox, max_runs=20, max_size=4, gate=gate
    )
    assert report.status == "clean" and report.failure is None
    assert report.invalid == 10 and gate.dropped["stress"] == 10  # the odd seeds
    assert report.reason.startswith("no difference in 10 runs")
    assert "10 generated inputs dropped: the validator rejects them" in report.reason


def test_a_stress_whose_inputs_all_break_the_constraints_stops_early(sandbox):
    always = "import sys\nn = int(sys.argv[1])\nprint(n)\nprint(*[-1] * n)\n"
    programs = [program(source, sandbox) for source in (RIGHT, BRUTE, always)]
    gate = InputGate(program(VALIDATOR, sandbox), sandbox)
    report = stress_programs(
        *programs, checker=builtin_checker("tokens"), limits=LIMITS, sandbox=sandbox, max_runs=200, gate=gate
    )
    assert report.status == "clean" and report.runs == report.invalid == 20


def test_the_profiler_refuses_an_input_that_breaks_the_constraints(sandbox):
    gate = InputGate(program(VALIDATOR, sandbox), sandbox)
    with pytest.raises(GeneratorError, match=r"the generator's input for n=1, seed=1 breaks the constraints: a_i"):
        profile_program(
            program(RIGHT, sandbox),
            program(GENERATOR, sandbox),
            max_n=64,
            limits=LIMITS,
            sandbox=sandbox,
            repeats=1,
            count=False,
            gate=gate,
        )
    assert gate.dropped["profile"] == 1
