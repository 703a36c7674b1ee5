"""What `cpbot submit` and `cpbot watch` record about a submission, as typed trace events.

They are written with the store's `record` and read back through `bot.report.event_view.load` (one union with
the agents' events). Their fields are the flat payloads the store held before they were typed, so old
transcripts read as they are.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, Field

from cpbot.agents.tracing import TraceEvent
from cpbot.bot.submit.gate import GateCheck, GateDecision
from cpbot.judge.model import SCHEMA_VERSION
from cpbot.scrapers.submission import RemoteVerdict


class GateEvent(TraceEvent):
    """The gate's decision on one solution (`bot.submit.gate.GateDecision`; `attempt`: the contest loop's
    attempt number). Early transcripts called the summary `evidence` and may lack the first fields."""

    kind: Literal["gate"] = "gate"
    schema_version: int = SCHEMA_VERSION
    problem_id: str = ""
    language: str = ""
    source_sha256: str = ""
    allowed: bool
    reasons: list[str] = Field(default_factory=list)
    checks: list[GateCheck] = Field(default_factory=list)
    summary: dict[str, str] = Field(default_factory=dict, validation_alias=AliasChoices("summary", "evidence"))
    attempt: int | None = None

    @classmethod
    def of(cls, decision: GateDecision, attempt: int | None = None) -> GateEvent:
        """The event of a gate decision."""
        return cls(**dict(decision), attempt=attempt)


class SubmissionEvent(TraceEvent):
    """A solution posted to the site (`practice`: after the contest ended, so it counts for nothing)."""

    kind: Literal["submission"] = "submission"
    problem_id: str
    submission_id: str
    language: str = ""
    source_sha256: str = ""
    url: str | None = None
    attempt: int | None = None
    practice: bool = False


class RemoteVerdictEvent(RemoteVerdict, TraceEvent):
    """The site's verdict on a submission, as last seen."""

    kind: Literal["remote_verdict"] = "remote_verdict"
