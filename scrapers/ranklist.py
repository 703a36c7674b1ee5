"""Official standings, in one shape for every site, for computing the standing cpbot would have had.

Each site reads its own standings into a `Ranklist` (`scrapers/<site>/ranking.py`, pure parsing tested
on recorded answers); what is common to all of them (who ranks ahead of a result, searching a ranking
split into pages) is here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class Scoring(StrEnum):
    """How a contest ranks its participants."""

    POINTS = "points"  # Codeforces rounds: points decaying with time, -50 per rejected attempt
    ICPC = "icpc"  # Codeforces Educational / Div. 3 / Div. 4: problems solved, then penalty minutes
    SCORE_TIME = "score_time"  # LeetCode: score, then finish time (+5 minutes per rejected attempt)


class Ranklist(BaseModel):
    """A contest's official ranking, as much of it as cpbot needs: every row where the site gives them at
    once (Codeforces), else only the number of participants (LeetCode pages are searched instead)."""

    model_config = ConfigDict(extra="forbid")

    contest_id: str
    scoring: Scoring
    duration_s: int
    max_points: dict[str, float] = {}  # problem index -> initial value (Codeforces) or credit (LeetCode)
    rows: list[RanklistRow] = []
    participants: int = 0
    start_unix: float = 0.0


class RanklistRow(BaseModel):
    """One official participant: enough to compare with cpbot's shadow result."""

    model_config = ConfigDict(extra="forbid")

    rank: int  # position in the ranklist (ties share a rank on Codeforces)
    handle: str = ""
    points: float = 0.0  # Codeforces points, ICPC problems solved, LeetCode score
    penalty: float = 0.0  # ICPC penalty minutes, LeetCode seconds from the start to the finish; 0 otherwise
    rating: int | None = None  # before the contest, when known


def ahead(row: RanklistRow, points: float, penalty: float) -> bool:
    """Whether an official participant ranks strictly before a result (ties share a rank, as the sites show)."""
    return row.points > points or (row.points == points and row.penalty < penalty)


def ahead_in_pages(
    fetch_page: Callable[[int], Sequence[RanklistRow]], pages: int, points: float, penalty: float
) -> int:
    """How many participants of a ranking split into pages (1..`pages`, best first, each row with its
    position as `rank`) finish ahead of a result, reading only the pages a binary search needs: LeetCode's
    ranking of a weekly contest runs to over a thousand pages."""
    if pages <= 0:
        return 0
    last = list(fetch_page(pages))
    if all(ahead(r, points, penalty) for r in last):
        return max((r.rank for r in last), default=0)
    low, high = 1, pages  # the first page with someone not ahead
    while low < high:
        mid = (low + high) // 2
        if all(ahead(r, points, penalty) for r in fetch_page(mid)):
            low = mid + 1
        else:
            high = mid
    first_behind = next(r for r in fetch_page(low) if not ahead(r, points, penalty))
    return first_behind.rank - 1
