"""The standing cpbot would have had in a contest it took part in only in the shadow.

Inputs are plain data: the contest's scoring, the official standings rows (and, for a performance
rating, the participants' ratings before the contest), and cpbot's shadow submissions with the official
verdicts their practice submissions got after the round. Nothing here fetches anything.

Each site's own scoring (Codeforces' points and ICPC penalty, LeetCode's finish time, Codeforces'
performance rating) is in `scrapers/<site>/ranking.py`; this module applies the one a contest uses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict, Field

from cpbot.scrapers.codeforces.ranking import codeforces_points, icpc_penalty, performance_rating
from cpbot.scrapers.leetcode.ranking import score_time_penalty
from cpbot.scrapers.ranklist import RanklistRow, Scoring, ahead

SCHEMA_VERSION = 1


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
    solves = [(s.time_s, s.rejected) for s in scores if s.solved and s.time_s is not None]
    if scoring is Scoring.ICPC:
        return icpc_penalty(solves)
    if scoring is Scoring.SCORE_TIME:
        return score_time_penalty(solves)
    return 0.0


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
