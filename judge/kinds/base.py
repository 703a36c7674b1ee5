"""What a kind of problem decides: how a solution becomes a program, which checker judges it, what the
prompts say about its input and output, and which local checks (generated tests, stress, profile) apply.

CMS keeps a `TaskType` class per kind of task; cpbot keeps one `ProblemKind` per `Problem.kind`
(`judge/kinds/<kind>.py`), registered in `judge/kinds/__init__.py`. Code elsewhere asks the kind
(`problem_kind(p.kind).stress_applies`) and never compares `Problem.kind` with a literal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cpbot.judge.checkers import Checker
    from cpbot.judge.languages import Program
    from cpbot.judge.model import Problem, Solution, TestCase
    from cpbot.judge.runners import InputRunner
    from cpbot.judge.sandbox import Sandbox


@dataclass(frozen=True)
class ProblemKind:
    """One kind of problem. The defaults describe a program that reads a test and prints an answer."""

    name: str
    # the solution is a class the judge's harness calls, not a program: it is wrapped before it runs
    wrapped: bool = False
    # a test needs an interactor program talking to the solution
    needs_interactor: bool = False
    # generated test files, stress tests against a brute force and behaviour probes can judge it (an interactive
    # problem is stressed and probed too, through its interactor on generated hidden data: agents/interactive_checks.py)
    stress_applies: bool = True
    # a generator's inputs of growing size can profile it (run on each as `input_runner` says)
    profile_applies: bool = True
    # why stress and generated tests do not apply, for the notes of a run
    why_not_stressed: str = ""
    # the output is compared as text by the problem's checker spec (`tokens`, `float:1e-6`, ...)
    checks_output_text: bool = True
    # each output gets a score from the problem's scorer (`judge/scoring.py`), not a verdict from a checker
    scored: bool = False
    # the solution starts from a skeleton of `templates/stdio/` that reads the input
    has_skeleton: bool = True
    # the prompt's line about the input and output, after the statement
    io_note: str = ""
    # what the last block of a block chain is, for the block-chain prompts
    main_block: str = "the code that reads the input, calls the other blocks and prints the answer"

    def skeleton(self, shape: str, extension: str) -> str:
        """The file in `templates/stdio/` a solution starts from, for input of `shape` (when `has_skeleton`)."""
        return f"{shape}.{extension}"

    def io_section(self, problem: Problem) -> str:
        """The prompt's note on how the solution reads and answers (empty: plain standard input/output)."""
        return self.io_note

    def runnable(self, solution: Solution, problem: Problem) -> Solution:
        """`solution` as a program that reads one test from stdin."""
        return solution

    def malformed_tests(self, tests: list[TestCase], problem: Problem, language: str) -> list[tuple[int, str]]:
        """The tests (1-based index, why) the judge itself finds malformed before any run: none for a program
        that reads its input itself (what it makes of a test is its own verdict)."""
        return []

    def checker_spec(self, problem: Problem) -> str | Checker:
        """The checker the judge uses for `problem` unless told otherwise: a spec or a checker."""
        return problem.checker

    def checker(self, problem: Problem, sandbox: Sandbox) -> Checker:
        """The checker the judge uses for `problem`, ready to check."""
        from cpbot.judge.checkers import make_checker

        spec = self.checker_spec(problem)
        return make_checker(spec, sandbox) if isinstance(spec, str) else spec

    def interactor(self, problem: Problem, sandbox: Sandbox) -> Program | None:
        """The interactor program a test of `problem` runs against, built (None: the kind needs none, or the
        problem names none)."""
        return None

    def input_runner(self, problem: Problem, sandbox: Sandbox) -> InputRunner:
        """How a program runs on one generated input, for the profiler: alone, reading it from stdin."""
        from cpbot.judge.runners import Alone

        return Alone(sandbox)
