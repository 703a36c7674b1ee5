"""`cpbot verify --html`: the report as one self-contained page, a section per check with errors first, the
submissions' verdicts, a package's text escaped."""

from __future__ import annotations

import re

from cpbot.bot.cli.main import main
from cpbot.bot.verify.html import render_verify_html
from cpbot.bot.verify.report import Finding, Status, SubmissionVerdict, VerifyReport
from tests.paths import REPO


def _report() -> VerifyReport:
    return VerifyReport(
        package="/p",
        format="kattis-legacy",
        name="Sum <script>alert(1)</script>",
        time_limit_s=1.0,
        tle_margin_s=2.0,
        findings=[
            Finding(check="input-validators", subject="v.py", status=Status.OK, evidence="accepts all 3 tests"),
            Finding(check="input-validators", subject="v.py on secret/2", status=Status.ERROR, evidence="rejects it"),
            Finding(check="bounds", subject="v.cpp: n", status=Status.WARNING, evidence="BOUND NOT REACHED"),
        ],
        submissions=[
            SubmissionVerdict(path="accepted/a.py", expected="accepted", at_limit="AC", at_margin="AC", slowest_ms=12.0)
        ],
        notes=["a note"],
    )


def test_the_page_has_a_section_per_check_errors_first_and_escapes_the_packages_text():
    page = render_verify_html(_report())
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert re.findall(r'<section class="check" id="check-([\w-]+)"', page) == ["input-validators", "bounds"]
    rows = re.findall(r'<tr class="finding (\w+)">', page)
    assert rows == ["error", "ok", "warning"]  # within a check, errors first
    assert 'class="badge bad">FAILED' in page and "accepted/a.py" in page and "12 ms" in page and "a note" in page
    assert "<link" not in page and "<script" not in page  # self-contained, no requests


def test_verify_html_writes_the_page_beside_the_terminal_table(tmp_path, capsys):
    page = tmp_path / "report.html"
    assert main(["verify", str(REPO / "examples" / "verify" / "sum"), "--html", str(page)]) == 0
    assert "PASSED" in capsys.readouterr().out
    text = page.read_text(encoding="utf-8")
    assert 'class="badge ok">PASSED' in text and "wrong_answer/mod.py" in text
