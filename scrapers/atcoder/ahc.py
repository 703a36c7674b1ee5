"""AtCoder Heuristic Contests after the end: where a score would have ranked, and its performance.

- Rank. AHC's standings rank by total score alone (the `/standings/json` of any AtCoder contest, `Score` in
  hundredths, read by `ranking.parse_standings`). A score ranks 1 + the participants strictly ahead of it.
  Under relative scoring (AHC's `round(10^9 x yours / best)` per input, summed) a new entry changes every
  participant's total, and the standings publish totals only: the rank is recomputed only from each entry's
  raw score per input (`recompute_relative`: ALE-Bench's `relative_results`), else it cannot be given.
- Performance, AtCoder's method for AHC (AHC Rating System ver. 2, as for the algorithm contests): the X for
  which sum_j 1 / (1 + 6^((X - APerf_j) / 400)) = r - 0.5 over the rated participants, r the rank with ties
  averaged, corrected below 400, never capped. APerf_j (a weighted average of j's past AHC performances) is
  not published: `ahc_performance` takes a participant's AHC rating before the contest in its place and 1200
  for a first AHC (`AHC_CENTRE`, the value community calculators use); every result lists these assumptions.
  Where each rank's published performance is at hand (the contest's results, ALE-Bench's `performance.csv`),
  `table_performance` interpolates between the neighbouring ranks instead, as ALE-Bench does: once AtCoder
  publishes a contest's results (`parse_results`) the site ranks through them. (Checked on AHC001's published
  results: the table reproduces each participant's performance from the others', median error 0; uniform
  stand-in APerfs give a far flatter curve, 2,969 against 3,252 at rank 1.)
- Submissions: one every 5 minutes in a short AHC (under a day), every 30 minutes in a long one
  (`submit_interval_s`; each contest's rules page states it).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from cpbot.scrapers.atcoder.performance import shown_performance, solve_performance
from cpbot.scrapers.atcoder.ranking import Standings, read_json
from cpbot.scrapers.scored import Placing

AHC_CENTRE = 1200.0
SHORT_INTERVAL_S = 5 * 60
LONG_INTERVAL_S = 30 * 60
LONG_CONTEST_S = 24 * 3600
PERFORMANCE_METHOD = (
    "AtCoder's performance for AHC: X with sum over rated participants of 1/(1+6^((X-APerf)/400)) = rank - 0.5, "
    "ties averaged, corrected below 400, no cap (AHC Rating System ver. 2)"
)


def submit_interval_s(duration_s: float) -> int:
    """The wait between two submissions AtCoder sets for an AHC of this length."""
    return LONG_INTERVAL_S if duration_s >= LONG_CONTEST_S else SHORT_INTERVAL_S


def _ahead_and_tied(totals: Sequence[float], score: float, objective: str) -> tuple[int, int]:
    better = (lambda t: t > score) if objective == "maximize" else (lambda t: t < score)
    return sum(1 for t in totals if better(t)), sum(1 for t in totals if t == score)


def ahc_performance(
    standings: Standings, score: float, *, aperfs: dict[str, float] | None = None, centre: float = AHC_CENTRE
) -> Placing:
    """The rank and AtCoder performance of a total `score` (larger is better: AHC standings totals always
    are) against the final `standings`; `aperfs` gives known APerfs by handle (others: the stand-ins)."""
    rows = standings.rows
    ahead, _ = _ahead_and_tied([r.points for r in rows], score, "maximize")
    rated = [r for r in rows if r.rated]
    placing = Placing(score=score, rank=ahead + 1, participants=len(rows), rated=len(rated))
    if not rated:
        placing.note = "nobody in the standings is rated: no performance"
        return placing
    known = aperfs or {}
    stand_ins = [
        known.get(r.handle, float(r.rating) if r.rating is not None and r.competitions > 0 else centre) for r in rated
    ]
    rated_ahead, rated_tied = _ahead_and_tied([r.points for r in rated], score, "maximize")
    # cpbot is one more rated participant, a first-timer; its rank among the rated, ties averaged
    rank = rated_ahead + 1 + rated_tied / 2
    x = solve_performance(rank, [*stand_ins, centre])
    placing.performance = round(shown_performance(x))
    placing.inner = x
    placing.method = "aperf"
    placing.assumptions = [
        PERFORMANCE_METHOD,
        "APerf stand-in: "
        + ("the APerfs given, else " if known else "")
        + f"each rated participant's AHC rating before the contest; first-timers and cpbot itself at {centre:g}",
        f"rank {rank:g} among the {len(rated)} rated participants plus cpbot (ties averaged)",
    ]
    return placing


def table_performance(rank: float, table: Sequence[tuple[int, int]]) -> int:
    """The performance at `rank` from published (rank, performance) pairs: a group of tied participants sits at
    the middle of the ranks it spans; between two groups, the straight line; outside them, the nearest."""
    distinct = sorted(set(table))
    ranks = sorted({r for r, _ in distinct})
    if len(ranks) < 2:
        raise ValueError("a performance table needs two ranks or more")
    perf = {r: p for r, p in distinct}
    points = [((r + n - 1) / 2, perf[r]) for r, n in itertools.pairwise(ranks)] + [(float(ranks[-1]), perf[ranks[-1]])]
    if rank <= points[0][0]:
        return points[0][1]
    for (low, p_low), (high, p_high) in itertools.pairwise(points):
        if low <= rank <= high:
            return round(p_low + (p_high - p_low) * (rank - low) / (high - low))
    return points[-1][1]


def parse_results(payload: bytes | str) -> list[tuple[int, int]]:
    """AtCoder's final results of a contest (`/contests/C/results/json`, published some time after the end: one
    object per participant with `Place`, `Performance`, `IsRated`) -> the (rank, performance) pairs of the rated
    participants, for `table_performance`."""
    data = read_json(payload, "the AtCoder results", list)
    table = []
    for row in data:
        if not isinstance(row, dict) or row.get("IsRated") is not True:
            continue
        place, performance = row.get("Place"), row.get("Performance")
        if isinstance(place, int) and isinstance(performance, int) and not isinstance(place, bool):
            table.append((place, performance))
    return table


def table_placing(score: float, totals: Sequence[float], table: Sequence[tuple[int, int]]) -> Placing:
    """Rank of `score` among the recorded `totals` (larger is better) and the performance the table gives it."""
    ahead, tied = _ahead_and_tied(totals, score, "maximize")
    rank = ahead + 1 + tied / 2
    return Placing(
        score=score,
        rank=ahead + 1,
        participants=len(totals),
        performance=table_performance(rank, table),
        method="table",
        assumptions=[
            f"performance interpolated between the published performances of the neighbouring ranks (rank {rank:g})"
        ],
    )


def relative_total(mine: Sequence[float | None], others: Sequence[Sequence[float | None]], objective: str,
                   unit: float = 1e9) -> tuple[float, list[float]]:  # fmt: skip
    """AHC's relative totals with one more entry: per input, round(unit x yours / best) (best / yours where
    smaller is better) over every valid raw score (None: rejected, 0 on that input). Returns the new entry's
    total and every other entry's, recomputed."""
    if any(len(row) != len(mine) for row in others):
        raise ValueError("every entry needs a raw score per input")
    entries = [list(mine), *[list(row) for row in others]]
    totals = [0.0] * len(entries)
    for i in range(len(mine)):
        valid = [e[i] for e in entries if e[i] is not None and (objective == "maximize" or e[i] > 0)]
        if not valid:
            continue
        best = max(valid) if objective == "maximize" else min(valid)
        for k, e in enumerate(entries):
            raw = e[i]
            if raw is None or best == 0 or (objective == "minimize" and raw <= 0):
                continue
            totals[k] += math.floor(unit * (raw / best if objective == "maximize" else best / raw) + 0.5)
    return totals[0], totals[1:]


def relative_placing(mine: Sequence[float | None], others: Sequence[Sequence[float | None]] | None,
                     objective: str, participants: int, unit: float = 1e9) -> Placing:  # fmt: skip
    """The rank of an entry in a relative-scored AHC: recomputed from every entry's raw scores per input
    when they are at hand, else not given (the standings publish relative totals only)."""
    if not others:
        return Placing(
            score=0.0,
            rank=None,
            participants=participants,
            note="relative scoring: the standings give totals relative to the best entry per input, not each "
            "entry's raw scores, so a new entry's rank cannot be recomputed from them",
        )
    total, rest = relative_total(mine, others, objective, unit)
    ahead, _ = _ahead_and_tied(rest, total, "maximize")
    return Placing(
        score=total,
        rank=ahead + 1,
        participants=len(rest),
        assumptions=["relative totals recomputed over every entry's raw score per input, the new entry included"],
    )
