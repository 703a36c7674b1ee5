"""AtCoder's performance, from its published rating method (AtCoder Rating System, ver. 1.00).

The method: the (inner) performance of a participant ranked r among the rated participants is the X for
which the expected rank equals the actual rank, with each participant j beating a player of strength X with
probability 1 / (1 + 6^((X - APerf_j) / 400)):

    sum_j 1 / (1 + 6^((X - APerf_j) / 400)) = r - 0.5     (the sum runs over every rated participant)

X decreases as the sum grows, so it is found by bisection. The shown performance is X corrected below 400
(400 / e^((400 - X) / 400)) and capped in rated-limited contests (ABC and ARC Div. 2, rated up to 1999:
2400). APerf_j is participant j's average past performance; newcomers get the contest's centre value
(800 in ABC, 1000 in ARC, 1200 in AGC).

What the standings give and cpbot assumes (listed in every result):
- APerf_j is not published: each rated participant's inner rating stands in for it, taken from the rating
  the standings show with AtCoder's two display corrections undone (the one below 400 and the one for
  few contests: (sqrt(1 - 0.81^n) / (1 - 0.9^n) - 1) / (sqrt(19) - 1) x 1200 after n contests);
  participants with no past contest get the centre value.
- cpbot counts as one more rated participant, a newcomer (its own term uses the centre value), ranked
  1 + the number of rated participants strictly ahead of its result.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from cpbot.scrapers.atcoder.contests import ContestKind
from cpbot.scrapers.atcoder.ranking import StandingsRow

_LOW, _HIGH = -10_000.0, 10_000.0
CENTRE = {ContestKind.ABC: 800.0, ContestKind.ARC_DIV2: 800.0, ContestKind.ARC: 1000.0, ContestKind.AGC: 1200.0}
CAP = {ContestKind.ABC: 2400, ContestKind.ARC_DIV2: 2400}


class Performance(BaseModel):
    model_config = ConfigDict(extra="forbid")

    value: int  # as AtCoder shows it (corrected below 400, capped)
    inner: float  # the X of the equation
    rank: int  # among the rated participants, cpbot included
    rated: int  # rated participants compared with (cpbot not counted)
    note: str = ""
    assumptions: list[str] = Field(default_factory=list)


def few_contests_correction(n: int) -> float:
    """How much AtCoder lowers the shown rating of someone with `n` rated contests (0 for many contests)."""
    if n <= 0:
        return 0.0
    g = math.sqrt(1 - 0.81**n) / (1 - 0.9**n)  # sqrt(19) after one contest, falling to 1
    return (g - 1) / (math.sqrt(19) - 1) * 1200


def inner_rating(shown: int, competitions: int) -> float:
    """The inner rating behind a shown rating: the correction below 400 and the few-contests one undone."""
    rating = float(shown)
    if rating < 400:
        rating = 400 - 400 * math.log(400 / max(rating, 1e-9))
    return rating + few_contests_correction(competitions)


def shown_performance(x: float) -> float:
    """AtCoder's correction of a performance below 400 (it stays positive)."""
    return x if x > 400 else 400 / math.exp((400 - x) / 400)


def expected_rank_sum(x: float, aperfs: Sequence[float]) -> float:
    """sum_j 1 / (1 + 6^((x - APerf_j) / 400)): the left side of the performance equation."""
    total = 0.0
    for a in aperfs:
        exponent = (x - a) / 400
        total += 0.0 if exponent > 300 else 1.0 / (1.0 + 6.0**exponent)
    return total


def solve_performance(rank: float, aperfs: Sequence[float]) -> float:
    """The X with expected_rank_sum(X) = rank - 0.5, by bisection (the sum falls as X rises)."""
    low, high = _LOW, _HIGH
    target = rank - 0.5
    for _ in range(100):
        mid = (low + high) / 2
        if expected_rank_sum(mid, aperfs) > target:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def aperfs_of(rows: Sequence[StandingsRow], centre: float) -> list[float]:
    """Each rated participant's stand-in for APerf (see the module's assumptions)."""
    return [
        inner_rating(r.rating, r.competitions) if r.rating is not None and r.competitions > 0 else centre
        for r in rows
        if r.rated
    ]


def performance(rows: Sequence[StandingsRow], points: float, time_s: float, kind: str) -> Performance | None:
    """The performance AtCoder's method gives a result of `points` at `time_s` (penalty included) in a contest
    of `kind`, against the rated participants of `rows`; None when nobody in the standings is rated."""
    rated = [r for r in rows if r.rated]
    if not rated:
        return None
    centre = CENTRE.get(kind, 1200.0)
    ahead = sum(1 for r in rated if r.points > points or (r.points == points and r.time_s < time_s))
    rank = ahead + 1
    x = solve_performance(rank, [*aperfs_of(rated, centre), centre])
    value = shown_performance(x)
    cap = CAP.get(kind)
    note = ""
    if cap is not None and value > cap:
        value, note = float(cap), f"capped at {cap} ({kind} is rated up to 1999)"
    return Performance(
        value=round(value),
        inner=x,
        rank=rank,
        rated=len(rated),
        note=note,
        assumptions=[
            "AtCoder performance: X with sum over rated participants of 1/(1+6^((X-APerf)/400)) = rank - 0.5 "
            "(AtCoder Rating System ver. 1.00), corrected below 400" + (f" and capped at {cap}" if cap else ""),
            "APerf stand-in: each rated participant's inner rating (the shown rating with AtCoder's corrections "
            f"below 400 and for few contests undone); newcomers and cpbot itself at {centre:g}",
            f"rank {rank} among the {len(rated)} rated participants plus cpbot (1 + those strictly ahead)",
        ],
    )
