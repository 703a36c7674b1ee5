"""Reading bounds out of real statements."""

from __future__ import annotations

import pytest

from cpbot.agents.roles.constraints import parse_bounds, parse_number, problem_bounds
from tests.agents.roles.helpers import GYM, codeforces, leetcode


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("2 * 10^5", 200_000),
        ("10^9", 10**9),
        ("1e5", 100_000),
        ("200 000", 200_000),
        ("1,000,000", 1_000_000),
        ("500^3", 125_000_000),
        ("-10^4", -10_000),
    ],
)
def test_numbers_are_read_as_statements_write_them(text, value):
    assert parse_number(text) == value


def test_latex_chains_lists_and_strict_bounds():
    b = parse_bounds(r"$1 \le n \le 2 \cdot 10^5$, $1 \leq a, b, c \leq 100$ and $0 \le k \lt 10^{9}$")
    assert b.upper == {"n": 200_000, "a": 100, "b": 100, "c": 100, "k": 10**9 - 1}
    assert b.lower["n"] == 1


def test_old_codeforces_markup_with_emphasis_and_spaced_thousands():
    b = problem_bounds(codeforces("cf_630B_old_br_0.5s_64mb_tex_span"))
    assert b.upper["n"] == 10_000
    assert b.upper["t"] == 2_000_000_000


def test_multi_test_sum_bounds_and_the_test_count():
    b = problem_bounds(codeforces("cf_1991E_interactive_blank_padding"))
    assert b.tests_var == "t"
    assert b.upper["t"] == 1000
    assert b.sums == {"n": 10_000, "m": 10_000}


def test_a_single_test_problem_has_no_test_count_even_with_a_t_variable():
    assert problem_bounds(codeforces("cf_630B_old_br_0.5s_64mb_tex_span")).tests_var is None


def test_value_bounds_are_not_sizes():
    b = problem_bounds(codeforces(GYM, "Doctor Strange in the Library"))
    assert b.upper["W"] == 10**9
    assert b.max_size() == 100_000


def test_leetcode_constraints_lengths_ranges_and_sums():
    group = problem_bounds(leetcode("lc_group-anagrams_any_order_output"))
    assert group.upper["strs.length"] == 10_000
    assert group.get("strs") == 10_000
    assert problem_bounds(leetcode("lc_reorder-list_listnode_void_inplace")).upper["nodes"] == 50_000
    lists = problem_bounds(leetcode("lc_merge-k-sorted-lists_listnode_array"))
    assert lists.sums["lists[i].length"] == 10_000
    assert problem_bounds(leetcode("lc_trapping-rain-water-ii_2025_wire_daily")).upper["m"] == 200


def test_text_without_bounds_gives_none():
    b = parse_bounds("Print hello world.")
    assert b.upper == {} and b.max_size() is None
