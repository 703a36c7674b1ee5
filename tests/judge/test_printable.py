"""What programs and compilers write reaches the user's terminal with every control character escaped:
a compile log, a stderr excerpt or a differing token cannot retitle, clear or recolour the terminal."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from cpbot.bot.cli.main import main
from cpbot.judge.model import Limits, Solution, TestCase, Verdict, printable
from cpbot.judge.runner import judge_solution

ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b[32mAC\x1b[0m\r\x9b1m"
TITLE = "\x1b]0;pwned\x07\x1b[2J"  # raw in a source line the compiler quotes
# Trojan Source: a right-to-left override and isolates make a line read otherwise than it compiles
TROJAN = "access = \u202e \u2066// check if admin\u2069 \u2066 isAdmin\u200b\ufeff"
LIMITS = Limits(time_ms=2000, memory_mb=256)


def no_control(text: str) -> bool:
    """No control character but tab and newline, and no format character (bidi controls, zero-width ones)."""
    return not any(unicodedata.category(c) in ("Cc", "Cf") and c not in "\t\n" for c in text)


def test_printable_escapes_control_characters_and_is_idempotent():
    assert printable("a\x1b[2Jb\tc\nd\re\x9b") == "a\\x1b[2Jb\tc\nd\\x0de\\x9b"
    assert printable(printable(ESCAPES)) == printable(ESCAPES)


def test_printable_escapes_bidi_and_zero_width_characters():
    assert printable("a\u202eb\u2066c\u200b\ufeffd\U000e0041") == "a\\u202eb\\u2066c\\u200b\\ufeffd\\U000e0041"
    assert printable(printable(TROJAN)) == printable(TROJAN) and no_control(printable(TROJAN))


def test_a_trojan_source_line_the_compiler_quotes_is_escaped(tmp_path: Path, capsys):
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "1.in").write_text("")
    (tests / "1.out").write_text("ok\n")
    source = tmp_path / "trojan.cpp"
    source.write_text(f'int main() {{ return "{TROJAN}" }}\n')
    main(["judge", str(source), "--tests", str(tests)])
    captured = capsys.readouterr()
    assert "\\u202e" in captured.out + captured.err  # the override, shown escaped
    assert no_control(captured.out) and no_control(captured.err)


def test_compile_log_stderr_and_diff_are_escaped(sandbox):
    cpp = f'int main() {{ return "{TITLE}" }}\n'
    ce = judge_solution(Solution(language="cpp17", source=cpp), [TestCase(input="")], limits=LIMITS, sandbox=sandbox)
    assert ce.verdict == Verdict.CE and "\\x1b]0;pwned" in ce.compile_log and no_control(ce.compile_log)
    py = f"import sys\nsys.stderr.write({ESCAPES!r})\nprint({ESCAPES!r})\nsys.exit(len(sys.stdin.read()))\n"
    report = judge_solution(
        Solution(language="python3", source=py),
        [TestCase(input="", output="ok\n"), TestCase(input="x", output="ok\n")],
        limits=LIMITS,
        sandbox=sandbox,
    )
    wa, re_ = report.results
    assert wa.verdict == Verdict.WA and wa.diff is not None and "\\x1b" in wa.diff.got
    assert re_.verdict == Verdict.RE and "\\x1b]0;pwned" in re_.stderr
    dumped = report.model_dump_json()
    assert no_control(wa.diff.got + wa.stdout + re_.stderr + re_.stdout) and "\\u001b" not in dumped


def test_the_judge_command_prints_no_escape_sequence(tmp_path: Path, capsys):
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "1.in").write_text("1\n")
    (tests / "1.out").write_text("ok\n")
    source = tmp_path / "sol.py"
    source.write_text(f"import sys\nsys.stderr.write({ESCAPES!r})\nprint({ESCAPES!r})\nsys.exit(1)\n")
    main(["judge", str(source), "--tests", str(tests)])
    compile_error = tmp_path / "bad.cpp"
    compile_error.write_text(f'int main() {{ return "{TITLE}" }}\n')
    main(["judge", str(compile_error), "--tests", str(tests)])
    captured = capsys.readouterr()
    assert "pwned" in captured.out + captured.err  # shown, escaped
    assert no_control(captured.out) and no_control(captured.err)
