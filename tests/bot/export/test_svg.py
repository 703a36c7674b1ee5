"""The inline SVGs: well-formed, escaped, and the fitted curve follows the measurements."""

from __future__ import annotations

import re

from lxml import etree

from cpbot.bot.report.export import svg
from cpbot.judge.model import ProfilePoint, ProfileReport
from cpbot.judge.profile import fitted_time

SVG_NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> etree._Element:
    return etree.fromstring(text.encode())  # raises on anything not well-formed


def quadratic() -> ProfileReport:
    points = [ProfilePoint(size=n, cpu_ms=1.0 + 1e-4 * n * n, peak_kb=4000) for n in (100, 200, 400, 800, 1600)]
    return ProfileReport(points=points, complexity="O(n^2)", r2=0.999, predicted_ms_at_max=4e5, efficient=False)


def curve(root: etree._Element) -> list[tuple[float, float]]:
    d = root.find(f"{SVG_NS}path").get("d")
    return [(float(x), float(y)) for x, y in re.findall(r"[ML]([\d.]+),([\d.]+)", d)]


def test_the_fitted_curve_passes_through_the_points_of_its_class():
    root = parse(svg.profile_plot(quadratic()))
    points = [(float(c.get("cx")), float(c.get("cy"))) for c in root.iter(f"{SVG_NS}circle")]
    line = curve(root)
    assert len(points) == 5 and len(line) == 61
    assert line[0][0] == points[0][0] and line[-1][0] == points[-1][0]  # spans the measured sizes
    for x, y in points:
        nearest = min(line, key=lambda p: abs(p[0] - x))
        assert abs(nearest[1] - y) < 3.0  # in pixels: the curve is the fitted quadratic
    ys = [y for _, y in line]
    assert ys == sorted(ys, reverse=True)  # time grows with n (SVG y grows downwards)
    assert "fitted O(n^2), r² 0.999" in "".join(root.itertext())


def test_the_curve_is_the_profilers_own_fit_above_the_start_up_cost():
    # as the profiler reports it: n = 1 first (the start-up cost), then sizes whose time grows above it;
    # the smallest sizes stay within noise of the start-up and are not used for the fit
    start_up = ProfilePoint(size=1, cpu_ms=40.0, peak_kb=9000)
    sizes = [250, 500, 1000, 2000, 4000, 8000, 16000]
    points = [ProfilePoint(size=n, cpu_ms=40.0 + 2e-6 * n * n + (4 if n <= 1000 else 0), peak_kb=9000) for n in sizes]
    report = ProfileReport(points=[start_up, *points], complexity="O(n^2)")
    fitted = fitted_time(report)
    assert fitted is not None
    root = parse(svg.profile_plot(report))
    circles = [(float(c.get("cx")), float(c.get("cy"))) for c in root.iter(f"{SVG_NS}circle")]
    # the y axis is linear in ms: read it off two measured points, then read the curve's ms back
    (_, y_low), (_, y_high) = circles[0], circles[-1]
    ms_low, ms_high = start_up.cpu_ms, points[-1].cpu_ms

    def ms_at(y: float) -> float:
        return ms_low + (y - y_low) * (ms_high - ms_low) / (y_high - y_low)

    line = curve(root)
    for n, (_, y) in ((1, line[0]), (16000, line[-1])):
        # within rounding of the profiler's curve (a refit of the raw times is off by 3 ms at the top)
        assert abs(ms_at(y) - fitted(n)) < 1.5
    assert abs(fitted(1) - start_up.cpu_ms) < 5.0 and abs(fitted(16000) - ms_high) < 10.0


def test_failed_runs_are_red_and_a_profile_without_a_class_has_no_curve():
    report = ProfileReport(
        points=[ProfilePoint(size=10, cpu_ms=5, peak_kb=1), ProfilePoint(size=20, cpu_ms=900, peak_kb=1, status="tle")]
    )
    root = parse(svg.profile_plot(report))
    assert root.find(f"{SVG_NS}path") is None
    assert [c.get("fill") for c in root.iter(f"{SVG_NS}circle")] == [svg.TONE_COLOURS["ok"], svg.TONE_COLOURS["bad"]]
    assert "no class fitted" in "".join(root.itertext())
    empty = parse(svg.profile_plot(ProfileReport()))
    assert "no measurements" in "".join(empty.itertext())


def test_the_timeline_escapes_names_and_places_markers_in_time_order():
    lanes = ["contest", 'cf:<b>"A"</b>']
    entries = [
        (0.0, lanes[1], "start", "start", "info"),
        (10.0, lanes[1], "attempt", "attempt 1 <WA>", "bad"),
        (30.0, lanes[1], "verdict", "remote AC & done", "ok"),
        (40.0, lanes[1], "end", "solved", "ok"),
        (5.0, "contest", "contest_state", "running", "info"),
    ]
    text = svg.timeline(lanes, entries, 40.0)
    root = parse(text)
    assert "<b>" not in text and root.find(f"{SVG_NS}b") is None
    assert lanes[1] in [t.text for t in root.iter(f"{SVG_NS}text")]  # shown as the text it is
    circles = [c for c in root.iter(f"{SVG_NS}circle")]
    attempt = next(c for c in circles if "attempt 1 <WA>" in c.findtext(f"{SVG_NS}title"))
    square = next(root.iter(f"{SVG_NS}rect"))  # the lane's bar comes first
    assert square.get("opacity") == "0.25"
    verdict = next(r for r in root.iter(f"{SVG_NS}rect") if r.get("opacity") is None)
    assert float(attempt.get("cx")) < float(verdict.get("x")) and attempt.get("fill") == svg.TONE_COLOURS["bad"]
    assert [t.text for t in root.iter(f"{SVG_NS}text")][-1] == "40s"


def _ticks(root) -> list[str]:
    return [t.text for t in root.iter(f"{SVG_NS}text") if t.get("text-anchor") == "middle"]


def test_the_time_axis_is_fitted_to_the_run_and_ends_at_a_tick_past_the_last_moment():
    lanes = ["contest", "A"]
    entries = [(0.0, "A", "start", "start", "info"), (0.42, "A", "attempt", "1", "bad"), (1.23, "A", "end", "x", "ok")]
    short = parse(svg.timeline(lanes, entries, 1.23))
    assert _ticks(short)[0] == "0.0s" and _ticks(short)[-1] == "1.5s"  # not a fixed one-second scale
    assert len(set(_ticks(short))) == len(_ticks(short))  # every tick reads differently
    tiny = parse(svg.timeline(lanes, [(0.0, "A", "start", "", "info"), (0.004, "A", "end", "", "ok")], 0.004))
    assert _ticks(tiny) == ["0.000s", "0.001s", "0.002s", "0.003s", "0.004s"]


def test_hours_of_waiting_before_a_round_do_not_squeeze_the_round_into_the_edge():
    lanes = ["contest", "A"]
    entries = [
        (0.0, "contest", "contest_state", "watching", "info"),  # the watch started 3 h before the round
        (3 * 3600 + 5.0, "A", "start", "start", "info"),
        (3 * 3600 + 1500.0, "A", "attempt", "attempt 1", "bad"),
        (3 * 3600 + 2 * 3600.0, "A", "end", "solved", "ok"),
    ]
    root = parse(svg.timeline(lanes, entries, 5 * 3600.0))
    assert _ticks(root)[0] == "3:00" and _ticks(root)[-1] == "5:00"  # hours:minutes since the run started
    start = next(r for r in root.iter(f"{SVG_NS}rect") if r.get("opacity") == "0.25")
    assert float(start.get("x")) < 200  # the problem's bar starts near the left of the axis, not at its end
    watching = next(c for c in root.iter(f"{SVG_NS}circle") if "watching" in c.findtext(f"{SVG_NS}title"))
    assert float(watching.get("cx")) <= float(start.get("x"))  # earlier moments sit at the left edge
