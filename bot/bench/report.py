"""A bench report as one metrics table: Markdown for the terminal, CSV for a spreadsheet, and rows for the HTML
export (its PNG of accuracy against tokens is `bot.report.plots.save_bench_png`)."""

from __future__ import annotations

import csv
import io

from pydantic import BaseModel, ConfigDict

from cpbot.bot.bench.metrics import Metrics
from cpbot.bot.bench.passk import reportable_ks
from cpbot.bot.bench.runner import BenchReport


class MetricTable(BaseModel):
    """Every strategy's metrics, overall (difficulty "all") and by difficulty: one row of text cells each."""

    model_config = ConfigDict(extra="forbid")

    columns: list[str]  # "strategy", "difficulty", "n", then the metrics
    rows: list[list[str]]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _opt(x: float | None, fmt: str) -> str:
    return "-" if x is None else format(x, fmt)


def _columns(k: int, timings: bool, lcb_ks: list[int], scored: bool = False, ranked: bool = False) -> list[str]:
    cols = ["mean score"] if scored else []
    cols += ["rank %ile", "perf"] if ranked else []
    cols += ["pass@1", *(f"SOLVED@<={j}" for j in range(2, k + 1)), "EFF@1", "AC", "wrong solved", "unverified"]
    cols += ["CPR", "wCPR", "CPS"]
    cols += [f"LCB pass@{j}" for j in lcb_ks]
    if timings:
        cols += ["time ms (AC)", "mem MB (AC)"]
    cols += ["TLE", "MLE", "prompt tok", "compl tok", "calls"]
    if timings:
        cols.append("wall s")
    return cols


def _cells(
    m: Metrics, k: int, timings: bool, lcb_ks: list[int], scored: bool = False, ranked: bool = False
) -> list[str]:
    cells = [_opt(m.mean_score, ",.1f")] if scored else []
    cells += [_opt(m.mean_rank_percentile, ".1f"), _opt(m.mean_performance, ".0f")] if ranked else []
    cells += [_pct(m.pass_at_1), *(_pct(m.solved_at.get(j, 0.0)) for j in range(2, k + 1))]
    cells += [_pct(m.eff_at_1), _pct(m.ac_rate), _pct(m.wrong_solved_rate), _pct(m.unverified_rate)]
    cells += [_pct(m.case_pass_rate), _pct(m.weighted_case_pass_rate)]
    cells.append(_pct(m.case_pass_score))
    cells += [_pct(m.pass_at[f"pass@{j}"]) if f"pass@{j}" in m.pass_at else "-" for j in lcb_ks]
    if timings:
        memory = None if m.mean_memory_kb_ac is None else m.mean_memory_kb_ac / 1024
        cells += [_opt(m.mean_time_ms_ac, ".0f"), _opt(memory, ".1f")]
    cells += [_pct(m.tle_rate), _pct(m.mle_rate), f"{m.prompt_tokens:.0f}", f"{m.completion_tokens:.0f}"]
    cells.append(f"{m.calls:.1f}")
    if timings:
        cells.append(f"{m.seconds:.1f}")
    return cells


def _scored(report: BenchReport) -> bool:
    """Whether the bench had score-based problems: their mean score is then the first metric (and the rates
    count each seed scored as a test)."""
    return any(s.overall.mean_score is not None for s in report.strategies)


def _ranked(report: BenchReport) -> bool:
    """Whether some score-based problem had recorded standings: the rank and performance then follow the score."""
    return any(s.overall.mean_rank_percentile is not None for s in report.strategies)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def metric_table(report: BenchReport, *, timings: bool = True, every_k: bool = True) -> MetricTable:
    """The metrics as a table; rates in percent. `every_k`: LiveCodeBench's pass@k for every k up to the samples
    per problem (else LiveCodeBench's own 1, 5, 10)."""
    k = report.k
    lcb_ks = list(range(1, report.samples + 1)) if every_k else reportable_ks([report.samples])
    scored, ranked = _scored(report), _ranked(report)
    rows = [["strategy", "difficulty", "n", *_columns(k, timings, lcb_ks, scored, ranked)]]
    for s in report.strategies:
        groups = [("all", s.overall), *s.by_difficulty.items()]
        rows += [
            [s.strategy, name, str(m.problems), *_cells(m, k, timings, lcb_ks, scored, ranked)] for name, m in groups
        ]
    return MetricTable(columns=rows[0], rows=rows[1:])


def csv_text(table: MetricTable) -> str:
    """The table as CSV (a header line, then a line per row)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table.columns)
    writer.writerows(table.rows)
    return out.getvalue()


def markdown(report: BenchReport, *, timings: bool = True) -> str:
    """The overall table (one row per strategy) and the table by difficulty; rates in percent.

    `timings=False` leaves out the columns that depend on the machine's speed (time, memory, wall
    seconds), so two benches of the same programs give identical text.
    """
    k = report.k
    lcb_ks = reportable_ks([report.samples])
    scored, ranked = _scored(report), _ranked(report)
    cols = _columns(k, timings, lcb_ks, scored, ranked)
    lines = [
        f"bench {report.run_id}: {report.dataset}, {report.problems} problems, model {report.model}, {report.language}",
        "",
        _row(["strategy", "n", *cols]),
        _row(["---"] * (len(cols) + 2)),
    ]
    for s in report.strategies:
        cells = _cells(s.overall, k, timings, lcb_ks, scored, ranked)
        lines.append(_row([s.strategy, str(s.overall.problems), *cells]))
    lines += ["", _row(["strategy", "difficulty", "n", *cols]), _row(["---"] * (len(cols) + 3))]
    for s in report.strategies:
        for difficulty, m in s.by_difficulty.items():
            cells = _cells(m, k, timings, lcb_ks, scored, ranked)
            lines.append(_row([s.strategy, difficulty, str(m.problems), *cells]))
    lines += [
        "",
        "Rates in %. pass@1 and SOLVED@<=k judge the strategy's first k programs on the hidden tests; AC, CPR "
        "(case pass rate), wCPR (weighted), CPS (case pass score), TLE and MLE judge the program it returned. "
        "LCB pass@k is LiveCodeBench's unbiased estimate over the returned programs of "
        f"{report.samples} independent solve(s) per problem. "
        "Tokens, calls and wall time are means per solve. "
        + (
            "rank %ile: the returned program's total against the recorded final standings (100 = first), perf: "
            "the performance it would have had, both means over the problems with standings. "
            if ranked
            else ""
        )
        + "Definitions: docs/bench.md.",
    ]
    lines += _placings(report)
    return "\n".join(lines) + "\n"


def _placings(report: BenchReport) -> list[str]:
    """Each ranked problem's rank and performance per strategy, with how they were reached (a total scaled from
    local seeds to the system test, the performance method)."""
    ranked = [o for o in report.outcomes if o.final.rank is not None]
    if not ranked:
        return []
    lines = ["", "Placings against the recorded final standings:"]
    for o in ranked:
        final = o.final
        perf = f", performance {final.performance}" if final.performance is not None else ""
        lines.append(f"- {o.key} ({o.strategy}): rank {final.rank} of {final.participants}{perf}")
        lines += [f"  - {note}" for note in final.placing_notes]
    return lines
