"""A function problem (LeetCode): the solution is a class; the harness's driver calls it on each test and
the harness's checker compares the results the way LeetCode does."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cpbot.judge.kinds.base import ProblemKind

if TYPE_CHECKING:
    from cpbot.judge.checkers import Checker
    from cpbot.judge.model import Problem, Solution


@dataclass(frozen=True)
class Function(ProblemKind):
    def io_section(self, problem: Problem) -> str:
        if problem.signature is None:
            return ""
        methods = ", ".join(m.name for m in problem.signature.methods)
        return f"Implement class {problem.signature.class_name} with: {methods}."

    def runnable(self, solution: Solution, problem: Problem) -> Solution:
        """The solution in the harness's driver (as it is when the problem has no signature)."""
        if problem.signature is None:
            return solution
        from cpbot.judge.harness import build_program

        return build_program(solution, problem.signature)

    def checker_spec(self, problem: Problem) -> str | Checker:
        from cpbot.judge.harness import checker_for

        return checker_for(problem)


KIND = Function(
    name="function",
    wrapped=True,
    has_skeleton=False,  # the site's code snippet is the starting point; the harness does the input and output
    checks_output_text=False,
    main_block="the class the judge calls (no input reading, no printing)",
)
