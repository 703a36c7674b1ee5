"""Check `validator-mutations`: an input validator must reject near-miss inputs made from the package's own tests
(a space too many, a leading zero, a value far past any bound, a token missing, an empty input), as problemtools
tries. One accepted is a warning: the validator lets that kind of malformed test through."""

from __future__ import annotations

import re

from cpbot.bot.verify.report import Finding, Status
from cpbot.judge.checkers.kattis import run_validator
from cpbot.judge.languages import Program
from cpbot.judge.model import Verdict
from cpbot.judge.packages.model import PackageTest, Validator
from cpbot.judge.sandbox import Sandbox

CHECK = "validator-mutations"
MUTATED_TESTS = 3  # tests (samples first) whose near misses each validator sees
MAX_MUTATED_BYTES = 1 << 20
PAST_ANY_BOUND = str(10**19)  # past a 64-bit integer: no bound of a test admits it
INTEGER = re.compile(rb"(?<![\w.-])-?\d+(?![\w.])")


def near_misses(given: bytes) -> list[tuple[str, bytes]]:
    """(what was changed, the changed input) for each mutation that applies to `given`."""
    found = [("an empty input", b"")]
    first_line, newline, rest = given.partition(b"\n")
    found.append(("a trailing space on the first line", first_line + b" " + newline + rest))
    number = INTEGER.search(given)
    if number is not None:
        start, end = number.span()
        digits = number.group().lstrip(b"-")
        if not digits.startswith(b"0"):
            sign = b"-" if number.group().startswith(b"-") else b""
            found.append(("a leading zero", given[:start] + sign + b"0" + digits + given[end:]))
        found.append(("a value past any bound", given[:start] + PAST_ANY_BOUND.encode() + given[end:]))
    tokens = first_line.split(b" ")
    if len(tokens) > 1:
        found.append(("a token missing on the first line", b" ".join(tokens[:-1]) + newline + rest))
    return [(how, text) for how, text in found if text != given]


def mutation_findings(
    program: Program, validator: Validator, tests: list[PackageTest], sandbox: Sandbox
) -> list[Finding]:
    """Each near miss the validator accepts, or one OK row when it rejects them all."""
    chosen = sorted(tests, key=lambda t: not t.sample)[:MUTATED_TESTS]
    findings, tried = [], 0
    for test in chosen:
        if test.input.stat().st_size > MAX_MUTATED_BYTES:
            continue
        for how, text in near_misses(test.input.read_bytes()):
            tried += 1
            result = run_validator(program, sandbox, text, who=f"input validator {validator.path.name}",
                                   protocol=validator.protocol)  # fmt: skip
            if result.verdict is Verdict.AC:
                findings.append(Finding(check=CHECK, subject=f"{validator.path.name} on {test.name}",
                                        status=Status.WARNING, evidence=f"accepts it with {how}"))  # fmt: skip
    if tried and not findings:
        findings.append(Finding(check=CHECK, subject=validator.path.name, status=Status.OK,
                                evidence=f"rejects all {tried} near misses of {len(chosen)} tests"))  # fmt: skip
    return findings
