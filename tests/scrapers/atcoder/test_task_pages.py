"""AtCoder task pages: the real recorded statements (tests/fixtures/atcoder/statements/) in the site's page
shells, every layout feature the parser reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cpbot.core.errors import ParseError
from cpbot.scrapers.atcoder.parse import parse_memory_mb, parse_task_page, parse_time_ms
from tests.fakes.atcoder_pages import old_task_page, statement, task_page


def test_english_statement_is_taken_with_exact_samples_limits_and_math() -> None:
    s = statement("abc300_a")
    p = parse_task_page(task_page(s, "A"), "https://atcoder.jp/contests/abc300/tasks/abc300_a")
    assert (p.id, p.site, p.index, p.title, p.contest) == (
        "atcoder:abc300_a",
        "atcoder",
        "A",
        "N-choice question",
        "abc300",
    )
    assert p.url == "https://atcoder.jp/contests/abc300/tasks/abc300_a"
    assert (p.limits.time_ms, p.limits.memory_mb) == (2000, 1024)
    assert [(t.input, t.output) for t in p.samples] == [
        ("3 125 175\n200 300 400\n", "2\n"),
        ("1 1 1\n2\n", "1\n"),
        ("5 123 456\n135 246 357 468 579\n", "5\n"),
    ]
    assert p.kind == "stdio" and p.checker == "tokens"
    assert "Problem Statement" not in p.statement  # the heading is the section, not its text
    assert "## Constraints" in p.statement
    assert "$1 \\le N \\le 300$" in p.statement  # <var> TeX kept as $...$
    assert "問題文" not in p.statement and "Standard Input" in p.input_spec
    assert "<var>" not in p.input_spec and "N A B" in p.input_spec  # the input format block stays verbatim


def test_japanese_ui_page_reads_the_same_limits_and_still_prefers_english() -> None:
    s = statement("abc300_a")
    p = parse_task_page(
        task_page(s, "A", ui="ja", memory_unit="MB"), "https://atcoder.jp/contests/abc300/tasks/abc300_a"
    )
    assert (p.limits.time_ms, p.limits.memory_mb) == (2000, 1024)
    assert "Standard Input" in p.input_spec


def test_japanese_only_statement_is_read_in_japanese() -> None:
    s = statement("toyota2023spring_final_a")
    url = "https://atcoder.jp/contests/toyota2023spring-final/tasks/toyota2023spring_final_a"
    p = parse_task_page(task_page(s, "A", ui="ja"), url)
    assert p.title == "Area Sum" and p.contest == "toyota2023spring-final"
    assert "盤面" in p.statement and "標準入力" in p.input_spec
    # 出力例 1 holds a second <pre> (a picture of the board): the sample is the first one
    assert [(t.input, t.output) for t in p.samples] == [("2 2 3\n", "2\n"), ("2 2 5\n", "0\n"), ("13 8 1032\n", "5\n")]
    assert "12\n34" in p.notes


def test_task_letter_comes_from_the_page_not_from_the_task_id() -> None:
    s = statement("arc101_a")  # ABC 107's task C is ARC 101's task A
    p = parse_task_page(task_page(s, "C"), "https://atcoder.jp/contests/abc107/tasks/arc101_a")
    assert (p.id, p.index, p.contest, p.title) == ("atcoder:arc101_a", "C", "abc107", "Candles")
    assert len(p.samples) == 4 and p.samples[3].input == "8 5\n-9 -7 -4 -3 1 2 3 4\n"


def test_float_tolerance_in_the_output_section_selects_the_float_checker() -> None:
    p = parse_task_page(task_page(statement("abc117_a"), "A"), "https://atcoder.jp/contests/abc117/tasks/abc117_a")
    assert p.checker == "float:1e-3"
    assert p.samples[0].output == "2.6666666667\n"


def test_interactive_task_has_its_protocol_as_input_spec_and_no_samples() -> None:
    p = parse_task_page(task_page(statement("abc269_e"), "E"), "https://atcoder.jp/contests/abc269/tasks/abc269_e")
    assert p.kind == "interactive" and p.title == "Last Rook"
    assert p.samples == []
    assert "flush Standard Output" in p.notes
    assert "```\n? A B C D\n```" in p.input_spec and "```\n! X Y\n```" in p.input_spec
    assert "## Sample Interaction" in p.statement and "|  | `? 1 2 1 3` |" in p.statement


@pytest.mark.parametrize(
    ("value", "unit", "ms"), [("2", "sec", 2000), ("1.25", "sec", 1250), ("500", "msec", 500), ("4", "s", 4000)]
)
def test_time_limits(value: str, unit: str, ms: int) -> None:
    assert parse_time_ms(value, unit) == ms


@pytest.mark.parametrize(
    ("value", "unit", "mb"), [("1024", "MiB", 1024), ("256", "MB", 256), ("65536", "KB", 64), ("1", "GiB", 1024)]
)
def test_memory_limits(value: str, unit: str, mb: int) -> None:
    assert parse_memory_mb(value, unit) == mb


def test_fractional_time_limit_and_mib_in_a_page() -> None:
    s = statement("abc300_a")
    page = task_page(s, "A").replace("Time Limit: 2 sec", "Time Limit: 1.25 sec")
    assert parse_task_page(page, "https://atcoder.jp/contests/abc300/tasks/abc300_a").limits.time_ms == 1250


def test_saved_page_without_url_finds_its_address_in_the_page() -> None:
    p = parse_task_page(task_page(statement("arc101_a"), "C").encode("utf-8"))
    assert (p.id, p.contest, p.url) == (
        "atcoder:arc101_a",
        "abc107",
        "https://atcoder.jp/contests/abc107/tasks/arc101_a",
    )


def test_old_subdomain_page_with_old_markup() -> None:
    """The pre-2018 layout: `h2` title, "Time limit : 2sec / Memory limit : 64MB", parts with the h3 before
    the section and `div.io-style.part` (the statement below is the recorded abc300_a text in that markup)."""
    s = statement("abc300_a")
    en = s.html["en"]
    old = re.sub(
        r"<div class=\"part\">\s*<section>\s*<h3>(.*?)</h3>", r'<div class="part">\n<h3>\1</h3>\n<section>', en
    )
    page = old_task_page(s, "A", old)
    p = parse_task_page(page, "http://abc300.contest.atcoder.jp/tasks/abc300_a")
    assert (p.id, p.contest, p.index, p.title) == ("atcoder:abc300_a", "abc300", "A", "N-choice question")
    assert (p.limits.time_ms, p.limits.memory_mb) == (2000, 1024)
    assert len(p.samples) == 3 and p.samples[0].input == "3 125 175\n200 300 400\n"


@pytest.mark.parametrize(
    "limits",
    [
        "<p><b>Time limit</b> : 2sec / <b>Memory limit</b> : 1024MB</p>",  # labels in their own markup
        "<p>Score : 100 points<br>Time limit : 2sec / Memory limit : 1024MB</p>",  # one paragraph with more
        "<p>実行時間制限：2 sec / メモリ制限：1024 MB</p>",  # full-width colons
        '<div class="limits"><span>Time limit : 2sec</span> / <span>Memory limit : 1024MB</span></div>',
    ],
)
def test_older_limits_lines_are_read_wherever_they_sit_above_the_statement(limits: str) -> None:
    s = statement("abc300_a")
    page = re.sub(r"<p>Time limit : [^<]*</p>", limits, old_task_page(s, "A", s.html["en"]))
    p = parse_task_page(page, "http://abc300.contest.atcoder.jp/tasks/abc300_a")
    assert (p.limits.time_ms, p.limits.memory_mb) == (2000, 1024)


def test_limits_named_only_in_the_statement_are_not_the_pages() -> None:
    s = statement("abc300_a")
    page = re.sub(r"<p>Time limit : [^<]*</p>", "", old_task_page(s, "A", s.html["en"]))
    page = page.replace("</section>", "<div>limits: Time limit : 9sec / Memory limit : 9MB</div></section>", 1)
    assert "9sec" in page
    with pytest.raises(ParseError, match="missing the time limit"):
        parse_task_page(page, "http://abc300.contest.atcoder.jp/tasks/abc300_a")


def test_a_page_without_a_statement_names_what_is_missing() -> None:
    with pytest.raises(ParseError, match="task-statement"):
        parse_task_page(
            "<html><body><p>Time Limit: 2 sec / Memory Limit: 1024 MiB</p></body></html>",
            "https://atcoder.jp/contests/abc300/tasks/abc300_a",
        )


def test_statement_without_parts_and_numbered_samples_with_a_hash() -> None:
    """Headings straight in the statement (no `div.part`), "Sample Input #1": each h3 and what follows it."""
    s = statement("abc300_a")
    bare = re.sub(r"</?div[^>]*>|</?section>", "", s.html["en"]).replace("Sample Input ", "Sample Input #")
    p = parse_task_page(old_task_page(s, "A", bare), "https://atcoder.jp/contests/abc300/tasks/abc300_a")
    assert (p.samples[0].input, p.samples[0].output) == ("3 125 175\n200 300 400\n", "2\n")
    assert len(p.samples) == 3 and "Standard Input" in p.input_spec and "## Constraints" in p.statement


def test_recorded_task_page_agc047_f() -> None:
    """A real task page (2020, English UI, logged in), cut from `span.h2` to the end of `#task-statement`."""
    page = (Path(__file__).resolve().parents[2] / "fixtures" / "atcoder" / "task_agc047_f_2020_cut.html").read_bytes()
    p = parse_task_page(page, "https://atcoder.jp/contests/agc047/tasks/agc047_f")
    assert (p.id, p.index, p.title, p.contest) == ("atcoder:agc047_f", "F", "Rooks", "agc047")
    assert (p.limits.time_ms, p.limits.memory_mb) == (1250, 1024)
    assert [t.output for t in p.samples] == [
        "5\n0\n7\n5\n0\n0\n",
        "985\n985\n1065\n1034\n0\n",
        "2\n2\n9\n9\n3\n3\n24\n5\n0\n25\n",
    ]
    assert p.samples[0].input == "6\n1 8\n6 10\n2 7\n4 4\n9 3\n5 1\n"
    assert "superpawn" in p.statement and "$2 \\leq N \\leq 200\\,000$" in p.statement
    assert "![path](https://img.atcoder.jp/agc047/rooks_path_small3.png)" in p.notes
    assert p.kind == "stdio" and p.checker == "tokens"
