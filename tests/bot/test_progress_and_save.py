"""`cpbot stress` and `cpbot profile` show a progress line on a terminal (and nothing when piped or with
--json); `cpbot stress --save DIR` keeps the smallest failing input and the brute force's answer as the next
free stress-NNN.in/.out, which `cpbot judge` then finds beside the solution."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from cpbot.bot.cli.main import main
from cpbot.bot.report.live import LiveLine
from cpbot.bot.report.render import profile_progress_text, stress_progress_text
from cpbot.judge.model import ProfilePoint
from cpbot.judge.stress import StressProgress
from cpbot.judge.testdir import save_next_test

STRESS = Path(__file__).resolve().parents[1] / "judge" / "stress"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_live_line_is_written_on_a_terminal_only():
    terminal, pipe = _Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        line = LiveLine(stream=stream)
        line.show("stress: 10/500 inputs", force=True)
        line.clear()
    assert "stress: 10/500 inputs" in terminal.getvalue() and terminal.getvalue().endswith("\r\x1b[K")
    assert pipe.getvalue() == ""


def test_the_progress_lines_say_runs_sizes_and_the_worst():
    searching = stress_progress_text(StressProgress(runs=37, size=4, largest=4, slowest_ms=12.4), 500)
    assert "37/500 inputs" in searching and "sizes up to 4" in searching and "12 ms" in searching
    shrinking = stress_progress_text(StressProgress(runs=60, size=2, largest=5, slowest_ms=3, found_size=3), 500)
    assert "shrinking" in shrinking and "n=3" in shrinking
    points = [ProfilePoint(size=n, cpu_ms=n / 100, peak_kb=1000) for n in (1000, 2000, 4000)]
    text = profile_progress_text(points, 200_000)
    assert "3 runs" in text and "4,000 of 200,000" in text and "40 ms at n=4,000" in text


def test_stress_reports_progress_after_every_input(sandbox):
    from cpbot.judge.build import build_program_file
    from cpbot.judge.checkers import make_checker
    from cpbot.judge.model import Limits
    from cpbot.judge.stress import stress_programs

    programs = [
        build_program_file(STRESS / name, sandbox, role=name)
        for name in ("max_off_by_one.cpp", "max_brute.py", "gen_small.py")
    ]
    seen: list[StressProgress] = []
    report = stress_programs(
        *programs, checker=make_checker("tokens", sandbox), limits=Limits(), sandbox=sandbox, progress=seen.append
    )
    assert [p.runs for p in seen] == list(range(1, report.runs + 1))
    assert seen[-1].found_size == report.failure.size  # type: ignore[union-attr]
    assert all(p.slowest_ms >= 0 for p in seen)


def test_stress_save_keeps_the_failing_case_where_judge_finds_it(tmp_path, capsys):
    for name in ("max_off_by_one.cpp", "max_brute.py", "gen_small.py"):
        shutil.copy(STRESS / name, tmp_path / name)
    solution = tmp_path / "max_off_by_one.cpp"
    args = ["stress", str(solution), "--brute", str(tmp_path / "max_brute.py"), "--gen", str(tmp_path / "gen_small.py")]
    assert main([*args, "--save", str(tmp_path / "tests")]) == 1
    out = capsys.readouterr()
    assert "saved as" in out.out and "\r" not in out.err  # no progress line when not a terminal
    saved = tmp_path / "tests" / "stress-000.in"
    assert saved.is_file() and saved.with_suffix(".out").is_file()
    assert main([*args, "--save", str(tmp_path / "tests")]) == 1  # the next one takes the next name
    assert (tmp_path / "tests" / "stress-001.in").is_file()
    capsys.readouterr()
    assert main(["judge", str(solution)]) == 1
    out = capsys.readouterr()
    assert "stress-000" in out.out and "WA" in out.out and "on 2 tests" in out.err


def test_save_never_replaces_a_test(tmp_path):
    (tmp_path / "stress-000.in").write_text("mine\n")
    path = save_next_test(tmp_path, "stress", "1\n", "2\n")
    assert path.name == "stress-001.in" and (tmp_path / "stress-000.in").read_text() == "mine\n"
    assert path.with_suffix(".out").read_text() == "2\n"
