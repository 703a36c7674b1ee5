"""Trace events and the `Tracer` protocol: every LLM call, envelope and report of a solve goes to one.

Agents only know the protocol; `bot.store.transcripts.TranscriptTracer` writes events to the transcript
store, `InMemoryTracer` keeps them in a list for tests. Events are pydantic models with a `kind`.
"""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Annotated, Any, Literal, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from cpbot.agents.budget import BudgetSnapshot, Usage
from cpbot.agents.envelopes import Envelope, utc_now
from cpbot.agents.selection import Disagreement, Group
from cpbot.judge.model import JudgeReport, ProfileReport, StressReport
from cpbot.judge.scoring import ScoreReport


class TraceEvent(BaseModel):
    """Common fields: what kind of event, for which task, when (UTC)."""

    model_config = ConfigDict(extra="forbid")

    kind: str
    task_id: str = ""
    ts: datetime = Field(default_factory=utc_now)


class LLMTry(BaseModel):
    """One HTTP attempt of an LLM call: its outcome, its time, and the wait before the next try."""

    model_config = ConfigDict(extra="forbid")

    attempt: int
    status: int | None = None  # HTTP status; None for a timeout or a connection failure
    error: str = ""
    elapsed_ms: float = 0.0
    wait_s: float = 0.0
    finish_reason: str | None = None  # of a try that got an answer (a cut reply asked again, say)
    usage: Usage | None = None  # what this try cost, when the server answered


class LLMCallEvent(TraceEvent):
    """One call of `LLMClient.complete`, successful or not, with everything needed to replay it."""

    kind: Literal["llm_call"] = "llm_call"
    call_id: str
    role: str
    model: str
    messages: list[dict[str, Any]]
    response_format: dict[str, Any] | None = None
    request: dict[str, Any] = {}  # the other request fields sent (output limit, sampling, extra_body)
    reply: str = ""
    reasoning: str = ""
    finish_reason: str | None = None
    usage: Usage = Usage()
    latency_ms: float = 0.0
    started_at: datetime | None = None  # when the call began; `ts` is when it ended
    queued_ms: float = 0.0  # waiting for a place among the endpoint's requests in flight
    attempts: int = 0
    tries: list[LLMTry] = []
    structured: Literal["none", "native", "fallback", "failed"] = "none"
    error: str = ""
    error_kind: str = ""
    warnings: list[str] = []  # what cpbot noticed about the server (a small context, a dropped setting)
    clipped: dict[str, int] = {}  # text fields a transcript stored clipped: the field -> its full length


class EnvelopeEvent(TraceEvent):
    """A message between roles."""

    kind: Literal["envelope"] = "envelope"
    envelope: Envelope


class ReportEvent(TraceEvent):
    """A judge, profile or stress report about one attempt."""

    kind: Literal["report"] = "report"
    report_kind: Literal["judge", "profile", "stress"]
    iteration: int | None = None
    report: dict[str, Any]

    @classmethod
    def of(
        cls, report: JudgeReport | ProfileReport | StressReport, *, task_id: str = "", iteration: int | None = None
    ) -> ReportEvent:
        """An event for a judge, profile or stress report."""
        kind: Literal["judge", "profile", "stress"] = (
            "judge" if isinstance(report, JudgeReport) else "profile" if isinstance(report, ProfileReport) else "stress"
        )
        return cls(report_kind=kind, task_id=task_id, iteration=iteration, report=report.model_dump(mode="json"))


class BudgetEvent(TraceEvent):
    """The budget ran out: why, and what had been spent."""

    kind: Literal["budget"] = "budget"
    reason: str
    spent: BudgetSnapshot


class NoteEvent(TraceEvent):
    """Anything else worth a line in the transcript (a strategy's decision, a skipped step)."""

    kind: Literal["note"] = "note"
    message: str
    data: dict[str, Any] = {}


class SelectionEvent(TraceEvent):
    """One step of choosing among candidate programs (see `agents.selection`); candidates are named by the
    iteration of their code envelope."""

    kind: Literal["selection"] = "selection"
    step: Literal["drawn", "filtered", "grouped", "doubted", "distinguished", "arbitrated", "chosen"]
    candidates: list[int] = []  # the candidates the step is about (drawn, kept, chosen)
    rejected: dict[int, str] = {}  # candidate -> why it was left out (failed a sample, an unusable reply)
    probes: int = 0  # inputs the candidates were compared on
    groups: list[Group] = []  # best first
    disagreements: list[Disagreement] = []  # where the first two groups differ
    reason: str = ""


class ScoreEvent(TraceEvent):
    """A program of a score-based problem scored on seeds: the seeds and their scores (`report`), which
    program (the iteration of its code envelope), what it tried (`idea`), and its place in the search."""

    kind: Literal["score"] = "score"
    iteration: int | None = None
    parent: int | None = None  # the program it was made from (None: written from the statement)
    idea: str = ""
    purpose: Literal["candidate", "repeat"] = "candidate"  # repeat: a challenger of the leader run again
    report: ScoreReport
    best: bool = False  # the best program so far after this one


AnyEvent = Annotated[
    LLMCallEvent | EnvelopeEvent | ReportEvent | BudgetEvent | NoteEvent | SelectionEvent | ScoreEvent,
    Field(discriminator="kind"),
]
_EVENTS: TypeAdapter[Any] = TypeAdapter(AnyEvent)


def load_event(data: dict[str, Any]) -> TraceEvent:
    """An event back from its `model_dump(mode="json")` form."""
    return _EVENTS.validate_python(data)


@runtime_checkable
class Tracer(Protocol):
    """Receives every event of a solve, from any thread."""

    def emit(self, event: TraceEvent) -> None:
        """Record `event`; may raise if it cannot (a solve must not lose its transcript silently)."""


class NullTracer:
    """Drops every event."""

    def emit(self, event: TraceEvent) -> None:
        """Do nothing."""


E = TypeVar("E", bound=TraceEvent)


class InMemoryTracer:
    """Keeps events in order in a list; for tests and for callers that want to inspect a solve."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.events: list[TraceEvent] = []

    def emit(self, event: TraceEvent) -> None:
        """Append `event`."""
        with self._lock:
            self.events.append(event)

    def of_kind(self, event_cls: type[E]) -> list[E]:
        """The events of one class, in order."""
        with self._lock:
            return [e for e in self.events if isinstance(e, event_cls)]

    def envelopes(self) -> list[Envelope]:
        """The envelopes emitted, in order."""
        return [e.envelope for e in self.of_kind(EnvelopeEvent)]


class FanoutTracer:
    """Sends each event to several tracers in turn."""

    def __init__(self, *tracers: Tracer) -> None:
        self.tracers = tracers

    def emit(self, event: TraceEvent) -> None:
        """Emit to every tracer."""
        for tracer in self.tracers:
            tracer.emit(event)


def send(tracer: Tracer, envelope: Envelope) -> Envelope:
    """Trace `envelope` and return it, so a role can `return send(tracer, Envelope.wrap(...))`."""
    tracer.emit(EnvelopeEvent(task_id=envelope.header.task_id, envelope=envelope))
    return envelope
