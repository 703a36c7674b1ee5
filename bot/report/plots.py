"""The PNG plots, drawn with matplotlib (imported on first use, with a file-only backend): a profile's
CPU time against n (`cpbot profile --plot`), a bench's accuracy against tokens (`cpbot bench --plot`) and
a score-based search's best score over time (`scripts/perf/ale_search.py`).
The HTML export draws its own plots as inline SVG (`bot/report/export/svg.py`) from the same fitted curve.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cpbot.core.errors import CpbotError
from cpbot.judge.model import ProfileReport
from cpbot.judge.profile import fitted_time

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from cpbot.bot.bench.runner import BenchReport


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # no display: render to a file only
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Figure, path: Path, **options: Any) -> Path:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, format="png", **options)
    except OSError as e:
        raise CpbotError(f"cannot write the plot to {path}: {e.strerror}", hint="choose a writable path") from e
    finally:
        _pyplot().close(fig)
    return path


def save_profile_png(report: ProfileReport, path: Path, *, time_limit_ms: int | None = None, title: str = "") -> None:
    """A profile's CPU time against n on log-log axes: the measured points, failed runs, the profiler's
    fitted curve (`judge.profile.fitted_time`) and the time limit, written to `path`."""
    plt = _pyplot()
    if len(report.points) < 2:
        raise CpbotError("nothing to plot: the profile has no measured sizes", hint="profile with a larger --max-n")
    points = report.points[1:]  # the first is the start-up cost at n = 1
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    ok = [p for p in points if p.status == "ok"]
    bad = [p for p in points if p.status != "ok"]
    ax.plot([p.size for p in ok], [max(p.cpu_ms, 0.01) for p in ok], "o", color="#1f5fa8", label="measured (min CPU)")
    if bad:
        ax.plot(
            [p.size for p in bad],
            [max(p.cpu_ms, 0.01) for p in bad],
            "x",
            color="#c0392b",
            ms=9,
            label="failed (" + ", ".join(sorted({p.status for p in bad})) + ")",
        )
    curve = fitted_time(report)
    if curve is not None:
        lo, hi = min(p.size for p in points), max(p.size for p in points)
        xs = [lo * (hi / lo) ** (i / 60) for i in range(61)]
        ax.plot(
            xs,
            [max(curve(x), 0.01) for x in xs],
            "-",
            color="#7f8c8d",
            label=f"fitted {report.complexity}" + (" (ambiguous)" if report.ambiguous else ""),
        )
    if time_limit_ms:
        ax.axhline(time_limit_ms, color="#c0392b", ls="--", lw=1, label=f"time limit {time_limit_ms} ms")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("CPU time (ms)")
    read_from = "instruction counts" if report.metric == "instructions" else "CPU time"
    ax.set_title(title or f"{report.complexity or '?'} (class read from {read_from})")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    _save(fig, path)


def bench_figure(report: BenchReport) -> Figure:
    """Accuracy (AC rate) against mean tokens per problem, one labelled point per strategy; the legend
    sits right of the axes so that it covers no point and no label."""
    fig, ax = _pyplot().subplots(figsize=(8.0, 4.8), dpi=100)
    most = 0.0
    for s in report.strategies:
        m = s.overall
        tokens = m.prompt_tokens + m.completion_tokens
        most = max(most, tokens)
        ax.scatter([tokens], [100 * m.ac_rate], s=60, label=s.strategy)
        ax.annotate(s.strategy, (tokens, 100 * m.ac_rate), textcoords="offset points", xytext=(6, 6))
    ax.set_xlabel("tokens per problem (prompt + completion, mean)")
    ax.set_ylabel("accuracy: AC rate on hidden tests (%)")
    ax.set_ylim(-5, 112)  # room above 100% for the labels
    ax.set_xlim(0, most * 1.3 if most > 0 else 1.0)  # room right of the last point for its label
    ax.set_title(f"{report.dataset}, {report.model} ({report.problems} problems)\nbetter: up and to the left")
    ax.grid(True, alpha=0.3)
    if report.strategies:
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, title="strategy")
    return fig


def save_bench_png(report: BenchReport, path: Path) -> Path:
    """The bench figure of `report`, written as a PNG."""
    return _save(bench_figure(report), path, bbox_inches="tight")


def save_search_png(
    leader: list[tuple[float, float]], references: dict[str, float], path: Path, *, title: str = ""
) -> Path:
    """A search's best score over time (seconds, mean score at each change of leader, as steps) with
    horizontal lines for reference programs (the first one, the best of a pool), written to `path`."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    if leader:
        times = [t for t, _ in leader]
        scores = [s for _, s in leader]
        ax.step(times, scores, where="post", label="best so far", color="tab:blue")
        ax.plot(times, scores, "o", color="tab:blue", markersize=4)
    for (name, value), style in zip(references.items(), ("--", ":", "-."), strict=False):
        ax.axhline(value, linestyle=style, color="grey", label=name)
    ax.set_xlabel("seconds since the start")
    ax.set_ylabel("mean score on the seeds")
    ax.set_title(title or "search: best score over time")
    ax.legend(loc="lower right")
    return _save(fig, path, dpi=100, bbox_inches="tight")
