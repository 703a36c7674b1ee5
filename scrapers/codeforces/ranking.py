"""Codeforces' standings and how it scores a round.

Standings: `contest.standings` (official rows: `points`, and `penalty` for ICPC-style rounds) and
`contest.ratingChanges` (each rated participant's rating before the contest).

Scoring, as Codeforces defines it:
- standard rounds: a problem of initial value x solved at minute t of a d-minute round after w rejected
  attempts is worth max(0.3x, x - floor(120 x t / (250 d)) - 50 w); rank by points.
- extended ICPC (Educational, Div. 3, Div. 4): rank by problems solved, then penalty: the minute of each
  accepted solution plus 10 minutes per rejected attempt before it.
A performance rating is the rating R whose expected rank among the rated participants, by Codeforces'
seed formula 1 + sum_i 1 / (1 + 10^((R - r_i) / 400)), equals a given rank.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from cpbot.core.errors import ParseError
from cpbot.scrapers.codeforces.api import CodeforcesApi
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.ranklist import Ranklist, RanklistRow, Scoring

CF_WRONG_POINTS = 50
ICPC_WRONG_MINUTES = 10
# The range a performance rating is searched in; a rank beyond what it can explain is reported at a bound.
RATING_FLOOR, RATING_CEILING = -1000.0, 6000.0


def fetch_ranklist(client: HttpClient, contest_id: str) -> Ranklist:
    """The official standings of a round, each row with the participant's rating before it."""
    api = CodeforcesApi(client)
    result = api.call("contest.standings", contestId=contest_id, showUnofficial="false")
    rows = parse_codeforces_standings(result)
    ratings = parse_codeforces_rating_changes(api.call("contest.ratingChanges", contestId=contest_id))
    contest = result.get("contest") or {}
    problems = result.get("problems") or []
    return Ranklist(
        contest_id=contest_id,
        scoring=Scoring.ICPC if contest.get("type") == "ICPC" else Scoring.POINTS,
        duration_s=int(contest.get("durationSeconds") or 0),
        max_points={p["index"]: float(p.get("points") or 0) for p in problems if isinstance(p, dict)},
        rows=[r.model_copy(update={"rating": ratings.get(r.handle)}) for r in rows],
        participants=len(rows),
        start_unix=float(contest.get("startTimeSeconds") or 0),
    )


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


def codeforces_points(initial: float, seconds: float, duration_s: float, rejected: int) -> float:
    """Codeforces' value of a problem solved `seconds` into a round of `duration_s` after `rejected` tries."""
    minute = int(seconds // 60)
    duration_min = max(1, round(duration_s / 60))
    decayed = initial - math.floor(120 * initial * minute / (250 * duration_min)) - CF_WRONG_POINTS * rejected
    return max(0.3 * initial, float(decayed))


def icpc_penalty(solves: Sequence[tuple[float, int]]) -> float:
    """ICPC penalty of the solved problems, each (seconds from the start, rejected tries before it): the
    minute of each solve plus 10 per rejected try."""
    return float(sum(int(time_s // 60) + ICPC_WRONG_MINUTES * rejected for time_s, rejected in solves))


def expected_rank(rating: float, ratings: Sequence[int]) -> float:
    """Codeforces' seed: 1 + the chance of each other participant to finish ahead of a player of `rating`."""
    return 1.0 + sum(1.0 / (1.0 + 10 ** ((rating - r) / 400.0)) for r in ratings)


def performance_rating(rank: float, ratings: Sequence[int]) -> tuple[int, str]:
    """The rating whose expected rank among `ratings` equals `rank` (bisection: the seed falls as the
    rating rises), with a note when the rank lies beyond what the search range can explain."""
    if not ratings:
        return 0, "no rated participants to compare with"
    low, high = RATING_FLOOR, RATING_CEILING
    if expected_rank(high, ratings) > rank:
        return int(high), f"at least {int(high)}: ahead of what any rating explains"
    if expected_rank(low, ratings) < rank:
        return int(low), f"at most {int(low)}"
    for _ in range(100):
        mid = (low + high) / 2
        if expected_rank(mid, ratings) > rank:
            low = mid
        else:
            high = mid
    return round((low + high) / 2), ""
