"""The LeetCode checker: verdicts, differences, any-order and special-judge problems."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.judge.checkers.base import CheckInput
from cpbot.judge.harness import SPECIAL_JUDGE_PREFIX, HarnessChecker, HarnessCheckResult, checker_for
from cpbot.judge.harness.checker import accepts_any_order, needs_special_judge
from cpbot.judge.model import Method, Param, Problem, Signature, Verdict

FUNCTION = Signature(methods=[Method(name="f", params=[Param(name="n", type="integer")], return_type="integer[]")])
DESIGN = Signature(
    kind="design",
    class_name="Counter",
    constructor=Method(name="Counter"),
    methods=[Method(name="inc", return_type="integer"), Method(name="reset")],
)


def files(tmp_path: Path, output: str, answer: str, inp: str = "1\n") -> CheckInput:
    (tmp_path / "in").write_text(inp)
    (tmp_path / "out").write_text(output)
    (tmp_path / "ans").write_text(answer)
    return CheckInput(tmp_path / "in", tmp_path / "out", tmp_path / "ans")


def test_checker_has_the_protocol_name() -> None:
    assert HarnessChecker(FUNCTION).name == "leetcode"


def test_equal_values_are_ac_whatever_the_spacing(tmp_path: Path) -> None:
    result = HarnessChecker(FUNCTION).check(files(tmp_path, "[1,2,3]\n", "[1, 2, 3]"))
    assert result.verdict == Verdict.AC


def test_different_element_is_wa_with_the_first_difference(tmp_path: Path) -> None:
    result = HarnessChecker(FUNCTION).check(files(tmp_path, "[1,2,4]\n", "[1,2,3]\n"))
    assert result.verdict == Verdict.WA
    assert result.diff is not None
    assert (result.diff.token, result.diff.expected, result.diff.got) == (3, "3", "4")
    assert "[2]" in result.message


def test_empty_output_is_wa(tmp_path: Path) -> None:
    assert HarnessChecker(FUNCTION).check(files(tmp_path, "", "[1]")).verdict == Verdict.WA


def test_output_that_is_not_a_value_is_pe(tmp_path: Path) -> None:
    result = HarnessChecker(FUNCTION).check(files(tmp_path, "[1,2]\ndebug\n", "[1,2]"))
    assert result.verdict == Verdict.PE
    assert "not one LeetCode value" in result.message


def test_unreadable_expected_answer_is_a_judge_failure_not_the_solutions(tmp_path: Path) -> None:
    result = HarnessChecker(FUNCTION).check(files(tmp_path, "[1]", "Error: list index out of range"))
    assert result.verdict == Verdict.IE


def test_floats_within_tolerance_are_ac(tmp_path: Path) -> None:
    double = Signature(methods=[Method(name="f", return_type="double")])
    assert HarnessChecker(double).check(files(tmp_path, "2.4166666666666665\n", "2.41667")).verdict == Verdict.AC
    assert HarnessChecker(double).check(files(tmp_path, "2.4167\n", "2.41667")).verdict == Verdict.WA


def test_any_order_accepts_a_permutation_and_rejects_a_different_multiset(tmp_path: Path) -> None:
    checker = HarnessChecker(FUNCTION, any_order=True)
    assert checker.check(files(tmp_path, "[3,1,2]", "[1,2,3]")).verdict == Verdict.AC
    assert checker.check(files(tmp_path, "[3,1,1]", "[1,2,3]")).verdict == Verdict.WA
    assert HarnessChecker(FUNCTION).check(files(tmp_path, "[3,1,2]", "[1,2,3]")).verdict == Verdict.WA


def test_design_mismatch_names_the_call(tmp_path: Path) -> None:
    inp = '["Counter","inc","inc","reset","inc"]\n[[],[],[],[],[]]\n'
    result = HarnessChecker(DESIGN).check(files(tmp_path, "[null,1,2,null,2]", "[null,1,2,null,1]", inp))
    assert result.verdict == Verdict.WA
    assert result.message.startswith("call 4 (inc)")


def test_design_results_are_compared_in_order_even_when_any_order_is_set(tmp_path: Path) -> None:
    checker = HarnessChecker(DESIGN, any_order=True)
    inp = '["Counter","inc","inc"]\n[[],[],[]]\n'
    assert checker.check(files(tmp_path, "[null,2,1]", "[null,1,2]", inp)).verdict == Verdict.WA


def test_special_judge_problem_confirms_an_equal_answer(tmp_path: Path) -> None:
    result = HarnessChecker(FUNCTION, special=True).check(files(tmp_path, "[1,2]", "[1,2]"))
    assert result.verdict == Verdict.AC


def test_special_judge_problem_reports_a_different_answer_as_unverified(tmp_path: Path) -> None:
    result = HarnessChecker(FUNCTION, special=True).check(files(tmp_path, "[2,1]", "[1,2]"))
    assert isinstance(result, HarnessCheckResult)
    assert result.needs_special_judge
    assert result.verdict == Verdict.WA  # never IE: the judge did not fail
    assert result.message.startswith(SPECIAL_JUDGE_PREFIX)


def test_special_judge_problem_still_rejects_output_that_is_not_a_value(tmp_path: Path) -> None:
    result = HarnessChecker(FUNCTION, special=True).check(files(tmp_path, "oops", "[1,2]"))
    assert result.verdict == Verdict.PE


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("Return an array containing the indices of all stable mountains in any order.", True),
        ("You may return the answer in any order.", True),
        ("Return a 2D array. You may return the frequency arrays in any order.", True),
        ("Group **the anagrams** together. You can return the answer in **any order**.", True),
        ("Split arr into subarrays and rearrange these subarrays in any order.", False),
        ("Return the answer sorted in ascending order.", False),
    ],
)
def test_any_order_is_detected_only_when_it_is_about_the_answer(statement: str, expected: bool) -> None:
    assert accepts_any_order(statement) is expected


@pytest.mark.parametrize(
    ("statement", "checker", "expected"),
    [
        ("If there are multiple solutions, return any of them.", "tokens", True),
        ("If nodes[i] has multiple answers for any node i, you can choose any one answer.", "tokens", True),
        ("There may be multiple edges between any two nodes.", "tokens", False),
        ("You may return the answer in any order.", "tokens", False),
        ("Return the count.", "special", True),
        (
            "`int getRandom()` Returns a random element. Each element must have the **same probability**.",
            "tokens",
            True,
        ),
        ("The text is formed by concatenating the placeholders randomly from the mapping.", "tokens", False),
        ("Each index should have an equal probability of returning.", "tokens", True),
        ("A pair is chosen uniformly at random. Return the probability that its sum is even.", "tokens", False),
    ],
)
def test_special_judge_detection(statement: str, checker: str, expected: bool) -> None:
    problem = Problem(id="t", kind="function", signature=FUNCTION, statement=statement, checker=checker)
    assert needs_special_judge(problem) is expected


def test_a_method_returning_something_random_needs_a_special_judge() -> None:
    sig = DESIGN.model_copy(update={"methods": [*DESIGN.methods, Method(name="getRandom", return_type="integer")]})
    assert needs_special_judge(Problem(id="t", kind="function", signature=sig))


def test_checker_for_builds_from_the_problem() -> None:
    problem = Problem(id="t", kind="function", signature=FUNCTION, statement="You may return the answer in any order.")
    checker = checker_for(problem)
    assert checker.any_order and not checker.special


def test_checker_for_needs_a_signature() -> None:
    with pytest.raises(Exception, match="no signature"):
        checker_for(Problem(id="t", kind="function"))


def test_any_order_answer_matching_only_with_free_inner_order_is_reported_unverified(tmp_path: Path) -> None:
    groups = Signature(methods=[Method(name="g", params=[Param(name="s", type="string[]")], return_type="string[][]")])
    result = HarnessChecker(groups, any_order=True).check(
        files(tmp_path, '[["tea","ate","eat"],["bat"]]', '[["bat"],["ate","eat","tea"]]')
    )
    assert isinstance(result, HarnessCheckResult) and result.needs_special_judge
    assert result.verdict == Verdict.WA and result.message.startswith(SPECIAL_JUDGE_PREFIX)
    wrong = HarnessChecker(groups, any_order=True).check(
        files(tmp_path, '[["tea","ate"],["bat"]]', '[["bat"],["ate","eat","tea"]]')
    )
    assert wrong.verdict == Verdict.WA and not getattr(wrong, "needs_special_judge", False)


def test_a_bare_character_answer_from_an_old_statement_is_read_as_text(tmp_path: Path) -> None:
    char = Signature(methods=[Method(name="f", params=[Param(name="s", type="string")], return_type="character")])
    assert HarnessChecker(char).check(files(tmp_path, '"e"\n', "e\n")).verdict == Verdict.AC
    assert HarnessChecker(char).check(files(tmp_path, '"f"\n', "e\n")).verdict == Verdict.WA
    text = Signature(methods=[Method(name="f", return_type="string")])
    assert HarnessChecker(text).check(files(tmp_path, '"123"\n', "123\n")).verdict == Verdict.AC
    assert HarnessChecker(FUNCTION).check(files(tmp_path, "[1]", "e")).verdict == Verdict.IE
