"""AtCoder Heuristic Contests: the AHC task page read as a score-based problem, its tools unpacked safely,
and a score's rank and performance against final standings."""

from __future__ import annotations

import io
import json
import math
import stat
import zipfile
from pathlib import Path

import pytest

from cpbot.core.errors import CpbotError
from cpbot.judge.model import HeuristicSpec
from cpbot.scrapers.atcoder.ahc import (
    AHC_CENTRE,
    LONG_INTERVAL_S,
    SHORT_INTERVAL_S,
    ahc_performance,
    parse_results,
    relative_placing,
    relative_total,
    submit_interval_s,
    table_performance,
    table_placing,
)
from cpbot.scrapers.atcoder.ahc_tools import tools_spec, unpack_tools
from cpbot.scrapers.atcoder.parse import parse_task_page
from cpbot.scrapers.atcoder.performance import expected_rank_sum
from cpbot.scrapers.atcoder.ranking import Standings, StandingsRow, parse_standings
from tests.fakes.atcoder_pages import statement, task_page
from tests.paths import FIXTURES

CONSTRUCTED = FIXTURES / "atcoder" / "standings_ahc900_constructed.json"
AHC001_URL = "https://atcoder.jp/contests/ahc001/tasks/ahc001_a"


def rows(*entries: tuple[str, float, int, int]) -> Standings:
    """Standings of (handle, score, rating, competitions), everyone rated, best first."""
    made = [
        StandingsRow(rank=i + 1, handle=h, points=p, time_s=0.0, rated=True, rating=r or None, competitions=c)
        for i, (h, p, r, c) in enumerate(entries)
    ]
    return Standings(fixed=True, tasks={}, max_points={}, rows=made)


# ---- the task page ----


def test_an_ahc_task_page_is_a_score_based_problem_with_its_scoring_and_tools_link() -> None:
    problem = parse_task_page(task_page(statement("ahc001_a"), "A"), AHC001_URL)
    assert problem.kind == "heuristic" and problem.id == "atcoder:ahc001_a"
    spec = problem.heuristic
    assert spec is not None
    assert spec.objective == "maximize" and spec.scoring == "absolute" and spec.system_inputs == 1000
    assert spec.tools_url == "https://img.atcoder.jp/ahc001/ded8fd3366b4ff0b0d7d053f553cdb84.zip"
    assert problem.limits.time_ms == 5000 and problem.samples[0].output is None  # an example, not the answer


def test_an_algorithm_task_page_stays_a_stdio_problem() -> None:
    problem = parse_task_page(
        task_page(statement("abc300_a"), "A"), "https://atcoder.jp/contests/abc300/tasks/abc300_a"
    )
    assert problem.kind == "stdio" and problem.heuristic is None and problem.samples[0].output


def test_the_constructed_ahc_page_reads_its_system_test_count() -> None:
    problem = parse_task_page(
        task_page(statement("ahc900_a"), "A"), "https://atcoder.jp/contests/ahc900/tasks/ahc900_a"
    )
    assert problem.heuristic is not None and problem.heuristic.system_inputs == 50
    assert problem.heuristic.tools_url == "https://img.atcoder.jp/ahc900/tools.zip"


# ---- the tools ----


def zipped(files: dict[str, bytes], links: tuple[str, ...] = ()) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        for name in links:
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, "/etc/passwd")
    return buffer.getvalue()


def test_tools_of_our_own_are_found_by_name(tmp_path: Path) -> None:
    unpack_tools(zipped({"tools/gen.py": b"print(1)\n", "tools/score.py": b"print('Score = 1')\n"}), tmp_path)
    spec = tools_spec(HeuristicSpec(generator_style="ahc"), tmp_path)
    assert (spec.generator, spec.scorer, spec.generator_style) == ("tools/gen.py", "tools/score.py", "seed")


def test_a_cargo_package_is_named_as_the_tools_folder(tmp_path: Path) -> None:
    unpack_tools(zipped({"tools/Cargo.toml": b"[package]\n", "tools/src/bin/gen.rs": b"fn main(){}\n"}), tmp_path)
    assert tools_spec(HeuristicSpec(generator_style="ahc"), tmp_path).tools == "tools"


@pytest.mark.parametrize("name", ["../evil.py", "/abs/evil.py"])
def test_a_tools_zip_leaving_its_folder_is_refused_before_anything_is_written(tmp_path: Path, name: str) -> None:
    with pytest.raises(CpbotError, match="leaves the folder"):
        unpack_tools(zipped({"gen.py": b"x", name: b"x"}), tmp_path)
    assert not (tmp_path / "tools").exists()


def test_a_link_in_the_tools_zip_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CpbotError, match="link"):
        unpack_tools(zipped({"gen.py": b"x"}, links=("score.py",)), tmp_path)


def test_bytes_that_are_no_zip_are_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CpbotError, match="not a zip"):
        unpack_tools(b"<html>login</html>", tmp_path)


# ---- rank and performance ----


def test_the_performance_is_the_x_whose_expected_rank_is_the_rank_worked_by_hand() -> None:
    # two rated first-timers and cpbot, all at APerf 1200. First place: 3 / (1 + 6^d) = 0.5, so 6^d = 5 and
    # X = 1200 + 400 log 5 / log 6 = 1559.30. Last place: 3 / (1 + 6^d) = 2.5, 6^d = 0.2, X = 840.70.
    standings = rows(("a", 100.0, 0, 0), ("b", 50.0, 0, 0))
    first = ahc_performance(standings, 200.0)
    assert first.rank == 1 and first.performance == 1559 and first.inner == pytest.approx(1559.30, abs=0.01)
    assert 1200 + 400 * math.log(5) / math.log(6) == pytest.approx(first.inner, abs=1e-6)
    last = ahc_performance(standings, 10.0)
    assert last.rank == 3 and last.performance == 841


def test_a_tie_takes_the_middle_of_the_ranks_it_shares() -> None:
    standings = rows(("a", 100.0, 0, 0), ("b", 50.0, 0, 0))
    tied = ahc_performance(standings, 100.0)
    assert tied.rank == 1  # where it stands in the standings
    # among the rated: one tied, so rank 1.5: 3 / (1 + 6^d) = 1, 6^d = 2
    assert tied.inner == pytest.approx(1200 + 400 * math.log(2) / math.log(6), abs=0.01)


def test_the_constructed_standings_rank_a_score_and_its_performance_solves_the_equation() -> None:
    standings = parse_standings(CONSTRUCTED.read_bytes())
    assert standings.fixed and len(standings.rows) == 24
    placing = ahc_performance(standings, 750 * 500.5 * 50)  # a dial of 750 on 50 inputs of mean weight 500.5
    assert placing.rank == 8 and placing.participants == 24  # behind seven totals of dials 760 and more
    assert placing.rated == 23 and placing.method == "aperf"  # c_lima is unrated
    rated = [r for r in standings.rows if r.rated]
    aperfs = [float(r.rating) if r.rating and r.competitions else AHC_CENTRE for r in rated] + [AHC_CENTRE]
    assert placing.inner is not None
    assert expected_rank_sum(placing.inner, aperfs) == pytest.approx(7 + 1 - 0.5, abs=1e-6)
    assert any("APerf stand-in" in a for a in placing.assumptions)
    better = ahc_performance(standings, 980 * 500.5 * 50)
    assert better.rank == 3 and better.performance is not None and better.performance > placing.performance  # type: ignore[operator]


def test_known_aperfs_replace_the_stand_ins() -> None:
    standings = rows(("a", 100.0, 2000, 10), ("b", 50.0, 2000, 10))
    assert ahc_performance(standings, 75.0, aperfs={"a": 800.0, "b": 800.0}).performance != (
        ahc_performance(standings, 75.0).performance
    )


def test_nobody_rated_means_no_performance_but_a_rank() -> None:
    standings = Standings(
        fixed=True, tasks={}, max_points={},
        rows=[StandingsRow(rank=1, handle="x", points=5.0, time_s=0, rated=False, rating=None, competitions=0)],
    )  # fmt: skip
    placing = ahc_performance(standings, 3.0)
    assert placing.rank == 2 and placing.performance is None and "rated" in placing.note


def test_the_performance_table_is_interpolated_between_neighbouring_ranks() -> None:
    table = [(1, 3200), (2, 2800), (4, 2400), (8, 2000), (16, 200)]
    # ranks 2-3 share 2800 (their middle: 2.5), 4-7 share 2400 (5.5)
    assert table_performance(1, table) == 3200
    assert table_performance(2.5, table) == 2800
    assert table_performance(4, table) == 2600
    assert table_performance(16, table) == 200 and table_performance(40, table) == 200
    placing = table_placing(75.0, [100.0, 80.0, 70.0, 10.0], table)
    assert placing.rank == 3 and placing.method == "table" and placing.performance == table_performance(3, table)


def test_relative_totals_are_recomputed_with_the_new_entry() -> None:
    # two inputs, larger is better: others scored (100, 200) and (300, 100); the new entry (400, 100)
    mine, rest = relative_total([400, 100], [[100, 200], [300, 100]], "maximize", unit=1000)
    assert mine == 1000 + 500 and rest == [250 + 1000, 750 + 500]
    placing = relative_placing([400, 100], [[100, 200], [300, 100]], "maximize", participants=2, unit=1000)
    assert placing.rank == 1 and placing.score == 1500
    # smaller is better, a rejected input (None) scores 0
    mine, rest = relative_total([10, None], [[20, 5]], "minimize", unit=1000)
    assert (mine, rest) == (1000, [500 + 1000])


def test_a_relative_contest_without_raw_scores_cannot_be_ranked() -> None:
    placing = relative_placing([1.0], None, "maximize", participants=800)
    assert placing.rank is None and "cannot" in placing.note


def test_the_submission_interval_is_five_minutes_short_and_thirty_long() -> None:
    assert submit_interval_s(4 * 3600) == SHORT_INTERVAL_S == 300
    assert submit_interval_s(10 * 24 * 3600) == LONG_INTERVAL_S == 1800


def test_the_constructed_standings_keep_the_real_shape() -> None:
    data = json.loads(CONSTRUCTED.read_text())
    real = json.loads((FIXTURES / "atcoder" / "standings_wtf19_partial.json").read_text())
    assert set(data) == set(real)
    assert set(data["StandingsData"][0]) == set(real["StandingsData"][0])
    assert set(data["StandingsData"][0]["TotalResult"]) == set(real["StandingsData"][0]["TotalResult"])


def test_the_results_json_gives_the_rated_participants_published_performances() -> None:
    payload = json.dumps([
        {"IsRated": True, "Place": 1, "OldRating": 0, "NewRating": 2200, "Performance": 3252,
         "InnerPerformance": 3252, "ContestScreenName": "ahc001.contest.atcoder.jp", "UserScreenName": "a"},
        {"IsRated": False, "Place": 2, "Performance": 2994, "UserScreenName": "b"},
        {"IsRated": True, "Place": "3", "Performance": 2869},  # a place that is not a number is left out
        {"IsRated": True, "Place": 4, "Performance": 2784, "UserScreenName": "d"},
    ])  # fmt: skip
    assert parse_results(payload) == [(1, 3252), (4, 2784)]
    with pytest.raises(CpbotError, match="not a JSON list"):
        parse_results(b"{}")
    with pytest.raises(CpbotError, match="not JSON"):
        parse_results(b"<html>")
