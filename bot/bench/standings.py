"""Recorded final standings of a score-based contest, for `cpbot bench`: where a strategy's program would have
ranked, and the performance it would have had, next to its mean score.

Read from a bench problem's folder, one reader here for the three layouts:
- cpbot's: `standings.json`, the contest's AtCoder `/standings/json` (totals, and ratings for AtCoder's
  performance method), and optionally `performance.csv` (`rank,performance`, the published performance of
  each rank, which is then used instead);
- `final_standings.json`, a community save of a contest's final standings joined with its results (a JSON list
  of rows with `Rank`, `Score`: the standings' total in hundredths as AtCoder's JSON gives it, and
  `Performance`: the results' published performance of that participant), e.g. tests/fixtures/heuristic/ahc001;
- ALE-Bench's (`bot/bench/ale_bench.py`): `standings_scores.csv` (`rank,score`), `performance.csv`, and for
  relative-scored contests `relative_results.csv` (each participant's raw score per system-test input,
  columns `private_0`, ...; -1 for a rejected output).
A total is larger-is-better as the standings show it. The program's total is its sum over the hidden seeds when
they are the contest's system test (ALE-Bench's private seeds); when the bench scored fewer local seeds than the
system test has inputs (`system_inputs`), it is the mean over those seeds times the system test's count, and the
placing says so.
"""

from __future__ import annotations

import csv
import io
import math
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cpbot.core.bounds import TEST_FILE
from cpbot.core.errors import ConfigError, first_problem
from cpbot.core.safe_paths import read_file
from cpbot.scrapers.atcoder.ahc import ahc_performance, relative_placing, table_performance
from cpbot.scrapers.atcoder.ranking import Standings, parse_standings, read_json
from cpbot.scrapers.scored import Placing

SCORE_UNIT = 100  # AtCoder's standings JSON gives a total in hundredths of a point


class RecordedStandings(BaseModel):
    """A contest's final standings as a bench ranks against them."""

    model_config = ConfigDict(extra="forbid")

    ranked: list[tuple[int, float]]  # (rank, final total) of every participant, best first; larger is better
    performance: list[tuple[int, int]] = []  # published (rank, performance), when known
    atcoder: Standings | None = None  # the AtCoder standings JSON, for its performance method
    raw: list[list[float | None]] | None = None  # relative contests: participants x inputs raw scores
    objective: Literal["maximize", "minimize"] = "maximize"
    unit: float = 1e9

    def rank_of(self, total: float) -> int:
        """1 + the participants strictly ahead of `total` (the rank the standings give its equals)."""
        at_or_below = [r for r, t in self.ranked if t <= total]
        return min(at_or_below) if at_or_below else max((r for r, _ in self.ranked), default=0) + 1

    def place(self, seed_scores: list[float | None], relative: bool, system_inputs: int | None = None) -> Placing:
        """Where a program scoring `seed_scores` (None: a failed input, 0) would stand. The scores are the system
        test's own inputs when `system_inputs` is None or their number; else a sample of local seeds, whose
        mean times `system_inputs` is the estimated total."""
        if relative:
            placing = relative_placing(seed_scores, self.raw, self.objective, len(self.ranked), self.unit)
            if placing.rank is not None and self.performance:
                placing.performance = table_performance(placing.rank, self.performance)
                placing.method = "table"
            return placing
        total = sum(s for s in seed_scores if s is not None)
        scaled = system_inputs is not None and system_inputs != len(seed_scores) and seed_scores
        if scaled:
            total = total / len(seed_scores) * system_inputs
        placing = self._place_total(total)
        if scaled:
            placing.assumptions.append(
                f"the total is the mean over {len(seed_scores)} local seeds times the system test's {system_inputs} "
                "inputs (the standings' totals are over the system test)"
            )
        return placing

    def _place_total(self, total: float) -> Placing:
        if self.atcoder is not None and not self.performance:
            return ahc_performance(self.atcoder, total)
        rank = self.rank_of(total)
        placing = Placing(score=total, rank=rank, participants=len(self.ranked), note="no performance recorded")
        if self.performance:
            tied = sum(1 for _, t in self.ranked if t == total)
            placing.performance = table_performance(rank + tied / 2, self.performance)
            placing.method, placing.note = "table", ""
            placing.assumptions = ["performance interpolated between the published ones of the neighbouring ranks"]
        return placing


def _csv_rows(path: Path) -> list[dict[str, str]]:
    text = read_file(path, TEST_FILE).decode("utf-8", errors="replace")
    try:
        return list(csv.DictReader(io.StringIO(text)))
    except csv.Error as e:
        raise ConfigError(f"{path}: not CSV ({e})") from None


def _number(value: object, path: Path) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ConfigError(f"{path}: {value!r} is not a number") from None
    if not math.isfinite(number):
        raise ConfigError(f"{path}: {value!r} is not a finite number")
    return number


def read_performance(path: Path) -> list[tuple[int, int]]:
    """`rank,performance` rows."""
    try:
        return [(int(r["rank"]), int(_number(r["performance"], path))) for r in _csv_rows(path)]
    except (KeyError, ValueError, TypeError) as e:
        raise ConfigError(f"{path}: not rank,performance rows ({e})") from None


class _FinalRow(BaseModel):
    """One participant of a `final_standings.json` (other keys are ignored)."""

    model_config = ConfigDict(extra="ignore")

    Rank: int = Field(ge=1)
    Score: float = Field(ge=0, allow_inf_nan=False)  # the total in hundredths, as AtCoder's standings JSON has it
    Performance: int | None = None


def read_final_standings(path: Path) -> RecordedStandings:
    """A `final_standings.json`: rows of `Rank`, `Score` (hundredths) and `Performance` -> the totals in points
    and the published performance of each rank."""
    data = read_json(read_file(path, TEST_FILE), f"{path.name} (final standings rows)", list)
    try:
        rows = [_FinalRow.model_validate(row) for row in data]
    except ValidationError as e:
        raise ConfigError(f"{path}: {first_problem(e)}", hint="rows of Rank, Score (hundredths), Performance") from None
    if not rows:
        raise ConfigError(f"{path}: no participant")
    ranked = sorted((r.Rank, r.Score / SCORE_UNIT) for r in rows)
    table = [(r.Rank, r.Performance) for r in rows if r.Performance is not None]
    return RecordedStandings(ranked=ranked, performance=table)


def read_standings(directory: Path, *, objective: str = "maximize", unit: float = 1e9) -> RecordedStandings | None:
    """The recorded standings in a bench problem's folder, in any of the layouts; None when it has none."""
    if (directory / "final_standings.json").is_file():
        return read_final_standings(directory / "final_standings.json")
    table = read_performance(directory / "performance.csv") if (directory / "performance.csv").is_file() else []
    if (directory / "standings.json").is_file():
        atcoder = parse_standings(read_file(directory / "standings.json", TEST_FILE))
        ranked = [(r.rank, r.points) for r in atcoder.rows]
        return RecordedStandings(ranked=ranked, performance=table, atcoder=atcoder)
    scores = directory / "standings_scores.csv"
    if not scores.is_file():
        return None
    try:
        ranked = sorted((int(r["rank"]), _number(r["score"], scores)) for r in _csv_rows(scores))
    except (KeyError, ValueError, TypeError) as e:
        raise ConfigError(f"{scores}: not rank,score rows ({e})") from None
    raw = None
    relative = directory / "relative_results.csv"
    if relative.is_file():
        rows = _csv_rows(relative)
        named = [c for c in (rows[0] if rows else {}) if c is not None and re.fullmatch(r"private_\d+", c)]
        columns = sorted(named, key=lambda c: int(c[8:]))
        raw = [[None if (v := _number(r[c], relative)) < 0 else v for c in columns] for r in rows]
    return RecordedStandings(
        ranked=ranked,
        performance=table,
        raw=raw,
        objective="minimize" if objective == "minimize" else "maximize",
        unit=unit,
    )
