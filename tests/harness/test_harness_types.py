"""The type grammar accepts LeetCode's and Python's spellings and names what it rejects."""

from __future__ import annotations

import pytest

from cpbot.core.errors import JudgeError
from cpbot.judge.harness import build_program, parse_type
from cpbot.judge.model import Method, Param, Signature, Solution


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("integer", "integer"),
        ("long", "long"),
        ("double", "double"),
        ("boolean", "boolean"),
        ("string", "string"),
        ("character", "character"),
        ("void", "void"),
        ("integer[]", "integer[]"),
        ("character[][]", "character[][]"),
        ("list<list<integer>>", "integer[][]"),
        ("list<String>", "string[]"),
        ("ListNode[]", "ListNode[]"),
        ("TreeNode", "TreeNode"),
        ("List[List[int]]", "integer[][]"),
        ("Optional[TreeNode]", "TreeNode"),
        ("list[str]", "string[]"),
        ("float", "double"),
        ("bool", "boolean"),
        ("List[Optional[ListNode]]", "ListNode[]"),
    ],
)
def test_leetcode_and_python_spellings_parse_to_the_same_type(text: str, canonical: str) -> None:
    assert str(parse_type(text)) == canonical


@pytest.mark.parametrize(
    "text", ["Node", "map<string,integer>", "integer[", "list<integer", "Dict[str, int]", "", "void[]"]
)
def test_unsupported_type_raises_judge_error_naming_the_type(text: str) -> None:
    with pytest.raises(JudgeError) as err:
        parse_type(text)
    assert repr(text) in err.value.message
    assert "supports" in err.value.hint


def test_build_program_rejects_unknown_parameter_type_naming_it() -> None:
    sig = Signature(methods=[Method(name="f", params=[Param(name="g", type="Graph")], return_type="integer")])
    with pytest.raises(JudgeError, match="'Graph'"):
        build_program(Solution(language="python3", source="class Solution: pass\n"), sig)


def test_build_program_rejects_unknown_return_type_in_cpp_too() -> None:
    sig = Signature(methods=[Method(name="f", params=[], return_type="map<int,int>")])
    with pytest.raises(JudgeError, match="map<int,int>"):
        build_program(Solution(language="cpp17", source="class Solution {};\n"), sig)


def test_build_program_rejects_a_method_name_that_is_not_an_identifier() -> None:
    sig = Signature(methods=[Method(name="two sum", params=[], return_type="integer")])
    with pytest.raises(JudgeError, match="two sum"):
        build_program(Solution(language="python3", source="x = 1\n"), sig)


def test_function_signature_must_have_exactly_one_method() -> None:
    sig = Signature(methods=[Method(name="a"), Method(name="b")])
    with pytest.raises(JudgeError, match="exactly one method"):
        build_program(Solution(language="python3", source="x = 1\n"), sig)
