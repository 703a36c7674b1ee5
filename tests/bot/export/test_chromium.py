"""The exported page in a real headless Chromium: it loads without a console error, shows its sections
after load, and a screenshot is taken (set CPBOT_KEEP_SCREENSHOT=DIR to keep it and look at it).

A control page (the same report with an image from 127.0.0.1 added) proves the check can fail: the
page's Content-Security-Policy refuses the load and Chromium logs it, which the check must see."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from cpbot.bot.report.export import gather, render_html
from cpbot.bot.store.transcripts import TranscriptStore

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (Debian package `chromium`; scripts/setup.sh installs it)"
)
# What Chromium writes to stderr (with --enable-logging=stderr) when a page logs, throws or is refused
# something: console messages, uncaught errors, CSP violations.
PAGE_PROBLEM = re.compile(r":CONSOLE[:(]|Uncaught|Refused to|Content Security Policy")
FLAGS = [
    "--headless",
    "--no-sandbox",  # tests may run as root, where Chromium's own sandbox cannot start
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-domain-reliability",
    "--hide-scrollbars",
    "--enable-logging=stderr",
    "--v=0",
]


def browse(page: Path, profile: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *extra, page.as_uri()],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str]) -> tuple[str, str]:
    try:
        out, err = proc.communicate(timeout=300)  # a safety net only
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"chromium did not finish: {err[-2000:]}")
    assert proc.returncode == 0, err[-2000:]
    return out, err


def problems(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if PAGE_PROBLEM.search(line)]


def test_the_exported_page_opens_cleanly_in_chromium_and_shows_its_sections(contest, tmp_path):
    with TranscriptStore(contest.path) as store:
        html = render_html(gather(store, contest.contest))
    page = tmp_path / "report.html"
    page.write_text(html, encoding="utf-8")
    control = tmp_path / "control.html"
    control.write_text(html.replace("</main>", '<img src="http://127.0.0.1:9/x.png" alt=""></main>'), "utf-8")
    shot = tmp_path / "report.png"
    runs = [
        browse(page, tmp_path / "p1", "--dump-dom"),
        browse(control, tmp_path / "p2", "--dump-dom"),
        browse(page, tmp_path / "p3", f"--screenshot={shot}", "--window-size=1280,2400"),
    ]
    (dom, log), (_, control_log), (_, shot_log) = (finish(p) for p in runs)

    assert problems(log) == [] and problems(shot_log) == []
    assert problems(control_log), "the control page's refused image was not seen: the check is blind"

    soup = BeautifulSoup(dom, "lxml")  # the DOM after load, as Chromium built it
    assert soup.select_one("#summary h1").get_text() == "contest codeforces:1873"
    assert soup.select_one("#timeline svg.timeline") is not None
    assert soup.select("#stages table.stages tr")
    sections = soup.select("section.problem")
    assert [s["data-problem"] for s in sections] == ["codeforces:1873A", "codeforces:1873B", "codeforces:1873C"]
    assert len(sections[0].select("details.attempt")) == 3 and sections[0].select("table.remote-verdicts")
    assert sections[1].select("figure.profile svg circle.point") and sections[1].select(".gate.bad")
    assert soup.find("script") is None  # the hostile statement stayed text in the browser too

    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (1280, 2400) and len(png) > 50_000  # a page with content, not a blank one
    keep = os.environ.get("CPBOT_KEEP_SCREENSHOT")
    if keep:
        shutil.copy(shot, Path(keep) / shot.name)
