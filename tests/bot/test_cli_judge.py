"""`cpbot judge` and `cpbot doctor` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpbot.bot.cli.main import main
from cpbot.core.registry import LANGUAGE_NAMES
from cpbot.judge.model import JudgeReport, Limits, Problem, TestCase

SUM = "a, b = map(int, input().split())\nprint(a + b)\n"


@pytest.fixture
def tests_dir(tmp_path: Path) -> Path:
    d = tmp_path / "tests"
    d.mkdir()
    for name, inp, out in [
        ("sample-1", "1 2\n", "3\n"),
        ("sample-2", "2 2\n", "4\n"),
        ("sample-10", "5 5\n", "10\n"),
    ]:
        (d / f"{name}.in").write_text(inp)
        (d / f"{name}.out").write_text(out)
    return d


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_judge_accepts_and_exits_zero(tmp_path, tests_dir, capsys):
    code = main(["judge", str(write(tmp_path, "sol.py", SUM)), "--tests", str(tests_dir)])
    out = capsys.readouterr().out
    assert code == 0
    assert "AC 3/3 checked tests" in out
    # natural order: sample-2 before sample-10
    assert out.index("sample-2") < out.index("sample-10")


def test_judge_without_expected_outputs_is_not_ac_and_exits_non_zero(tmp_path, capsys):
    d = tmp_path / "unchecked"
    d.mkdir()
    (d / "1.in").write_text("1 2\n")
    code = main(["judge", str(write(tmp_path, "sol.py", "print(42)\n")), "--tests", str(d)])
    captured = capsys.readouterr()
    assert code == 1
    assert "RAN" in captured.out and "AC" not in captured.out
    assert "0/0 checked tests, 1 ran unchecked" in captured.out
    assert "nothing was checked" in captured.err


def test_judge_json_is_a_judge_report_and_exit_is_non_zero_on_failure(tmp_path, tests_dir, capsys):
    wrong = write(tmp_path, "sol.py", "a, b = map(int, input().split())\nprint(a * b)\n")
    code = main(["judge", str(wrong), "--tests", str(tests_dir), "--json"])
    report = JudgeReport.model_validate_json(capsys.readouterr().out)
    assert code == 1
    assert report.verdict == "WA"
    assert [r.name for r in report.results] == ["sample-1", "sample-2", "sample-10"]
    assert [r.verdict for r in report.results] == ["WA", "AC", "WA"]
    assert report.results[0].diff is not None and report.results[0].diff.expected == "3"


def test_judge_takes_samples_limits_and_checker_from_a_problem_file(tmp_path, capsys):
    problem = Problem(
        id="local:half",
        limits=Limits(time_ms=1000, memory_mb=64),
        samples=[TestCase(input="1\n", output="0.5\n")],
        checker="float:1e-6",
    )
    pfile = write(tmp_path, "problem.json", problem.model_dump_json())
    sol = write(tmp_path, "sol.py", "print(int(input()) / 2 + 1e-9)\n")
    assert main(["judge", str(sol), "--problem", str(pfile), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "AC"


def test_tl_option_overrides_and_is_in_seconds(tmp_path, tests_dir, capsys):
    spin = write(tmp_path, "sol.py", "while True: pass\n")
    assert main(["judge", str(spin), "--tests", str(tests_dir), "--tl", "0.2", "-j", "2"]) == 1
    assert "TLE" in capsys.readouterr().out


def test_compile_error_prints_the_compiler_message(tmp_path, tests_dir, capsys):
    bad = write(tmp_path, "sol.cpp", "int main() { return 0 }\n")
    assert main(["judge", str(bad), "--tests", str(tests_dir)]) == 1
    out = capsys.readouterr().out
    assert "expected ';'" in out and "CE" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["judge", "{alone}"], "nothing to judge sol.py against"),
        (["judge", "{sol}", "--tests", "{empty}"], "no tests in"),
        (["judge", "{odd}", "--tests", "{tests}"], "cannot tell the language"),
        (["judge", "{sol}", "--problem", "{odd}"], "is not a cpbot problem file"),
    ],
)
def test_user_errors_are_one_line_with_a_hint_and_exit_two(args, message, tmp_path, tests_dir, capsys):
    paths = {
        "sol": write(tmp_path, "sol.py", SUM),
        "odd": write(tmp_path, "sol.xyz", "{}"),
        "tests": tests_dir,
        "empty": tmp_path / "empty",
    }
    paths["empty"].mkdir()
    (tmp_path / "alone").mkdir()
    paths["alone"] = write(tmp_path / "alone", "sol.py", SUM)
    code = main([a.format(**paths) for a in args])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: ") and message in err
    assert "hint: " in err
    assert "Traceback" not in err


def test_an_unknown_language_is_a_usage_error_listing_the_languages(tmp_path, tests_dir, capsys):
    # --lang is the shared option of every command: click checks it against the language registry
    assert main(["judge", str(write(tmp_path, "sol.py", SUM)), "--tests", str(tests_dir), "--lang", "cobol"]) == 2
    err = capsys.readouterr().err
    assert f"'cobol' is not one of {', '.join(map(repr, LANGUAGE_NAMES))}" in err and "Traceback" not in err


def test_verbose_flag_shows_the_traceback(tmp_path, capsys):
    assert main(["-v", "judge", str(write(tmp_path, "sol.py", SUM))]) == 2
    assert "Traceback" in capsys.readouterr().err


def test_version(capsys):
    assert main(["--version"]) == 0
    assert "cpbot, version" in capsys.readouterr().out


def test_doctor_prints_languages_and_isolation(capsys):
    assert main(["doctor", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["languages"]["cpp17"].startswith("g++")
    assert info["isolation"]["network"] == "namespace-per-run(on-first-socket)"
    assert info["isolation"]["root"] == "allowlist"
    assert info["isolation"]["proc"] == "private"
    assert info["isolation"]["workdir"].startswith("tmpfs")


def test_judge_runs_a_leetcode_function_problem_through_the_harness(tmp_path, capsys):
    from cpbot.judge.model import Method, Param, Signature

    problem = Problem(
        id="leetcode:two-sum",
        site="leetcode",
        kind="function",
        signature=Signature(
            methods=[
                Method(
                    name="twoSum",
                    params=[Param(name="nums", type="integer[]"), Param(name="target", type="integer")],
                    return_type="integer[]",
                )
            ]
        ),
        samples=[TestCase(input="[2,7,11,15]\n9\n", output="[0,1]"), TestCase(input="[3,2,4]\n6\n", output="[1,2]")],
    )
    pfile = write(tmp_path, "problem.json", problem.model_dump_json())
    right = write(
        tmp_path,
        "right.py",
        (
            "class Solution:\n"
            "    def twoSum(self, nums: List[int], target: int) -> List[int]:\n"
            "        seen = {}\n"
            "        for i, x in enumerate(nums):\n"
            "            if target - x in seen:\n"
            "                return [seen[target - x], i]\n"
            "            seen[x] = i\n"
        ),
    )
    wrong = write(
        tmp_path,
        "wrong.cpp",
        ("class Solution {\npublic:\n    vector<int> twoSum(vector<int>& nums, int target) { return {0, 1}; }\n};\n"),
    )
    assert main(["judge", str(right), "--problem", str(pfile)]) == 0
    assert "AC 2/2" in capsys.readouterr().out
    assert main(["judge", str(wrong), "--problem", str(pfile), "--json"]) == 1
    report = JudgeReport.model_validate_json(capsys.readouterr().out)
    assert [r.verdict for r in report.results] == ["AC", "WA"]
