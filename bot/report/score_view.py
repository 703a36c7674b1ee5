"""`cpbot judge` on a score-based problem, on the terminal: a line per seed as it ends, then the summary
(total, mean and spread, failures, the slowest run) and, with `--against`, the paired comparison."""

from __future__ import annotations

from cpbot.bot.report.render import verdict_text
from cpbot.judge.compare import Comparison
from cpbot.judge.model import Limits, Verdict
from cpbot.judge.scoring import ScoreReport, SeedScore

WIDTH = 100


def number(value: float) -> str:
    """A score as contests print them: integers without decimals, with thousands separators."""
    return f"{value:,.0f}" if abs(value - round(value)) < 1e-9 or abs(value) >= 1e6 else f"{value:,.3f}"


def seed_line(s: SeedScore) -> str:
    """One seed in one line: its score (the runs' spread when repeated), its time, what went wrong."""
    runs = f"  runs {', '.join(number(r) for r in s.runs)}" if len(s.runs) > 1 else ""
    head = f"seed {s.seed:>5}  {verdict_text(s.verdict)}  {number(s.score):>15}  {s.cpu_ms:7.0f} ms{runs}"
    if s.verdict != Verdict.AC and s.message:
        message = s.message.strip().splitlines()[0] if s.message.strip() else ""
        head += f"  {message[:WIDTH]}"
    return head


def summary(report: ScoreReport, limits: Limits, contest_total: float) -> list[str]:
    """The lines after the seeds: how it went as a whole."""
    if report.verdict in (Verdict.CE, Verdict.IE):
        lines = [f"{verdict_text(report.verdict)}: {report.reason}"]
        if report.compile_log.strip():
            lines.append(report.compile_log.strip()[-2000:])
        return lines
    goal = "larger" if report.objective == "maximize" else "smaller"
    slowest = max((s.cpu_ms for s in report.seeds), default=0.0)
    lines = [
        f"{len(report.seeds)} seeds ({goal} is better): total {number(report.total)}, "
        f"mean {number(report.mean)} +- {number(report.stdev)} (sd)",
        f"slowest run {slowest:.0f} ms of {limits.time_ms} ms"
        + (f", each seed run {report.repeats} times" if report.repeats > 1 else ""),
    ]
    if contest_total != report.total:
        lines.append(f"contest score (relative to the best per seed): {number(contest_total)}")
    if report.failed:
        lines.append(f"{report.failed} seeds failed and scored as failures: {report.reason}")
    return lines


def comparison_lines(name_a: str, name_b: str, c: Comparison) -> list[str]:
    """A paired comparison in words: the mean advantage, its 95% interval, and the verdict."""
    pct = f" ({100 * c.relative_diff:+.2f}%)" if c.relative_diff else ""
    verdict = {"a": f"{name_a} is better", "b": f"{name_b} is better", "tie": "no difference shown"}[c.better]
    return [
        f"{name_a} against {name_b} on {c.seeds} seeds: mean {number(c.mean_a)} vs {number(c.mean_b)}",
        f"advantage of {name_a} per seed {number(c.mean_diff)}{pct}, 95% interval "
        f"[{number(c.ci_low)}, {number(c.ci_high)}]: {verdict}",
    ]
