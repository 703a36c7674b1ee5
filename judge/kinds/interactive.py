"""An interactive problem: the program talks to an interactor through stdin/stdout, flushing each line."""

from __future__ import annotations

from dataclasses import dataclass

from cpbot.judge.kinds.base import ProblemKind


@dataclass(frozen=True)
class Interactive(ProblemKind):
    def skeleton(self, shape: str, extension: str) -> str | None:
        return f"interactive.{extension}"


KIND = Interactive(
    name="interactive",
    needs_interactor=True,
    stress_applies=False,
    profile_applies=False,
    why_not_stressed="interactive problems need an interactor",
    checks_output_text=False,
    io_note="This is an interactive problem: flush the output after every line you print.",
)
