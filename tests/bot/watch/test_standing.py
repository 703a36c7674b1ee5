"""The standing cpbot would have had: scores, ranks and performance ratings checked by hand."""

from __future__ import annotations

import json

import pytest

from cpbot.bot.watch.standing import Scoring, ShadowProblem, compute_standing
from cpbot.core.errors import ParseError
from cpbot.scrapers.codeforces.ranking import (
    codeforces_points,
    expected_rank,
    parse_codeforces_rating_changes,
    parse_codeforces_standings,
    performance_rating,
)
from cpbot.scrapers.leetcode.ranking import parse_leetcode_ranking
from cpbot.scrapers.ranklist import RanklistRow, ahead_in_pages
from tests.conftest import REPO

ROUND_S = 2 * 3600


def test_codeforces_points_match_a_recorded_standings_row():
    # Codeforces Round #696 (Div. 2), tiger2005: A (500) at 284 s -> 492; B (1000) at 642 s after 2 rejections -> 860
    assert codeforces_points(500, 284, ROUND_S, 0) == 492
    assert codeforces_points(1000, 642, ROUND_S, 2) == 860


def test_codeforces_points_never_fall_below_thirty_percent():
    # 500 at minute 116 after 5 rejections: 500 - 232 - 250 = 18, floored at 0.3 * 500
    assert codeforces_points(500, 116 * 60 + 30, ROUND_S, 5) == 150


def test_performance_rating_by_hand():
    assert performance_rating(2, [1500, 1500]) == (1500, "")
    assert performance_rating(2, [1400, 1600]) == (1500, "")
    # 1 + 1/(1+10^((R-1200)/400)) + 1/(1+10^((R-1600)/400)) + 1/(1+10^((R-2000)/400)) = 2:
    # at R = 1810 the sum of the three terms is 1.0080, at R = 1815 it is 0.9967 -> R is about 1813
    value, note = performance_rating(2, [1200, 1600, 2000])
    assert 1812 <= value <= 1814 and note == ""
    assert expected_rank(value, [1200, 1600, 2000]) == pytest.approx(2, abs=0.01)


def test_performance_rating_beyond_any_rating_says_so():
    value, note = performance_rating(1, [1500, 1500, 1500])
    assert "at least" in note and value >= 5000


def test_codeforces_standing_on_a_small_table():
    rows = [RanklistRow(rank=1, points=3000), RanklistRow(rank=2, points=2000), RanklistRow(rank=3, points=1000),
            RanklistRow(rank=4, points=500)]  # fmt: skip
    problems = [
        ShadowProblem(index="A", max_points=500, times_s=[10 * 60 + 5], accepted=[True]),  # 500 - 20 = 480
        ShadowProblem(index="B", max_points=1000, times_s=[20 * 60, 30 * 60], accepted=[False, True]),  # 1000-120-50
        ShadowProblem(index="C", max_points=1500, times_s=[50 * 60], accepted=[None]),  # never confirmed
    ]
    standing = compute_standing(Scoring.POINTS, problems, rows, duration_s=ROUND_S)
    assert [p.points for p in standing.problems] == [480, 830, 0]
    assert standing.problems[2].solved is False and "never confirmed" in standing.problems[2].note
    assert standing.points == 1310
    assert (standing.rank, standing.participants, standing.percentile) == (3, 4, 50.0)
    assert standing.performance is None, "no ratings given"


def test_icpc_standing_ranks_by_solved_then_penalty_with_ten_minutes_per_rejection():
    rows = [RanklistRow(rank=1, points=3, penalty=100), RanklistRow(rank=2, points=2, penalty=50),
            RanklistRow(rank=3, points=2, penalty=80), RanklistRow(rank=4, points=1, penalty=10)]  # fmt: skip
    problems = [
        ShadowProblem(index="A", times_s=[12 * 60 + 59], accepted=[True]),
        ShadowProblem(index="B", times_s=[30 * 60, 40 * 60], accepted=[False, True]),
    ]
    standing = compute_standing(Scoring.ICPC, problems, rows, duration_s=ROUND_S)
    assert (standing.points, standing.penalty) == (2, 12 + 40 + 10)
    assert standing.rank == 3


def test_performance_uses_the_rated_participants():
    rows = [RanklistRow(rank=1, points=3000, rating=2000), RanklistRow(rank=2, points=2000, rating=1600),
            RanklistRow(rank=3, points=1000, rating=1200), RanklistRow(rank=4, points=900)]  # fmt: skip
    problems = [ShadowProblem(index="A", max_points=3000, times_s=[0], accepted=[True])]  # 3000 at minute 0
    standing = compute_standing(Scoring.POINTS, problems, rows, duration_s=ROUND_S)
    assert standing.rank == 1, "a tie on points shares the best rank"
    assert standing.performance is not None and standing.performance > 2000


@pytest.mark.parametrize("score", [0, 3, 7, 12, 18])
def test_ranking_pages_are_binary_searched(score):
    # 40 pages of 25: scores fall by one every 50 rows, finish times rise within a score
    ranking = [RanklistRow(rank=i + 1, points=20 - i // 50, penalty=float(i % 50)) for i in range(1000)]
    pages = [ranking[i : i + 25] for i in range(0, 1000, 25)]
    read: list[int] = []

    def fetch(page: int):
        read.append(page)
        return pages[page - 1]

    expected = sum(1 for r in ranking if r.points > score or (r.points == score and r.penalty < 20.5))
    assert ahead_in_pages(fetch, len(pages), score, 20.5) == expected
    assert len(read) <= 8, "a handful of pages, not all 40"


def test_leetcode_standing_from_pages_with_five_minutes_per_rejection():
    problems = [
        ShadowProblem(index="1", max_points=3, times_s=[300], accepted=[True]),
        ShadowProblem(index="2", max_points=4, times_s=[900, 1200], accepted=[False, True]),
    ]
    ranking = [RanklistRow(rank=1, points=18, penalty=600), RanklistRow(rank=2, points=7, penalty=1400),
               RanklistRow(rank=3, points=7, penalty=1600), RanklistRow(rank=4, points=3, penalty=100)]  # fmt: skip

    def rank_of(points, penalty):
        return 1 + ahead_in_pages(lambda p: ranking[(p - 1) * 2 : p * 2], 2, points, penalty)

    standing = compute_standing(Scoring.SCORE_TIME, problems, [], duration_s=5400, rank_of=rank_of,
                                total_participants=4)  # fmt: skip
    assert standing.points == 7 and standing.penalty == 1200 + 300
    assert standing.rank == 3 and standing.percentile == 50.0


def test_a_recorded_codeforces_standings_row_reproduces_its_own_points():
    path = REPO / "tests" / "fixtures" / "codeforces" / "api" / "api_contest.standings_1474_handles_tiger2005.json"
    if not path.exists():
        path = REPO.parent / "shared" / "fixtures" / "codeforces" / "api" / path.name
    data = json.loads(path.read_text())["result"]
    row = data["rows"][0]
    duration = data["contest"]["durationSeconds"]
    for problem, result in zip(data["problems"], row["problemResults"], strict=True):
        if "bestSubmissionTimeSeconds" in result:
            got = codeforces_points(problem["points"], result["bestSubmissionTimeSeconds"], duration,
                                    result["rejectedAttemptCount"])  # fmt: skip
            assert got == result["points"], problem["index"]


def _recorded_standings():
    name = "api_contest.standings_1474_handles_tiger2005.json"
    for root in (REPO / "tests" / "fixtures", REPO.parent / "shared" / "fixtures"):
        if (root / "codeforces" / "api" / name).exists():
            return json.loads((root / "codeforces" / "api" / name).read_text())["result"]
    pytest.skip(f"recorded fixture {name} not found under tests/fixtures/codeforces/api")


def test_recorded_codeforces_standings_parse_into_ranklist_rows():
    rows = parse_codeforces_standings(_recorded_standings())
    assert rows == [RanklistRow(rank=36, handle="tiger2005", points=4126.0, penalty=0.0)]
    ratings = parse_codeforces_rating_changes([{"handle": "tiger2005", "oldRating": 1900, "newRating": 1950}, {}])
    assert ratings == {"tiger2005": 1900}


def test_a_leetcode_ranking_page_numbers_rows_and_makes_finish_times_relative():
    start = 1_700_000_000
    page = parse_leetcode_ranking(
        {"total_rank": [{"username": "a", "score": 18, "finish_time": start + 600, "rank": 26},
                        {"username": "b", "score": 12, "finish_time": start + 900}], "user_num": 60},
        page=2, start_unix=start,
    )  # fmt: skip
    assert [(r.rank, r.handle, r.points, r.penalty) for r in page.rows] == [(26, "a", 18, 600), (27, "b", 12, 900)]
    assert page.pages == 3
    with pytest.raises(ParseError, match="user_num"):
        parse_leetcode_ranking(b'{"total_rank": []}', page=1, start_unix=start)
