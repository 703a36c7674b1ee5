"""Each kind of problem decides, in its own object, how a solution runs and which checker judges it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.core.errors import ConfigError
from cpbot.judge.checkers.floats import FloatsChecker
from cpbot.judge.harness import HarnessChecker, build_program
from cpbot.judge.kinds import FUNCTION, INTERACTIVE, STDIO, problem_kind
from cpbot.judge.model import Method, Param, Problem, Signature, Solution
from cpbot.judge.sandbox import default_sandbox

ADD = Signature(
    methods=[Method(name="add", params=[Param(name="a", type="integer"), Param(name="b", type="integer")],
                    return_type="integer")]
)  # fmt: skip


def test_a_function_solution_runs_inside_the_harness_driver_and_a_stdio_one_as_written() -> None:
    solution = Solution(language="python3", source="class Solution:\n    def add(self, a, b):\n        return a + b\n")
    wrapped = FUNCTION.runnable(solution, Problem(id="lc", kind="function", signature=ADD))
    assert wrapped == build_program(solution, ADD) and wrapped.source != solution.source
    assert STDIO.runnable(solution, Problem(id="cf")) is solution
    # a function problem saved without its signature runs as written, as before
    assert FUNCTION.runnable(solution, Problem(id="lc", kind="function")) is solution


def test_the_checker_is_the_problems_spec_except_for_function_problems() -> None:
    sandbox = default_sandbox()
    floats = Problem(id="cf", checker="float:1e-6")
    assert isinstance(STDIO.checker(floats, sandbox), FloatsChecker)
    assert isinstance(INTERACTIVE.checker(floats, sandbox), FloatsChecker)
    function = Problem(id="lc", kind="function", signature=ADD, checker="float:1e-6")
    assert isinstance(FUNCTION.checker(function, sandbox), HarnessChecker)


def test_only_stdin_kinds_get_a_skeleton_and_interactive_ones_the_interactive_skeleton() -> None:
    assert STDIO.skeleton("multi_line", "cpp") == "multi_line.cpp"
    assert INTERACTIVE.skeleton("multi_line", "py") == "interactive.py"
    assert STDIO.has_skeleton and INTERACTIVE.has_skeleton and not FUNCTION.has_skeleton


def test_the_io_section_of_the_prompt_comes_from_the_kind() -> None:
    assert STDIO.io_section(Problem(id="cf")) == ""
    assert "flush" in INTERACTIVE.io_section(Problem(id="cf", kind="interactive"))
    function = Problem(id="lc", kind="function", signature=ADD)
    assert FUNCTION.io_section(function) == "Implement class Solution with: add."


def test_stress_against_a_brute_force_needs_an_output_and_every_kind_with_a_verdict_is_profiled() -> None:
    assert [k.stress_applies for k in (STDIO, FUNCTION, INTERACTIVE)] == [True, True, False]
    assert [k.profile_applies for k in (STDIO, FUNCTION, INTERACTIVE)] == [True, True, True]
    assert INTERACTIVE.needs_interactor and "through its interactor" in INTERACTIVE.why_not_stressed


def test_the_kind_says_how_a_program_runs_on_a_generated_input(sandbox) -> None:
    from cpbot.core.errors import JudgeError
    from cpbot.judge.runners import Alone, ThroughInteractor

    data = Path(__file__).parent / "data"
    alone = STDIO.input_runner(Problem(id="cf"), sandbox)
    assert isinstance(alone, Alone)
    guess = Problem(id="cf", kind="interactive", interactor=str(data / "guess_interactor.py"))
    through = INTERACTIVE.input_runner(guess, sandbox)
    assert isinstance(through, ThroughInteractor)
    with pytest.raises(JudgeError, match="no interactor to run a program through"):
        INTERACTIVE.input_runner(Problem(id="cf", kind="interactive"), sandbox)


def test_an_unknown_kind_is_a_config_error_naming_the_known_ones() -> None:
    with pytest.raises(ConfigError, match="unknown problem kind") as e:
        problem_kind("output-only")
    assert e.value.hint == "use one of: stdio, function, interactive, heuristic"
