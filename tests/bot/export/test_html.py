"""The HTML page: every section is there, untrusted text is escaped, nothing is fetched, no secret shows."""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner

from cpbot.bot.commands.transcripts import transcripts
from cpbot.bot.report.export import gather, render_html
from cpbot.bot.store.transcripts import TranscriptStore
from tests.bot.export.conftest import HOSTILE, RIGHT, SECRET, SLOW, WRONG_PLANNED


@pytest.fixture(scope="module")
def page(contest) -> str:
    with TranscriptStore(contest.path) as store:
        return render_html(gather(store, contest.contest))


@pytest.fixture(scope="module")
def soup(page) -> BeautifulSoup:
    return BeautifulSoup(page, "lxml")


def test_the_page_has_the_summary_timeline_stages_and_one_section_per_problem(soup, contest):
    assert soup.title.get_text() == "cpbot: contest codeforces:1873"
    assert contest.contest in soup.select_one("#summary").get_text()
    assert soup.select_one("#timeline svg.timeline title").get_text() == "Contest timeline"
    assert len(soup.select("#timeline table tr.moment")) > 10
    stages = {tr.td.get_text(): [td.get_text() for td in tr.find_all("td")] for tr in soup.select("#stages tr")[1:]}
    assert stages["coder"][1:4] == ["3", "900", "120"] and stages["planner"][1:4] == ["1", "120", "60"]
    problems = soup.select("section.problem")
    assert [s["data-problem"] for s in problems] == ["codeforces:1873A", "codeforces:1873B", "codeforces:1873C"]
    assert [a["href"] for a in soup.select("nav.toc a")][2:] == [f"#{s['id']}" for s in problems]


def test_the_statement_and_model_replies_are_shown_as_text_never_as_markup(soup, page):
    a = soup.select_one('section[data-problem="codeforces:1873A"]')
    assert a.select_one("div.statement").get_text().strip().endswith(HOSTILE)
    assert soup.find("script") is None and soup.find("img") is None  # the hostile tags stayed text
    assert "&lt;script&gt;alert(&#34;statement&#34;)&lt;/script&gt;" in page
    replies = [pre.get_text() for pre in a.select("details.llm pre.reply")]
    assert replies[0].startswith('<img src=x onerror="alert(1)">')
    assert not soup.find_all(attrs={"onerror": True})


def test_each_attempt_shows_its_messages_code_diff_and_judge_results(soup):
    a = soup.select_one('section[data-problem="codeforces:1873A"]')
    attempts = a.select("details.attempt")
    assert [d["class"][1] for d in attempts] == ["bad", "bad", "ok"]
    # failed attempts stay open (why they failed shows without a click), and so does the last one
    assert all(d.has_attr("open") for d in attempts)
    titles = [d.summary.strong.get_text() for d in attempts]
    assert titles == [
        "Attempt 1, the first program, by the coder",
        "Attempt 2, a new program by the coder from the planner's plan after attempt 1's wrong answer",
        "Attempt 3, a fix by the debugger after attempt 2's wrong answer",
    ]
    assert "iteration" not in " ".join(d.summary.get_text() for d in attempts)
    why = [d.select_one("p.why") for d in attempts]
    assert why[0].get_text(" ", strip=True).startswith("Why it failed: Wrong answer on test-1 (0/2 tests passed)")
    assert "expected '3', got '-1'" in why[0].get_text() and why[2] is None
    assert [d.select_one("pre.code").get_text() for d in attempts][1:] == [WRONG_PLANNED, RIGHT]
    # highlighted at export time: Pygments' token spans, coloured by the page's one style block
    tokens = attempts[2].select("pre.code.hl span[class]")
    assert {"nb", "k"} & {c for t in tokens for c in t["class"]} and any(t.get_text() == "print" for t in tokens)
    assert ".hl .k {" in soup.style.get_text()
    assert attempts[0].select_one("pre.diff") is None
    diff = attempts[2].select_one("pre.diff")
    assert [s.get_text() for s in diff.select(".del")] == ["-print(a * b)"]
    assert [s.get_text() for s in diff.select(".add")] == ["+print(a + b)"]
    roles = [s.get_text() for s in attempts[1].select("details.llm > summary")]
    assert any("planner via scripted-model: 120+60 tokens" in r for r in roles)
    assert attempts[1].select('details.envelope[data-type="plan"]')
    rows = attempts[0].select("table.tests tr.test")
    assert [r.select("td")[2].get_text(strip=True) for r in rows] == ["WA", "WA"]
    assert "expected 3, got -1" in rows[0].select_one(".first-diff").get_text()
    assert [r.select("td")[2].get_text(strip=True) for r in attempts[2].select("table.tests tr.test")] == ["AC", "AC"]
    prompts = attempts[2].select("details.llm pre.prompt")
    assert any("print(a * b)" in p.get_text() for p in prompts)  # the debugger was shown the failing program


def test_profile_plots_show_the_points_and_the_fitted_curve(soup, contest):
    b = soup.select_one('section[data-problem="codeforces:1873B"]')
    (figure,) = b.select("figure.profile")
    plot = figure.svg
    assert len(plot.select("circle.point")) == len(contest.profile.points)
    assert plot.select_one("path.fit")["d"].startswith("M")
    assert "fitted O(n)" in plot.get_text() and "too slow" in figure.figcaption.get_text()
    assert b.select_one("pre.code").get_text() == SLOW


def test_gate_decisions_submissions_and_remote_verdicts_are_shown(soup):
    a = soup.select_one('section[data-problem="codeforces:1873A"]')
    b = soup.select_one('section[data-problem="codeforces:1873B"]')
    assert a.select_one(".gate.ok .badge").get_text() == "allowed"
    assert [td.get_text() for td in a.select(".gate table.evidence td")][:2] == ["samples", "AC on 2 of 2"]
    assert [td.get_text() for td in a.select(".gate table.checks td")] == ["samples", "yes", "yes", "AC 2/2"]
    assert "over the 1000 ms limit" in b.select_one(".gate.bad ul.reasons").get_text()
    link = a.select_one("table.submissions a")
    assert link.get_text() == "#240001" and link["href"].endswith("/submission/240001")
    verdicts = [
        [td.get_text(" ", strip=True) for td in tr.find_all("td")] for tr in a.select("table.remote-verdicts tr")[1:]
    ]
    assert [v[3] for v in verdicts] == ["pending (not final)", "AC"] and verdicts[1][4] == "OK"
    (row,) = a.select("table.submissions tr")[1:]  # the submission carries the site's last verdict
    assert row.find_all("td")[-1].get_text(strip=True) == "AC" and "in the contest" in row.get_text()
    mystery = b.select_one('details.generic[data-kind="mystery_event"] pre').get_text()
    assert json.loads(mystery) == {"what": "<b>unknown</b> kind", "n": 3}
    assert soup.find("b") is None


def test_the_page_is_self_contained_and_free_of_secrets(soup, page):
    assert not soup.find_all(["link", "script", "iframe", "object", "embed", "img"])
    csp = soup.find("meta", attrs={"http-equiv": "Content-Security-Policy"})["content"]
    assert "default-src 'none'" in csp
    for tag in soup.find_all(True):
        for attr in ("src", "srcset", "data", "poster"):
            assert not tag.has_attr(attr), tag.name
    assert not re.search(r"url\(", soup.style.get_text())
    assert [a["href"] for a in soup.find_all("a") if not a["href"].startswith("#")] == [
        "https://codeforces.com/contest/1873/submission/240001"  # a link, followed only when clicked
    ]
    assert SECRET not in page and SECRET[3:20] not in page and "[REDACTED]" in page


def test_the_export_command_writes_html_and_json(contest, tmp_path, monkeypatch):
    monkeypatch.setenv("CPBOT_DATA_DIR", str(contest.path.parent))
    html, data = tmp_path / "contest.html", tmp_path / "contest.json"
    result = CliRunner().invoke(transcripts, ["export", contest.contest[:-1], "--html", str(html), "--json", str(data)])
    assert result.exit_code == 0, result.output
    assert f"wrote {html}" in result.output and f"wrote {data}" in result.output
    assert BeautifulSoup(html.read_text(), "lxml").select("section.problem")
    assert json.loads(data.read_text())["root"]["id"] == contest.contest
    nothing = CliRunner().invoke(transcripts, ["export", contest.contest])
    assert nothing.exit_code == 2 and "--html FILE and/or --json FILE" in nothing.output
