"""The inline SVGs: well-formed, escaped, and the fitted curve follows the measurements."""

from __future__ import annotations

import re

from lxml import etree

from cpbot.bot.export import svg
from cpbot.judge.model import ProfilePoint, ProfileReport

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
