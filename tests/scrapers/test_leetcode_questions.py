"""LeetCode question parsing beyond the fixture expectations: signatures, examples, errors, fetch."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from cpbot.core.errors import FetchError, ParseError
from cpbot.scrapers.cookies import cookies_from_header
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.leetcode.examples import example_outputs
from cpbot.scrapers.leetcode.parse import fetch_problem, parse_question
from cpbot.scrapers.ratelimit import RateLimiter
from tests.scrapers.scraper_support import FakeClock, fixture_path


def _load(name: str) -> dict[str, Any]:
    return json.loads(fixture_path("leetcode", name).read_text(encoding="utf-8"))


def _question(data: dict[str, Any]) -> dict[str, Any]:
    return data["data"]["question"]


def test_design_problem_gets_class_constructor_and_methods() -> None:
    problem = parse_question(_load("lc_lru-cache_design.json"))
    sig = problem.signature
    assert sig is not None and sig.kind == "design"
    assert sig.class_name == "LRUCache"
    assert sig.constructor is not None and [p.name for p in sig.constructor.params] == ["capacity"]
    assert [(m.name, m.return_type) for m in sig.methods] == [("get", "integer"), ("put", "void")]
    assert problem.samples[0].input.count("\n") == 2  # method names, then arguments


def test_metadata_as_a_json_string_and_as_an_object_give_the_same_problem() -> None:
    data = _load("lc_merge-k-sorted-lists_listnode_array.json")
    as_object = parse_question(data)
    _question(data)["metaData"] = json.dumps(_question(data)["metaData"])
    as_string = parse_question(data)
    assert as_string.signature == as_object.signature
    assert as_string.samples == as_object.samples


def test_only_python3_and_cpp_snippets_are_kept() -> None:
    problem = parse_question(_load("lc_trapping-rain-water-ii_2025_wire_daily.json"))
    assert set(problem.code_snippets) == {"python3", "cpp"}
    assert "def trapRainWater" in problem.code_snippets["python3"]


def test_old_code_definition_field_gives_snippets_too() -> None:
    problem = parse_question(_load("lc_find-the-difference_2017_wire_old_pre.json"))
    assert "findTheDifference" in problem.code_snippets["cpp"]
    assert "\r" not in problem.code_snippets["cpp"]


def test_examples_joined_in_one_string_are_split_by_parameter_count() -> None:
    data = _load("lc_find-the-difference_2017_wire_old_pre.json")
    q = _question(data)
    del q["sampleTestCase"]
    q["exampleTestcases"] = '"abcd"\n"abcde"'
    problem = parse_question(data)
    assert [s.input for s in problem.samples] == ['"abcd"\n"abcde"\n']


def test_joined_examples_that_do_not_divide_into_cases_are_a_parse_error() -> None:
    data = _load("lc_find-the-difference_2017_wire_old_pre.json")
    q = _question(data)
    del q["sampleTestCase"]
    q["exampleTestcases"] = '"abcd"\n"abcde"\n"x"'
    with pytest.raises(ParseError, match="not a multiple of 2"):
        parse_question(data)


def test_fewer_outputs_in_the_statement_than_example_inputs_is_a_parse_error() -> None:
    data = _load("lc_decode-ways_example_block.json")
    _question(data)["exampleTestcaseList"].append('"11"')
    with pytest.raises(ParseError, match="3 found for 4 example inputs"):
        parse_question(data, "https://leetcode.com/problems/decode-ways/")


def test_premium_problem_without_content_asks_for_premium_cookies() -> None:
    data = _load("lc_decode-ways_example_block.json")
    _question(data).update(content=None, isPaidOnly=True)
    with pytest.raises(FetchError, match="premium") as info:
        parse_question(data)
    assert "--cookies" in info.value.hint


def test_missing_metadata_is_a_parse_error_naming_the_part() -> None:
    data = _load("lc_decode-ways_example_block.json")
    del _question(data)["metaData"]
    with pytest.raises(ParseError, match="missing metaData"):
        parse_question(data, "https://leetcode.com/problems/decode-ways/")


def test_an_unknown_slug_is_a_fetch_error() -> None:
    with pytest.raises(FetchError, match="no such problem"):
        parse_question({"data": {"question": None}})


def test_outputs_spanning_lines_are_completed_until_brackets_close() -> None:
    html = '<pre><strong>Input:</strong> b = 1\n<strong>Output:</strong> [["5","3"],\n["6","7"]]\n</pre>'
    assert example_outputs(html) == ['[["5","3"],["6","7"]]']


def test_a_pre_without_an_output_label_is_not_an_example() -> None:
    assert example_outputs("<pre>L0 → Ln → L1</pre><pre>Input: x = 1\nOutput: 2</pre>") == ["2"]


def test_fetch_posts_the_question_query_with_referer_and_csrf_token(
    httpx_mock: HTTPXMock, clock: FakeClock, tmp_path: Path
) -> None:
    answer = fixture_path("leetcode", "lc_decode-ways_example_block.json").read_bytes()
    httpx_mock.add_response(url="https://leetcode.com/graphql", method="POST", content=answer)
    jar = cookies_from_header("csrftoken=TOKEN; LEETCODE_SESSION=S", "leetcode.com")
    with HttpClient(cookies=jar, limiter=RateLimiter(clock=clock, sleep=clock.sleep)) as client:
        problem = fetch_problem("https://leetcode.com/problems/decode-ways/description/", client)
    assert problem.id == "leetcode:decode-ways"
    request = httpx_mock.get_requests()[0]
    body = json.loads(request.content)
    assert body["variables"] == {"titleSlug": "decode-ways"}
    assert "exampleTestcaseList" in body["query"] and "metaData" in body["query"]
    assert request.headers["x-csrftoken"] == "TOKEN"
    assert request.headers["Referer"] == "https://leetcode.com/problems/decode-ways/"


def test_graphql_errors_are_reported_as_fetch_errors(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(url="https://leetcode.com/graphql", json={"errors": [{"message": "rate limited"}]})
    with (
        HttpClient(limiter=RateLimiter(clock=clock, sleep=clock.sleep)) as client,
        pytest.raises(FetchError, match="rate limited"),
    ):
        fetch_problem("https://leetcode.com/problems/two-sum/", client)
