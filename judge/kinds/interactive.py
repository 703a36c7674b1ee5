"""An interactive problem: the program talks to an interactor through stdin/stdout, flushing each line."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cpbot.judge.kinds.base import ProblemKind

if TYPE_CHECKING:
    from cpbot.judge.languages import Program
    from cpbot.judge.model import Problem
    from cpbot.judge.runners import InputRunner
    from cpbot.judge.sandbox import Sandbox


@dataclass(frozen=True)
class Interactive(ProblemKind):
    def skeleton(self, shape: str, extension: str) -> str:
        return f"interactive.{extension}"

    def io_section(self, problem: Problem) -> str:
        if problem.interactor is None:
            return self.io_note
        return (
            f"{self.io_note} The examples' inputs are the hidden data the judge's interactor reads for each test; "
            "your program never reads them, it talks only to the interactor."
        )

    def interactor(self, problem: Problem, sandbox: Sandbox) -> Program | None:
        """`problem.interactor` built: a path (a source or a binary) or a source given in the problem."""
        from cpbot.core.errors import JudgeError
        from cpbot.judge.build import build_program_file, build_solution

        given = problem.interactor
        if given is None:
            return None
        if isinstance(given, str):
            return build_program_file(Path(given), sandbox, role="interactor")
        build = build_solution(given, sandbox)
        if build.program is None:
            raise JudgeError(f"the problem's interactor does not build: {build.log.strip()[:500]}")
        return build.program

    def input_runner(self, problem: Problem, sandbox: Sandbox) -> InputRunner:
        """Through the problem's interactor, which reads each generated input as its hidden data."""
        from cpbot.core.errors import JudgeError
        from cpbot.judge.runners import ThroughInteractor

        interactor = self.interactor(problem, sandbox)
        if interactor is None:
            raise JudgeError(
                f"{problem.id} is interactive and has no interactor to run a program through",
                hint="name one in problem.json (or pass --interactor PATH)",
            )
        return ThroughInteractor(interactor, sandbox)


# stress against a brute force does not apply (there is no output to compare): an interactive problem is stressed
# and grouped through its interactor on generated hidden data instead (agents/interactive_checks.py), and profiled
# through it (`input_runner`)
KIND = Interactive(
    name="interactive",
    needs_interactor=True,
    stress_applies=False,
    profile_applies=True,
    why_not_stressed="an interactive problem has no output to compare with a brute force: it is stressed through its "
    "interactor on generated hidden data",
    checks_output_text=False,
    io_note="This is an interactive problem: flush the output after every line you print.",
)
