"""The contestant's edit loop as online-judge-tools, cph and cf-tool users expect it: compiler messages as
lines naming their file, tracebacks naming the user's file and line, another tool's command names and
options answered with cpbot's, counts in agreement, and a close float answer hinting at --checker float."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.bot.cli.main import main

DIVIDE = "def f(x):\n    return 1 // x\n\nprint(f(int(input())))\n"


def _tests(folder: Path, cases: dict[str, tuple[str, str]]) -> Path:
    tests = folder / "tests"
    tests.mkdir()
    for name, (given, wanted) in cases.items():
        (tests / f"{name}.in").write_text(given)
        (tests / f"{name}.out").write_text(wanted)
    return tests


def test_a_compile_error_is_printed_as_the_compilers_lines_naming_the_users_file(tmp_path, capsys):
    (tmp_path / "mine.cpp").write_text("#include <bits/stdc++.h>\nint main() { int x = ; }\n")
    _tests(tmp_path, {"a": ("1\n", "1\n")})
    assert main(["judge", str(tmp_path / "mine.cpp")]) == 1
    out = capsys.readouterr().out
    assert "\\n" not in out
    lines = out.splitlines()
    assert any(line.startswith("mine.cpp:2:") and "error" in line for line in lines)
    assert any(line.strip().startswith("2 | int main()") for line in lines)
    assert "cpbot-sandbox" not in out


def test_a_traceback_names_the_users_file_and_line(tmp_path, capsys):
    (tmp_path / "sol.py").write_text(DIVIDE)
    _tests(tmp_path, {"zero": ("0\n", "1\n")})
    assert main(["judge", str(tmp_path / "sol.py")]) == 1
    out = capsys.readouterr().out
    assert 'File "sol.py", line 2, in f' in out
    assert 'File "sol.py", line 4, in <module>' in out
    assert "cpbot-sandbox" not in out and "solution.py" not in out


def test_a_traceback_in_json_names_the_users_file(tmp_path, capsys):
    import json

    (tmp_path / "sol.py").write_text(DIVIDE)
    _tests(tmp_path, {"zero": ("0\n", "1\n")})
    assert main(["judge", str(tmp_path / "sol.py"), "--json"]) == 1
    stderr = json.loads(capsys.readouterr().out)["results"][0]["stderr"]
    assert 'File "sol.py", line 2, in f' in stderr


def test_one_test_is_one_test(tmp_path, capsys):
    (tmp_path / "sol.py").write_text("print(input())\n")
    _tests(tmp_path, {"a": ("1\n", "1\n")})
    assert main(["judge", str(tmp_path / "sol.py")]) == 0
    assert "on 1 test:" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("typed", "meant"), [("test", "cpbot judge"), ("t", "cpbot judge"), ("download", "cpbot fetch")]
)
def test_another_tools_command_names_the_cpbot_command(typed, meant, capsys):
    assert main([typed, "sol.cpp"]) == 2
    assert f"Did you mean '{meant}'?" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "meant"),
    [("-t", "--tl SECONDS"), ("--tle", "--tl SECONDS"), ("-e", "--checker float:EPS"), ("-d", "--tests DIR")],
)
def test_oj_test_options_name_the_cpbot_option(option, meant, tmp_path, capsys):
    (tmp_path / "sol.py").write_text("print(input())\n")
    assert main(["judge", str(tmp_path / "sol.py"), option, "2"]) == 2
    assert f"No such option: {option}. Did you mean {meant}?" in capsys.readouterr().err


def test_a_wrong_answer_within_one_millionth_hints_at_the_float_checker(tmp_path, capsys):
    (tmp_path / "sol.py").write_text("print('%.9f' % (1 / 3))\n")
    _tests(tmp_path, {"a": ("\n", "0.333333333333\n")})
    assert main(["judge", str(tmp_path / "sol.py")]) == 1
    assert "--checker float:1e-6" in capsys.readouterr().out
    assert main(["judge", str(tmp_path / "sol.py"), "--checker", "float:1e-6"]) == 0


def test_a_wrong_answer_far_off_gets_no_float_hint(tmp_path, capsys):
    (tmp_path / "sol.py").write_text("print('0.5')\n")
    _tests(tmp_path, {"a": ("\n", "0.333333333333\n")})
    assert main(["judge", str(tmp_path / "sol.py")]) == 1
    assert "--checker float" not in capsys.readouterr().out
