"""What `cpbot watch` records about a contest, as typed trace events: how it takes part (rules), the
steps of its loop (contest_state), the submissions it only would have made (shadow) and the standing
they earned.

They are written with the store's `record` and read back through `bot.report.event_view.load`. Their fields are
the flat payloads the store held before they were typed, so old transcripts read as they are; the shadow
submission's hash, once written as `sha256`, is read under both names.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, Field

from cpbot.agents.tracing import TraceEvent
from cpbot.bot.watch.rules import RulesDecision
from cpbot.bot.watch.standing import Standing


class RulesEvent(RulesDecision, TraceEvent):
    """How cpbot takes part in a contest (live, shadow, practice) and why."""

    kind: Literal["rules"] = "rules"


class ShadowSubmissionEvent(TraceEvent):
    """The submission cpbot would have made at `at_s` seconds into a round it took part in only in the
    shadow (nothing was posted)."""

    kind: Literal["shadow_submission"] = "shadow_submission"
    problem_id: str
    attempt: int | None = None
    at_s: float = 0.0
    source_sha256: str = Field("", validation_alias=AliasChoices("source_sha256", "sha256"))
    language: str = ""


class StandingEvent(Standing, TraceEvent):
    """The standing cpbot's shadow submissions earned (`cpbot.bot.watch.standing.Standing`)."""

    kind: Literal["standing"] = "standing"


class ContestStateEvent(TraceEvent):
    """A step of the contest loop: the contest's or one problem's new state, and why."""

    kind: Literal["contest_state"] = "contest_state"
    contest_id: str
    state: str
    detail: str = ""
    problem_id: str | None = None
