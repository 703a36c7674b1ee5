"""AtCoder's ranking: the standings JSON (`/contests/CONTEST/standings/json`) and how AtCoder ranks a result.

AtCoder ranks by total score, then by time: the elapsed time of the last submission that raised the score,
plus a penalty (5 minutes in ABC, ARC and AGC) for each rejected submission made before the accepted one
on a problem that was solved; rejected submissions on unsolved problems and after the accepted one cost
nothing. The JSON's `TotalResult.Elapsed` (nanoseconds) already includes the penalty (in the recorded
World Tour Finals 2019 standings, yutaka1999's 10671 s = last accepted at 9171 s + 5 x 300 s), and
`Score` is in hundredths of a point.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict

from cpbot.core import bounds
from cpbot.core.errors import ParseError

PENALTY_S = 5 * 60
_SCORE_UNIT = 100  # Score is in hundredths of a point
_NS = 1_000_000_000


class StandingsRow(BaseModel):
    """One participant of the standings, with what AtCoder's performance needs."""

    model_config = ConfigDict(extra="forbid")

    rank: int
    handle: str
    points: float
    time_s: float  # elapsed to the last score change, penalty included
    rated: bool
    rating: int | None  # before the contest (OldRating after the update, else Rating); None when unrated so far
    competitions: int  # rated contests taken part in before this one


class Standings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    fixed: bool
    tasks: dict[str, str]  # task id -> letter ("wtf19_c1" -> "C1")
    max_points: dict[str, float]  # letter -> the most points anyone got for it (AtCoder publishes no table)
    rows: list[StandingsRow]


def parse_standings(payload: bytes | str | dict[str, Any]) -> Standings:
    """The standings JSON -> participants best first, with their score, time (penalty included) and rating."""
    data = payload if isinstance(payload, dict) else read_json(payload, "the AtCoder standings")
    rows_in, tasks_in = data.get("StandingsData"), data.get("TaskInfo")
    if not isinstance(rows_in, list) or not isinstance(tasks_in, list):
        raise ParseError("cannot parse the AtCoder standings: missing StandingsData or TaskInfo")
    tasks = {str(t.get("TaskScreenName")): str(t.get("Assignment")) for t in tasks_in if isinstance(t, dict)}
    best: dict[str, float] = {}
    rows = []
    for row in rows_in:
        total = row.get("TotalResult") if isinstance(row, dict) else None
        if not isinstance(total, dict) or not isinstance(row.get("Rank"), int):
            raise ParseError("cannot parse the AtCoder standings: a row without Rank or TotalResult")
        for task, result in (row.get("TaskResults") or {}).items():
            if isinstance(result, dict) and task in tasks:
                letter = tasks[task]
                best[letter] = max(best.get(letter, 0.0), float(result.get("Score") or 0) / _SCORE_UNIT)
        old, now = row.get("OldRating"), row.get("Rating")
        rating = old if isinstance(old, int) and old > 0 else now if isinstance(now, int) and now > 0 else None
        rows.append(
            StandingsRow(
                rank=row["Rank"],
                handle=str(row.get("UserScreenName") or ""),
                points=float(total.get("Score") or 0) / _SCORE_UNIT,
                time_s=float(total.get("Elapsed") or 0) / _NS,
                rated=bool(row.get("IsRated")),
                rating=rating,
                competitions=int(row.get("Competitions") or 0),
            )
        )
    return Standings(fixed=bool(data.get("Fixed")), tasks=tasks, max_points=best, rows=rows)


def read_json(payload: bytes | str, what: str, shape: type[dict] | type[list] = dict) -> Any:
    """AtCoder's JSON (`what`: "the AtCoder standings", ...), bounded in depth, as a JSON object (or list)."""
    try:
        data = bounds.loads(payload, what)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ParseError(f"cannot parse {what}: not JSON ({e})") from e
    if not isinstance(data, shape):
        raise ParseError(f"cannot parse {what}: not a JSON {'object' if shape is dict else 'list'}")
    return data


def penalised_time(accepted_at_s: list[float], rejected_before: list[int]) -> float:
    """AtCoder's time of a result: the last accepted submission's time plus 5 minutes per rejected
    submission before the accepted one, over the solved problems."""
    if not accepted_at_s:
        return 0.0
    return max(accepted_at_s) + PENALTY_S * sum(rejected_before)
