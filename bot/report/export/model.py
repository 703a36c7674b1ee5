"""The export's view model: a run or a contest, gathered from the store into what a reviewer reads.

A contest run's children are its problems; a run without children is one problem. Within a problem
the events are grouped by attempt: each `code` envelope opens an attempt, which collects the
messages that led to it (LLM calls, plans, notes, routes since the previous attempt), the reports
and feedback about its iteration, and its diff against the previous attempt. Gate decisions,
submissions and remote verdicts belong to the problem; they may also sit in the contest run, where
their `problem_id` says which problem they are about. Unknown event kinds are kept as they are.

A contest cpbot took part in only in the shadow has `shadow_submission` events (when it would have
submitted), `submission` events marked `practice` (posted after the end) and a `standing` event (the
rank it would have had, `bot.watch.standing.Standing`); the last standing is shown at the top.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, Literal

from markupsafe import Markup
from pydantic import BaseModel, Field, ValidationError

from cpbot.bot.bench.report import MetricTable, metric_table
from cpbot.bot.bench.runner import build_report, finished_outcomes, stored_plan
from cpbot.bot.report.event_view import describe, load
from cpbot.bot.report.export import svg
from cpbot.bot.report.export.code import highlighted
from cpbot.bot.store.transcripts import RunSummary, StoredEvent, TranscriptStore
from cpbot.bot.submit.events import GateEvent, RemoteVerdictEvent, SubmissionEvent
from cpbot.bot.watch.events import ShadowSubmissionEvent, StandingEvent
from cpbot.bot.watch.standing import Standing
from cpbot.core.errors import CpbotError
from cpbot.judge.model import JudgeReport, ProfileReport

EXPORT_SCHEMA_VERSION = 1
Tone = Literal["ok", "bad", "info"]
# Envelope types that report on an attempt (they carry `code_iteration`).
_FEEDBACK = frozenset({"judge_feedback", "profile_feedback", "stress_feedback"})
# Event kinds the submit and watch side append (kept out of the attempts' message lists).
_PROBLEM_LEVEL = frozenset({"gate", "submission", "remote_verdict", "shadow_submission"})
_RUN_MARKERS = frozenset({"run_start", "run_end", "run_resume"})
STANDING = "standing"  # the contest run's event with cpbot's standing (the last one counts)
# What the role that wrote a program did, in words (a role not listed is named as it is).
_WROTE = {
    "coder": "a new program by the coder",
    "debugger": "a fix by the debugger",
    "optimizer": "a faster version by the optimizer",
    "stdio": "an input/output fix",
}
VERDICT_WORDS = {
    "WA": "wrong answer",
    "PE": "presentation error",
    "TLE": "time limit exceeded",
    "MLE": "memory limit exceeded",
    "OLE": "output limit exceeded",
    "RE": "runtime error",
    "CE": "compilation error",
    "IE": "judge error",
    "RAN": "unchecked run",
}


def verdict_tone(verdict: str | None, *, final: bool = True) -> Tone:
    """How a verdict is coloured: AC green, other final verdicts red, pending ones neutral."""
    if verdict is None or not final or str(verdict) == "RAN":  # RAN: ran, but nothing was checked
        return "info"
    return "ok" if str(verdict) == "AC" else "bad"


class CallView(BaseModel):
    """One LLM call: the prompt messages, the reply, and what it cost."""

    role: str
    model: str
    messages: list[dict[str, Any]] = []
    reply: str = ""
    reasoning: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    latency_ms: float = 0.0
    attempts: int = 0
    error: str = ""


class CallSpan(BaseModel):
    """One LLM call of a problem on a time axis: calls in flight together take different lanes."""

    seq: int  # the call's event
    role: str
    start_s: float  # seconds since the exported run started
    end_s: float
    lane: int  # 0, 1, ...: the first lane free when the call started
    overlaps: int = 0  # other calls in flight during this one
    failed: bool = False
    left_pct: float = 0.0  # where the bar starts and how long it is, in % of the problem's calls' span
    width_pct: float = 0.0


class EnvelopeView(BaseModel):
    """A message between roles."""

    type: str
    iteration: int
    sender: str = ""
    payload: dict[str, Any] = {}


class EventView(BaseModel):
    """One event as the page shows it: a one-line label, and the call or envelope or payload behind it."""

    seq: int
    offset_s: float  # seconds since the exported run started
    kind: str
    task_id: str = ""
    label: str
    call: CallView | None = None
    envelope: EnvelopeView | None = None
    payload: dict[str, Any] = {}


class DiffLine(BaseModel):
    """A line of a unified diff: `+` added, `-` removed, ` ` context, `@` hunk header."""

    op: Literal["+", "-", " ", "@"]
    text: str


class ProfileView(BaseModel):
    """A profile report and its plot."""

    seq: int
    report: ProfileReport
    svg: str = Field("", exclude=True)  # the page's picture; not data


class JudgeView(BaseModel):
    """A judge report about one attempt."""

    seq: int
    report: JudgeReport


class AttemptView(BaseModel):
    """One program: what led to it, the code, its diff against the previous one, and its results."""

    number: int
    iteration: int  # the agents' internal step number (the page says `title` instead)
    sender: str = ""
    title: str = ""  # "attempt 2, a fix by the debugger after attempt 1's wrong answer"
    language: str
    source: str
    source_sha256: str
    diff: list[DiffLine] = []  # empty for the first attempt
    added: int = 0
    removed: int = 0
    lead_up: list[EventView] = []
    judged: list[JudgeView] = []
    profiles: list[ProfileView] = []
    stress: list[EventView] = []
    feedback: list[EventView] = []
    verdict: str | None = None  # the last judge verdict on it
    failure: str = ""  # why it failed, in one line (empty when it passed or was not judged)

    @property
    def tone(self) -> Tone:
        return verdict_tone(self.verdict)

    @property
    def code_html(self) -> Markup:
        """The source with syntax highlighting (escaped text in Pygments' spans)."""
        return highlighted(self.source, self.language)


class GateView(BaseModel):
    """A gate decision: allowed or refused, why, and the evidence."""

    seq: int
    offset_s: float
    allowed: bool
    reasons: list[str] = []
    checks: list[dict[str, Any]] = []
    evidence: dict[str, Any] = {}
    source_sha256: str = ""


class SubmissionView(BaseModel):
    """A posted submission (`practice`: posted after the contest ended, so it counts for nothing)."""

    seq: int
    offset_s: float
    submission_id: str
    problem_id: str = ""
    language: str = ""
    source_sha256: str = ""
    url: str = ""
    practice: bool = False
    verdict: str | None = None  # the site's last verdict on it, if any was polled
    verdict_final: bool = False

    @property
    def tone(self) -> Tone:
        return verdict_tone(self.verdict, final=self.verdict_final)


class ShadowView(BaseModel):
    """A submission cpbot would have made during a round it only shadowed (nothing was posted)."""

    seq: int
    offset_s: float
    problem_id: str = ""
    at_s: float  # seconds from the contest's start
    source_sha256: str = ""
    language: str = ""

    @property
    def at(self) -> str:
        """The contest clock, e.g. 00:42:13."""
        s = max(0, int(self.at_s))
        return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"


class RemoteVerdictView(BaseModel):
    """The site's verdict on a submission, as polled."""

    seq: int
    offset_s: float
    site: str = ""
    submission_id: str = ""
    problem_id: str = ""
    verdict: str | None = None
    final: bool = False
    status_text: str = ""
    failed_test: int | None = None
    time_ms: int | None = None
    memory_kb: int | None = None

    @property
    def tone(self) -> Tone:
        return verdict_tone(self.verdict, final=self.final)


class StageView(BaseModel):
    """Tokens and time spent by one stage (an LLM role, or the judge, profiler, stress tester)."""

    stage: str
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    seconds: float = 0.0


class HiddenView(BaseModel):
    """A bench problem's final program judged on the hidden tests: what "solved" means in a bench (the
    solve's own status rests on the samples only)."""

    verdict: str | None = None  # None: the solve returned no program
    passed: int = 0
    total: int = 0
    public_pass: bool = False  # it passes every sample

    @property
    def tone(self) -> Tone:
        return "ok" if self.verdict == "AC" else "bad"

    @property
    def text(self) -> str:
        return f"hidden {self.verdict} {self.passed}/{self.total}" if self.verdict else "no program"


class ProblemView(BaseModel):
    """One problem's run: statement, attempts, gate, submissions and remote verdicts, stage costs."""

    run: RunSummary
    problem_id: str
    anchor: str
    label: str = ""  # what the page calls it: the problem, and its strategy and run when those tell runs apart
    statement: str = ""
    language: str = ""
    strategy: str = ""
    time_ms: int | None = None
    memory_mb: int | None = None
    preamble: list[EventView] = []
    attempts: list[AttemptView] = []
    epilogue: list[EventView] = []
    final: dict[str, Any] | None = None
    gates: list[GateView] = []
    submissions: list[SubmissionView] = []
    shadow: list[ShadowView] = []
    remote_verdicts: list[RemoteVerdictView] = []
    stages: list[StageView] = []
    calls: list[CallSpan] = []  # the LLM calls in the order they started, with their lanes
    lanes: int = 0  # the most calls in flight at once
    hidden: HiddenView | None = None  # a bench's problem: its program on the hidden tests

    @property
    def tone(self) -> Tone:
        """How the run ended, for badges: a bench problem by its hidden verdict, never by the solve's word."""
        if self.hidden is not None:
            return self.hidden.tone
        # an unverified answer passed every test tried but lacks part of the gate's evidence: neither ok nor bad
        status = self.run.status
        return "ok" if status == "solved" else "info" if status in ("running", "unverified") else "bad"


class TimelineEntry(BaseModel):
    """A moment of the contest: which problem, what happened, how it went."""

    offset_s: float
    lane: str  # the problem's label, or the root run's kind for the root's own events
    kind: str
    label: str
    tone: Tone = "info"


class ExportReport(BaseModel):
    """`cpbot transcripts export --json`: everything the HTML page shows, as data."""

    schema_version: int = EXPORT_SCHEMA_VERSION
    generated_at: datetime
    title: str
    root: RunSummary
    is_contest: bool
    events_heading: str = "Events"  # "Bench events", "Contest events": the root run's own events
    root_lane: str = "run"  # the timeline row of the root run's own events
    contest_events: list[EventView] = []
    timeline: list[TimelineEntry] = []
    timeline_svg: str = Field("", exclude=True)
    problems: list[ProblemView] = []
    stages: list[StageView] = []
    standing: Standing | None = None  # the last `standing` event of the contest run
    metrics: MetricTable | None = None  # a bench: every strategy's metrics (bot/bench/report.py)


# ---- gathering ------------------------------------------------------------------------------------


def gather(store: TranscriptStore, run: str, *, now: datetime | None = None) -> ExportReport:
    """The view model of run `run` (an id, a prefix, or "last"); a contest brings its problem runs."""
    root_id = store.resolve(run)
    root = store.run(root_id)
    children = store.children(root_id)
    origin = root.started_at
    root_events = store.events(root_id)
    if children:
        runs = [(child, store.events(child.id)) for child in children]
        contest_events = root_events
    else:
        runs = [(root, root_events)]
        contest_events = []
    problems = [_problem(summary, events, origin) for summary, events in runs]
    _label_problems(problems)
    by_problem = {p.problem_id: p for p in problems}
    shown_contest: list[EventView] = []
    standing: Standing | None = None
    for event in contest_events:
        # the contest's own gate/submission/verdict events join the problem they name
        target = by_problem.get(str(event.payload.get("problem_id", "")))
        if event.kind in _PROBLEM_LEVEL and target is not None:
            _add_problem_level(target, event, origin)
            continue
        item = _event_view(event, origin)
        typed = load(event)
        if isinstance(typed, StandingEvent):
            standing = typed
            continue  # shown at the top of the page
        if event.kind == STANDING:
            item.label += " (not readable as a standing)"
        shown_contest.append(item)
    for p in problems:
        _join_verdicts(p)
    metrics = None
    if root.kind == "bench":
        _join_hidden(problems, root_events)
        metrics = _bench_metrics(store, root_id)
    root_lane = root.kind if root.kind in ("contest", "bench") else "run"
    timeline = _timeline(root, problems, shown_contest, now or datetime.now(UTC), root_lane)
    end = max((t.offset_s for t in timeline), default=0.0)
    lanes = [p.label for p in problems]
    title = f"{root.kind} {root.problem_id or root.id}"
    return ExportReport(
        generated_at=now or datetime.now(UTC),
        title=title,
        root=root,
        is_contest=bool(children) or root.kind == "contest",
        events_heading=f"{root.kind.capitalize()} events" if root.kind in ("contest", "bench") else "Events",
        root_lane=root_lane,
        contest_events=shown_contest,
        timeline=timeline,
        timeline_svg=svg.timeline(
            ([root_lane] if shown_contest else []) + lanes,
            [(t.offset_s, t.lane, t.kind, t.label, t.tone) for t in timeline],
            end,
            root_lane=root_lane,
            title=f"{root.kind.capitalize()} timeline" if root.kind in ("contest", "bench") else "Timeline",
        ),
        problems=problems,
        stages=_sum_stages(s for p in problems for s in p.stages),
        standing=standing,
        metrics=metrics,
    )


def _bench_metrics(store: TranscriptStore, run_id: str) -> MetricTable | None:
    """A bench's metrics table (every strategy, overall and by difficulty), from its stored plan and results;
    None for a bench stored without a readable plan."""
    try:
        _, plan = stored_plan(store, run_id)
    except (CpbotError, ValidationError):
        return None  # an old or damaged bench: the page still shows its problems
    return metric_table(build_report(run_id, plan, finished_outcomes(store, run_id)))


def _label_problems(problems: list[ProblemView]) -> None:
    """Name each problem run so that no two read alike: the strategy joins the problem id when runs of
    one problem differ in strategy, and a run number when the same problem and strategy repeat."""
    strategies: dict[str, set[str]] = {}
    pairs: dict[tuple[str, str], int] = {}
    for p in problems:
        strategies.setdefault(p.problem_id, set()).add(p.strategy)
        pairs[(p.problem_id, p.strategy)] = pairs.get((p.problem_id, p.strategy), 0) + 1
    mixed = any(len(s) > 1 for s in strategies.values())  # a bench: say the strategy on every row
    seen: dict[tuple[str, str], int] = {}
    for p in problems:
        key = (p.problem_id, p.strategy)
        seen[key] = seen.get(key, 0) + 1
        parts = [p.problem_id]
        if p.strategy and (mixed or pairs[key] > 1):
            parts.append(p.strategy)
        if pairs[key] > 1:
            parts.append(f"run {seen[key]}")
        p.label = " · ".join(parts)


def _offset(event: StoredEvent, origin: datetime) -> float:
    return round((event.ts - origin).total_seconds(), 3)


def _event_view(event: StoredEvent, origin: datetime) -> EventView:
    p = event.payload
    view = EventView(seq=event.seq, offset_s=_offset(event, origin), kind=event.kind, task_id=event.task_id, label="")
    if event.kind == "llm_call":
        usage = p.get("usage") or {}
        view.call = CallView(
            role=str(p.get("role", "?")),
            model=str(p.get("model", "?")),
            messages=list(p.get("messages") or []),
            reply=str(p.get("reply") or ""),
            reasoning=str(p.get("reasoning") or ""),
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            reasoning_tokens=int(usage.get("reasoning_tokens") or 0),
            latency_ms=float(p.get("latency_ms") or 0.0),
            attempts=int(p.get("attempts") or 0),
            error=str(p.get("error") or ""),
        )
        c = view.call
        view.label = f"{c.role} via {c.model}: {c.prompt_tokens}+{c.completion_tokens} tokens, {c.latency_ms:.0f} ms"
        if c.error:
            view.label += f" - failed: {c.error}"
    elif event.kind == "envelope":
        header = p["envelope"]["header"]
        view.envelope = EnvelopeView(
            type=header["type"],
            iteration=header["iteration"],
            sender=header.get("sender", ""),
            payload=p["envelope"]["payload"],
        )
        view.label = f"{header['type']} #{header['iteration']}" + (
            f" from {header['sender']}" if header.get("sender") else ""
        )
    else:
        view.payload = p
        view.label = _label(event)
    return view


def _label(event: StoredEvent) -> str:
    """The event's line as `bot.report.event_view.describe` says it (the tag too, where the kind does not say it)."""
    tag, text = describe(event)
    return text if tag in event.kind else f"{tag}: {text}"


def _diff(before: str | None, after: str) -> tuple[list[DiffLine], int, int]:
    if before is None:
        return [], 0, 0
    lines: list[DiffLine] = []
    added = removed = 0
    for line in difflib.unified_diff(before.splitlines(), after.splitlines(), "previous", "this", lineterm="", n=2):
        if line.startswith(("---", "+++")):
            continue
        op = line[:1] if line[:1] in "+- @" else " "
        if op == "+":
            added += 1
        elif op == "-":
            removed += 1
        lines.append(DiffLine(op=op, text=line[1:] if op != "@" else line))  # type: ignore[arg-type]
    return lines, added, removed


def _problem(summary: RunSummary, events: list[StoredEvent], origin: datetime) -> ProblemView:
    problem_id = summary.problem_id or summary.id
    view = ProblemView(
        run=summary,
        problem_id=problem_id,
        anchor="p-" + hashlib.sha256(summary.id.encode()).hexdigest()[:10],
        strategy=summary.strategy or "",
    )
    attempts: dict[int, AttemptView] = {}
    pending: list[EventView] = []
    previous_source: str | None = None
    stage_time: dict[str, float] = {}
    last_ts = summary.started_at
    for event in events:
        gap = max(0.0, (event.ts - last_ts).total_seconds())
        last_ts = max(last_ts, event.ts)
        p = event.payload
        if event.kind in _RUN_MARKERS:
            continue
        if event.kind in _PROBLEM_LEVEL:
            _add_problem_level(view, event, origin)
            continue
        item = _event_view(event, origin)
        envelope = item.envelope
        if envelope is not None and envelope.type == "task":
            view.statement = str(envelope.payload.get("statement") or "")
            view.language = str(envelope.payload.get("language") or "")
            view.time_ms = envelope.payload.get("time_ms")
            view.memory_mb = envelope.payload.get("memory_mb")
            view.strategy = str(envelope.payload.get("strategy") or view.strategy)
            view.preamble.append(item)
        elif envelope is not None and envelope.type == "code":
            source = str(envelope.payload.get("source") or "")
            diff, added, removed = _diff(previous_source, source)
            attempt = AttemptView(
                number=len(attempts) + 1,
                iteration=envelope.iteration,
                sender=envelope.sender,
                language=str(envelope.payload.get("language") or ""),
                source=source,
                source_sha256=hashlib.sha256(source.encode()).hexdigest(),
                diff=diff,
                added=added,
                removed=removed,
                lead_up=pending,
            )
            attempts[envelope.iteration] = attempt
            pending = []
            previous_source = source
        elif envelope is not None and envelope.type in _FEEDBACK and envelope.payload.get("code_iteration") in attempts:
            attempts[envelope.payload["code_iteration"]].feedback.append(item)
        elif envelope is not None and envelope.type == "final_answer":
            view.final = envelope.payload
            view.epilogue.extend(pending)
            view.epilogue.append(item)
            pending = []
        elif event.kind == "report" and p.get("iteration") in attempts:
            attempt = attempts[p["iteration"]]
            stage = {"judge": "judge", "profile": "profiler"}.get(str(p.get("report_kind")), "stress")
            stage_time[stage] = stage_time.get(stage, 0.0) + gap  # the time since the previous event
            _add_report(attempt, event, item)
        else:
            if event.kind == "report":
                stage = {"judge": "judge", "profile": "profiler"}.get(str(p.get("report_kind")), "stress")
                stage_time[stage] = stage_time.get(stage, 0.0) + gap
            pending.append(item)
    view.epilogue.extend(pending)
    view.attempts = list(attempts.values())
    previous: AttemptView | None = None
    for attempt in view.attempts:
        attempt.title = _attempt_title(attempt, previous)
        attempt.failure = _failure(attempt)
        previous = attempt
    view.stages = _stages(events, stage_time)
    view.calls = call_spans(events, origin)
    view.lanes = max((c.lane + 1 for c in view.calls), default=0)
    return view


def _attempt_title(attempt: AttemptView, previous: AttemptView | None) -> str:
    """The attempt in words, from the role that wrote it and what came before: "attempt 3, a fix by the
    debugger after attempt 2's wrong answer" (the agents' iteration numbers mean nothing to a reader)."""
    role = attempt.sender or "the agents"
    if previous is None:
        what = f"the first program, by the {role}" if attempt.sender else "the first program"
    else:
        what = _WROTE.get(role, f"a new program by the {role}" if attempt.sender else "a new program")
        planned = any(
            (e.envelope is not None and e.envelope.type == "plan") or (e.call is not None and e.call.role == "planner")
            for e in attempt.lead_up
        )
        if planned and role == "coder":
            what += " from the planner's plan"
        if previous.verdict and previous.tone == "bad":
            what += f" after attempt {previous.number}'s {VERDICT_WORDS.get(previous.verdict, previous.verdict)}"
    return f"attempt {attempt.number}, {what}"


def _failure(attempt: AttemptView) -> str:
    """Why the attempt failed, in one line: the judge's reason or the first failed test and its difference."""
    if not attempt.judged or attempt.tone != "bad":
        return ""
    report = attempt.judged[-1].report
    failed = report.first_failure
    words = VERDICT_WORDS.get(str(report.verdict), str(report.verdict))
    if failed is None:
        detail = report.reason or _last_line(report.compile_log)
        return f"{words}: {detail}" if detail else words
    line = f"{words} on {failed.name or f'test {failed.index}'} ({report.passed}/{report.total} tests passed)"
    if failed.diff is not None:
        line += f": line {failed.diff.line}, expected {failed.diff.expected!r}, got {failed.diff.got!r}"
    elif failed.checker_message:
        line += f": {failed.checker_message}"
    elif failed.stderr:
        line += f": {_last_line(failed.stderr)}"
    return line


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1][:200] if lines else ""


def _add_report(attempt: AttemptView, event: StoredEvent, item: EventView) -> None:
    p = event.payload
    kind = p.get("report_kind")
    try:
        if kind == "judge":
            report = JudgeReport.model_validate(p["report"])
            attempt.judged.append(JudgeView(seq=event.seq, report=report))
            attempt.verdict = str(report.verdict)
            return
        if kind == "profile":
            profile = ProfileReport.model_validate(p["report"])
            attempt.profiles.append(ProfileView(seq=event.seq, report=profile, svg=svg.profile_plot(profile)))
            return
    except ValidationError as e:
        # a report from another cpbot version: shown as it is, with why it could not be read
        item.label += f" (not readable as a {kind} report: {e.error_count()} errors)"
    attempt.stress.append(item)


def _add_problem_level(view: ProblemView, event: StoredEvent, origin: datetime) -> None:
    at = {"seq": event.seq, "offset_s": _offset(event, origin)}
    e = load(event)
    if isinstance(e, GateEvent):
        checks = [c.model_dump(mode="json") for c in e.checks]
        view.gates.append(
            GateView(**at, allowed=e.allowed, reasons=e.reasons, checks=checks, evidence=e.summary,
                     source_sha256=e.source_sha256)
        )  # fmt: skip
    elif isinstance(e, SubmissionEvent):
        view.submissions.append(
            SubmissionView(**at, submission_id=e.submission_id, problem_id=e.problem_id, language=e.language,
                           source_sha256=e.source_sha256, url=e.url or "", practice=e.practice)
        )  # fmt: skip
    elif isinstance(e, ShadowSubmissionEvent):
        view.shadow.append(
            ShadowView(**at, problem_id=e.problem_id, at_s=e.at_s, source_sha256=e.source_sha256, language=e.language)
        )
    elif isinstance(e, RemoteVerdictEvent):
        verdict = str(e.verdict) if e.verdict else None
        view.remote_verdicts.append(
            RemoteVerdictView(**at, site=e.site, submission_id=e.submission_id, problem_id=e.problem_id,
                              verdict=verdict, final=e.final, status_text=e.status_text, failed_test=e.failed_test,
                              time_ms=e.time_ms, memory_kb=e.memory_kb)
        )  # fmt: skip
    else:  # written by another cpbot version: shown as it is
        view.epilogue.append(_event_view(event, origin))


def _join_hidden(problems: list[ProblemView], bench_events: list[StoredEvent]) -> None:
    """Each bench problem's hidden verdict, from the bench run's result events (a `ProblemOutcome` each)."""
    by_run = {p.run.id: p for p in problems}
    for event in bench_events:
        if event.kind != "bench_result" or (view := by_run.get(str(event.payload.get("run_id")))) is None:
            continue
        final = event.payload.get("final") or {}
        view.hidden = HiddenView(
            verdict=final.get("verdict"),
            passed=int(final.get("passed_tests") or 0),
            total=int(final.get("total_tests") or 0),
            public_pass=bool(event.payload.get("public_pass")),
        )


def _join_verdicts(view: ProblemView) -> None:
    """Each submission row carries the site's last verdict on it (the polls stay listed apart)."""
    last = {v.submission_id: v for v in sorted(view.remote_verdicts, key=lambda v: v.seq)}
    for s in view.submissions:
        v = last.get(s.submission_id)
        if v is not None:
            s.verdict, s.verdict_final = v.verdict or v.status_text or None, v.final


def _stages(events: list[StoredEvent], stage_time: dict[str, float]) -> list[StageView]:
    stages: dict[str, StageView] = {}
    for event in events:
        if event.kind != "llm_call":
            continue
        p = event.payload
        role = str(p.get("role", "?"))
        usage = p.get("usage") or {}
        s = stages.setdefault(role, StageView(stage=role))
        s.calls += 1
        s.prompt_tokens += int(usage.get("prompt_tokens") or 0)
        s.completion_tokens += int(usage.get("completion_tokens") or 0)
        s.reasoning_tokens += int(usage.get("reasoning_tokens") or 0)
        s.seconds += float(p.get("latency_ms") or 0.0) / 1000
    for stage, seconds in stage_time.items():
        stages.setdefault(stage, StageView(stage=stage)).seconds += seconds
    for s in stages.values():
        s.seconds = round(s.seconds, 3)
    return list(stages.values())


def call_spans(events: Iterable[StoredEvent], origin: datetime) -> list[CallSpan]:
    """The LLM calls among `events` as spans from their start to their end, each on the first lane free
    when it started (a call recorded without its start began `latency_ms` before its end)."""
    spans: list[CallSpan] = []
    for event in events:
        if event.kind != "llm_call":
            continue
        p = event.payload
        end = (event.ts - origin).total_seconds()
        try:
            start = (datetime.fromisoformat(str(p["started_at"])) - origin).total_seconds()
        except (KeyError, TypeError, ValueError):
            start = end - float(p.get("latency_ms") or 0.0) / 1000
        role = str(p.get("role", "?"))
        spans.append(CallSpan(seq=event.seq, role=role, start_s=round(start, 3), end_s=round(end, 3), lane=0))
        spans[-1].failed = bool(p.get("error"))
    spans.sort(key=lambda c: (c.start_s, c.seq))
    lane_ends: list[float] = []
    for c in spans:
        free = next((i for i, busy_until in enumerate(lane_ends) if busy_until <= c.start_s), None)
        if free is None:
            lane_ends.append(c.end_s)
            free = len(lane_ends) - 1
        lane_ends[free] = c.end_s
        c.lane = free
        c.overlaps = sum(1 for o in spans if o is not c and o.start_s < c.end_s and c.start_s < o.end_s)
    if spans:
        first, last = spans[0].start_s, max(c.end_s for c in spans)
        width = max(last - first, 1e-9)
        for c in spans:
            c.left_pct = round(100 * (c.start_s - first) / width, 2)
            c.width_pct = max(0.5, round(100 * (c.end_s - c.start_s) / width, 2))
    return spans


def _sum_stages(stages: Iterable[StageView]) -> list[StageView]:
    total: dict[str, StageView] = {}
    for s in stages:
        t = total.setdefault(s.stage, StageView(stage=s.stage))
        t.calls += s.calls
        t.prompt_tokens += s.prompt_tokens
        t.completion_tokens += s.completion_tokens
        t.reasoning_tokens += s.reasoning_tokens
        t.seconds = round(t.seconds + s.seconds, 3)
    return list(total.values())


def _timeline(
    root: RunSummary, problems: list[ProblemView], contest: list[EventView], now: datetime, root_lane: str
) -> list[TimelineEntry]:
    entries = [TimelineEntry(offset_s=e.offset_s, lane=root_lane, kind=e.kind, label=e.label) for e in contest]
    origin = root.started_at
    for p in problems:
        lane = p.label
        start = round((p.run.started_at - origin).total_seconds(), 3)
        entries.append(TimelineEntry(offset_s=start, lane=lane, kind="start", label=f"{lane}: started"))
        for a in p.attempts:
            at = a.judged[-1] if a.judged else None
            offset = next((f.offset_s for f in a.feedback), None)
            if offset is None:
                offset = max((e.offset_s for e in a.lead_up), default=start)
            label = f"{lane}: attempt {a.number}" + (
                f" {at.report.verdict} {at.report.passed}/{at.report.total}" if at else ""
            )
            entries.append(TimelineEntry(offset_s=offset, lane=lane, kind="attempt", label=label, tone=a.tone))
        for g in p.gates:
            tone: Tone = "ok" if g.allowed else "bad"
            label = f"{lane}: gate {'allowed' if g.allowed else 'refused'}"
            entries.append(TimelineEntry(offset_s=g.offset_s, lane=lane, kind="gate", label=label, tone=tone))
        for w in p.shadow:
            label = f"{lane}: would have submitted at {w.at}"
            entries.append(TimelineEntry(offset_s=w.offset_s, lane=lane, kind="shadow", label=label))
        for s in p.submissions:
            label = f"{lane}: {'practice ' if s.practice else ''}submitted #{s.submission_id}"
            entries.append(TimelineEntry(offset_s=s.offset_s, lane=lane, kind="submission", label=label))
        for v in p.remote_verdicts:
            if v.final:
                label = f"{lane}: remote {v.verdict or v.status_text}" + (
                    f" on test {v.failed_test}" if v.failed_test else ""
                )
                entries.append(TimelineEntry(offset_s=v.offset_s, lane=lane, kind="verdict", label=label, tone=v.tone))
        end = p.run.ended_at or now
        hidden = f", {p.hidden.text}" if p.hidden else ""
        entries.append(
            TimelineEntry(
                offset_s=round((end - origin).total_seconds(), 3),
                lane=lane,
                kind="end" if p.run.ended_at else "now",
                label=f"{lane}: {p.run.status}{hidden}",
                tone=p.tone,
            )
        )
    return sorted(entries, key=lambda e: (e.offset_s, e.lane))
