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


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1 << 20])
def test_tokens_streamed_in_any_chunk_size_find_the_same_difference(chunk, monkeypatch, tmp_path: Path):
    """Tokens cut by a chunk's end are carried over; the line and token of the difference stay exact."""
    import cpbot.judge.checkers.text as text

    monkeypatch.setattr(text, "CHUNK", chunk)
    output = "alpha beta\ngamma  delta\n\nepsilon zeta12 eta\n"
    answer = "alpha beta gamma delta epsilon zeta13 eta"
    result = check("tokens", output, answer, tmp_path)
    assert result.verdict == Verdict.WA and result.diff is not None
    assert (result.diff.line, result.diff.token, result.diff.got, result.diff.expected) == (4, 6, "zeta12", "zeta13")
    assert check("tokens", output, answer.replace("13", "12"), tmp_path).verdict == Verdict.AC
    short = check("tokens", "alpha beta", answer, tmp_path)
    assert short.message == "output ends early: 2 tokens, expected 7"
    assert check("tokens", answer + " more", answer, tmp_path).message == "extra output after 7 tokens"


def test_token_checker_memory_stays_bounded_on_a_huge_output_of_tiny_tokens(tmp_path: Path):
    """40 MB of one-character tokens: a list of every token would take over a gigabyte."""
    script = f"""
import resource
from pathlib import Path
from cpbot.judge.checkers.tokens import compare_tokens
out, ans = Path({str(tmp_path / "out")!r}), Path({str(tmp_path / "ans")!r})
block = b"1 " * (1 << 19)
with open(out, "wb") as o, open(ans, "wb") as a:
    for _ in range(40):
        o.write(block)
        a.write(block)
    o.write(b"2")
    a.write(b"3")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
result = compare_tokens(out, ans)
assert result.verdict == "WA" and result.diff.token == 40 * (1 << 19) + 1, result
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
"""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert int(proc.stdout) < 100, f"the checker grew by {proc.stdout.strip()} MB"
