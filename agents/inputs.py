"""What a solve knows about the inputs it did not write itself: whether they were validated, how many were
dropped, which bounds of the statement they reached, and whether the generator ignores N.

`SolveInputs` lives in the solve's `Evidence`: the strategy opens its `InputGate` once the test designer's
validator has passed its self-check (`agents/roles/validator.py`), and every generated test, stress, ladder,
profile, probe and aimed input goes through that gate. Without a usable validator the gate lets every input
through and the report says the inputs were not validated (shape check only).

`InputsReport` is what the result, the transcript and `cpbot solve` show: per bound of the statement
(N's maximum, a value's minimum and maximum) whether some input reached it (BAPCtools warns "BOUND NOT
REACHED"), read from the validator's `seen` lines, else from the inputs' tokens.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cpbot.agents.roles.constraints import Bounds, problem_bounds
from cpbot.judge.build import build_solution
from cpbot.judge.generator import GeneratorError, generate
from cpbot.judge.model import Problem, Solution
from cpbot.judge.sandbox import Sandbox, default_sandbox
from cpbot.judge.validator import InputGate

SCHEMA_VERSION = 1
MAX_COVERED_VALUE = 10**18  # a bound beyond this is no number an input holds


class BoundReach(BaseModel):
    """One bound of the statement and whether the gate's inputs reached it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    side: Literal["max", "min"]
    bound: int
    reached: bool
    seen: int | None = None  # the extreme value seen (from the validator's report)
    source: Literal["validator", "tokens"] = "tokens"  # tokens: some input holds a token equal to the bound

    def line(self) -> str:
        """ "n max 200000: reached" / "a_i min 1: BOUND NOT REACHED (least seen 3)"."""
        state = "reached" if self.reached else "BOUND NOT REACHED"
        seen = f" ({'greatest' if self.side == 'max' else 'least'} seen {self.seen})" if self.seen is not None else ""
        how = "" if self.source == "validator" else ", by tokens"
        return f"{self.name} {self.side} {self.bound}: {state}{seen if not self.reached else ''}{how}"


class InputsReport(BaseModel):
    """The inputs' side of the gate, for `cpbot solve` (text and --json) and the transcript."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int = SCHEMA_VERSION
    validated: bool = False
    validator_note: str = ""
    admitted: dict[str, int] = {}  # inputs used, by origin (generated, stress, ladder, profile, probe, aimed)
    dropped: dict[str, int] = {}  # inputs the validator rejected, by origin: never made a test
    unchecked: int = 0  # inputs let through because the validator itself failed on them
    coverage: list[BoundReach] = []
    generator_ignores_n: str = ""  # why the profile cannot be trusted (the generator's output does not grow)
    aimed: str = ""  # what the request aimed at the leading candidate found

    @property
    def unreached(self) -> list[BoundReach]:
        return [b for b in self.coverage if not b.reached]

    def summary(self) -> str:
        """One line: validated or not, what was dropped, the bounds not reached."""
        head = "inputs validated" if self.validated else "inputs NOT validated (shape check only)"
        parts = [head]
        if self.dropped:
            parts.append(
                f"{sum(self.dropped.values())} dropped as invalid ("
                + ", ".join(f"{k} {v}" for k, v in sorted(self.dropped.items()))
                + ")"
            )
        if self.coverage:
            missed = self.unreached
            parts.append(
                f"{len(self.coverage) - len(missed)}/{len(self.coverage)} bounds reached"
                + (f"; not reached: {', '.join(f'{b.name} {b.side} {b.bound}' for b in missed)}" if missed else "")
            )
        if self.generator_ignores_n:
            parts.append(f"generator ignores N: {self.generator_ignores_n}")
        return "; ".join(parts)


def bound_values(bounds: Bounds) -> set[int]:
    """Every bound value an input could hold as a token."""
    values = {*bounds.upper.values(), *bounds.lower.values()}
    return {v for v in values if abs(v) <= MAX_COVERED_VALUE}


def coverage(bounds: Bounds, gate: InputGate | None) -> list[BoundReach]:
    """Per bound of `bounds`, whether the gate's admitted inputs reached it."""
    out: list[BoundReach] = []
    seen = gate.seen if gate is not None else {}
    tokens = gate.tokens if gate is not None else set()
    sides: Iterable[tuple[Literal["max", "min"], dict[str, int]]] = (("max", bounds.upper), ("min", bounds.lower))
    for side, values in sides:
        for name, bound in values.items():
            if abs(bound) > MAX_COVERED_VALUE or name == "calls":
                continue
            if name in seen:
                low, high = seen[name]
                extreme = high if side == "max" else low
                reached = extreme >= bound if side == "max" else extreme <= bound
                out.append(
                    BoundReach(name=name, side=side, bound=bound, reached=reached, seen=extreme, source="validator")
                )
            else:
                out.append(BoundReach(name=name, side=side, bound=bound, reached=bound in tokens))
    return out


@dataclass
class SolveInputs:
    """One solve's input validation (see the module's docstring)."""

    validator: Solution | None = None
    small_generator: Solution | None = None  # exhaustive small inputs: stress runs on them first
    slow_generator: Solution | None = None  # worst-case shapes: the profiler runs on them
    note: str = "no validator: inputs checked for shape only"
    gate: InputGate | None = None
    invalid_before: int = 0  # generated inputs the validator rejected before the solve's gate was opened
    generator_ignores_n: str = ""
    aimed: str = ""
    _bounds: Bounds | None = field(default=None, repr=False)

    def open(self, problem: Problem, sandbox: Sandbox | None, validator: Solution | None, note: str) -> InputGate:
        """The solve's gate, with `validator` (checked already; None: no validation); made once."""
        if self.gate is not None:
            return self.gate
        sandbox = sandbox or default_sandbox()
        program = build_solution(validator, sandbox).program if validator is not None else None
        self.validator = validator if program is not None else None
        self.note = note
        self._bounds = problem_bounds(problem)
        self.gate = InputGate(program, sandbox, targets=bound_values(self._bounds))
        return self.gate

    def report(self, problem: Problem) -> InputsReport:
        """What the solve's inputs were, as the result shows it."""
        gate = self.gate
        bounds = self._bounds or problem_bounds(problem)
        dropped = dict(gate.dropped) if gate is not None else {}
        if self.invalid_before:
            dropped["generated"] = dropped.get("generated", 0) + self.invalid_before
        return InputsReport(
            validated=gate is not None and gate.validates,
            validator_note=self.note,
            admitted=dict(gate.admitted) if gate is not None else {},
            dropped=dropped,
            unchecked=gate.unchecked if gate is not None and gate.validates else 0,
            coverage=coverage(bounds, gate) if gate is not None else [],
            generator_ignores_n=self.generator_ignores_n,
            aimed=self.aimed,
        )


GROWTH_SMALL = 10
GROWTH_MIDDLE = 1000


def growth_issue(generator: Solution, top: int | None, sandbox: Sandbox | None) -> str:
    """Why `generator` cannot serve the profile because its input stops changing with N (say it caps N at
    6), or "" when it changes (or cannot be asked: no size bound, or it fails, which the profile reports).
    Pairs of sizes are compared at one seed: 10 and 1000, then half the bound and the bound (the profile's
    two largest sizes, so it reuses these inputs)."""
    if not top or top <= GROWTH_SMALL:
        return ""
    sandbox = sandbox or default_sandbox()
    program = build_solution(generator, sandbox).program
    if program is None:
        return ""
    pairs = sorted({(GROWTH_SMALL, min(top, GROWTH_MIDDLE)), (max(GROWTH_SMALL, top // 2), top)})
    try:
        for small, large in pairs:
            if small < large and generate(program, small, 1, sandbox) == generate(program, large, 1, sandbox):
                return (
                    f"its input for N={large} is the same as for N={small} (seed 1): a profile at the bound would "
                    "measure a small input"
                )
    except GeneratorError:
        return ""
    return ""
