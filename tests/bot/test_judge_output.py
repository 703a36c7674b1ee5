"""What `cpbot judge` shows: results in test order as they end, the end of stderr for a runtime error, the
input and the lines around the first difference for a wrong answer, the output of an unchecked test."""

from __future__ import annotations

import io
from pathlib import Path

from cpbot.bot.cli.main import main
from cpbot.bot.report.judge_view import JudgeView
from cpbot.judge.model import Limits, Solution, TestCase, TestResult, Verdict
from cpbot.judge.runner import judge_solution

ECHO_OR_FAIL = """import sys
n = int(sys.stdin.readline())
if n == 3:
    raise RuntimeError('no three allowed')
if n == 5:
    print('nonsense')
    sys.exit(0)
for i in range(n):
    print(i)
"""


def _tests(tmp_path: Path, cases: dict[str, tuple[str, str | None]]) -> Path:
    d = tmp_path / "tests"
    d.mkdir()
    for name, (inp, out) in cases.items():
        (d / f"{name}.in").write_text(inp)
        if out is not None:
            (d / f"{name}.out").write_text(out)
    return d


def test_results_reach_the_callback_in_test_order_and_match_the_report(sandbox):
    # unequal costs on two workers: tests end out of order, the callback still sees 1, 2, 3, ...
    costs = [400_000, 1, 200_000, 1, 1, 300_000, 1, 1]
    program = "n = int(input())\ns = 0\nfor i in range(n):\n    s += i\nprint(n)\n"
    tests = [TestCase(input=f"{c}\n", output=f"{c}\n" if i % 3 else "0\n") for i, c in enumerate(costs)]
    seen = []
    report = judge_solution(
        Solution(language="python3", source=program),
        tests,
        limits=Limits(time_ms=5000),
        sandbox=sandbox,
        jobs=2,
        on_result=seen.append,
    )
    assert [r.index for r in seen] == list(range(1, len(tests) + 1))
    assert [(r.index, r.verdict) for r in seen] == [(r.index, r.verdict) for r in report.results]
    assert {r.verdict for r in seen} == {Verdict.AC, Verdict.WA}


def test_a_runtime_error_shows_the_end_of_stderr(tmp_path, capsys):
    (tmp_path / "sol.py").write_text(ECHO_OR_FAIL)
    tests = _tests(tmp_path, {"t1": ("2\n", "0\n1\n"), "t2": ("3\n", "0\n1\n2\n")})
    assert main(["judge", str(tmp_path / "sol.py"), "--tests", str(tests)]) == 1
    out = capsys.readouterr().out
    after = out[out.index("t2") :]
    assert "stderr (last" in after and "RuntimeError: no three allowed" in after


def test_a_cpp_exception_shows_what(tmp_path, capsys):
    source = '#include <stdexcept>\nint main() { throw std::runtime_error("index out of range"); }\n'
    (tmp_path / "sol.cpp").write_text(source)
    tests = _tests(tmp_path, {"t1": ("1\n", "1\n")})
    assert main(["judge", str(tmp_path / "sol.cpp"), "--tests", str(tests)]) == 1
    out = capsys.readouterr().out
    assert "RE" in out and "what():  index out of range" in out


def test_a_wrong_answer_shows_the_input_cut_and_the_lines_around_the_first_difference(tmp_path, capsys):
    (tmp_path / "sol.py").write_text(ECHO_OR_FAIL)
    expected = "".join(f"{i}\n" for i in range(9)).replace("\n6\n", "\n66\n")
    tests = _tests(tmp_path, {"t1": ("9\n" + "".join(f"filler {i}\n" for i in range(20)), expected)})
    assert main(["judge", str(tmp_path / "sol.py"), "--tests", str(tests)]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any("input (21 lines):" in line for line in lines)
    assert "filler 4" in out and "filler 5" not in out and "... 15 more" in out  # cut to a few lines
    expected_part = out[out.index("expected:") : out.index("received:")]
    received_part = out[out.index("received:") :]
    # lines 5..8 around the difference on line 7, the differing one marked
    assert "5| 4" in expected_part and ">    7| 66" in expected_part and "8| 7" in expected_part
    assert "4| 3" not in expected_part
    assert ">    7| 6" in received_part


def test_a_missing_line_is_shown_as_the_end_of_output(tmp_path, capsys):
    (tmp_path / "sol.py").write_text(ECHO_OR_FAIL)
    tests = _tests(tmp_path, {"t1": ("5\n", "0\n1\n")})
    assert main(["judge", str(tmp_path / "sol.py"), "--tests", str(tests)]) == 1
    out = capsys.readouterr().out
    assert ">    1| 0" in out and ">    1| nonsense" in out


def test_an_unchecked_test_shows_its_output(tmp_path, capsys):
    (tmp_path / "sol.py").write_text(ECHO_OR_FAIL)
    tests = _tests(tmp_path, {"t1": ("2\n", None)})
    assert main(["judge", str(tmp_path / "sol.py"), "--tests", str(tests)]) == 1
    out = capsys.readouterr().out
    assert "RAN" in out and "output (2 lines):" in out and "\n         1\n" in out


def test_control_characters_of_a_program_are_shown_escaped():
    view_out = io.StringIO()
    view = JudgeView([TestCase(input="1\n", output="2\n")], stream=view_out, live=False)
    view.result(TestResult(index=1, verdict=Verdict.RE, stderr="\x1b]0;owned\x07\x1b[2Jfake\n", checker_message="x"))
    text = view_out.getvalue()
    assert "\x1b" not in text and "\x07" not in text and "\\x1b" in text


def test_the_live_line_is_only_written_to_a_terminal():
    tests = [TestCase(input="1\n", output="1\n")]
    result = TestResult(index=1, verdict=Verdict.AC)
    piped, tty = io.StringIO(), io.StringIO()
    for stream, live in ((piped, False), (tty, True)):
        view = JudgeView(tests, stream=stream, live=live)
        view.status("compiling...")
        view.result(result)
    assert "running" not in piped.getvalue() and "\r" not in piped.getvalue()
    assert "compiling..." in tty.getvalue() and "\r\x1b[K" in tty.getvalue() and "[1/1] AC 1" in tty.getvalue()


def test_a_long_stderr_still_shows_its_last_lines(tmp_path, capsys):
    # debug output first, the crash last: the end of stderr, not its start, says what went wrong
    program = "import sys\nfor i in range(400):\n    print('debug', i, file=sys.stderr)\n"
    program += "raise ValueError('the real reason')\n"
    (tmp_path / "sol.py").write_text(program)
    tests = _tests(tmp_path, {"t1": ("1\n", "1\n")})
    assert main(["judge", str(tmp_path / "sol.py"), "--tests", str(tests)]) == 1
    out = capsys.readouterr().out
    assert "ValueError: the real reason" in out and "debug 399" in out
