"""Recorded LeetCode problems (tests/fixtures/leetcode, parsed by the scraper) through the harness."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_local_judge import judge_tests

from cpbot.judge.harness import build_program, checker_for
from cpbot.judge.model import Problem, Solution, Verdict
from cpbot.scrapers.leetcode.parse import parse_question
from tests.paths import LEETCODE_ANSWERS

FIXTURES = LEETCODE_ANSWERS
SOLUTIONS = Path(__file__).parent / "fixture_solutions"


def problem(name: str) -> Problem:
    return parse_question((FIXTURES / f"lc_{name}.json").read_bytes())


def fixture_names() -> list[str]:
    return sorted(p.name[3:-5] for p in FIXTURES.glob("lc_*.json") if not p.name.endswith(".expected.json"))


@pytest.mark.parametrize("name", fixture_names())
@pytest.mark.parametrize("language", ["python3", "cpp17"])
def test_every_recorded_signature_builds_a_program(name: str, language: str) -> None:
    p = problem(name)
    assert p.signature is not None
    program = build_program(Solution(language=language, source="// no solution yet\n"), p.signature)
    assert program.language == language


@pytest.mark.parametrize(
    ("name", "any_order", "special"),
    [
        ("group-anagrams_any_order_output", True, False),
        ("insert-delete-getrandom-o1_design_randomized", False, True),
        ("reverse-bits_manual_unsigned", False, True),
        ("lru-cache_design", False, False),
        ("reorder-list_listnode_void_inplace", False, False),
    ],
)
def test_recorded_problems_are_classified(name: str, any_order: bool, special: bool) -> None:
    checker = checker_for(problem(name))
    assert (checker.any_order, checker.special) == (any_order, special)


@pytest.mark.usefixtures("needs_gpp")
@pytest.mark.parametrize(
    ("name", "solution", "verdict"),
    [
        ("reorder-list_listnode_void_inplace", "reorder-list.cpp", Verdict.AC),
        ("reorder-list_listnode_void_inplace", "reorder-list.py3", Verdict.AC),
        ("add-two-numbers_listnode", "add-two-numbers.cpp", Verdict.AC),
        # the old statement gives the character answer without quotes
        ("find-the-difference_2017_wire_old_pre", "find-the-difference.py3", Verdict.AC),
        # groups come out in another order inside: not confirmable without a special judge
        ("group-anagrams_any_order_output", "group-anagrams.cpp", Verdict.WA),
    ],
)
def test_recorded_samples_judge_hand_written_solutions(name: str, solution: str, verdict: Verdict) -> None:
    p = problem(name)
    assert p.signature is not None
    language = "cpp17" if solution.endswith(".cpp") else "python3"
    program = build_program(Solution(language=language, source=(SOLUTIONS / solution).read_text()), p.signature)
    report = judge_tests(program, p.samples, checker_for(p))
    assert report.verdict == verdict, report.first_failure
    if name.startswith("group-anagrams"):
        assert report.first_failure is not None
        assert report.first_failure.checker_message.startswith("special judge required")
