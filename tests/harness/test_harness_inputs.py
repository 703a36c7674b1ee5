"""Test inputs are checked against the signature in the judge's process, in the drivers' own words."""

from __future__ import annotations

import pytest
from conftest import PROBLEMS, load_problem

from cpbot.judge.harness import malformed_tests
from cpbot.judge.harness.inputs import input_problem
from cpbot.judge.harness.signature import parse_signature
from cpbot.judge.model import Method, Param, Signature, TestCase

ADD = parse_signature(
    Signature(
        methods=[
            Method(
                name="add",
                params=[Param(name="a", type="integer"), Param(name="b", type="integer")],
                return_type="integer",
            )
        ]
    )
)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("1\n", "expected 2 lines (one per parameter: a, b), got 1"),
        ("1\n2\n3\n", "expected 2 lines"),
        ("1\n[2]\n", "line 2 (parameter b: integer): expected an integer, got [2]"),
        ("1\n2.5\n", "line 2 (parameter b: integer): expected an integer"),
        ("[1,\n2\n", "line 1 (parameter a: integer): "),
        ("1\nx\n", "line 2 (parameter b: integer): "),
        ("1\n2 3\n", "line 2 (parameter b: integer): unexpected '3' after the value"),
        ("1\n\n", "expected 2 lines"),
    ],
)
def test_a_malformed_function_input_is_named_by_line_and_parameter(text: str, needle: str) -> None:
    for fixed_width in (False, True):
        why = input_problem(text, ADD, fixed_width=fixed_width)
        assert why is not None and needle in why, (fixed_width, why)


def test_cpp_is_held_to_its_types_where_python_is_not() -> None:
    assert input_problem("1\n3000000000\n", ADD, fixed_width=False) is None
    assert input_problem("1\n3000000000\n", ADD, fixed_width=True) == (
        "line 2 (parameter b: integer): 3000000000 does not fit in an integer"
    )
    grid = parse_signature(load_problem("number-of-islands").signature)
    assert input_problem('[["1","é"]]\n', grid, fixed_width=False) is None
    assert "element [0][1]: expected one character" in input_problem('[["1","é"]]\n', grid, fixed_width=True)


def test_nested_elements_and_trees_are_located() -> None:
    grid = parse_signature(load_problem("number-of-islands").signature)
    why = input_problem('[["1","0"],["1","ab"]]\n', grid, fixed_width=False)
    assert why == 'line 1 (parameter grid: character[][]), element [1][1]: expected one character, got "ab"'
    tree = parse_signature(load_problem("invert-binary-tree").signature)
    assert input_problem("[1,null,2,null,null,null,null]\n", tree, fixed_width=True) is None
    assert "value 5 at position 5 has no parent in level order" in input_problem(
        "[1,null,2,null,null,5]\n", tree, fixed_width=True
    )


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('["LRUCache","get"]\n[[1]]\n', "1 argument lists for 2 operations"),
        ('["get"]\n[[1]]\n', "the first operation must be LRUCache"),
        ('["LRUCache","pop"]\n[[1],[]]\n', "unknown method pop (the class has: get, put)"),
        ('["LRUCache","put"]\n[[1],[1]]\n', "operation 1 (put): takes 2 arguments, got 1"),
        ('["LRUCache","get"]\n[[1],["k"]]\n', "(argument key of get: integer), element [1][0]: expected an integer"),
        ('["LRUCache","get"]\n[[1],2]\n', "element [1]: expected an array of arguments"),
    ],
)
def test_a_malformed_design_input_names_the_operation(text: str, needle: str) -> None:
    lru = parse_signature(load_problem("lru-cache").signature)
    why = input_problem(text, lru, fixed_width=True)
    assert why is not None and needle in why, why


def test_every_hand_written_test_is_well_formed_for_both_drivers() -> None:
    slugs = sorted(p.stem for p in PROBLEMS.glob("*.json"))
    assert len(slugs) > 10
    for slug in slugs:
        problem = load_problem(slug)
        for language in ("python3", "cpp17"):
            assert malformed_tests(problem.tests, problem.signature, language) == [], (slug, language)


def test_malformed_tests_gives_each_bad_test_by_its_index() -> None:
    sig = load_problem("two-sum").signature
    tests = [TestCase(input="[2,7]\n9\n"), TestCase(input="[2,7]\n"), TestCase(input='[2,"7"]\n9\n')]
    found = malformed_tests(tests, sig, "cpp17")
    assert [i for i, _ in found] == [2, 3]
    assert 'element [1]: expected an integer, got "7"' in found[1][1]
