"""The Python harness driver's runtime functions (templates/harness/python_driver.py.tmpl), called directly:
reading LeetCode values, turning them into arguments, building and printing lists and trees. The whole
generated programs are exercised by test_harness_python_driver.py; here each piece is pinned on its own."""

from __future__ import annotations

import json
import math
import types

import pytest

from cpbot.judge.harness.templates import fill, template

SIGNATURE = {"kind": "function", "class": "Solution", "methods": [("f", [], ("integer",))], "constructor": []}


@pytest.fixture(scope="module")
def driver() -> types.SimpleNamespace:
    """The template's definitions (markers filled as the harness fills them), run as a module that is not
    `__main__`, so nothing reads stdin."""
    source = fill(
        template("python_driver.py.tmpl"), quoted=True, signature=repr(SIGNATURE), source=repr(""), sorted_source="None"
    )
    namespace: dict[str, object] = {"__name__": "cpbot_python_driver_under_test"}
    exec(compile(source, "python_driver.py", "exec"), namespace)
    return types.SimpleNamespace(**{k.lstrip("_"): v for k, v in namespace.items() if not k.startswith("__")})


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("[1,2,3]", [1, 2, 3]),
        (" [ 1 , -2 ] ", [1, -2]),
        ("[]", []),
        ("[[1,null],[true,false]]", [[1, None], [True, False]]),
        ("-3", -3),
        ("1.5", 1.5),
        ("1e3", 1000.0),
        ('"a,b ]"', "a,b ]"),
        ('["x\\"y","\\\\",""]', ['x"y', "\\", ""]),
        ('"\\u00e9\\n"', "\u00e9\n"),
        ("null", None),
    ],
)
def test_parse_reads_one_leetcode_value(driver, line: str, value: object) -> None:
    assert driver.parse(line) == value


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "the line is empty"),
        ("[1,2", "missing ']'"),
        ("[1 2]", "expected ',' or ']' before '2'"),
        ("[,1]", "expected a value before ','"),
        ("[1,]", "expected a value before ']'"),
        ("1 2", "unexpected '2' after the value"),
        ('"abc', "unterminated string starting at column 1"),
        ("abc", "'abc' is not a value"),
        ('"\\q"', "bad escape in the string at column 1"),
    ],
)
def test_parse_rejects_malformed_lines_saying_why(driver, line: str, message: str) -> None:
    with pytest.raises(driver.BadInput, match=message.replace("[", r"\[").replace("]", r"\]")):
        driver.parse(line)


def test_arguments_are_checked_against_the_signature_types_with_the_failing_element(driver) -> None:
    ns = {"ListNode": driver.ListNode, "TreeNode": driver.TreeNode}
    assert driver.convert(("double",), 3, ns) == 3.0 and isinstance(driver.convert(("double",), 3, ns), float)
    assert driver.convert(("array", ("array", ("string",))), [["a"], []], ns) == [["a"], []]
    with pytest.raises(driver.BadInput, match="expected one character") as bad:
        driver.convert(("array", ("character",)), ["a", "bc"], ns)
    assert bad.value.path == [1]
    with pytest.raises(driver.BadInput, match="expected an integer, got true"):
        driver.convert(("integer",), True, ns)  # a bool is not an int to LeetCode
    with pytest.raises(driver.BadInput) as bad:
        driver.read_arg('[[1],[2,"x"]]', "line 1 (parameter grid: integer[][])", ("array", ("array", ("integer",))), ns)
    assert str(bad.value) == 'line 1 (parameter grid: integer[][]), element [1][1]: expected an integer, got "x"'


def test_level_order_trees_are_built_and_printed_back(driver) -> None:
    root = driver.tree([1, None, 2, 3], driver.TreeNode)
    assert (root.val, root.left, root.right.val, root.right.left.val) == (1, None, 2, 3)
    assert driver.dump_tree(root) == "[1,null,2,3]"
    assert driver.tree([], driver.TreeNode) is None
    assert driver.dump_tree(driver.tree([5, 4, None, None, None, None], driver.TreeNode)) == "[5,4]"
    with pytest.raises(driver.BadInput, match="value 2 at position 3 has no parent"):
        driver.tree([1, None, None, 2], driver.TreeNode)


def test_linked_lists_round_trip_and_cycles_are_the_solutions_fault(driver) -> None:
    head = driver.linked_list([1, 2, 3], driver.ListNode)
    assert driver.dump_list(head) == "[1,2,3]"
    head.next.next.next = head
    with pytest.raises(driver.SolutionError, match="cycle"):
        driver.dump_list(head)
    shared = driver.TreeNode(1)
    with pytest.raises(driver.SolutionError, match="shared node"):
        driver.dump_tree(driver.TreeNode(0, shared, shared))


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "null"),
        (True, "true"),
        (-12, "-12"),
        ([1, 2], "[1,2]"),
        ((1, [True, None]), "[1,[true,null]]"),
        (0.5, "0.5"),
        (math.inf, "Infinity"),
        (-math.inf, "-Infinity"),
        (math.nan, "NaN"),
        ("plain", '"plain"'),
    ],
)
def test_results_print_as_leetcode_values(driver, value: object, text: str) -> None:
    assert driver.dump(value) == text


def test_strings_needing_escapes_print_as_json_and_odd_results_are_refused(driver) -> None:
    assert json.loads(driver.dump('a"b\\c\n\u00e9')) == 'a"b\\c\n\u00e9'
    assert driver.dump_as(None, ("TreeNode",)) == "[]"  # an absent tree or list prints as LeetCode's empty form
    assert driver.dump_as([None, driver.ListNode(1)], ("array", ("ListNode",))) == "[[],[1]]"
    with pytest.raises(driver.SolutionError, match="not a LeetCode value"):
        driver.dump({1, 2})


def test_the_namespace_has_leetcodes_preamble_names_loaded_lazily(driver) -> None:
    ns = vars(driver.solution_module())
    assert ns["Counter"]("aab")["a"] == 2 and ns["heappush"] and ns["inf"] == math.inf
    assert eval("pow(3, 4, 5)", ns) == 1  # the star-imports never hide a builtin (math.pow takes no modulus)
    assert isinstance(ns["List"], driver.Lazy)
    assert ns["re"].sub("a", "b", "aa") == "bb"  # first use imports the module and replaces the stand-in
    assert ns["re"].__name__ == "re"
