"""Check `bounds`: some test reaches each bound the input validator checks (BAPCtools' "BOUND NOT REACHED"). The
bounds come from a testlib validator's own report: run with `--testOverviewLogFileName`, it lists each named
variable it read and whether a test hit its lower and upper bound, when the validator passes its arguments to
testlib (`registerValidation(argc, argv)`) and names what it reads. A validator that reports none (a Kattis one,
`registerValidation()` alone, no names) leaves the check skipped."""

from __future__ import annotations

import os
import re

from cpbot.bot.verify.report import Finding, Status
from cpbot.judge.checkers.testlib import CHECKER_LIMITS
from cpbot.judge.languages import Program
from cpbot.judge.packages.model import PackageTest, Validator
from cpbot.judge.sandbox import Sandbox

CHECK = "bounds"
OVERVIEW = "overview.txt"
OVERVIEW_BYTES = 1 << 16
# testlib: `"n": min-value-hit max-value-hit`, one line per named variable
HIT_LINE = re.compile(r'^"([^"]{1,200})":((?: (?:min|max)-value-hit)*)\s*$')


def bound_hits(overview: str) -> dict[str, set[str]]:
    """Each variable of a testlib overview log and which of its bounds ("min", "max") the test hit."""
    hits: dict[str, set[str]] = {}
    for line in overview.splitlines():
        m = HIT_LINE.match(line)
        if m:
            hits[m.group(1)] = {word.split("-")[0] for word in m.group(2).split()}
    return hits


def _overview(program: Program, sandbox: Sandbox, test: PackageTest) -> str:
    fd = os.memfd_create("overview", os.MFD_CLOEXEC)
    sink = os.memfd_create("validator-log", os.MFD_CLOEXEC)
    try:
        with sandbox.slot() as slot:
            slot.run([*program.argv, "--testOverviewLogFileName", OVERVIEW], stdin=test.input, stdout=sink,
                     stderr=sink, limits=CHECKER_LIMITS, collect={OVERVIEW: fd})  # fmt: skip
        return os.pread(fd, OVERVIEW_BYTES, 0).decode(errors="replace")
    finally:
        os.close(fd)
        os.close(sink)


def bounds_findings(
    program: Program, validator: Validator, tests: list[PackageTest], sandbox: Sandbox
) -> list[Finding]:
    """A warning per bound no test reaches; skipped when the validator reports no bounds."""
    if validator.protocol != "testlib":
        why = "a Kattis validator reports no bounds (a testlib one with named variables does)"
        return [Finding(check=CHECK, subject=validator.path.name, status=Status.SKIPPED, evidence=why)]
    reached: dict[str, set[str]] = {}
    for test in tests:
        for name, hit in bound_hits(_overview(program, sandbox, test)).items():
            reached.setdefault(name, set()).update(hit)
    if not reached:
        why = "the validator reports no bounds (testlib does with registerValidation(argc, argv) and named reads)"
        return [Finding(check=CHECK, subject=validator.path.name, status=Status.SKIPPED, evidence=why)]
    findings = [
        Finding(
            check=CHECK,
            subject=f"{validator.path.name}: {name}",
            status=Status.WARNING,
            evidence=f"BOUND NOT REACHED: no test has {name} at its {side}imum",
        )
        for name, hit in sorted(reached.items())
        for side in ("min", "max")
        if side not in hit
    ]
    if not findings:
        findings.append(Finding(check=CHECK, subject=validator.path.name, status=Status.OK,
                                evidence=f"every bound of {len(reached)} variables reached by a test"))  # fmt: skip
    return findings
