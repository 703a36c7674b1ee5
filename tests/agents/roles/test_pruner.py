"""The static pruner: a plan's claimed complexity against the statement's bounds, no model."""

from __future__ import annotations

import pytest

from cpbot.agents.envelopes import Plan
from cpbot.agents.roles.constraints import Bounds
from cpbot.agents.roles.pruner import ComplexityParseError, estimate, evaluate, find_big_o, prune
from tests.agents.roles.helpers import GYM, codeforces, leetcode


def plan(complexity: str, algorithm: str = "some idea", **kw) -> Plan:
    return Plan(algorithm=algorithm, complexity=complexity, **kw)


SIZES = {"n": 1000.0, "m": 100.0}


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("n log n", 1000 * 9.965784),
        (r"n \log n", 1000 * 9.965784),
        ("(n + m) log n", 1100 * 9.965784),
        ("n^2", 1e6),
        ("n^{2}", 1e6),
        ("n²", 1e6),
        (r"n\sqrt{n}", 1000 * 31.622777),
        ("n * m", 1e5),
        ("nm", 1e5),
        ("n m", 1e5),
        ("26n", 26_000),
        ("n log^2 n", 1000 * 9.965784**2),
        ("max(n, m) log n", 1000 * 9.965784),
        ("n alpha(n)", 1000),
        ("1", 1),
    ],
)
def test_complexities_are_read_the_way_people_write_them(expression, value):
    got, _ = evaluate(expression, SIZES.get)
    assert got == pytest.approx(value, rel=1e-4)


def test_an_unbounded_quantity_is_an_error_except_inside_a_logarithm():
    with pytest.raises(ComplexityParseError) as e:
        evaluate("n * k", SIZES.get)
    assert e.value.unknown == "k"
    value, _ = evaluate("n log A", SIZES.get)
    assert value == pytest.approx(1000 * 29.897, rel=1e-3)


def test_find_big_o_takes_the_time_before_the_memory():
    assert find_big_o("Time O(n log n), memory O(n).") == ["n log n", "n"]
    assert find_big_o("O((n + q) log n) overall") == ["(n + q) log n"]


def test_quadratic_plan_for_two_hundred_thousand_is_rejected():
    problem = codeforces(GYM, "Scarlet Witch Moves Books")  # n <= 200 000, 2 s
    decision = prune(plan("O(n^2)"), problem)
    assert decision.accepted is False
    assert "n = 2.0e+05" in decision.reason and "4.0e+10" in decision.reason
    assert prune(plan("O(n log n)"), problem).accepted is True


def test_quadratic_plan_for_five_thousand_passes_in_cpp_but_not_in_python():
    problem = codeforces(GYM, "Batplane Missions")  # N <= 50, F <= 5000
    assert prune(plan("O(N * F)"), problem, language="python3").accepted is True
    big = codeforces(GYM, "The Joker Isn't Funny")  # n <= 1000
    assert prune(plan("O(n^3)"), big, language="cpp17").accepted is True
    assert prune(plan("O(n^3)"), big, language="python3").accepted is False


def test_multi_test_cost_uses_the_sum_bound():
    # t <= 500, n <= 1000, sum of n <= 2 * 10^4: O(n^2) per test is at most 20 tests of n = 1000
    problem = codeforces("cf_2220D2_interactive")
    est = estimate("O(n^2)", Bounds(upper={"t": 500, "n": 1000}, sums={"n": 20_000}, tests_var="t"))
    assert est.operations == pytest.approx(20 * 1000**2)
    assert prune(plan("O(n^2)"), problem).accepted is True


def test_multi_test_without_a_sum_bound_multiplies_by_every_test():
    est = estimate("O(n)", Bounds(upper={"t": 10_000, "n": 10**9}, tests_var="t"))
    assert est.tests == 10_000 and est.operations == pytest.approx(1e13)
    problem = codeforces("cf_1810B_modern_trailing_spaces_output")  # t <= 1e4, n <= 1e9
    assert prune(plan("O(n)"), problem).accepted is False
    assert prune(plan("O(log n)"), problem).accepted is True


def test_many_tiny_tests_cost_more_than_one_big_one_for_logarithmic_work():
    est = estimate("O(log n)", Bounds(upper={"t": 10_000, "n": 200_000}, sums={"n": 200_000}, tests_var="t"))
    assert est.tests == 10_000


def test_leetcode_lengths_stand_in_for_n():
    problem = leetcode("lc_group-anagrams_any_order_output")  # strs.length <= 1e4
    assert prune(plan("O(n^2)"), problem, language="python3").accepted is False
    assert prune(plan("O(n k log k)"), problem).accepted is True  # k unknown: accepted unchecked
    assert "cannot estimate" in prune(plan("O(n k log k)"), problem).reason


def test_exponential_plans_fit_only_small_n():
    assert prune(plan("O(2^n * n)"), codeforces(GYM, "New Suits for The League of Assassins")).accepted
    assert not prune(plan("O(2^n)"), codeforces(GYM, "Amazalindrome")).accepted  # n <= 10 000
    assert prune(plan("O(2^(N/2))"), codeforces(GYM, "Batplane Missions")).accepted  # N <= 50


def test_a_plan_without_a_complexity_is_accepted_unchecked():
    decision = prune(Plan(algorithm="simulate"), codeforces(GYM, "Young Magneto"))
    assert decision.accepted and "no complexity" in decision.reason


def test_the_complexity_may_sit_in_the_rationale():
    decision = prune(
        Plan(algorithm="compare all pairs", rationale="this is O(n^2) overall"), codeforces(GYM, "Young Magneto")
    )
    assert decision.accepted is False


def test_memory_claims_are_checked_too():
    problem = codeforces(GYM, "Scarlet Witch Moves Books")
    decision = prune(plan("O(n) time and O(n^2) memory"), problem)
    assert decision.accepted is False and "memory" in decision.reason


def test_deep_recursion_in_python_is_a_warning_not_a_rejection():
    decision = prune(
        plan("O(n)", algorithm="recursive DFS over the tree"), codeforces(GYM, "Young Magneto"), language="python3"
    )
    assert decision.accepted is True
    assert "recursion" in decision.reason


def test_tight_plans_are_accepted_with_a_warning():
    problem = codeforces(GYM, "Rocket in Math Playground")  # N <= 1e6, 2.5 s
    decision = prune(plan("O(N sqrt N)"), problem)
    assert decision.accepted is True and decision.reason.startswith("tight")
