"""Human-readable output of reports on the terminal."""

from __future__ import annotations

import math

import click

from cpbot.judge.model import JudgeReport, Limits, ProfileReport, StressReport, Verdict

COLORS = {Verdict.AC: "green", Verdict.IE: "magenta", Verdict.CE: "yellow", Verdict.RAN: "cyan"}


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
    checked = report.total - report.unchecked
    summary = f"{verdict_text(report.verdict)} {report.passed}/{checked} checked tests"
    if report.unchecked:
        summary += f", {report.unchecked} ran unchecked (no expected output)"
    summary += f"  (TL {limits.time_ms} ms, ML {limits.memory_mb} MB)"
    click.echo(summary)
    if report.verdict in (Verdict.IE,) and report.reason:
        click.echo(f"judge error: {report.reason}", err=True)
    if report.verdict == Verdict.RAN:
        click.echo(f"not judged: {report.reason}", err=True)


def print_profile(report: ProfileReport, width: int = 40) -> None:
    """Time against n as a bar chart on a log scale, then the fitted class and the verdict."""
    ok = [p.cpu_ms for p in report.points if p.cpu_ms > 0]
    top, bottom = math.log10(max(ok, default=1.0)), math.log10(max(min(ok, default=1.0), 0.01))
    span = max(top - bottom, 1e-9)
    click.echo(f"{'n':>12} {'cpu ms':>10} {'peak MB':>8}  time (log scale)")
    for p in report.points:
        bar = "#" * max(1, round((math.log10(max(p.cpu_ms, 0.01)) - bottom) / span * width))
        mark = "" if p.status == "ok" else f"  {p.status.upper()}"
        click.echo(f"{p.size:>12} {p.cpu_ms:>10.1f} {p.peak_kb / 1024:>8.1f}  {bar}{mark}")
    fit = f"{report.complexity}{' (ambiguous)' if report.ambiguous else ''}"
    if report.slope is not None:
        fit += f", log-log slope {report.slope:.2f} (R^2 {report.r2:.3f})"
    click.echo(f"fit: {fit}")
    verdict = click.style(
        "efficient" if report.efficient else "too slow or too big", fg="green" if report.efficient else "red", bold=True
    )
    click.echo(f"{verdict}: {report.reason}")


def print_stress(report: StressReport) -> None:
    """The outcome of a stress run and, on a failure, the smallest input with both outputs."""
    if report.failure is None:
        click.echo(click.style("clean", fg="green", bold=True) + f": {report.reason} in {report.seconds:.1f} s")
        return
    f = report.failure
    click.echo(
        f"{verdict_text(f.verdict)} after {report.runs} runs ({report.seconds:.1f} s): n={f.size}, "
        f"seed={f.seed} (first seen at n={report.first_failure_size})"
    )
    if f.message:
        click.echo(f"  {f.message}")
    for title, text in (("input", f.input), ("expected (brute force)", f.expected), ("got", f.got)):
        click.echo(f"--- {title}")
        click.echo(text.rstrip("\n"))
