"""The standing cpbot would have had in a contest it took part in only in the shadow.

Inputs are plain data: the contest's scoring, the official standings rows (and, for a performance
rating, the participants' ratings before the contest), and cpbot's shadow submissions with the official
verdicts their practice submissions got after the round. Nothing here fetches anything.

Scoring, as the sites define it:
- Codeforces standard rounds: a problem of initial value x solved at minute t of a d-minute round after
  w rejected attempts is worth max(0.3x, x - floor(120 x t / (250 d)) - 50 w); rank by points.
- Codeforces extended ICPC (Educational, Div. 3, Div. 4): rank by problems solved, then penalty: the
  minute of each accepted solution plus 10 minutes per rejected attempt before it.
- LeetCode: rank by score (sum of the solved problems' credits), then finish time: the time of the last
  accepted solution plus 5 minutes per rejected attempt.
A performance rating is the rating R whose expected rank among the rated participants, by Codeforces'
seed formula 1 + sum_i 1 / (1 + 10^((R - r_i) / 400)), equals cpbot's rank.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict, Field

from cpbot.scrapers.ranklist import RanklistRow, Scoring, ahead

SCHEMA_VERSION = 1
CF_WRONG_POINTS = 50
ICPC_WRONG_MINUTES = 10
LEETCODE_WRONG_SECONDS = 5 * 60
# The range a performance rating is searched in; a rank beyond what it can explain is reported at a bound.
RATING_FLOOR, RATING_CEILING = -1000.0, 6000.0


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ShadowProblem(Model):
    """One problem as cpbot would have played it: its shadow submissions' times (seconds from the start)
    in order, and the official verdict each source got when it was posted as practice (None: unknown)."""

    index: str
    max_points: float = 0.0  # Codeforces initial value, LeetCode credit; unused for ICPC
    times_s: list[float] = []
    accepted: list[bool | None] = []  # per shadow submission: AC by the site, rejected, or not confirmed


class ProblemScore(Model):
    index: str
    solved: bool
    time_s: float | None = None  # of the accepted shadow submission
    rejected: int = 0  # rejected shadow submissions before it
    points: float = 0.0
    note: str = ""


class Standing(Model):
    schema_version: int = SCHEMA_VERSION
    scoring: Scoring
    problems: list[ProblemScore]
    points: float  # in the contest's own measure (see RanklistRow.points)
    penalty: float
    rank: int  # 1 + participants strictly ahead
    participants: int  # official participants compared with
    percentile: float  # share of participants ranked at or behind cpbot, in percent
    performance: int | None = None
    performance_note: str = ""
    assumptions: list[str] = Field(default_factory=list)


def codeforces_points(initial: float, seconds: float, duration_s: float, rejected: int) -> float:
    """Codeforces' value of a problem solved `seconds` into a round of `duration_s` after `rejected` tries."""
    minute = int(seconds // 60)
    duration_min = max(1, round(duration_s / 60))
    decayed = initial - math.floor(120 * initial * minute / (250 * duration_min)) - CF_WRONG_POINTS * rejected
    return max(0.3 * initial, float(decayed))


def score_problem(problem: ShadowProblem, scoring: Scoring, duration_s: float) -> ProblemScore:
    """Solved at the first shadow submission the site accepted; each rejected one before it costs."""
    rejected = 0
    for time_s, verdict in zip(problem.times_s, problem.accepted, strict=False):
        if verdict is None:
            return ProblemScore(
                index=problem.index, solved=False, rejected=rejected, note="never confirmed by the site: unsolved"
            )
        if not verdict:
            rejected += 1
            continue
        if scoring is Scoring.POINTS:
            points = codeforces_points(problem.max_points, time_s, duration_s, rejected)
        else:
            points = 1.0 if scoring is Scoring.ICPC else problem.max_points
        return ProblemScore(index=problem.index, solved=True, time_s=time_s, rejected=rejected, points=points)
    note = "no shadow submission" if not problem.times_s else "every shadow submission was rejected"
    return ProblemScore(index=problem.index, solved=False, rejected=rejected, note=note)


def penalty_of(scores: Sequence[ProblemScore], scoring: Scoring) -> float:
    """ICPC: minutes of each solve plus 10 per rejected try; LeetCode: seconds to the last solve plus 5
    minutes per rejected try; Codeforces standard rounds rank by points alone."""
    solved = [s for s in scores if s.solved and s.time_s is not None]
    if scoring is Scoring.ICPC:
        return float(sum(int(s.time_s // 60) + ICPC_WRONG_MINUTES * s.rejected for s in solved))  # type: ignore[operator]
    if scoring is Scoring.SCORE_TIME:
        if not solved:
            return 0.0
        return max(s.time_s for s in solved) + LEETCODE_WRONG_SECONDS * sum(s.rejected for s in solved)  # type: ignore[type-var]
    return 0.0


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


def compute_standing(
    scoring: Scoring,
    problems: Sequence[ShadowProblem],
    rows: Sequence[RanklistRow],
    *,
    duration_s: float,
    total_participants: int | None = None,
    rank_of: Callable[[float, float], int] | None = None,
) -> Standing:
    """cpbot's standing among the official `rows`.

    `rank_of(points, penalty)` may replace the count over `rows` when the standings are too large to hold
    (LeetCode's ranking pages, searched page by page); `total_participants` then gives their number.
    """
    scores = [score_problem(p, scoring, duration_s) for p in problems]
    points = sum(s.points for s in scores)
    penalty = penalty_of(scores, scoring)
    rank = rank_of(points, penalty) if rank_of else 1 + sum(ahead(r, points, penalty) for r in rows)
    participants = total_participants if total_participants is not None else len(rows)
    percentile = 100.0 * (participants - rank + 1) / participants if participants else 100.0
    assumptions = [
        "a problem counts as solved only where the site accepted the same source posted as practice after the round",
        "each shadow submission rejected by the site before the accepted one counts as a rejected attempt",
    ]
    standing = Standing(
        scoring=scoring,
        problems=scores,
        points=points,
        penalty=penalty,
        rank=rank,
        participants=participants,
        percentile=round(max(0.0, min(100.0, percentile)), 2),
        assumptions=assumptions,
    )
    rated = [r for r in rows if r.rating is not None]
    if rated:
        rated_rank = 1 + sum(ahead(r, points, penalty) for r in rated)
        value, note = performance_rating(rated_rank, [r.rating for r in rated if r.rating is not None])
        standing.performance, standing.performance_note = value, note
        standing.assumptions.append(
            f"performance: rank {rated_rank} among the {len(rated)} participants with a rating before the contest"
        )
    return standing
