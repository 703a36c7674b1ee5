"""How a program runs on one generated input, as its problem's kind decides (`ProblemKind.input_runner`): alone,
reading the input (`Alone`), or through an interactor that reads the input as its hidden data
(`ThroughInteractor`, an interactive problem). The profiler runs and counts programs through one of these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from cpbot.core.errors import JudgeError
from cpbot.judge.counting import Count, count_instructions, counted_command, counted_limits, read_count
from cpbot.judge.execute import Execution, execute
from cpbot.judge.interactive import TESTLIB, InteractorProtocol, Wrapped, run_interactive
from cpbot.judge.languages import Program
from cpbot.judge.model import Limits, Verdict
from cpbot.judge.sandbox import Sandbox


class InputRunner(Protocol):
    """Runs a program on one input (its verdict, CPU time and memory), and counts its instructions on it."""

    def __call__(self, program: Program, data: bytes, limits: Limits) -> Execution: ...

    def count(self, program: Program, data: bytes, limits: Limits, *, native_cpu_ms: float, valgrind: str) -> Count:
        """The instructions `program` executes on `data` under valgrind (`native_cpu_ms`: its native run's time)."""
        ...


@dataclass(frozen=True)
class Alone:
    """A program run alone on the input, reading it from stdin (a stdio or a function problem)."""

    sandbox: Sandbox

    def __call__(self, program: Program, data: bytes, limits: Limits) -> Execution:
        return execute(program, data, self.sandbox, limits=limits)

    def count(self, program: Program, data: bytes, limits: Limits, *, native_cpu_ms: float, valgrind: str) -> Count:
        return count_instructions(
            program, data, self.sandbox, native_cpu_ms=native_cpu_ms, memory_mb=limits.memory_mb, valgrind=valgrind
        )


@dataclass(frozen=True)
class ThroughInteractor:
    """A program run on one input through `interactor`, which reads the input as its hidden data (the profile
    of an interactive problem): the program's own CPU time, memory and instructions are measured, never the
    interactor's, and a dialogue the interactor rejects is the program's failure."""

    interactor: Program
    sandbox: Sandbox
    protocol: InteractorProtocol = TESTLIB

    def __call__(self, program: Program, data: bytes, limits: Limits) -> Execution:
        ran = run_interactive(program, self.interactor, data, None, limits, self.sandbox, self.protocol)
        verdict, message = ran.outcome()
        if verdict == Verdict.IE:
            raise JudgeError(
                f"the interactor failed on generated hidden data: {message[:300]}",
                hint="a profile through a failing interactor says nothing about the program",
            )
        return Execution(ran.run, ran.transcript, ran.stderr, None if verdict == Verdict.AC else verdict, message)

    def count(self, program: Program, data: bytes, limits: Limits, *, native_cpu_ms: float, valgrind: str) -> Count:
        argv, env = counted_command(valgrind, program)
        wrapped = Wrapped(argv, env, counted_limits(native_cpu_ms, limits.memory_mb))
        ran = run_interactive(
            program, self.interactor, data, None, limits, self.sandbox, self.protocol, wrapped=wrapped
        )
        if ran.check is None or ran.check.verdict != Verdict.AC:  # the counted dialogue went otherwise: no count
            return Count(None, ran.run.cpu_ms, "the interactor did not accept the counted dialogue")
        return read_count(ran.run, ran.stderr_tail)
