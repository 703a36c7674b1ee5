"""A PNG of a profile: CPU time against n, the fitted class's curve, failed runs and the time limit."""

from __future__ import annotations

import math
from pathlib import Path

from cpbot.core.errors import CpbotError
from cpbot.judge.complexity import fit_class
from cpbot.judge.model import ProfileReport
from cpbot.judge.profile import usable_points


def save_profile_png(report: ProfileReport, path: Path, *, time_limit_ms: int | None = None, title: str = "") -> None:
    """Write the plot to `path` (PNG); matplotlib is imported only here, with a file-only backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if len(report.points) < 2:
        raise CpbotError("nothing to plot: the profile has no measured sizes", hint="profile with a larger --max-n")
    base, *points = report.points
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
    usable = usable_points(points, base)
    if report.complexity and len(usable) >= 2:
        fit = fit_class(report.complexity, [p.size for p in usable], [p.cpu_ms - base.cpu_ms for p in usable])
        if math.isfinite(fit.error):
            lo, hi = min(p.size for p in points), max(p.size for p in points)
            xs = [lo * (hi / lo) ** (i / 60) for i in range(61)]
            ax.plot(
                xs,
                [max(base.cpu_ms + fit.predict(x), 0.01) for x in xs],
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
    try:
        fig.savefig(path, format="png")
    except OSError as e:
        raise CpbotError(f"cannot write the plot to {path}: {e.strerror}", hint="choose a writable path") from e
    finally:
        plt.close(fig)
