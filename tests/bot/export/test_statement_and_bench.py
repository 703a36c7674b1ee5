"""Statements render as Markdown (raw HTML escaped, math readable); bench exports name runs by problem and strategy."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup

from cpbot.bot.export import gather, render_html
from cpbot.bot.export.statement import statement_html
from cpbot.bot.export.svg import shorten
from cpbot.bot.transcripts import DB_NAME, TranscriptStore

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
