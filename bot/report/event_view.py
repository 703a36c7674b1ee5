"""One event-to-view mapping: a stored event read back as its typed model, and said in one line, for the
terminal and the HTML alike.

`load` reads any stored event into one union of the agents' events (`cpbot.agents.tracing`), the
submission events (`bot.submit.events`), the contest events (`bot.watch.events`) and the research results
(`bot.bench.metrics.BenchResultEvent`, `bot.bench.grade.GradeResultEvent`). `describe` gives a
short tag ("judge", "gate", ...) and the text after it: `cpbot transcripts show` (`bot.report.render`) prints
them as a column and the line, the HTML export (`bot.report.export.model`) uses them as an event's label. A
kind this cpbot does not know, or a payload it cannot read, shows as its kind and its JSON.
"""

from __future__ import annotations

import json
from typing import Annotated, Union, get_args

from pydantic import Field, TypeAdapter, ValidationError

from cpbot.agents import tracing
from cpbot.agents.tracing import (
    BudgetEvent,
    EnvelopeEvent,
    LLMCallEvent,
    NoteEvent,
    ReportEvent,
    ScoreEvent,
    SelectionEvent,
    TraceEvent,
)
from cpbot.bot.bench.grade import GradeResultEvent
from cpbot.bot.bench.metrics import BenchResultEvent
from cpbot.bot.store.transcripts import StoredEvent
from cpbot.bot.submit.events import GateEvent, RemoteVerdictEvent, SubmissionEvent
from cpbot.bot.watch.events import ContestStateEvent, RulesEvent, ShadowSubmissionEvent, StandingEvent
from cpbot.core.texts import clock, tokens_text

# The agents' events (every member of their union, whatever they add) and the bot's.
AGENT_EVENTS: tuple[type[TraceEvent], ...] = get_args(get_args(tracing.AnyEvent)[0])
BOT_EVENTS: tuple[type[TraceEvent], ...] = (
    GateEvent,
    SubmissionEvent,
    RemoteVerdictEvent,
    RulesEvent,
    ShadowSubmissionEvent,
    StandingEvent,
    ContestStateEvent,
    BenchResultEvent,
    GradeResultEvent,
)
AnyEvent = Annotated[Union[AGENT_EVENTS + BOT_EVENTS], Field(discriminator="kind")]  # noqa: UP007
_EVENTS: TypeAdapter[TraceEvent] = TypeAdapter(AnyEvent)

# How long a payload shown as JSON may be before it is cut (the terminal's --full shows it all).
EXCERPT = 160


def load(event: StoredEvent) -> TraceEvent | None:
    """The typed event a stored one was written from; None for the store's own kinds (run_start, ...),
    kinds this cpbot does not know, and payloads it cannot read (written by another version)."""
    try:
        return _EVENTS.validate_python(event.fields())
    except ValidationError:
        return None


def describe(event: StoredEvent, full: bool = False) -> tuple[str, str]:
    """(tag, text): the event in one line."""
    p = event.payload
    if event.kind == "run_start":
        return "start", f"{p.get('kind')} {p.get('problem_id') or ''}".rstrip()
    if event.kind == "run_end":
        return "end", f"{p.get('status')}" + (f": {p['reason']}" if p.get("reason") else "")
    if event.kind == "run_resume":
        return "resume", f"was {p.get('previous_status')}, now pid {p.get('pid')}"
    typed = load(event)
    if typed is None:
        return event.kind, _cut(json.dumps(p, ensure_ascii=False), full)
    return _describe(typed)


def _describe(e: TraceEvent) -> tuple[str, str]:
    if isinstance(e, LLMCallEvent):
        return "llm", llm_headline(e)
    if isinstance(e, EnvelopeEvent):
        h = e.envelope.header
        return "envelope", f"{h.type} #{h.iteration}" + (f" from {h.sender}" if h.sender else "")
    if isinstance(e, ReportEvent):
        return e.report_kind, _report_text(e)
    if isinstance(e, BudgetEvent):
        return "budget", f"exhausted: {e.reason}"
    if isinstance(e, NoteEvent):
        if e.message == "route" and isinstance(e.data.get("to"), str):
            extra = ", ".join(f"{k}={v}" for k, v in e.data.items() if k != "to")
            return "note", f"route to {e.data['to']}" + (f" ({extra})" if extra else "")
        return "note", e.message
    if isinstance(e, SelectionEvent):
        return "selection", f"{e.step} [{', '.join(str(c) for c in e.candidates)}]: {e.reason}"
    if isinstance(e, ScoreEvent):
        r = e.report
        where = f"#{e.iteration}" + (f" from #{e.parent}" if e.parent is not None else "")
        scores = f"mean {r.mean:,.1f} on {len(r.seeds)} seeds" if r.seeds else str(r.verdict)
        return "score", f"{where} {e.purpose}: {scores}" + (" (best)" if e.best else "") + (
            f": {e.idea}" if e.idea else ""
        )
    if isinstance(e, RulesEvent):
        return "rules", f"{e.participation}: {e.reason}"
    if isinstance(e, ContestStateEvent):
        problem = f" {e.problem_id}" if e.problem_id else ""
        return "contest", f"{e.state}{problem}" + (f": {e.detail}" if e.detail else "")
    if isinstance(e, GateEvent):
        return "gate", ("allowed" if e.allowed else "refused") + (f": {'; '.join(e.reasons)}" if e.reasons else "")
    if isinstance(e, SubmissionEvent):
        practice = "practice " if e.practice else ""
        return "submission", f"{e.problem_id}: {practice}#{e.submission_id} ({e.language})"
    if isinstance(e, ShadowSubmissionEvent):
        return "shadow", f"{e.problem_id}: would have submitted at {clock(e.at_s)} (nothing posted during the round)"
    if isinstance(e, StandingEvent):
        head = f"rank {e.rank} of {e.participants} ({e.percentile}% at or behind)"
        return "standing", head + (f", performance {e.performance}" if e.performance is not None else "")
    if isinstance(e, RemoteVerdictEvent):
        state = e.verdict or e.status_text or "pending"
        test = f" on test {e.failed_test}" if e.failed_test else ""
        return "verdict", f"#{e.submission_id}: {state}{test}" + ("" if e.final else " (not final)")
    if isinstance(e, BenchResultEvent):
        f = e.final
        tests = f"{f.passed_tests}/{f.total_tests}"
        return "bench", f"{e.key} {e.strategy} #{e.sample}: {f.verdict or 'no program'} {tests}"
    if isinstance(e, GradeResultEvent):
        return "grade", f"{e.question_id} #{e.index}: {e.verdict or 'no program'} {e.passed_tests}/{e.total_tests}"
    fields = e.model_dump(mode="json", exclude={"kind", "ts", "task_id"})
    return e.kind, _cut(json.dumps(fields, ensure_ascii=False), full=False)


def _cut(text: str, full: bool) -> str:
    return text if full or len(text) <= EXCERPT else text[:EXCERPT] + "..."


def llm_headline(e: LLMCallEvent) -> str:
    """An LLM call in one line: who asked which model, the tokens, the time, the tries, how it ended."""
    u = e.usage
    return (
        f"{e.role} via {e.model}: {tokens_text(u.prompt_tokens)}+{tokens_text(u.completion_tokens)} tokens"
        + (f" ({tokens_text(u.reasoning_tokens)} reasoning)" if u.reasoning_tokens else "")
        + (" (estimated)" if u.estimated else "")
        + f", {e.latency_ms:.0f} ms"
        + (f", {e.attempts} tries" if e.attempts > 1 else "")
        + (f", finish {e.finish_reason}" if e.finish_reason else "")
        + (f" - failed: {e.error}" if e.error else "")
    )


def _report_text(e: ReportEvent) -> str:
    r = e.report
    if e.report_kind == "judge":
        text = f"{r.get('verdict')} {r.get('passed')}/{r.get('total')} tests"
    elif e.report_kind == "profile":
        text = f"{r.get('complexity') or 'complexity unknown'}, efficient={r.get('efficient')}"
    else:
        text = str(r.get("status", ""))
    return text + (f" #{e.iteration}" if e.iteration is not None else "")
