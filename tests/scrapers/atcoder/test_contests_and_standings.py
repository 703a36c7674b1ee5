"""AtCoder contest tables, task lists, schedules, the standings JSON and AtCoder's performance, on recorded
pages (tests/fixtures/atcoder/) and against hand computations from the published rating method."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cpbot.core.errors import ParseError
from cpbot.scrapers.atcoder.contests import (
    ContestKind,
    contest_kind,
    parse_contest_table,
    parse_schedule,
    parse_task_list,
)
from cpbot.scrapers.atcoder.performance import (
    few_contests_correction,
    inner_rating,
    performance,
    shown_performance,
)
from cpbot.scrapers.atcoder.ranking import StandingsRow, parse_standings, penalised_time

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "atcoder"


def test_task_list_of_2023_keeps_letters_names_and_the_ex_task() -> None:
    tasks = parse_task_list((FIXTURES / "tasks_list_abc308_2023.html").read_bytes(), "abc308")
    assert [t.index for t in tasks] == ["A", "B", "C", "D", "E", "F", "G", "Ex"]
    assert (tasks[0].problem_id, tasks[0].name) == ("atcoder:abc308_a", "New Scheme")
    assert tasks[-1].url == "https://atcoder.jp/contests/abc308/tasks/abc308_h"


def test_task_list_of_2018_where_letters_differ_from_task_ids() -> None:
    tasks = parse_task_list((FIXTURES / "tasks_list_abc107_2018.html").read_bytes(), "abc107")
    assert [(t.index, t.problem_id) for t in tasks] == [
        ("A", "atcoder:abc107_a"),
        ("B", "atcoder:abc107_b"),
        ("C", "atcoder:arc101_a"),
        ("D", "atcoder:arc101_b"),
    ]
    assert tasks[2].url == "https://atcoder.jp/contests/abc107/tasks/arc101_a"


def test_schedule_from_a_contest_page_script() -> None:
    s = parse_schedule((FIXTURES / "tasks_list_abc308_2023.html").read_bytes(), "abc308")
    assert s.start == datetime(2023, 7, 1, 12, 0, tzinfo=UTC)
    assert s.duration_s == 100 * 60
    assert "308" in s.name


def test_schedule_missing_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="startTime"):
        parse_schedule("<html><body></body></html>", "abc999")


def test_archive_table_rows_with_times_durations_and_rated_ranges() -> None:
    rows = parse_contest_table((FIXTURES / "contests_archive_2019.html").read_bytes())
    assert [r.id for r in rows][:3] == ["kupc2019", "agc039", "abc142"]
    abc = rows[2]
    assert abc.start == datetime(2019, 9, 28, 12, 0, tzinfo=UTC)
    assert abc.duration_s == 100 * 60 and abc.rated == "~ 1999"
    assert [r.kind for r in rows[:3]] == [ContestKind.OTHER, ContestKind.AGC, ContestKind.ABC]


@pytest.mark.parametrize(
    ("cid", "name", "kind"),
    [
        ("abc400", "AtCoder Beginner Contest 400", ContestKind.ABC),
        ("arc190", "AtCoder Regular Contest 190 (Div. 2)", ContestKind.ARC_DIV2),
        ("arc189", "AtCoder Regular Contest 189 (Div. 1)", ContestKind.ARC),
        ("agc070", "AtCoder Grand Contest 070", ContestKind.AGC),
        ("ahc045", "AtCoder Heuristic Contest 045", ContestKind.AHC),
        ("abc400", "", ContestKind.ABC),
    ],
)
def test_contest_kind(cid: str, name: str, kind: str) -> None:
    assert contest_kind(cid, name) == kind


def test_standings_json_scores_times_and_ratings() -> None:
    s = parse_standings((FIXTURES / "standings_wtf19_partial.json").read_bytes())
    assert s.tasks["wtf19_c1"] == "C1" and s.fixed
    first, second = s.rows[0], s.rows[1]
    assert (first.handle, first.points, first.time_s) == ("apiad", 3400.0, 10530.0)
    # Elapsed already holds the penalty: last accepted at 9171 s + 5 rejected x 5 minutes
    assert second.time_s == 9171 + 5 * 300 == penalised_time([3765, 2730, 9171], [0, 3, 2])
    assert (first.rating, first.competitions, first.rated) == (3654, 37, True)  # OldRating: before the contest
    assert s.max_points == {"A": 1000.0, "B": 1400.0, "C1": 1000.0, "C2": 0.0}


def test_standings_that_are_not_json_name_the_problem() -> None:
    with pytest.raises(ParseError, match="not JSON"):
        parse_standings(b"<html>")


def _rows(n: int, rated: bool = True) -> list[StandingsRow]:
    """n participants who each solved 100 points, none with a past contest."""
    return [
        StandingsRow(
            rank=i + 1, handle=f"u{i}", points=100.0, time_s=60.0 * (i + 1), rated=rated, rating=None, competitions=0
        )
        for i in range(n)
    ]


def test_performance_matches_the_hand_computation_of_the_published_equation() -> None:
    """7 rated newcomers (APerf = ABC's centre 800) and cpbot (also 800): with every APerf equal, the equation
    (n+1) / (1 + 6^((X - 800)/400)) = r - 0.5 solves by hand to X = 800 + 400 log_6((n+1)/(r-0.5) - 1)."""
    rows = _rows(7)
    # cpbot: 100 points at 90 s -> one participant (60 s) ahead, rank 2 among the rated
    p = performance(rows, 100.0, 90.0, ContestKind.ABC)
    assert p is not None and p.rank == 2 and p.rated == 7
    by_hand = 800 + 400 * math.log(8 / 1.5 - 1, 6)  # = 1127.4
    assert p.inner == pytest.approx(by_hand, abs=1e-6)
    assert p.value == 1127


def test_performance_below_400_is_corrected_as_atcoder_shows_it() -> None:
    rows = _rows(7)
    p = performance(rows, 0.0, 0.0, ContestKind.ABC)  # last of 8
    by_hand = 800 + 400 * math.log(8 / 7.5 - 1, 6)  # = 193.2: below 400
    assert p is not None and p.inner == pytest.approx(by_hand, abs=1e-6)
    assert p.value == round(400 / math.exp((400 - by_hand) / 400)) == round(shown_performance(by_hand))


def test_performance_is_capped_in_abc_and_not_in_agc() -> None:
    rows = _rows(2000)
    top_abc = performance(rows, 200.0, 0.0, ContestKind.ABC)
    top_agc = performance(rows, 200.0, 0.0, ContestKind.AGC)
    assert top_abc is not None and top_abc.value == 2400 and "capped" in top_abc.note
    assert top_agc is not None and top_agc.value > 2400


def test_unrated_participants_do_not_count() -> None:
    assert performance(_rows(5, rated=False), 100.0, 0.0, ContestKind.ABC) is None


def test_inner_rating_undoes_atcoder_display_corrections() -> None:
    assert few_contests_correction(1) == pytest.approx(1200.0)
    assert few_contests_correction(100) < 1.0
    # after 2 contests the shown rating is 745.4 below the inner one
    assert inner_rating(1000, 2) == pytest.approx(
        1000 + 1200 * (math.sqrt(1 - 0.81**2) / (1 - 0.9**2) - 1) / (math.sqrt(19) - 1)
    )
    # a shown 200 is the correction of an inner 400 - 400 ln 2
    assert inner_rating(200, 1000) == pytest.approx(400 - 400 * math.log(2), abs=0.01)


def test_performance_on_the_recorded_standings_rises_with_the_rank() -> None:
    s = parse_standings((FIXTURES / "standings_wtf19_partial.json").read_bytes())
    best = performance(s.rows, 3400.0, 10000.0, ContestKind.AGC)
    worst = performance(s.rows, 0.0, 0.0, ContestKind.AGC)
    assert best is not None and worst is not None
    assert best.rank == 1 and worst.rank == 8  # tied with the last, who scored nothing either
    assert best.value > max(inner_rating(r.rating or 0, r.competitions) for r in s.rows) > worst.value
    assert any("APerf" in a for a in best.assumptions)
