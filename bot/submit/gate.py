"""The gate: whether a solution may be submitted, decided from local evidence only.

Default rule: AC on every sample, AC on every generated test, a stress run against a brute force that
found no difference, and a profile that extrapolates within the time and memory limits. Evidence the
config requires but that is missing is a refusal with its reason, never a pass. An answer its solve did not
call solved (`unverified`: it passed every test tried but part of the gate's evidence is missing; or a best
effort) is refused too, whatever the checks say; `allow_unverified` lets an unverified one through.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cpbot.bot.submit.base import source_sha256
from cpbot.bot.submit.checks import CHECKS, Check
from cpbot.core.errors import ConfigError
from cpbot.judge.model import SCHEMA_VERSION, JudgeReport, Problem, ProfileReport, Solution, StressReport, Verdict

CheckName = Check


class GateConfig(BaseModel):
    """Which checks are required, and how strict they are."""

    model_config = ConfigDict(extra="forbid")

    require_samples: bool = True
    require_generated: bool = True
    require_stress: bool = True
    require_profile: bool = True
    min_generated: int = Field(1, ge=0)  # generated tests that must have been judged
    min_stress_runs: int = Field(1, ge=0)
    time_margin: float = Field(1.0, gt=0)  # the predicted time at max n must be <= margin x TL
    allow_unverified: bool = False  # submit an answer the solve returned unverified (`cpbot watch --allow-unverified`)

    @classmethod
    def requiring(cls, checks: Iterable[str]) -> GateConfig:
        """A config that requires exactly `checks` (names of `Check`); `ConfigError` for an unknown one."""
        wanted = set(checks)
        unknown = wanted - set(CHECKS)
        if unknown:
            raise ConfigError(f"unknown gate check(s) {sorted(unknown)}", hint=f"use some of {', '.join(CHECKS)}")
        return cls(**{f"require_{c}": c in wanted for c in Check})

    def required(self) -> list[Check]:
        """The checks this config requires, in the order they are reported."""
        return [c for c in Check if getattr(self, f"require_{c}")]


class GateEvidence(BaseModel):
    """What the local judge found about one solution."""

    model_config = ConfigDict(extra="forbid")

    samples: JudgeReport | None = None
    generated: JudgeReport | None = None
    stress: StressReport | None = None
    profile: ProfileReport | None = None
    source_sha256: str | None = None  # the source the evidence is about, when known
    solve_status: str | None = None  # how the solve that wrote it ended (None: not from a solve, e.g. `cpbot submit`)
    solve_reason: str = ""

    @classmethod
    def from_solve_result(cls, result: Any) -> GateEvidence:
        """Evidence from an `agents.solve.SolveResult` (`report`, `generated_report`, `stress`, `profile`)."""
        solution = getattr(result, "solution", None)
        return cls(
            samples=getattr(result, "report", None),
            generated=getattr(result, "generated_report", None),
            stress=getattr(result, "stress", None),
            profile=getattr(result, "profile", None),
            source_sha256=source_sha256(solution.source) if solution is not None else None,
            solve_status=getattr(result, "status", None),
            solve_reason=getattr(result, "reason", ""),
        )


class GateCheck(BaseModel):
    """One check's outcome."""

    model_config = ConfigDict(extra="forbid")

    name: CheckName
    required: bool
    passed: bool | None  # None: no evidence
    detail: str


class GateDecision(BaseModel):
    """Whether to submit, why not (one reason per failed required check), and what was seen."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    problem_id: str
    language: str
    source_sha256: str
    allowed: bool
    reasons: list[str] = []
    checks: list[GateCheck] = []
    summary: dict[str, str] = {}  # check name -> one line of evidence


def gate(
    problem: Problem, solution: Solution, evidence: GateEvidence, config: GateConfig | None = None
) -> GateDecision:
    """Decide whether `solution` may be submitted for `problem`."""
    config = config or GateConfig()
    required = set(config.required())
    sha = source_sha256(solution.source)
    checks = [
        _samples(evidence.samples, "samples" in required),
        _generated(evidence.generated, "generated" in required, config.min_generated),
        _stress(evidence.stress, "stress" in required, config.min_stress_runs),
        _profile(evidence.profile, "profile" in required, problem, config.time_margin),
    ]
    reasons = [f"{c.name}: {c.detail}" for c in checks if c.required and c.passed is not True]
    verdict = _solve_verdict(evidence, config)
    if verdict:
        reasons.insert(0, verdict)
    if evidence.source_sha256 is not None and evidence.source_sha256 != sha:
        reasons.insert(0, "evidence: it was gathered for a different source than the one to submit")
    return GateDecision(
        problem_id=problem.id,
        language=solution.language,
        source_sha256=sha,
        allowed=not reasons,
        reasons=reasons,
        checks=checks,
        summary={c.name: c.detail if c.passed is not None else f"missing ({c.detail})" for c in checks},
    )


def _solve_verdict(evidence: GateEvidence, config: GateConfig) -> str:
    """Why the solve's own word refuses the answer ("" when it called it solved, or it came from no solve)."""
    status = evidence.solve_status
    if status is None or status == "solved" or (status == "unverified" and config.allow_unverified):
        return ""
    allow = " (--allow-unverified submits it)" if status == "unverified" else ""
    return f"solve: returned {status}{allow}: {evidence.solve_reason}"


def _report_check(name: CheckName, report: JudgeReport | None, required: bool, minimum: int, what: str) -> GateCheck:
    if report is None:
        return GateCheck(name=name, required=required, passed=None, detail=f"no {what} were judged")
    if report.verdict == Verdict.IE:
        why = f": {report.reason}" if report.reason else ""
        return GateCheck(name=name, required=required, passed=False, detail=f"the judge failed (IE){why}")
    if report.total < max(minimum, 1):
        return GateCheck(
            name=name,
            required=required,
            passed=False,
            detail=f"only {report.total} {what} judged, at least {max(minimum, 1)} needed",
        )
    # a test without an expected output (RAN) only shows the program does not crash: it is not a failure
    if report.verdict != Verdict.AC or report.passed < report.total - report.unchecked:
        bad = next((r for r in report.results if r.verdict not in (Verdict.AC, Verdict.RAN)), None)
        where = ""
        if bad is not None:
            label = bad.name or f"test {bad.index}"
            where = f", first failure {label}: {bad.verdict}"
            if bad.checker_message:
                where += f" ({bad.checker_message})"
            elif bad.diff is not None:
                where += f" (line {bad.diff.line}: expected {bad.diff.expected!r}, got {bad.diff.got!r})"
        return GateCheck(
            name=name,
            required=required,
            passed=False,
            detail=f"{report.verdict} on {what}, {report.passed}/{report.total} passed{where}",
        )
    return GateCheck(name=name, required=required, passed=True, detail=f"AC {report.passed}/{report.total}")


def _samples(report: JudgeReport | None, required: bool) -> GateCheck:
    return _report_check("samples", report, required, 1, "samples")


def _generated(report: JudgeReport | None, required: bool, minimum: int) -> GateCheck:
    return _report_check("generated", report, required, minimum, "generated tests")


def _stress(report: StressReport | None, required: bool, min_runs: int) -> GateCheck:
    if report is None:
        return GateCheck(name="stress", required=required, passed=None, detail="no stress test was run")
    if report.status == "found":
        f = report.failure
        if f is None:
            detail = "found a difference from the brute force"
        else:
            detail = (
                f"found a difference from the brute force ({f.verdict} on an input of size {f.size}, "
                f"expected {_short(f.expected)!r}, got {_short(f.got)!r})"
            )
        return GateCheck(name="stress", required=required, passed=False, detail=detail)
    compared = report.runs - report.starved  # an input skipped for want of CPU compared nothing
    skipped = f" ({report.starved} skipped: starved of CPU)" if report.starved else ""
    if compared < max(min_runs, 1):
        return GateCheck(
            name="stress",
            required=required,
            passed=False,
            detail=f"only {compared} stress runs compared, at least {max(min_runs, 1)} needed{skipped}",
        )
    return GateCheck(name="stress", required=required, passed=True, detail=f"clean after {compared} runs{skipped}")


def _profile(report: ProfileReport | None, required: bool, problem: Problem, margin: float) -> GateCheck:
    if report is None:
        return GateCheck(name="profile", required=required, passed=None, detail="no profile was made")
    limit_ms = problem.limits.time_ms * margin
    limit_kb = problem.limits.memory_mb * 1024
    bad_points = [p for p in report.points if p.status != "ok"]
    problems: list[str] = []
    if bad_points:
        p = bad_points[0]
        problems.append(f"the run at n={p.size} ended {p.status}")
    if report.predicted_ms_at_max is not None and report.predicted_ms_at_max > limit_ms:
        problems.append(
            f"predicted {report.predicted_ms_at_max:.0f} ms at the largest input, over the "
            f"{problem.limits.time_ms} ms limit"
        )
    if report.predicted_kb_at_max is not None and report.predicted_kb_at_max > limit_kb:
        problems.append(
            f"predicted {report.predicted_kb_at_max / 1024:.0f} MB at the largest input, over the "
            f"{problem.limits.memory_mb} MB limit"
        )
    if report.efficient is False and not problems:
        problems.append(report.reason or "the profile says the solution is too slow")
    if report.efficient is None and not problems:
        problems.append(f"the profile is inconclusive{': ' + report.reason if report.reason else ''}")
    complexity = report.complexity or "unknown complexity"
    if problems:
        return GateCheck(
            name="profile", required=required, passed=False, detail=f"{complexity}; " + "; ".join(problems)
        )
    predicted = (
        f", {report.predicted_ms_at_max:.0f} ms predicted at max" if report.predicted_ms_at_max is not None else ""
    )
    return GateCheck(name="profile", required=required, passed=True, detail=f"{complexity}{predicted}, within limits")


def _short(text: str, limit: int = 40) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."
