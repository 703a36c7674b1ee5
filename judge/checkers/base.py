"""What every checker returns and the interface it implements."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from cpbot.judge.model import Diff, Verdict


@dataclass(frozen=True)
class CheckResult:
    """A checker's decision on one output: AC, WA, PE, or IE when the checker itself failed."""

    verdict: Verdict
    message: str = ""
    diff: Diff | None = None
    points: float | None = None


OK = CheckResult(Verdict.AC, "ok")


@dataclass(frozen=True)
class CheckInput:
    """The three files a checker may look at (testlib's inf, ouf, ans)."""

    input_path: Path
    output_path: Path
    answer_path: Path | None

    def output(self) -> bytes:
        return self.output_path.read_bytes()

    def answer(self) -> bytes:
        return self.answer_path.read_bytes() if self.answer_path else b""

    def input(self) -> bytes:
        return self.input_path.read_bytes()


class Checker(Protocol):
    """Decides whether one output is right. Built-in checkers are pure; external ones run a program."""

    name: str

    def check(self, files: CheckInput) -> CheckResult: ...
