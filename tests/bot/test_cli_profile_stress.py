"""`cpbot profile` and `cpbot stress` as a user runs them."""

from __future__ import annotations

from pathlib import Path

from cpbot.bot.cli.main import main
from cpbot.judge.model import ProfileReport, StressReport

TESTS = Path(__file__).resolve().parents[1] / "judge"


def test_profile_prints_a_plot_and_the_fit(capsys):
    code = main(
        [
            "profile",
            str(TESTS / "complexity" / "pairs.cpp"),
            "--gen",
            str(TESTS / "complexity" / "gen_array.cpp"),
            "--max-n",
            "10000",
            "--tl",
            "1",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "fit: O(n^2)" in out
    assert "#" in out and "efficient" in out


def test_profile_writes_a_png_plot(capsys, tmp_path):
    plot = tmp_path / "profile.png"
    code = main(
        [
            "profile",
            str(TESTS / "complexity" / "pairs.cpp"),
            "--gen",
            str(TESTS / "complexity" / "gen_array.cpp"),
            "--max-n",
            "4000",
            "--no-count",
            "--plot",
            str(plot),
        ]
    )
    assert code == 0
    data = plot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 400 and height > 300


def test_profile_json_is_a_profile_report_and_exit_is_one_when_too_slow(capsys):
    code = main(
        [
            "profile",
            str(TESTS / "complexity" / "pairs.cpp"),
            "--gen",
            str(TESTS / "complexity" / "gen_array.cpp"),
            "--max-n",
            "1000000",
            "--tl",
            "0.2",
            "--json",
        ]
    )
    report = ProfileReport.model_validate_json(capsys.readouterr().out)
    assert code == 1
    assert report.efficient is False
    assert report.points[-1].status == "tle"


def test_stress_prints_the_smallest_failing_input(capsys):
    stress = TESTS / "stress"
    code = main(
        [
            "stress",
            str(stress / "max_off_by_one.cpp"),
            "--brute",
            str(stress / "max_brute.py"),
            "--gen",
            str(stress / "gen_small.py"),
            "--json",
        ]
    )
    report = StressReport.model_validate_json(capsys.readouterr().out)
    assert code == 1
    assert report.status == "found" and report.failure is not None
    assert report.failure.size == 2


def test_stress_with_a_bad_generator_is_one_line_with_a_hint(capsys):
    stress = TESTS / "stress"
    code = main(
        [
            "stress",
            str(stress / "sum_right.cpp"),
            "--brute",
            str(stress / "sum_brute.py"),
            "--gen",
            str(stress / "gen_silent.py"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: generator failed for n=1, seed=1: it printed nothing")
    assert "hint:" in err


def test_stress_and_profile_take_include_dirs_for_every_source_they_build(capsys, tmp_path):
    # a shared header in a folder of its own, as Library Checker keeps `fastio.h` and `params.h`
    common = tmp_path / "common"
    common.mkdir()
    (common / "params.h").write_text("#pragma once\nconstexpr int MAX_A = 1000;\n")
    work = tmp_path / "work"
    work.mkdir()
    solution = work / "solution.cpp"
    solution.write_text(
        '#include <cstdio>\n#include "params.h"\n'
        'int main() { int n; long long s = 0, x; scanf("%d", &n);\n'
        '  for (int i = 0; i < n; i++) { scanf("%lld", &x); s += x < MAX_A ? x : MAX_A; }\n'
        '  printf("%lld\\n", s); }\n'
    )
    brute = work / "brute.py"
    brute.write_text("input()\nprint(sum(min(int(x), 1000) for x in input().split()))\n")
    generator = work / "gen.cpp"
    generator.write_text(
        '#include <cstdio>\n#include <cstdlib>\n#include "params.h"\n'
        "int main(int argc, char** argv) { int n = atoi(argv[1]); srand(atoi(argv[2]));\n"
        '  printf("%d\\n", n); for (int i = 0; i < n; i++) printf("%d ", rand() % (2 * MAX_A)); puts(""); }\n'
    )
    args = ["--gen", str(generator), "-I", str(common)]
    code = main(["stress", str(solution), "--brute", str(brute), *args, "--budget", "30", "--json"])
    report = StressReport.model_validate_json(capsys.readouterr().out)
    assert code == 0 and report.status == "clean"

    code = main(["profile", str(solution), *args, "--max-n", "2000", "--no-count", "--json"])
    profile = ProfileReport.model_validate_json(capsys.readouterr().out)
    assert code == 0 and profile.efficient

    code = main(["stress", str(solution), "--brute", str(brute), "--gen", str(generator)])
    assert code == 2
    assert "params.h" in capsys.readouterr().err
