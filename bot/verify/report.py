"""What `cpbot verify` found: one row per check and subject, with its evidence; `--json` prints this."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, computed_field

SCHEMA_VERSION = 1


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
    summary = ", ".join(f"{n} {s.value}" for s, n in counts.items() if n)
    lines += ["", ("PASSED" if report.passed else "FAILED") + f": {summary}"]
    return "\n".join(lines) + "\n"
