"""Official standings, as the sites publish them, for computing the standing cpbot would have had.

- Codeforces: `contest.standings` (official rows: `points`, and `penalty` for ICPC-style rounds) and
  `contest.ratingChanges` (each rated participant's rating before the contest); see codeforces_site.
- LeetCode: `/contest/api/ranking/<slug>/?pagination=N&region=global`, 25 participants a page, best first,
  with `user_num` (the number of participants), and per row `score` and `finish_time` (Unix seconds).
Parsing is pure and tested on recorded answers; fetching goes through the shared `HttpClient`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from cpbot.core.errors import ParseError
from cpbot.scrapers.http import HttpClient

LEETCODE_ROOT = "https://leetcode.com"
LEETCODE_PAGE_SIZE = 25


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


class LeetCodePage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rows: list[RanklistRow]
    participants: int

    @property
    def pages(self) -> int:
        return math.ceil(self.participants / LEETCODE_PAGE_SIZE)


def parse_codeforces_standings(result: Any) -> list[RanklistRow]:
    """`contest.standings` result -> the official rows (one per party; a team is named by its members)."""
    if not isinstance(result, dict) or not isinstance(result.get("rows"), list):
        raise ParseError("cannot parse contest.standings: missing rows")
    rows = []
    for row in result["rows"]:
        if not isinstance(row, dict) or not isinstance(row.get("rank"), int):
            raise ParseError("cannot parse contest.standings: a row without a rank")
        party = row.get("party") if isinstance(row.get("party"), dict) else {}
        members = [m.get("handle", "") for m in party.get("members", []) if isinstance(m, dict)]
        rows.append(
            RanklistRow(
                rank=row["rank"],
                handle=";".join(members),
                points=float(row.get("points") or 0),
                penalty=float(row.get("penalty") or 0),
            )
        )
    return rows


def parse_codeforces_rating_changes(result: Any) -> dict[str, int]:
    """`contest.ratingChanges` result -> handle -> rating before the contest."""
    if not isinstance(result, list):
        raise ParseError("cannot parse contest.ratingChanges: missing the list of changes")
    ratings = {}
    for change in result:
        if (
            isinstance(change, dict)
            and isinstance(change.get("handle"), str)
            and isinstance(change.get("oldRating"), int)
        ):
            ratings[change["handle"]] = change["oldRating"]
    return ratings


def parse_leetcode_ranking(payload: bytes | str | dict[str, Any], page: int, start_unix: float) -> LeetCodePage:
    """One ranking page -> rows numbered by their position (page `page`, 1-based), finish times made
    relative to the contest's start."""
    data = payload if isinstance(payload, dict) else _json(payload)
    rows_in = data.get("total_rank") if isinstance(data, dict) else None
    participants = data.get("user_num") if isinstance(data, dict) else None
    if not isinstance(rows_in, list) or not isinstance(participants, int):
        raise ParseError("cannot parse the LeetCode ranking: missing total_rank or user_num")
    rows = []
    for i, row in enumerate(rows_in):
        if not isinstance(row, dict) or not isinstance(row.get("score"), int | float):
            raise ParseError("cannot parse the LeetCode ranking: a row without a score")
        finish = row.get("finish_time")
        rows.append(
            RanklistRow(
                rank=(page - 1) * LEETCODE_PAGE_SIZE + i + 1,
                handle=str(row.get("username") or row.get("user_slug") or ""),
                points=float(row["score"]),
                penalty=float(finish) - start_unix if isinstance(finish, int | float) else math.inf,
            )
        )
    return LeetCodePage(rows=rows, participants=participants)


def fetch_leetcode_ranking_page(client: HttpClient, slug: str, page: int, start_unix: float) -> LeetCodePage:
    """Page `page` of a contest's global ranking."""
    url = f"{LEETCODE_ROOT}/contest/api/ranking/{slug}/"
    response = client.get(url, params={"pagination": str(page), "region": "global"})
    return parse_leetcode_ranking(response.content, page, start_unix)


def _json(payload: bytes | str) -> Any:
    try:
        return json.loads(payload)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ParseError(f"cannot parse the LeetCode ranking: not JSON ({e})") from e


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
