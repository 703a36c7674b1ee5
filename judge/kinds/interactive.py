"""An interactive problem: the program talks to an interactor through stdin/stdout, flushing each line."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cpbot.judge.kinds.base import ProblemKind

if TYPE_CHECKING:
    from cpbot.judge.languages import Program
    from cpbot.judge.model import Problem
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


KIND = Interactive(
    name="interactive",
    needs_interactor=True,
    stress_applies=False,
    profile_applies=False,
    why_not_stressed="interactive problems need an interactor",
    checks_output_text=False,
    io_note="This is an interactive problem: flush the output after every line you print.",
)
