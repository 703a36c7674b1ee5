"""Contest listings: what a contest is and which problems it has, for every site."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from cpbot.core.errors import ParseError

SCHEMA_VERSION = 1


class Phase(StrEnum):
    """Where a contest is in its life; the values are Codeforces' words, which other sites map to."""

    BEFORE = "BEFORE"
    CODING = "CODING"
    PENDING_SYSTEM_TEST = "PENDING_SYSTEM_TEST"
    SYSTEM_TEST = "SYSTEM_TEST"
    FINISHED = "FINISHED"

    @property
    def ended(self) -> bool:
        """The coding phase is over (system testing may still run)."""
        return self not in (Phase.BEFORE, Phase.CODING)


class Contest(BaseModel):
    """One contest as a site lists it."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    site: str
    id: str
    name: str
    phase: Phase
    start: datetime | None = None  # UTC
    duration_s: int = 0
    url: str
    kind: str | None = None  # Codeforces: CF | IOI | ICPC; LeetCode: weekly | biweekly | ...
    gym: bool = False  # a training contest (Codeforces gym or mashup), not a rated round


class ContestProblem(BaseModel):
    """One problem of a contest's problem list (no statement: fetch `url` for that)."""

    model_config = ConfigDict(extra="forbid")

    site: str
    contest_id: str
    problem_id: str
    index: str | None = None
    name: str
    url: str
    points: float | None = None
    rating: int | None = None
    tags: list[str] = []


def utc_from_seconds(value: object, what: str) -> datetime | None:
    """A UTC time from Unix seconds; None when absent, `ParseError` when it is not a usable number."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ParseError(f"cannot parse {what}: the start time is not a number")
    try:
        return datetime.fromtimestamp(value, UTC)
    except (OverflowError, OSError, ValueError) as e:
        raise ParseError(f"cannot parse {what}: the start time {value} is out of range") from e


def phase_at(start: datetime | None, duration_s: int, now: datetime) -> Phase:
    """The phase of a contest from its schedule (for sites that do not say it themselves)."""
    if start is None or now < start:
        return Phase.BEFORE
    if (now - start).total_seconds() < duration_s:
        return Phase.CODING
    return Phase.FINISHED
