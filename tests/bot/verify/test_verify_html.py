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


def test_the_page_shows_the_model_programs_with_their_breaking_input_escaped():
    from cpbot.bot.verify.report import AiReport, ModelProgram, StrategyRate
    from cpbot.judge.model import StressFailure, Verdict

    breaking = StressFailure(size=3, seed=11, input="3 1\n<b>9</b>\n", expected="27\n", got="-5\n", verdict=Verdict.WA)
    wrong = ModelProgram(strategy="direct", run=1, status="unverified", on_tests="AC", gate="caught by stress",
                         wrong=True, breaking=breaking, saved="ai-hack-000")  # fmt: skip
    failing = ModelProgram(strategy="direct", run=2, status="best_effort", on_tests="WA", failed_test="secret/01")
    rate = StrategyRate(strategy="direct", runs=2, passed_tests=1, wrong_past_tests=1, solved=0)
    ai = AiReport(model="m", k=2, oracle=["accepted/a.py"], generators=1, programs=[wrong, failing], rates=[rate])
    page = render_verify_html(_report().model_copy(update={"ai": ai}))
    assert 'href="#model-programs"' in page and 'id="model-programs"' in page
    assert "&lt;b&gt;9&lt;/b&gt;" in page and "<b>9" not in page
    assert "ai-hack-000" in page and "caught by stress" in page and "secret/01" in page and "0%" in page
