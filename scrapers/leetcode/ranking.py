"""LeetCode's contest ranking and how it scores a contest.

Ranking: `/contest/api/ranking/<slug>/?pagination=N&region=global`, 25 participants a page, best first,
with `user_num` (the number of participants), and per row `score` and `finish_time` (Unix seconds).
Scoring: rank by score (sum of the solved problems' credits), then finish time: the time of the last
accepted solution plus 5 minutes per rejected attempt.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from cpbot.core import bounds
from cpbot.core.errors import ParseError
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.ranklist import RanklistRow

LEETCODE_ROOT = "https://leetcode.com"
LEETCODE_PAGE_SIZE = 25
LEETCODE_WRONG_SECONDS = 5 * 60


class LeetCodePage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rows: list[RanklistRow]
    participants: int

    @property
    def pages(self) -> int:
        return math.ceil(self.participants / LEETCODE_PAGE_SIZE)


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
        return bounds.loads(payload, "the LeetCode ranking")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ParseError(f"cannot parse the LeetCode ranking: not JSON ({e})") from e


def score_time_penalty(solves: Sequence[tuple[float, int]]) -> float:
    """LeetCode's finish time of the solved problems, each (seconds from the start, rejected tries before
    it): the last solve plus 5 minutes per rejected try."""
    if not solves:
        return 0.0
    return max(time_s for time_s, _ in solves) + LEETCODE_WRONG_SECONDS * sum(rejected for _, rejected in solves)
