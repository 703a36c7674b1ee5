"""Statements render as Markdown (raw HTML escaped, math readable); bench exports name runs by problem and strategy."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup

from cpbot.bot.report.export import gather, render_html
from cpbot.bot.report.export.statement import statement_html
from cpbot.bot.report.export.svg import shorten
from cpbot.bot.store.transcripts import DB_NAME, TranscriptStore

STATEMENT = """Given **n** numbers, print their sum.

### Input

- the first line holds $n$ ($1 \\le n \\le 10^9$)
- then 10<sup>5</sup> lines

<script>alert("x")</script>

```
1 2
```
"""


def test_a_statement_renders_bold_heading_list_and_math_and_escapes_raw_html():
    soup = BeautifulSoup(str(statement_html(STATEMENT)), "lxml")
    assert soup.find("strong").get_text() == "n"
    assert soup.find("h3").get_text() == "Input"
    assert [li.get_text() for li in soup.select("ul > li")] == [
        "the first line holds n (1 ≤ n ≤ 109)",
        "then 105 lines",
    ]
    assert [s.get_text() for s in soup.select("span.math")] == ["n", "1 ≤ n ≤ 109"]
    assert soup.select_one("span.math sup").get_text() == "9"
    assert soup.find("script") is None
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in str(statement_html(STATEMENT))
    assert soup.find("pre").get_text() == "1 2\n"
    assert "$" not in soup.get_text() and "**" not in soup.get_text() and "###" not in soup.get_text()


def test_a_lone_dollar_and_unknown_tags_stay_text():
    html = str(statement_html("costs $5 <b>bold</b> <sup onclick=x>2</sup>"))
    assert "costs $5" in html and "&lt;b&gt;bold&lt;/b&gt;" in html and "<sup onclick" not in html


def test_labels_are_shortened_at_a_word_boundary():
    assert shorten("18-round_a-even_digits · direct", 20) == "18-round_a-even…"
    assert shorten("short", 20) == "short"


def _bench(path: Path) -> str:
    with TranscriptStore(path) as store:
        bench = store.start_run("bench", strategy="direct,macs", config={})
        store.append(bench, "note", {"message": "bench started"})
        problem = "lcb:18-round_a-even_digits"
        for strategy in ("direct", "macs", "macs"):
            child = store.start_run("solve", problem_id=problem, strategy=strategy, parent=bench)
            store.finish_run(child, "failed", reason="wrong answer")
        store.finish_run(bench, "done")
        return bench


def test_a_bench_export_names_each_run_by_problem_strategy_and_run(tmp_path):
    path = tmp_path / DB_NAME
    bench = _bench(path)
    with TranscriptStore(path) as store:
        report = gather(store, bench)
    labels = [p.label for p in report.problems]
    assert labels == [
        "lcb:18-round_a-even_digits · direct",
        "lcb:18-round_a-even_digits · macs · run 1",
        "lcb:18-round_a-even_digits · macs · run 2",
    ]
    assert report.events_heading == "Bench events" and report.root_lane == "bench"
    assert {t.lane for t in report.timeline} == {"bench", *labels}
    soup = BeautifulSoup(render_html(report), "lxml")
    assert [a.get_text() for a in soup.select("nav.toc a")][2:] == labels
    assert [s.h2.contents[0].strip() for s in soup.select("section.problem")] == labels
    assert "Bench events" in soup.get_text() and "Contest events" not in soup.get_text()
    rows = soup.select("#timeline svg g.lane")
    assert [g.title.get_text() for g in rows] == ["bench", *labels]  # one row per run, full names as tooltips
    for g in rows:
        shown, full = g.find("text").get_text(), g.title.get_text()
        assert shown == full or (shown.endswith("…") and full.startswith(shown[:-1]))


def test_a_single_solve_run_is_named_by_its_problem_only(tmp_path):
    path = tmp_path / DB_NAME
    with TranscriptStore(path) as store:
        run = store.start_run("solve", problem_id="codeforces:1A", strategy="macs")
        store.finish_run(run, "solved")
        report = gather(store, run)
    assert [p.label for p in report.problems] == ["codeforces:1A"]
    assert report.events_heading == "Events"


def test_only_embedded_images_survive_the_export() -> None:
    html = str(statement_html("![graph](https://tracker.example/p.png) ![dot](data:image/png;base64,iVBORw0KGgo=)"))
    assert "tracker.example" not in html and "[image: graph]" in html
    assert '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">' in html
    assert "<img" not in str(statement_html("![x](http://a.example/x.png)"))


def _bench_with_hidden(path: Path) -> str:
    """Two problems the solve called solved: one fails its hidden tests, one passes them."""
    from cpbot.bot.bench.metrics import HiddenJudgement, ProblemOutcome

    with TranscriptStore(path) as store:
        bench = store.start_run("bench", strategy="direct", config={})
        for key, verdict, passed in (("fails-hidden", "WA", 3), ("passes-hidden", "AC", 10)):
            child = store.start_run("solve", problem_id=key, strategy="direct", parent=bench)
            store.finish_run(child, "solved")
            final = HiddenJudgement(verdict=verdict, passed_tests=passed, total_tests=10)
            outcome = ProblemOutcome(
                problem_id=key, key=key, strategy="direct", status="solved", public_pass=True, final=final, run_id=child
            )
            store.append(bench, "bench_result", outcome.model_dump(mode="json"))
        store.finish_run(bench, "done")
        return bench


def test_a_bench_export_badges_by_the_hidden_verdict_and_sums_up_in_a_table(tmp_path):
    path = tmp_path / DB_NAME
    bench = _bench_with_hidden(path)
    with TranscriptStore(path) as store:
        report = gather(store, bench)
    assert [(p.hidden.verdict, p.tone) for p in report.problems] == [("WA", "bad"), ("AC", "ok")]
    soup = BeautifulSoup(render_html(report), "lxml")
    failing, passing = soup.select("section.problem")
    assert [b.get_text() for b in failing.h2.select("span.badge")] == ["hidden WA 3/10", "solve: solved"]
    assert not failing.h2.select("span.badge.ok")  # never a green "solved" for a program that fails hidden tests
    assert passing.h2.select_one("span.badge.ok").get_text() == "hidden AC 10/10"
    rows = soup.select("#results table.bench-results tr")[1:]
    assert [[td.get_text(strip=True) for td in row.select("td")][:5] for row in rows] == [
        ["fails-hidden", "direct", "hidden WA 3/10", "pass", "solved"],
        ["passes-hidden", "direct", "hidden AC 10/10", "pass", "solved"],
    ]
    assert "1 of 2" in soup.select_one("#results .headline").get_text()
    end_labels = [t.label for t in report.timeline if t.kind == "end" and t.lane == "fails-hidden"]
    assert end_labels == ["fails-hidden: solved, hidden WA 3/10"]
