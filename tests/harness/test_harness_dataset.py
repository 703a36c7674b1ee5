"""LeetCodeDataset rows become problems and tests; the references pass, planted bugs do not."""

from __future__ import annotations

import pytest
from perfkit import run_item, summarize

from cpbot.judge.harness.dataset import item_from_row, load_dataset
from cpbot.judge.model import Verdict
from tests.paths import LEETCODE_DATASET

ROW = {
    "task_id": "toy-problem",
    "difficulty": "Easy",
    "tags": ["Array"],
    "problem_description": "Return things.",
    "starter_code": (
        "class Solution:\n    def toy(self, nums: List[int], name: str, root: Optional[TreeNode]) -> bool:\n        "
    ),
    "entry_point": "Solution().toy",
    "completion": "class Solution:\n    def toy(self, nums, name, root):\n        return bool(nums)\n",
    "input_output": [
        {"input": 'nums = [1,2], name = "a b", root = [1,None,2]', "output": "True"},
        {"input": 'root = [], name = "", nums = [5000000000]', "output": "False"},
        {"input": 'nums = [1], name = "x", root = [3,null,4]', "output": "True"},
        {"input": "nums = [1]", "output": "Error: Solution.toy() missing 2 required positional arguments"},
        {"input": 'nums = [1], name = "x", root = []', "output": "Execution timed out"},
        {"input": 'nums = [01], name = "x", root = []', "output": "True"},
    ],
}


def test_row_becomes_a_function_problem_with_a_leetcode_signature() -> None:
    item = item_from_row(ROW)
    assert item.problem.id == "leetcode:toy-problem"
    assert item.problem.kind == "function"
    sig = item.problem.signature
    assert sig is not None and sig.methods[0].name == "toy"
    # 5000000000 does not fit in 32 bits, so nums is long[]
    assert [(p.name, p.type) for p in sig.methods[0].params] == [
        ("nums", "long[]"),
        ("name", "string"),
        ("root", "TreeNode"),
    ]
    assert sig.methods[0].return_type == "boolean"


def test_inputs_become_one_leetcode_line_per_parameter_in_signature_order() -> None:
    item = item_from_row(ROW)
    assert [t.input for t in item.tests] == [
        '[1,2]\n"a b"\n[1,null,2]\n',
        '[5000000000]\n""\n[]\n',
        '[1]\n"x"\n[3,null,4]\n',  # JSON's null in a recorded input is read too
    ]
    assert [t.output for t in item.tests] == ["true\n", "false\n", "true\n"]


def test_cases_where_the_reference_failed_or_that_cannot_be_read_are_left_out_and_counted() -> None:
    assert item_from_row(ROW).skipped == {
        "reference raised an error": 1,
        "reference timed out": 1,
        "unreadable input": 1,
    }


def test_string_results_recorded_bare_become_quoted_strings() -> None:
    row = dict(ROW, starter_code="class Solution:\n    def toy(self, s: str) -> str:\n        ")
    row["input_output"] = [{"input": 's = "abc"', "output": "cba"}, {"input": 's = ""', "output": ""}]
    assert [t.output for t in item_from_row(row).tests] == ['"cba"\n', '""\n']


def test_infinite_results_become_leetcode_infinity() -> None:
    row = dict(ROW, starter_code="class Solution:\n    def toy(self, n: int) -> int:\n        ")
    row["input_output"] = [{"input": "n = 1", "output": "-inf"}]
    assert item_from_row(row).tests[0].output == "-Infinity\n"


@pytest.fixture(scope="module")
def dataset():
    return load_dataset(LEETCODE_DATASET)


def test_dataset_has_228_problems_with_usable_cases(dataset) -> None:
    assert len(dataset) == 228
    assert sum(bool(item.tests) for item in dataset) >= 227


def test_reference_solutions_with_a_planted_bug_are_judged_wa(dataset) -> None:
    outcomes = [run_item(item, planted=True) for item in dataset if item.tests]
    wrong = [o for o in outcomes if o.verdict != Verdict.WA]
    assert len(wrong) == 0, [(o.task, o.verdict, o.cause) for o in wrong]


@pytest.mark.slow
def test_reference_solutions_are_ac_on_at_least_98_percent_of_problems(dataset) -> None:
    summary = summarize([run_item(item) for item in dataset])
    failures = [(o.task, o.cause) for o in summary.failures]
    assert summary.ac_rate >= 0.98, failures
