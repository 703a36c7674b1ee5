"""Built-in checkers on outputs given directly: the rules, the verdicts and the first difference."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.core.errors import ConfigError
from cpbot.judge.checkers import builtin_checker, make_checker
from cpbot.judge.checkers.base import CheckInput
from cpbot.judge.model import Verdict


def check(spec: str, output: str, answer: str, tmp_path: Path):
    (tmp_path / "in").write_text("")
    (tmp_path / "out").write_bytes(output.encode())
    (tmp_path / "ans").write_bytes(answer.encode())
    checker = builtin_checker(spec)
    assert checker is not None
    return checker.check(CheckInput(tmp_path / "in", tmp_path / "out", tmp_path / "ans"))


@pytest.mark.parametrize(
    ("output", "answer", "verdict"),
    [
        ("1 2 3\n", "1 2 3\n", Verdict.AC),
        ("1\n2\n3", "1 2 3\n", Verdict.AC),  # tokens ignore layout
        ("1  2\t3\r\n\n\n", "1 2 3\n", Verdict.AC),
        ("1 2 4\n", "1 2 3\n", Verdict.WA),
        ("1 2\n", "1 2 3\n", Verdict.WA),
        ("1 2 3 4\n", "1 2 3\n", Verdict.WA),
        ("YES\n", "yes\n", Verdict.WA),
    ],
)
def test_tokens_checker(output, answer, verdict, tmp_path):
    assert check("tokens", output, answer, tmp_path).verdict == verdict


def test_tokens_diff_names_line_token_expected_and_got(tmp_path):
    result = check("tokens", "1 2\n3 5\n6\n", "1 2\n3 4\n6\n", tmp_path)
    assert result.diff is not None
    assert (result.diff.line, result.diff.token, result.diff.expected, result.diff.got) == (2, 4, "4", "5")


def test_tokens_diff_when_output_ends_early(tmp_path):
    result = check("tokens", "1\n", "1 2\n", tmp_path)
    assert result.diff is not None
    assert result.diff.got == "<end of output>"
    assert "ends early" in result.message


@pytest.mark.parametrize(
    ("output", "answer", "verdict"),
    [
        ("a b\n", "a b\n", Verdict.AC),
        ("a b\r\n", "a b\n", Verdict.AC),
        ("a  b\n", "a b\n", Verdict.PE),
        ("a b", "a b\n", Verdict.PE),
        ("a c\n", "a b\n", Verdict.WA),
    ],
)
def test_exact_checker(output, answer, verdict, tmp_path):
    assert check("exact", output, answer, tmp_path).verdict == verdict


@pytest.mark.parametrize(
    ("output", "answer", "verdict"),
    [
        ("a  b \n c\n\n\n", "a b\nc\n", Verdict.AC),
        ("a b c\n", "a b\nc\n", Verdict.PE),
        ("a b\nd\n", "a b\nc\n", Verdict.WA),
    ],
)
def test_lines_checker(output, answer, verdict, tmp_path):
    assert check("lines", output, answer, tmp_path).verdict == verdict


@pytest.mark.parametrize(
    ("spec", "output", "answer", "verdict"),
    [
        ("float:1e-6", "0.1234565\n", "0.123456\n", Verdict.AC),
        ("float:1e-6", "0.123458\n", "0.123456\n", Verdict.WA),
        ("float:1e-6", "1000000.9\n", "1000000.0\n", Verdict.AC),  # relative error 9e-7
        ("float-abs:1e-6", "1000000.9\n", "1000000.0\n", Verdict.WA),
        ("float-rel:1e-6", "0.0000001\n", "0\n", Verdict.WA),
        ("float:1e-6", "nan\n", "nan\n", Verdict.WA),
        ("float:1e-6", "inf\n", "inf\n", Verdict.WA),
        ("float:1e-6", "-inf\n", "1e308\n", Verdict.WA),
        ("float:1e-6", "Case 0.5\n", "Case 0.5000001\n", Verdict.AC),  # words compared exactly
        ("float:1e-6", "case 0.5\n", "Case 0.5\n", Verdict.WA),
        ("float:1e-6", "abc\n", "1.0\n", Verdict.WA),
        ("float:1e-6", "1.0 2.0\n", "1.0\n", Verdict.WA),
    ],
)
def test_float_checker(spec, output, answer, verdict, tmp_path):
    assert check(spec, output, answer, tmp_path).verdict == verdict


def test_float_checker_says_why_nan_is_rejected(tmp_path):
    assert "NaN" in check("float:1e-6", "nan\n", "1\n", tmp_path).message


def test_unknown_checker_spec_is_a_clear_error(sandbox):
    with pytest.raises(ConfigError, match="unknown checker"):
        make_checker("no-such-checker", sandbox)
    with pytest.raises(ConfigError, match="bad float checker"):
        make_checker("float:abc", sandbox)
