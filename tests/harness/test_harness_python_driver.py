"""The generated Python program: LeetCode's calling convention, formats, preamble and errors."""

from __future__ import annotations

import pytest
from conftest import load_problem, solution_file

from cpbot.judge.harness import build_program
from cpbot.judge.model import Method, Param, Signature, Solution

ADD = Signature(
    methods=[
        Method(
            name="add",
            params=[Param(name="a", type="integer"), Param(name="b", type="integer")],
            return_type="integer",
        )
    ]
)


def py(source: str) -> Solution:
    return Solution(language="python3", source=source)


def test_function_problem_reads_one_line_per_parameter_and_prints_the_result(run) -> None:
    ran = run(py("class Solution:\n    def add(self, a: int, b: int) -> int:\n        return a + b\n"), ADD, "2\n40\n")
    assert (ran.code, ran.stdout) == (0, "42\n")


def test_solution_prints_go_to_stderr_and_its_main_block_does_not_run(run) -> None:
    problem = load_problem("two-sum")
    ran = run(solution_file("two-sum.py3"), problem.signature, problem.tests[0].input)
    assert ran.stdout == "[0,1]\n"
    assert "debugging output" in ran.stderr


def test_void_method_is_judged_by_its_modified_first_argument(run) -> None:
    problem = load_problem("rotate-image")
    ran = run(solution_file("rotate-image.py3"), problem.signature, "[[1,2],[3,4]]\n")
    assert ran.stdout == "[[3,1],[4,2]]\n"


def test_trees_are_read_and_printed_in_level_order_with_nulls(run) -> None:
    problem = load_problem("invert-binary-tree")
    ran = run(solution_file("invert-binary-tree.py3"), problem.signature, "[1,2,null,3]\n")
    assert ran.stdout == "[1,null,2,null,3]\n"


def test_design_problem_prints_null_for_the_constructor_and_void_calls(run) -> None:
    problem = load_problem("lru-cache")
    ran = run(solution_file("lru-cache.py3"), problem.signature, problem.tests[0].input)
    assert ran.stdout == "[null,null,null,1,null,-1,null,-1,3,4]\n"


def test_sorted_containers_are_available_without_import_like_on_leetcode(run) -> None:
    problem = load_problem("implement-trie")
    ran = run(solution_file("implement-trie.py3"), problem.signature, problem.tests[0].input)
    assert ran.stdout == "[null,null,true,false,true,null,true]\n", ran.stderr


def test_sortedcontainers_import_works_too(run) -> None:
    source = (
        "from sortedcontainers import SortedList\n\n"
        "class Solution:\n    def add(self, a: int, b: int) -> int:\n        s = SortedList([b, a, b])\n"
        "        return s[0] * 100 + s.bisect_right(b)\n"
    )
    assert run(py(source), ADD, "5\n7\n").stdout == "503\n"


def test_leetcode_preamble_names_are_ready_and_pow_keeps_its_modulus(run) -> None:
    source = (
        "Pair = NamedTuple('Pair', [('x', int)])\n"
        "alias: Dict[str, int] = {}\n\n"
        "class Solution:\n"
        "    def add(self, a: int, b: int) -> int:\n"
        "        q = deque([a]); q.append(b)\n"
        "        total = sum(accumulate(q)) + gcd(a, b) + len(ascii_lowercase) + bisect_left([1, 2], 2)\n"
        "        assert re.fullmatch(r'\\d+', str(a)) and isinstance(q, Deque)\n"
        "        return total + pow(3, 2, 5) + Pair(1).x + (inf > 0)\n"
    )
    ran = run(py(source), ADD, "6\n4\n")
    assert ran.stdout == f"{6 + 10 + 2 + 26 + 1 + 4 + 1 + 1}\n", ran.stderr


def test_solution_exception_exits_1_with_a_traceback_at_the_solutions_own_line(run) -> None:
    source = "class Solution:\n    def add(self, a: int, b: int) -> int:\n        return [a][b]\n"
    ran = run(py(source), ADD, "1\n5\n")
    assert ran.code == 1
    assert 'File "solution.py", line 3, in add' in ran.stderr
    assert "return [a][b]" in ran.stderr
    assert "IndexError" in ran.stderr


def test_missing_method_is_a_clear_solution_error(run) -> None:
    ran = run(py("class Solution:\n    def plus(self, a, b):\n        return a + b\n"), ADD, "1\n2\n")
    assert ran.code == 1
    assert "class Solution has no method add" in ran.stderr


def test_source_with_a_syntax_error_is_returned_unchanged_so_it_fails_like_itself() -> None:
    source = "class Solution:\n    def add(self, a, b)\n        return a + b\n"
    assert build_program(py(source), ADD).source == source


@pytest.mark.parametrize(
    ("stdin", "needle"),
    [
        ("1\n", "expected 2 lines (one per parameter: a, b), got 1"),
        ("1\n2\n3\n", "expected 2 lines"),
        ("1\n[2]\n", "line 2 (parameter b: integer): expected an integer, got [2]"),
        ("1\n2.5\n", "line 2 (parameter b: integer): expected an integer"),
        ("[1,\n2\n", "line 1 (parameter a: integer): missing ']' at the end"),
        ("1\nx\n", "line 2 (parameter b: integer): 'x' is not a value"),
    ],
)
def test_malformed_input_exits_3_naming_the_line(run, stdin: str, needle: str) -> None:
    ran = run(py("class Solution:\n    def add(self, a, b):\n        return a + b\n"), ADD, stdin)
    assert ran.code == 3
    assert needle in ran.stderr
    assert ran.stdout == ""


def test_malformed_nested_element_is_located(run) -> None:
    problem = load_problem("number-of-islands")
    ran = run(solution_file("number-of-islands.py3"), problem.signature, '[["1","0"],["1","ab"]]\n')
    assert ran.code == 3
    assert "line 1 (parameter grid: character[][]), element [1][1]: expected one character" in ran.stderr


@pytest.mark.parametrize(
    ("stdin", "needle"),
    [
        ('["LRUCache","get"]\n[[1]]\n', "1 argument lists for 2 operations"),
        ('["get"]\n[[1]]\n', "the first operation must be LRUCache"),
        ('["LRUCache","pop"]\n[[1],[]]\n', "unknown method 'pop'"),
        ('["LRUCache","put"]\n[[1],[1]]\n', "operation 1 (put) takes 2 arguments, got 1"),
        ('["LRUCache","get"]\n[[1],["k"]]\n', "argument key of get: integer), element [1][0]"),
    ],
)
def test_malformed_design_input_exits_3_naming_the_line(run, stdin: str, needle: str) -> None:
    problem = load_problem("lru-cache")
    ran = run(solution_file("lru-cache.py3"), problem.signature, stdin)
    assert ran.code == 3
    assert needle in ran.stderr


def test_strings_with_escapes_and_quotes_round_trip(run) -> None:
    sig = Signature(methods=[Method(name="echo", params=[Param(name="s", type="string")], return_type="string[]")])
    source = "class Solution:\n    def echo(self, s: str) -> List[str]:\n        return [s, s[::-1]]\n"
    ran = run(py(source), sig, '"a\\"b,[c]\\\\ é"\n')
    assert ran.stdout == '["a\\"b,[c]\\\\ é","é \\\\]c[,b\\"a"]\n'


def test_returning_a_set_is_reported_as_not_a_leetcode_value(run) -> None:
    source = "class Solution:\n    def add(self, a, b):\n        return {a, b}\n"
    ran = run(py(source), ADD, "1\n2\n")
    assert ran.code == 1
    assert "not a LeetCode value" in ran.stderr


def test_pypy_runs_the_same_program(run) -> None:
    import shutil

    if shutil.which("pypy3") is None:
        pytest.skip("pypy3 is not installed")
    problem = load_problem("merge-k-sorted-lists")
    source = solution_file("merge-k-sorted-lists.py3").source
    ran = run(Solution(language="pypy3", source=source), problem.signature, problem.tests[0].input)
    assert ran.stdout == "[1,1,2,3,4,4,5,6]\n", ran.stderr


def test_trailing_nulls_past_the_last_tree_node_are_ignored(run) -> None:
    problem = load_problem("invert-binary-tree")
    ran = run(solution_file("invert-binary-tree.py3"), problem.signature, "[1,2,null,null,null,null,null]\n")
    assert ran.stdout == "[1,null,2]\n"


def test_tree_value_without_a_parent_is_bad_input(run) -> None:
    problem = load_problem("invert-binary-tree")
    ran = run(solution_file("invert-binary-tree.py3"), problem.signature, "[1,null,null,5]\n")
    assert ran.code == 3
    assert "value 5 at position 3 has no parent in level order" in ran.stderr
