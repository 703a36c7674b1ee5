"""AHC001 "AtCoder Ad" against its real final standings: our generator and scorer follow the statement, the
recorded standings read in points, and `cpbot bench` ranks the strategy's returned program among the 1,381
participants with the published performance of its rank (tests/fixtures/heuristic/ahc001)."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cpbot.bot.bench.standings import read_final_standings, read_standings
from cpbot.bot.cli.main import main
from cpbot.core.errors import CpbotError
from cpbot.testing.score_pool_server import ScorePool, file_pool
from tests.agents.support.scripted_server import ScriptedServer
from tests.paths import FIXTURES, HEURISTIC

AHC001 = HEURISTIC / "ahc001"
STANDINGS = AHC001 / "final_standings.json"
SYSTEM_INPUTS = 1000


def run_tool(*args: str | Path, stdin: str = "") -> str:
    done = subprocess.run([sys.executable, *map(str, args)], input=stdin, capture_output=True, text=True, check=True)
    return done.stdout


def score_of(tmp_path: Path, given: str, output: str) -> tuple[str, int]:
    (tmp_path / "in.txt").write_text(given)
    (tmp_path / "out.txt").write_text(output)
    printed = run_tool(AHC001 / "score.py", tmp_path / "in.txt", tmp_path / "out.txt")
    return printed, int(printed.strip().splitlines()[-1].split("=")[1])


# ---- the tools written from the statement ----


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_the_generator_follows_the_statement_s_input_generation(seed: int) -> None:
    lines = run_tool(AHC001 / "gen.py", str(seed)).split("\n")
    n = int(lines[0])
    rows = [tuple(map(int, line.split())) for line in lines[1 : n + 1]]
    assert 50 <= n <= 200 and len(rows) == n
    assert len({(x, y) for x, y, _ in rows}) == n and all(0 <= x <= 9999 and 0 <= y <= 9999 for x, y, _ in rows)
    assert sum(r for _, _, r in rows) == 10000 * 10000 and min(r for _, _, r in rows) >= 1
    assert run_tool(AHC001 / "gen.py", str(seed)) == run_tool(AHC001 / "gen.py", str(seed))  # a function of the seed


def test_the_scorer_applies_the_statement_s_satisfaction_formula(tmp_path: Path) -> None:
    given = "2\n0 0 4\n5 5 2\n"
    # company 0 gets its 2 x 2 = 4 exactly (p = 1); company 1 a 1 x 1 square of area 1 for 2 (p = 1 - 1/4)
    _, score = score_of(tmp_path, given, "0 0 2 2\n5 5 6 6\n")
    assert score == round(1e9 * (1 + 0.75) / 2)
    # a rectangle missing its point satisfies nobody
    _, score = score_of(tmp_path, given, "0 0 2 2\n6 6 7 7\n")
    assert score == round(1e9 * 1 / 2)


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        ("0 0 2 2\n1 1 6 6\n", "overlap"),
        ("0 0 0 2\n5 5 6 6\n", "empty"),
        ("0 0 2 2\n5 5 6 10001\n", "empty or leaves"),
        ("0 0 2 2\n", "expected 2 rectangles"),
        ("0 0 2 x\n5 5 6 6\n", "other than integers"),
    ],
)
def test_an_illegal_output_is_judged_wa_and_scores_zero(tmp_path: Path, output: str, reason: str) -> None:
    printed, score = score_of(tmp_path, "2\n0 0 4\n5 5 2\n", output)
    assert score == 0 and reason in printed


def test_the_statement_s_sample_output_is_legal(tmp_path: Path) -> None:
    """AtCoder's Sample Output 1 (from the recorded statement) is a legal placement of Sample Input 1."""
    english = json.loads((FIXTURES / "atcoder" / "statements" / "ahc001_a.html.json").read_text())["html"]["en"]
    given, output = (html.unescape(p) for p in re.findall(r"<pre[^>]*>(.*?)</pre>", english, re.S)[-2:])
    assert given.startswith("50\n1909 360 6468907") and output.startswith("0 0 4473 1446")
    _, score = score_of(tmp_path, given, output)
    assert 5 * 10**8 < score < 10**9


def test_the_greedy_program_beats_the_unit_squares(tmp_path: Path) -> None:
    given = run_tool(AHC001 / "gen.py", "3")
    _, unit = score_of(tmp_path, given, run_tool(AHC001 / "solutions" / "unit.py", stdin=given))
    _, greedy = score_of(tmp_path, given, run_tool(AHC001 / "solutions" / "greedy.py", stdin=given))
    assert 0 < unit < 10**6 < 5 * 10**8 < greedy < 10**9


# ---- the real final standings ----


def test_the_real_final_standings_read_in_points_over_the_system_test() -> None:
    standings = read_final_standings(STANDINGS)
    assert len(standings.ranked) == 1381 and standings.ranked[0] == (1, 993_823_071_683.0)  # hakomo
    # AtCoder's JSON gives hundredths: read as points, the winner's mean per input is below the 10^9 an input
    # can score at most (in units it would be 100 times that)
    assert 0.99e9 < standings.ranked[0][1] / SYSTEM_INPUTS < 1e9
    assert standings.performance[:3] == [(1, 3252), (2, 2994), (3, 2869)]
    assert read_standings(AHC001) == standings


def test_a_known_rank_and_score_give_back_that_rank_and_the_published_performance() -> None:
    """Checked by hand once: ymatsux ranked 2nd with 99331054844700 hundredths (993,310,548,447 points over the
    1000 inputs) and a published performance of 2994. A program whose local mean, scaled to the system test,
    is just above that total is 2nd with performance 2994; just below, it is 3rd with the 3rd's 2869."""
    standings = read_final_standings(STANDINGS)
    mean = 993_310_548_447 / SYSTEM_INPUTS
    above = standings.place([mean + 0.01] * 50, relative=False, system_inputs=SYSTEM_INPUTS)
    assert (above.rank, above.performance, above.participants) == (2, 2994, 1381)
    assert "mean over 50 local seeds times the system test's 1000 inputs" in above.assumptions[-1]
    below = standings.place([mean - 0.01] * 50, relative=False, system_inputs=SYSTEM_INPUTS)
    assert (below.rank, below.performance) == (3, 2869)


def test_a_malformed_final_standings_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "final_standings.json").write_text('[{"Rank": 1, "Score": "lots"}]')
    with pytest.raises(CpbotError, match=r"final_standings\.json"):
        read_standings(tmp_path)


# ---- `cpbot bench`, the path a user runs ----


def ahc001_pool() -> ScorePool:
    """A stand-in model: the unit squares first, the greedy as the new method; an edit changes nothing."""
    return file_pool([AHC001 / "solutions" / "unit.py", AHC001 / "solutions" / "greedy.py"])


def test_bench_ranks_the_returned_program_against_the_real_ahc001_standings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox, capsys: pytest.CaptureFixture[str]
) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "ahc"
    shutil.copytree(AHC001, root / "ahc001", ignore=shutil.ignore_patterns("solutions"))
    problem = json.loads((root / "ahc001" / "problem.json").read_text())
    problem["heuristic"]["seeds"] = 6  # the hidden seeds the bench scores on: few, to keep the test short
    (root / "ahc001" / "problem.json").write_text(json.dumps(problem))
    monkeypatch.setattr("cpbot.judge.sandbox.default_sandbox", lambda: sandbox)
    with ScriptedServer(default=ahc001_pool().answer) as server:
        monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
        monkeypatch.setenv("CPBOT_BASE_URL", server.base_url)
        monkeypatch.setenv("CPBOT_API_KEY", "sk-test")
        argv = ["bench", str(root), "--strategy", "ale", "--lang", "python3", "--max-calls", "5", "-j", "1"]
        argv += ["--strategy-option", "seeds=2", "--strategy-option", "repeats=1", "--model", "pool"]
        assert main([*argv, "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
    final = report["outcomes"][0]["final"]
    assert final["verdict"] == "AC" and final["total_tests"] == 6
    assert 5e8 < final["mean_score"] < 1e9  # the greedy was returned, not the unit squares
    expected = read_final_standings(STANDINGS).place([final["mean_score"]] * 6, False, SYSTEM_INPUTS)
    assert (final["rank"], final["participants"], final["performance"]) == (expected.rank, 1381, expected.performance)
    assert 1 < final["rank"] < 1381 and final["performance"] is not None
    assert any("6 local seeds times the system test's 1000 inputs" in n for n in final["placing_notes"])
    from cpbot.bot.bench.report import markdown
    from cpbot.bot.bench.runner import BenchReport

    table = markdown(BenchReport.model_validate(report), timings=False)
    assert f"- ahc001 (ale): rank {final['rank']} of 1381, performance {final['performance']}" in table
    assert "times the system test's 1000 inputs" in table
