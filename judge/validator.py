"""Input validators, and the gate every generated input of a solve passes (testlib's validators, AutoCode).

A validator is a program that reads one input on stdin and exits 0 when the input follows the format
and every constraint, and non-zero with a message on stderr when it does not. On a valid input it may
also say which values it saw, one line per bounded quantity on stdout: `seen NAME LOW HIGH` (the least
and greatest value of NAME in this input); that is how the gate knows which bounds its inputs reached.

`InputGate` is one solve's door for inputs it did not write itself: generated tests, stress and ladder
inputs, the profiler's, probes and aimed inputs. With a validator, an input it rejects is dropped and
counted by origin; without one, every input passes and only the bound values its tokens hold are noted.
A validator that crashes or runs out of time says nothing about the input: it is let through and counted
as unchecked (the validator's fault, not the input's).
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from cpbot.judge.execute import execute
from cpbot.judge.languages import Program
from cpbot.judge.memo import BytesLRU
from cpbot.judge.model import Limits
from cpbot.judge.sandbox import Sandbox
from cpbot.judge.verdicts import STARVED_RETRIES, is_starved

VALIDATOR_LIMITS = Limits(time_ms=5000, memory_mb=1024, output_mb=1)
_SEEN = re.compile(r"^\s*seen\s+(\S+)\s+(-?\d+)\s+(-?\d+)\s*$")
MAX_SEEN_LINES = 64  # a validator reports a few quantities; more lines are not read
MESSAGE_CHARS = 200


@dataclass(frozen=True)
class Validation:
    """A validator's word on one input: `valid`, why not (`message`), and the values it saw by name.
    `checked` is False when the validator itself failed (crash, time-out): then `valid` is True."""

    valid: bool
    message: str = ""
    seen: dict[str, tuple[int, int]] = field(default_factory=dict)
    checked: bool = True


def read_seen(stdout: str) -> dict[str, tuple[int, int]]:
    """The `seen NAME LOW HIGH` lines of a validator's output (other lines are ignored)."""
    seen: dict[str, tuple[int, int]] = {}
    for line in stdout.splitlines()[:MAX_SEEN_LINES]:
        if m := _SEEN.match(line):
            low, high = int(m.group(2)), int(m.group(3))
            seen[m.group(1)] = (min(low, high), max(low, high))
    return seen


def run_validator(validator: Program, data: bytes, sandbox: Sandbox) -> Validation:
    """Run `validator` on `data` (again when the machine starved it of CPU)."""
    ex = execute(validator, data, sandbox, limits=VALIDATOR_LIMITS)
    for _ in range(STARVED_RETRIES):
        if not is_starved(ex.run):
            break
        ex = execute(validator, data, sandbox, limits=VALIDATOR_LIMITS)
    if ex.run.status == "exited" and ex.run.exit_code == 0:
        return Validation(True, seen=read_seen(ex.stdout.decode(errors="replace")))
    if ex.run.status == "exited" and not ex.run.killed:
        lines = [ln.strip() for ln in ex.stderr.strip().splitlines() if ln.strip()]
        why = lines[-1] if lines else f"exit code {ex.run.exit_code}"
        return Validation(False, why[:MESSAGE_CHARS])
    return Validation(True, f"the validator failed: {ex.message or ex.run.status}"[:MESSAGE_CHARS], checked=False)


def numeric_tokens(data: bytes, wanted: set[int]) -> set[int]:
    """The values of `wanted` that appear as plain integer tokens of `data`."""
    if not wanted:
        return set()
    found = set()
    for token in data.split():
        if len(token) <= 20 and token.lstrip(b"-").isdigit():
            value = int(token)
            if value in wanted:
                found.add(value)
    return found


class InputGate:
    """The door of one solve's generated inputs (see the module's docstring); safe to share between threads.

    `targets` are the statement's bound values: without a validator's report, whether an input reached a
    bound is read from its tokens (a token equal to the bound)."""

    def __init__(self, validator: Program | None, sandbox: Sandbox, *, targets: Iterable[int] = ()) -> None:
        self.validator = validator
        self.sandbox = sandbox
        self.targets = set(targets)
        self.admitted: Counter[str] = Counter()
        self.dropped: Counter[str] = Counter()
        self.unchecked = 0
        self.reasons: list[str] = []  # the first few reasons, for the transcript
        self.seen: dict[str, tuple[int, int]] = {}
        self.tokens: set[int] = set()
        self._memo: BytesLRU[Validation] = BytesLRU(lambda v: 64 + len(v.message), budget=1 << 20)
        self._lock = threading.Lock()

    @property
    def validates(self) -> bool:
        return self.validator is not None

    def check(self, data: bytes) -> Validation:
        """The validator's word on `data` (remembered by its digest), without counting it."""
        if self.validator is None:
            return Validation(True, checked=False)
        key = (self.validator.key, hashlib.sha256(data).digest())
        known = self._memo.get(key) if self.validator.key else None
        if known is None:
            known = run_validator(self.validator, data, self.sandbox)
            if self.validator.key:
                self._memo.put(key, known)
        return known

    def admit(self, data: bytes, origin: str) -> str | None:
        """None when `data` may be used (and it is counted under `origin`), else why it is dropped."""
        verdict = self.check(data)
        found = numeric_tokens(data, self.targets)
        with self._lock:
            if not verdict.valid:
                self.dropped[origin] += 1
                if len(self.reasons) < 5:
                    self.reasons.append(f"{origin}: {verdict.message}")
                return verdict.message or "the validator rejects it"
            self.admitted[origin] += 1
            self.unchecked += not verdict.checked
            self.tokens |= found
            for name, (low, high) in verdict.seen.items():
                old = self.seen.get(name)
                self.seen[name] = (low, high) if old is None else (min(old[0], low), max(old[1], high))
        return None
