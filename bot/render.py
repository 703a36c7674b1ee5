"""Human-readable output of reports on the terminal."""

from __future__ import annotations

import click

from judge.model import JudgeReport, Limits, Verdict

COLORS = {Verdict.AC: "green", Verdict.IE: "magenta", Verdict.CE: "yellow"}


def verdict_text(verdict: Verdict) -> str:
    return click.style(verdict.value, fg=COLORS.get(verdict, "red"), bold=True)


def print_report(report: JudgeReport, limits: Limits) -> None:
    """One line per test, the first difference of a failure, then the overall verdict."""
    if report.verdict == Verdict.CE:
        click.echo(report.compile_log.rstrip())
    for r in report.results:
        rerun = f"  (re-run {r.reruns}x)" if r.reruns else ""
        click.echo(
            f"{r.index:>4} {r.name:<16} {verdict_text(r.verdict):<4} "
            f"{r.cpu_ms:>8.0f} ms {r.peak_kb / 1024:>8.1f} MB{rerun}"
        )
        if r.verdict != Verdict.AC:
            if r.checker_message:
                click.echo(f"       {r.checker_message}")
            if r.diff:
                where = f"line {r.diff.line}" + (f", token {r.diff.token}" if r.diff.token else "")
                click.echo(f"       {where}: expected {r.diff.expected!r}, got {r.diff.got!r}")
    summary = f"{verdict_text(report.verdict)} {report.passed}/{report.total} tests"
    summary += f"  (TL {limits.time_ms} ms, ML {limits.memory_mb} MB)"
    click.echo(summary)
    if report.verdict in (Verdict.IE,) and report.reason:
        click.echo(f"judge error: {report.reason}", err=True)
