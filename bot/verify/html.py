"""The `cpbot verify` report as one self-contained HTML page, with the transcript export's template environment
and styles (`templates/report/verify.html.j2`): autoescaped, as a package's names and messages are untrusted."""

from __future__ import annotations

from cpbot.bot.report.export.html import environment
from cpbot.bot.verify.report import Finding, Status, VerifyReport

PAGE = "verify.html.j2"
ORDER = {Status.ERROR: 0, Status.WARNING: 1, Status.OK: 2, Status.SKIPPED: 3}


def render_verify_html(report: VerifyReport) -> str:
    """The page for `report`: a section per check (errors first), the submissions' verdicts, the notes."""
    findings: dict[str, list[Finding]] = {}
    for finding in report.findings:
        findings.setdefault(finding.check, []).append(finding)
    for rows in findings.values():
        rows.sort(key=lambda f: ORDER[f.status])
    counts = [(s.value, n) for s in Status if (n := sum(f.status is s for f in report.findings))]
    return environment().get_template(PAGE).render(r=report, checks=list(findings), findings=findings, counts=counts)
