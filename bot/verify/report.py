"""What `cpbot verify` found: one row per check and subject, with its evidence; `--json` prints this."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, computed_field

from cpbot.judge.model import StressFailure

SCHEMA_VERSION = 2  # 2: `ai`, the model's programs (`--ai`)


class Status(StrEnum):
    OK = "ok"
    WARNING = "warning"
    ERROR = "error"
    SKIPPED = "skipped"


class Finding(BaseModel):
    """One check on one subject (a test, a submission, a validator): its status and the evidence."""

    model_config = ConfigDict(extra="forbid")

    check: str  # "input-validators", "submissions", "time-limit", "output-validator"
    subject: str
    status: Status
    evidence: str


class SubmissionVerdict(BaseModel):
    """A submission's verdict at the time limit and at the limit with the TLE margin."""

    model_config = ConfigDict(extra="forbid")

    path: str
    expected: str
    at_limit: str | None  # None: not judged
    at_margin: str | None
    slowest_ms: float | None = None


class ModelProgram(BaseModel):
    """One solve of `--ai`: its program's verdict on the package's tests and, when it passes them all, what the
    gate found with the package's accepted submissions as the oracle."""

    model_config = ConfigDict(extra="forbid")

    strategy: str
    run: int  # 1..k
    status: str  # the solve's status (`solved`, `unverified`, ...), or `error` when it failed
    reason: str = ""
    transcript: str = ""  # the run's id in the transcript store (`cpbot transcripts show ID`)
    on_tests: str | None = None  # the Kattis verdict on the package's tests; None: no program
    failed_test: str = ""  # the first test it fails
    gate: str = ""  # `clean`, `caught by <check>`, `unchecked` (no generator or no oracle), "" when not run
    gate_detail: str = ""
    wrong: bool = False  # passes every test of the package, and the gate shows it wrong
    breaking: StressFailure | None = None  # the smallest input it is wrong on, with the oracle's answer
    breaking_valid: bool | None = None  # whether the package's input validators accept it (None: none to ask)
    saved: str = ""  # the file (without extension) the breaking test was written to (`--save-hacks`)


class StrategyRate(BaseModel):
    """A strategy's runs: how many programs passed the package's tests, how many of those are wrong."""

    model_config = ConfigDict(extra="forbid")

    strategy: str
    runs: int
    passed_tests: int
    wrong_past_tests: int
    solved: int  # passed the tests and the gate found nothing wrong

    @computed_field  # type: ignore[prop-decorator]
    @property
    def solve_rate(self) -> float:
        return round(self.solved / self.runs, 4) if self.runs else 0.0


class AiReport(BaseModel):
    """`--ai`: the configured model's programs on the package."""

    model_config = ConfigDict(extra="forbid")

    model: str
    k: int
    oracle: list[str]  # the accepted submissions the gate compares with (the first one; the others as its panel)
    generators: int  # the distinct input generators the solves wrote that the gate ran
    rates: list[StrategyRate]
    programs: list[ModelProgram]


class VerifyReport(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    package: str
    format: str
    name: str
    time_limit_s: float | None  # None: no accepted submission to set it from, and none stated
    tle_margin_s: float | None
    findings: list[Finding]
    submissions: list[SubmissionVerdict]
    notes: list[str] = []
    ai: AiReport | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def passed(self) -> bool:
        """No check found an error (warnings do not fail a package)."""
        return not any(f.status is Status.ERROR for f in self.findings)


def text(report: VerifyReport) -> str:
    """The report as a terminal table: a line per finding, errors and warnings first within each check."""
    limit = f"{report.time_limit_s:g} s (TLE margin {report.tle_margin_s:g} s)" if report.time_limit_s else "none"
    lines = [f"{report.name} ({report.format}): {report.package}", f"time limit {limit}", ""]
    width = max((len(f.subject) for f in report.findings), default=10)
    order = {Status.ERROR: 0, Status.WARNING: 1, Status.OK: 2, Status.SKIPPED: 3}
    checks = list(dict.fromkeys(f.check for f in report.findings))
    for check in checks:
        lines.append(check)
        for f in sorted((f for f in report.findings if f.check == check), key=lambda f: order[f.status]):
            lines.append(f"  {f.status.value.upper():<8} {f.subject:<{width}}  {f.evidence}")
    counts = {s: sum(f.status is s for f in report.findings) for s in Status}
    lines += ["", "notes:", *(f"  {n}" for n in report.notes)] if report.notes else []
    lines += ai_text(report.ai) if report.ai is not None else []
    summary = ", ".join(f"{n} {s.value}" for s, n in counts.items() if n)
    lines += ["", ("PASSED" if report.passed else "FAILED") + f": {summary}"]
    return "\n".join(lines) + "\n"


def ai_text(ai: AiReport) -> list[str]:
    """`--ai`'s table: a row per strategy (solve rate), a row per program, then each wrong one's breaking input."""
    lines = ["", f"model programs ({ai.model}, k={ai.k}; oracle: {', '.join(ai.oracle) or 'none'})"]
    lines.append(f"  {'strategy':<12} {'runs':>4} {'pass tests':>10} {'wrong past':>10} {'solve rate':>10}")
    for r in ai.rates:
        counts = f"{r.runs:>4} {r.passed_tests:>10} {r.wrong_past_tests:>10}"
        lines.append(f"  {r.strategy:<12} {counts} {r.solve_rate:>10.0%}")
    lines.append("")
    for p in ai.programs:
        tests = p.on_tests or "no program"
        failed = f" on {p.failed_test}" if p.failed_test else ""
        gate = f"; gate: {p.gate}" if p.gate else ""
        mark = "WRONG" if p.wrong else ""
        lines.append(f"  {p.strategy}#{p.run:<3} {p.status:<11} tests: {tests}{failed}{gate}  {mark}".rstrip())
    shown: dict[str, str] = {}  # a breaking input -> the program it was shown under
    for p in (p for p in ai.programs if p.breaking is not None):
        b = p.breaking
        where = f" (saved as {p.saved}.in/.ans)" if p.saved else ""
        valid = {True: "", False: " (the package's input validators reject it)", None: ""}[p.breaking_valid]
        name = f"{p.strategy}#{p.run}"
        if b.input in shown:
            lines += ["", f"  {name} breaks on the input shown for {shown[b.input]}{where}{valid}"]
            continue
        shown[b.input] = name
        lines += ["", f"  {name} breaks on{where}{valid}: {p.gate_detail.split('; ')[-1]}".rstrip()]
        lines += [f"    input:    {line}" for line in _clip(b.input)]  # type: ignore[union-attr]
        lines += [f"    expected: {line}" for line in _clip(b.expected)]  # type: ignore[union-attr]
        lines += [f"    got:      {line}" for line in _clip(b.got)]  # type: ignore[union-attr]
    return lines


def _clip(text: str, lines: int = 6, width: int = 100) -> list[str]:
    rows = text.rstrip("\n").split("\n")
    shown = [r if len(r) <= width else r[:width] + " ..." for r in rows[:lines]]
    return shown + ([f"... ({len(rows) - lines} more lines)"] if len(rows) > lines else [])
