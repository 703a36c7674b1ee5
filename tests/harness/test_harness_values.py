"""LeetCode values: parsing, printing and the comparison rules of the checker."""

from __future__ import annotations

import math

import pytest

from cpbot.judge.harness.types import parse_type
from cpbot.judge.harness.values import BadValue, compare, format_value, parse_value


def test_parse_reads_leetcode_text_including_infinities() -> None:
    assert parse_value("[1,null,2]") == [1, None, 2]
    assert parse_value(' [["a","b"]] \n') == [["a", "b"]]
    assert parse_value("2.50000") == 2.5
    assert parse_value("-Infinity") == -math.inf


@pytest.mark.parametrize("text", ["", "[1,2", "[1 2]", "True", "'a'", "[1,]"])
def test_parse_rejects_text_that_is_not_one_value(text: str) -> None:
    with pytest.raises(BadValue):
        parse_value(text)


def test_format_prints_compact_json_with_leetcode_literals() -> None:
    assert format_value([[1, 2], [3]]) == "[[1,2],[3]]"
    assert format_value([True, None, "x"]) == '[true,null,"x"]'
    assert format_value(-math.inf) == "-Infinity"
    assert format_value(0.1) == "0.1"


def test_format_checks_characters_against_the_type() -> None:
    assert format_value([["a"]], parse_type("character[][]")) == '[["a"]]'
    with pytest.raises(BadValue):
        format_value(["ab"], parse_type("character[]"))


def test_integers_compare_exactly() -> None:
    assert compare(3, 3) is None
    assert compare(3, 4) is not None
    assert compare(10**18, 10**18 + 1) is not None


def test_floats_compare_within_1e_5() -> None:
    assert compare(2.4166666666666665, 2.41667) is None
    assert compare(1024.0, 1024) is None
    assert compare(0.5, 0.5001) is not None
    assert compare(1e9, 1e9 + 1) is None  # relative tolerance for large values
    assert compare(math.inf, math.inf) is None
    assert compare(math.nan, math.nan) is not None


def test_booleans_and_numbers_never_match() -> None:
    assert compare(True, 1) is not None
    assert compare(None, 0) is not None
    assert compare("1", 1) is not None


def test_mismatch_names_the_path_and_top_level_index() -> None:
    m = compare([[1, 2], [3, 4]], [[1, 2], [3, 5]])
    assert m is not None
    assert m.path == "[1][1]"
    assert m.index == 1
    assert "expected 4, got 5" in m.describe()


def test_lists_of_different_length_differ() -> None:
    m = compare([1, 2, 3], [1, 2])
    assert m is not None
    assert "different length" in m.reason


def test_any_order_compares_the_outer_list_as_a_multiset() -> None:
    assert compare([1, 2, 2], [2, 1, 2], any_order=True) is None
    assert compare([1, 2, 2], [2, 1, 1], any_order=True) is not None
    assert compare([[1, 2], [3]], [[3], [1, 2]], any_order=True) is None
    # only the outer order is free: a permutation inside an element is still different
    assert compare([[1, 2], [3]], [[3], [2, 1]], any_order=True) is not None
    assert compare([1, 2], [2, 1]) is not None
