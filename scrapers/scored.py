"""What a site says of a score-based (heuristic) contest's result: where a total would have ranked, and the
performance it would have had (`Site.place_score`; AtCoder's in `scrapers/atcoder/ahc.py`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Placing(BaseModel):
    """Where a score would have stood in an AHC's final standings, and the performance it would have had."""

    model_config = ConfigDict(extra="forbid")

    score: float  # the contest's total for the program (the estimate from local seeds)
    rank: int | None  # 1 + the participants strictly ahead; None when it cannot be said
    participants: int
    performance: int | None = None
    inner: float | None = None  # the X of AtCoder's equation, before the correction below 400
    rated: int = 0  # rated participants compared with
    method: Literal["aperf", "table", "none"] = "none"
    note: str = ""
    assumptions: list[str] = Field(default_factory=list)
