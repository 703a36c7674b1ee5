"""Inline SVG pictures for the export, drawn in Python: the contest timeline and profile plots.

Every piece of text that goes into an SVG passes through `escape`, since problem ids and labels come
from sites and models. The SVGs carry `role="img"` and a `<title>` so they read as pictures.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from markupsafe import escape

from cpbot.judge.model import ProfileReport
from cpbot.judge.profile import fitted_time

TONE_COLOURS = {"ok": "#1a7f37", "bad": "#cf222e", "info": "#57606a"}
MARKERS = {"attempt": "circle", "gate": "diamond", "submission": "triangle", "shadow": "hollow", "verdict": "square"}


def _e(text: object) -> str:
    return str(escape(str(text)))


def _fmt(x: float) -> str:
    return f"{x:.1f}"


def _duration(seconds: float) -> str:
    if seconds < 10:
        return f"{round(seconds, 2):g}s"  # sub-second ticks of a short run stay distinct
    if seconds < 120:
        return f"{seconds:.0f}s"
    if seconds < 7200:
        return f"{seconds / 60:.0f}m"
    return f"{seconds / 3600:.1f}h"


def _nice_step(span: float, ticks: int = 6) -> float:
    raw = span / max(ticks, 1)
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    return next((m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw), 10 * magnitude)


def _marker(shape: str, x: float, y: float, colour: str, title: str) -> str:
    t = f"<title>{_e(title)}</title>"
    if shape == "circle":
        return f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="5" fill="{colour}">{t}</circle>'
    if shape == "diamond":
        pts = f"{_fmt(x)},{_fmt(y - 6)} {_fmt(x + 6)},{_fmt(y)} {_fmt(x)},{_fmt(y + 6)} {_fmt(x - 6)},{_fmt(y)}"
        return f'<polygon points="{pts}" fill="none" stroke="{colour}" stroke-width="2">{t}</polygon>'
    if shape in ("triangle", "hollow"):  # hollow: a submission that was only recorded, never posted
        pts = f"{_fmt(x)},{_fmt(y - 6)} {_fmt(x + 6)},{_fmt(y + 5)} {_fmt(x - 6)},{_fmt(y + 5)}"
        paint = f'fill="{colour}"' if shape == "triangle" else f'fill="none" stroke="{colour}" stroke-width="2"'
        return f'<polygon points="{pts}" {paint}>{t}</polygon>'
    return f'<rect x="{_fmt(x - 5)}" y="{_fmt(y - 5)}" width="10" height="10" fill="{colour}">{t}</rect>'


def _tick_label(t: float, step: float, hi: float) -> str:
    """Seconds for short runs ("40s"), otherwise the clock since the run started ("1:05" = 1 h 5 min,
    or minutes and seconds when the ticks are less than a minute apart)."""
    if hi < 120:
        decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0
        return f"{t:.{decimals}f}s"
    s = round(t)
    if step >= 60:
        return f"{s // 3600}:{s % 3600 // 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


# Steps a clock reads well: seconds, minutes, hours (below a second the decimal steps of `_nice_step` apply).
_CLOCK_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400)


def _time_step(span: float, ticks: int) -> float:
    raw = span / max(ticks, 1)
    if raw < 1:
        return _nice_step(span, ticks)
    return float(next((step for step in _CLOCK_STEPS if step >= raw), math.ceil(raw / 86400) * 86400))


def axis_range(offsets: Sequence[float], lane_offsets: Sequence[float], ticks: int = 6) -> tuple[float, float, float]:
    """(start, end, step) of a time axis fitted to the moments: from a tick at or before the first to one at
    or after the last. `lane_offsets` are the problems' moments: when the run's own earlier moments (e.g. hours
    of waiting for a round) would take over half the axis, the axis starts at the problems' first moment."""
    if not offsets:
        return 0.0, 1.0, _nice_step(1.0, ticks)
    lo, hi = min(offsets), max(offsets)
    if lane_offsets and min(lane_offsets) - lo > (hi - lo) / 2:
        lo = min(lane_offsets)
    span = hi - lo if hi - lo > 1e-6 else 1.0
    step = _time_step(span, ticks)
    start = math.floor(lo / step + 1e-9) * step
    end = math.ceil(hi / step - 1e-9) * step
    if end <= start:
        end = start + step
    return start, end, step


def shorten(label: str, limit: int) -> str:
    """`label` in at most `limit` characters, cut at a word boundary (space, `-`, `_`, `/`) with an ellipsis."""
    if len(label) <= limit:
        return label
    head = label[: max(limit - 1, 1)]
    cut = max(head.rfind(c) for c in " -_/·")
    if cut >= limit // 3:
        head = head[:cut]
    return head.rstrip(" -_/·") + "\u2026"


def timeline(
    lanes: Sequence[str],
    entries: Sequence[tuple[float, str, str, str, str]],
    end_s: float,
    *,
    width: int = 900,
    root_lane: str = "contest",
    title: str = "Contest timeline",
) -> str:
    """The timeline: one lane per problem run (and `root_lane` for the root run's own events), a bar
    from a run's start to its end, and markers for attempts, gate decisions, submissions and final
    verdicts. `entries` are (offset_s, lane, kind, label, tone). Lane names too long for the margin
    are shortened at a word boundary; the whole name is the row's tooltip."""
    # the margin grows with the names, up to a third of the picture (about 6.6 px a character at 12 px)
    longest = max((len(lane) for lane in lanes), default=0)
    left = int(min(max(170, 6.6 * longest + 16), width / 3))
    limit = int((left - 16) / 6.6)
    right, lane_h, top = 34, 28, 10  # room for half of the last tick's label
    height = top + lane_h * max(len(lanes), 1) + 34
    offsets = [e[0] for e in entries if e[1] in lanes] + [end_s]
    lo, hi, step = axis_range(offsets, [e[0] for e in entries if e[1] in lanes and e[1] != root_lane])
    scale = (width - left - right) / (hi - lo)

    def x_of(t: float) -> float:
        return left + (min(max(t, lo), hi) - lo) * scale  # earlier moments sit at the left edge

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="timeline" role="img" viewBox="0 0 {width} {height}"'
        f' width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
        f"<title>{_e(title)}</title>",
    ]
    row = {lane: i for i, lane in enumerate(lanes)}
    for lane, i in row.items():
        y = top + lane_h * i + lane_h / 2
        parts.append(
            f'<g class="lane"><title>{_e(lane)}</title><text x="{left - 8}" y="{_fmt(y + 4)}"'
            f' text-anchor="end">{_e(shorten(lane, limit))}</text></g>'
        )
        parts.append(f'<line x1="{left}" y1="{_fmt(y)}" x2="{width - right}" y2="{_fmt(y)}" stroke="#d0d7de"/>')
        times = [e for e in entries if e[1] == lane and e[2] in ("start", "end", "now")]
        if len(times) >= 2:
            (t0, *_), (t1, _, _, label, tone) = times[0], times[-1]
            parts.append(
                f'<rect x="{_fmt(x_of(t0))}" y="{_fmt(y - 4)}" width="{_fmt(max(2.0, (t1 - t0) * scale))}"'
                f' height="8" rx="3" fill="{TONE_COLOURS[tone]}" opacity="0.25"><title>{_e(label)}</title></rect>'
            )
    for offset, lane, kind, label, tone in entries:
        if lane not in row:
            continue
        y = top + lane_h * row[lane] + lane_h / 2
        shape = MARKERS.get(kind, "circle" if lane == root_lane else "")
        if shape:
            parts.append(_marker(shape, x_of(offset), y, TONE_COLOURS[tone], f"{_duration(offset)} {label}"))
    axis_y = top + lane_h * max(len(lanes), 1) + 6
    parts.append(f'<line x1="{left}" y1="{axis_y}" x2="{width - right}" y2="{axis_y}" stroke="#57606a"/>')
    n = round((hi - lo) / step)
    for i in range(n + 1):
        t = lo + i * step
        x = x_of(t)
        parts.append(f'<line x1="{_fmt(x)}" y1="{axis_y}" x2="{_fmt(x)}" y2="{axis_y + 5}" stroke="#57606a"/>')
        parts.append(f'<text x="{_fmt(x)}" y="{axis_y + 18}" text-anchor="middle">{_tick_label(t, step, hi)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def profile_plot(report: ProfileReport, *, width: int = 520, height: int = 300) -> str:
    """CPU time against input size (log-scaled sizes when they span more than a decade), each measured
    point (failed runs in red), and the fitted curve of the reported complexity class."""
    points = sorted(report.points, key=lambda p: p.size)
    left, right, top, bottom = 60, 34, 28, 40
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="profile" role="img" viewBox="0 0 {width} {height}"'
        f' width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
        f"<title>CPU time against n, fitted {_e(report.complexity or 'no class')}</title>",
    ]
    if not points:
        parts.append(f'<text x="{width / 2}" y="{height / 2}" text-anchor="middle">no measurements</text></svg>')
        return "".join(parts)
    curve: list[tuple[float, float]] = []
    n_lo, n_hi = max(points[0].size, 1), max(points[-1].size, 1)
    fitted = fitted_time(report)  # the profiler's own curve, as its report and the PNG draw it
    if fitted is not None:
        steps = 60
        for i in range(steps + 1):
            n = n_lo * (n_hi / n_lo) ** (i / steps) if n_hi > n_lo else float(n_lo)
            curve.append((n, max(0.0, fitted(n))))
    log_x = n_hi / n_lo > 10
    y_max = max([p.cpu_ms for p in points] + [c[1] for c in curve] + [1.0]) * 1.1
    plot_w, plot_h = width - left - right, height - top - bottom

    def x_of(n: float) -> float:
        if n_hi == n_lo:
            return left + plot_w / 2
        if log_x:
            return left + plot_w * (math.log(max(n, n_lo)) - math.log(n_lo)) / (math.log(n_hi) - math.log(n_lo))
        return left + plot_w * (n - n_lo) / (n_hi - n_lo)

    def y_of(ms: float) -> float:
        return top + plot_h * (1 - ms / y_max)

    # axes and ticks
    base = top + plot_h
    parts.append(f'<line x1="{left}" y1="{base}" x2="{left + plot_w}" y2="{base}" stroke="#57606a"/>')
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{base}" stroke="#57606a"/>')
    step = _nice_step(y_max, 5)
    tick = 0.0
    while tick <= y_max:
        y = y_of(tick)
        parts.append(f'<line x1="{left - 4}" y1="{_fmt(y)}" x2="{left + plot_w}" y2="{_fmt(y)}" stroke="#eaeef2"/>')
        parts.append(f'<text x="{left - 6}" y="{_fmt(y + 4)}" text-anchor="end">{tick:g}</text>')
        tick += step
    for p in points if len(points) <= 8 else points[:: max(1, len(points) // 6)]:
        x = x_of(p.size)
        parts.append(f'<text x="{_fmt(x)}" y="{base + 15}" text-anchor="middle">{p.size:,}</text>')
    parts.append(
        f'<text x="{left + plot_w / 2}" y="{height - 6}" text-anchor="middle">n{" (log scale)" if log_x else ""}</text>'
    )
    parts.append(f'<text x="12" y="{top + plot_h / 2}" transform="rotate(-90 12 {top + plot_h / 2})"'
                 ' text-anchor="middle">CPU ms</text>')  # fmt: skip
    if curve:
        path = " ".join(f"{'M' if i == 0 else 'L'}{_fmt(x_of(n))},{_fmt(y_of(ms))}" for i, (n, ms) in enumerate(curve))
        parts.append(f'<path class="fit" d="{path}" fill="none" stroke="#0969da" stroke-width="2"/>')
    for p in points:
        colour = TONE_COLOURS["ok" if p.status == "ok" else "bad"]
        parts.append(
            f'<circle class="point" cx="{_fmt(x_of(p.size))}" cy="{_fmt(y_of(p.cpu_ms))}" r="3.5" fill="{colour}">'
            f"<title>n={p.size:,}: {p.cpu_ms:.1f} ms, {p.peak_kb:,} KB, {_e(p.status)}</title></circle>"
        )
    legend = f"fitted {report.complexity}" if curve else "no class fitted"
    if report.r2 is not None:
        legend += f", r\u00b2 {report.r2:.3f}"
    if report.predicted_ms_at_max is not None:
        legend += f"; predicted {report.predicted_ms_at_max:.0f} ms at the largest n"
    parts.append(f'<text x="{left}" y="16" fill="#0969da">{_e(legend)}</text>')
    parts.append("</svg>")
    return "".join(parts)
