"""The float checker a statement's words on accepted error ask for, in English and Japanese (one home for
AtCoder's task pages and LiveCodeBench's problems)."""

from __future__ import annotations

import pytest

from cpbot.judge.checkers import builtin_checker
from cpbot.judge.checkers.tolerance import statement_tolerance


@pytest.mark.parametrize(
    ("statement", "spec"),
    [
        ("Print A+B.", None),
        ("Correct if the absolute or relative error from the true answer is at most 10^{-6}.", "float:1e-6"),
        ("Your answer is considered correct if its absolute error does not exceed $10^{-9}$.", "float-abs:1e-9"),
        ("The relative error must be at most 1e-4.", "float-rel:1e-4"),
        ("Correct if the absolute error or the relative error is at most 10^-7.", "float:1e-7"),
        ("It is accepted when the relative or absolute error is at most 10^{\u22125}.", "float:1e-5"),
        ("Errors are not allowed. Output 10^{-6} times the count.", None),
        ("想定解との絶対誤差または相対誤差が $10^{-6}$ 以下であれば正解として扱われる。", "float:1e-6"),
        ("想定解との絶対誤差が 10^{-3} 以下であれば正解とする。", "float-abs:1e-3"),
        ("Your answer is considered correct if its absolute or relative error does not exceed 1e-6.", "float:1e-6"),
        ("The relative error of your answer should not be greater than 10^{- 6}.", "float-rel:1e-6"),
        ("The absolute error must not exceed 10^(-6).", "float-abs:1e-6"),
        ("An absolute or relative error of at most 1E-09 is allowed.", "float:1e-9"),
        ("Answers whose absolute or relative error is 0.000001 or less are accepted.", "float:1e-6"),
        ("想定解との絶対誤差または相対誤差が 1e-6 以下であれば正解とする。", "float:1e-6"),
    ],
)
def test_the_checker_follows_the_error_a_statement_allows(statement, spec):
    assert statement_tolerance(statement) == spec
    if spec is not None:
        assert builtin_checker(spec) is not None  # a spec the float checker takes


def test_with_either_any_stated_error_is_absolute_or_relative():
    """Codeforces' standard float checkers (rcmp6 and kin) accept either, whichever error the text names."""
    assert statement_tolerance("The relative error must be at most 1e-6.", either=True) == "float:1e-6"
    assert statement_tolerance("Its absolute error must be at most 10^{-9}.", either=True) == "float:1e-9"
    assert statement_tolerance("Print the sum.", either=True) is None
