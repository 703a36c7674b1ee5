"""Codeforces page parsing beyond the fixture expectations: ids, files, errors, fetching."""

from __future__ import annotations

import pytest
from pytest_httpx import HTTPXMock

from cpbot.core.errors import ParseError
from cpbot.scrapers.codeforces.parse import (
    fetch_problems,
    parse_memory_mb,
    parse_problem,
    parse_problems,
    parse_time_ms,
)
from cpbot.scrapers.codeforces.samples import read_pre
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.ratelimit import RateLimiter
from tests.scrapers.scraper_support import FakeClock, fixture_path

HEADER = (
    '<div class="header"><div class="title">C. Files</div>'
    '<div class="time-limit"><div class="property-title">time limit per test</div>1 s.</div>'
    '<div class="memory-limit"><div class="property-title">memory limit per test</div>512 MB</div>'
    '<div class="input-file"><div class="property-title">input</div>exciting.in</div>'
    '<div class="output-file"><div class="property-title">output</div>exciting.out</div></div>'
)
BODY = (
    "<div><p>Legend.</p></div>"
    '<div class="input-specification"><div class="section-title">Input</div><p>In.</p></div>'
    '<div class="output-specification"><div class="section-title">Output</div><p>Out.</p></div>'
    '<div class="sample-tests"><div class="section-title">Example</div><div class="sample-test">'
    '<div class="input"><div class="title">Input</div><pre>1 2\n</pre></div>'
    '<div class="output"><div class="title">Output</div><pre>3\n</pre></div></div></div>'
)


def _pre(html: str):
    import lxml.html

    return read_pre(lxml.html.fragment_fromstring(html))


@pytest.mark.parametrize(
    ("text", "ms"), [("2 seconds", 2000), ("1 second", 1000), ("0.5 seconds", 500), ("1 s.", 1000), ("2,5 с", 2500)]
)
def test_time_limit_formats(text: str, ms: int) -> None:
    assert parse_time_ms(text) == ms


@pytest.mark.parametrize(
    ("text", "mb"), [("256 megabytes", 256), ("512 MB", 512), ("1 GB", 1024), ("64 мегабайта", 64)]
)
def test_memory_limit_formats(text: str, mb: int) -> None:
    assert parse_memory_mb(text) == mb


def test_file_input_output_names_and_gym_limits_are_read() -> None:
    problem = parse_problem(HEADER + BODY, "https://codeforces.com/gym/101991/problem/C")
    assert (problem.input_file, problem.output_file) == ("exciting.in", "exciting.out")
    assert (problem.limits.time_ms, problem.limits.memory_mb) == (1000, 512)
    assert problem.id == "codeforces:101991C"
    assert problem.url == "https://codeforces.com/gym/101991/problem/C"


def test_standard_input_gives_no_file_names() -> None:
    html = HEADER.replace("exciting.in", "standard input").replace("exciting.out", "standard output") + BODY
    problem = parse_problem(html)
    assert (problem.input_file, problem.output_file) == (None, None)
    assert problem.id.startswith("local:")


def test_lines_sharing_a_test_example_line_index_form_one_case() -> None:
    got = _pre(
        '<pre><div class="test-example-line test-example-line-even test-example-line-0">2</div>'
        '<div class="test-example-line test-example-line-odd test-example-line-1">3</div>'
        '<div class="test-example-line test-example-line-odd test-example-line-1">1 2 3</div>'
        '<div class="test-example-line test-example-line-even test-example-line-2">1</div>'
        '<div class="test-example-line test-example-line-even test-example-line-2">7</div>'
        '<div class="test-example-line test-example-line-even test-example-line-2"></div></pre>'
    )
    assert got.text == "2\n3\n1 2 3\n1\n7\n"
    assert got.cases == ["3\n1 2 3\n", "1\n7\n"]


def test_single_test_layout_without_numbered_cases_gives_an_empty_split() -> None:
    got = _pre('<pre><div class="test-example-line test-example-line-even test-example-line-0">5 3</div></pre>')
    assert (got.text, got.cases) == ("5 3\n", [])


def test_nested_line_divs_from_an_extension_are_read_once() -> None:
    got = _pre(
        '<pre><div class="test-example-line test-example-line-1"><div class="test-example-line '
        'test-example-line-1">4</div></div><div class="test-example-line test-example-line-2">5</div></pre>'
    )
    assert (got.text, got.cases) == ("4\n5\n", ["4\n", "5\n"])


def test_br_layout_with_injected_extension_div_and_entities() -> None:
    got = _pre('<pre>&lt;a&gt;<br />b &amp; c <br /><div class="open_grepper_editor" title="x"></div></pre>')
    assert (got.text, got.cases) == ("<a>\nb & c \n", None)


def test_the_newline_right_after_pre_is_dropped_but_leading_blank_lines_after_it_kept() -> None:
    assert _pre("<pre>\n\n? 1\n\n! 2</pre>").text == "\n? 1\n\n! 2\n"


def test_crlf_becomes_lf_and_trailing_blank_lines_go() -> None:
    assert _pre("<pre>1 2\r\n3\r\n\r\n\r\n</pre>").text == "1 2\n3\n"


def test_missing_sample_output_is_a_parse_error_naming_the_url_and_part() -> None:
    html = HEADER + BODY.replace('<div class="output"><div class="title">Output</div><pre>3\n</pre></div>', "")
    with pytest.raises(ParseError, match=r"https://codeforces.com/contest/1/problem/C: missing sample pairs"):
        parse_problems(html, "https://codeforces.com/contest/1/problem/C")


def test_missing_time_limit_is_a_parse_error() -> None:
    html = HEADER.replace("1 s.", "") + BODY
    with pytest.raises(ParseError, match="missing the time limit"):
        parse_problems(html)


def test_a_page_without_a_statement_is_a_parse_error_with_a_hint() -> None:
    with pytest.raises(ParseError, match=r"missing div\.problem-statement") as info:
        parse_problems(
            "<html><body><p>Codeforces is down</p></body></html>", "https://codeforces.com/contest/1/problem/A"
        )
    assert "cpbot listen" in info.value.hint


def test_saved_page_gets_its_id_from_the_saved_from_comment_and_keeps_the_raw_html() -> None:
    data = fixture_path("codeforces", "cf_1751A_browser_saved_mathjax_grepper_15s_1024mb.html").read_bytes()
    (problem,) = parse_problems(data)
    assert problem.id == "codeforces:1751A"
    assert problem.contest == "45th ICPC World Finals Challenge powered by Huawei - Problem 2"
    assert "## Scoring" in problem.statement
    assert problem.raw == data.decode("utf-8")


def test_raw_page_without_url_gets_contest_from_the_sidebar_link() -> None:
    (problem,) = parse_problems(fixture_path("codeforces", "cf_1081E_old_br_3samples_prettified.html").read_bytes())
    assert problem.id == "codeforces:1081E"
    assert problem.contest == "Avito Cool Challenge 2018"


def test_all_problems_page_is_split_into_one_problem_each_with_its_own_raw() -> None:
    data = fixture_path("codeforces", "cf_gym245042_complete_problems_page.html").read_bytes()
    problems = parse_problems(data)
    assert [p.id for p in problems][:3] == ["codeforces:245042A", "codeforces:245042B", "codeforces:245042C"]
    assert {p.contest for p in problems} == {"Amazalgo Uni 2019"}
    assert all(p.raw.startswith('<div class="problemindexholder" problemindex="' + p.index) for p in problems)
    assert parse_problems(problems[5].raw, problems[5].url)[0].samples == problems[5].samples


def test_fetch_asks_for_the_english_page_and_parses_it(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    page = fixture_path("codeforces", "cf_1081E_old_br_3samples_prettified.html").read_bytes()
    httpx_mock.add_response(url="https://codeforces.com/contest/1081/problem/E?locale=en", content=page)
    client = HttpClient(limiter=RateLimiter(clock=clock, sleep=clock.sleep), sleep=clock.sleep)
    with client:
        (problem,) = fetch_problems("https://codeforces.com/problemset/problem/1081/E", client)
    assert problem.id == "codeforces:1081E"
    assert problem.url == "https://codeforces.com/contest/1081/problem/E"
    assert len(problem.samples) == 3


def test_fetch_of_a_problem_missing_from_the_page_is_a_parse_error(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    page = fixture_path("codeforces", "cf_1081E_old_br_3samples_prettified.html").read_bytes()
    httpx_mock.add_response(url="https://codeforces.com/contest/1081/problem/F?locale=en", content=page)
    with (
        HttpClient(limiter=RateLimiter(clock=clock, sleep=clock.sleep)) as client,
        pytest.raises(ParseError, match="missing problem F"),
    ):
        fetch_problems("https://codeforces.com/contest/1081/problem/F", client)


def test_a_page_stating_an_error_gets_the_float_checker_codeforces_judges_with() -> None:
    """630B says "relative error ... 10^{-6}": Codeforces' rcmp6 takes an absolute or relative error."""
    moore = parse_problem(fixture_path("codeforces", "cf_630B_old_br_0.5s_64mb_tex_span.html").read_bytes())
    assert moore.checker == "float:1e-6"
    plain = parse_problem(fixture_path("codeforces", "cf_1702A_modern_single_line_cases.html").read_bytes())
    assert plain.checker == "tokens"
