"""What every checker returns and the interface it implements."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from cpbot.judge.model import Diff, Verdict


@dataclass(frozen=True)
class CheckResult:
    """A checker's decision on one output: AC, WA, PE, or IE when the checker itself failed. `jury_fault`: the
    checker blamed the jury's files (testlib's FAIL), e.g. it found the output better than the jury's answer."""

    verdict: Verdict
    message: str = ""
    diff: Diff | None = None
    points: float | None = None
    jury_fault: bool = False


OK = CheckResult(Verdict.AC, "ok")


FileData = Path | bytes  # a file's path, or its content already in memory


def _read(data: FileData) -> bytes:
    return data if isinstance(data, bytes) else data.read_bytes()


@dataclass(frozen=True)
class CheckInput:
    """The three files a checker may look at (testlib's inf, ouf, ans), each a path or the bytes.

    `test_index` is the test's number in its judging (1-based), for checkers that keep per-test notes."""

    input_path: FileData
    output_path: FileData
    answer_path: FileData | None
    test_index: int | None = None

    def output(self) -> bytes:
        return _read(self.output_path)

    def answer(self) -> bytes:
        return _read(self.answer_path) if self.answer_path is not None else b""

    def input(self) -> bytes:
        return _read(self.input_path)


def uses_sandbox(checker: object) -> bool:
    """Whether a checker runs a program of its own, and so needs a free sandbox slot for every check."""
    return bool(getattr(checker, "uses_sandbox", False))


class Checker(Protocol):
    """Decides whether one output is right. Built-in checkers are pure; external ones run a program."""

    name: str

    def check(self, files: CheckInput) -> CheckResult: ...
