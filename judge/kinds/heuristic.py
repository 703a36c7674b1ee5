"""A score-based problem (AtCoder Heuristic Contest): no expected output, a scorer gives each output a score.

The program reads one input and prints a solution within the time limit; the problem's local tools
(`Problem.heuristic`: a generator of seeds' inputs and a scoring program) turn it into a number.
`judge/scoring.py` scores programs on many seeds; the verdicts that remain are the run's own (RE, TLE,
MLE, OLE), and an output the scorer rejects scores 0."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cpbot.judge.kinds.base import ProblemKind

if TYPE_CHECKING:
    from cpbot.judge.model import Problem


@dataclass(frozen=True)
class Heuristic(ProblemKind):
    def io_section(self, problem: Problem) -> str:
        spec = problem.heuristic
        goal = "as large" if spec is None or spec.objective == "maximize" else "as small"
        return (
            "This is a score-based problem: there is no single right answer. Print a valid output within the "
            f"time limit; the score of each input should be {goal} as possible. An invalid output, a crash or "
            "running out of time scores 0 on that input."
        )


KIND = Heuristic(
    name="heuristic",
    scored=True,
    stress_applies=False,
    profile_applies=False,
    why_not_stressed="score-based problems have no single right answer to compare with a brute force",
    checks_output_text=False,
    has_skeleton=False,
    main_block="the code that reads the input, builds a solution within the time limit and prints it",
)
