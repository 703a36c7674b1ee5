"""Human-readable output on the terminal: reports, problems, contests, progress and outcomes as lines.

The one place for the commands' terminal text; `cpbot judge`'s streamed results are `bot/report/judge_view.py`,
the live table of `cpbot watch` is `bot/watch/render.py`, the PNG plots `bot/report/plots.py`, the HTML
export's SVG `bot/report/export/svg.py`.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cpbot.core.terminal import printable, printable_line, shown
from cpbot.core.texts import tokens_text
from cpbot.judge.model import Problem, ProfilePoint, ProfileReport, StressReport, Verdict
from cpbot.judge.stress import StressProgress

if TYPE_CHECKING:
    from cpbot.agents.solve import SolveResult
    from cpbot.agents.tracing import LLMCallEvent, TraceEvent
    from cpbot.bot.store.transcripts import RunSummary, RunTranscript, StoredEvent
    from cpbot.bot.submit.gate import GateDecision
    from cpbot.scrapers.listing import Contest


def _echo(text: str, *, styled: str = "") -> None:
    """Every line this module prints: text from outside (statements, replies, program output) escaped by
    the one terminal escape, `cpbot.core.terminal.printable`, after `styled`, cpbot's own coloured word (whose
    escapes click drops when the output is not a terminal)."""
    click.echo(styled + printable(text))


EXCERPT = 160  # characters of a prompt or reply shown without --full
COLORS = {Verdict.AC: "green", Verdict.IE: "magenta", Verdict.CE: "yellow", Verdict.RAN: "cyan"}


def verdict_text(verdict: Verdict) -> str:
    return click.style(verdict.value, fg=COLORS.get(verdict, "red"), bold=True)


def print_profile(report: ProfileReport, width: int = 40) -> None:
    """Time against n as a bar chart on a log scale, then the fitted class and the verdict."""
    ok = [p.cpu_ms for p in report.points if p.cpu_ms > 0]
    top, bottom = math.log10(max(ok, default=1.0)), math.log10(max(min(ok, default=1.0), 0.01))
    span = max(top - bottom, 1e-9)
    _echo(f"{'n':>12} {'cpu ms':>10} {'peak MB':>8}  time (log scale)")
    for p in report.points:
        bar = "#" * max(1, round((math.log10(max(p.cpu_ms, 0.01)) - bottom) / span * width))
        mark = "" if p.status == "ok" else f"  {p.status.upper()}"
        _echo(f"{p.size:>12} {p.cpu_ms:>10.1f} {p.peak_kb / 1024:>8.1f}  {bar}{mark}")
    fit = f"{report.complexity}{' (ambiguous)' if report.ambiguous else ''}"
    if report.slope is not None:
        fit += f", log-log slope {report.slope:.2f} (R^2 {report.r2:.3f})"
    _echo(f"fit: {fit}")
    verdict = click.style(
        "efficient" if report.efficient else "too slow or too big", fg="green" if report.efficient else "red", bold=True
    )
    _echo(f": {report.reason}", styled=verdict)


def stress_progress_text(now: StressProgress, budget: int) -> str:
    """The progress line of a stress run: inputs compared, sizes reached, the slowest run, a failure."""
    if now.found_size is not None:
        return f"stress: difference found; shrinking: smallest so far n={now.found_size}, {now.runs} runs"
    return (
        f"stress: {now.runs}/{budget} inputs, sizes up to {now.largest}, no difference yet; "
        f"slowest solution run {now.slowest_ms:.0f} ms"
    )


def profile_progress_text(points: list[ProfilePoint], max_n: int) -> str:
    """The progress line of a profile: sizes measured, the largest reached, the slowest run so far."""
    largest = max(p.size for p in points)
    worst = max(points, key=lambda p: p.cpu_ms)
    return (
        f"profile: {len(points)} runs, n up to {largest:,} of {max_n:,}; "
        f"slowest {worst.cpu_ms:.0f} ms at n={worst.size:,}"
    )


def print_stress(report: StressReport) -> None:
    """The outcome of a stress run and, on a failure, the smallest input with both outputs."""
    if report.failure is None:
        _echo(f": {report.reason} in {report.seconds:.1f} s", styled=click.style("clean", fg="green", bold=True))
        return
    f = report.failure
    _echo(
        f" after {report.runs} runs ({report.seconds:.1f} s): n={f.size}, "
        f"seed={f.seed} (first seen at n={report.first_failure_size})",
        styled=verdict_text(f.verdict),
    )
    if f.message:
        _echo(f"  {f.message}")
    for title, text in (("input", f.input), ("expected (brute force)", f.expected), ("got", f.got)):
        _echo(f"--- {title}")
        _echo(text.rstrip("\n"))


def describe_problem(problem: Problem) -> str:
    """One line about a problem for the terminal."""
    name = f"{problem.index}. {problem.title}" if problem.index else problem.title
    count = len(problem.samples)
    limits = f"{problem.limits.time_ms / 1000:g} s, {problem.limits.memory_mb} MB"
    return printable_line(
        f"{problem.id}  {name}  ({problem.kind}, {limits}, {count} sample{'s' if count != 1 else ''})"
    )


def format_contest(c: Contest) -> str:
    """One terminal line: start (UTC), length, site, phase, name, URL."""
    start = c.start.strftime("%Y-%m-%d %H:%M") if c.start else "????-??-?? ??:??"
    hours, minutes = divmod(c.duration_s // 60, 60)
    return printable_line(f"{start} UTC  {hours}h{minutes:02d}  {c.site:<10}  {c.phase:<8}  {c.name}  {c.url}")


def trace_line(event: TraceEvent) -> str | None:
    """The progress line of a solve's trace event a user follows (LLM calls, judge reports), else None."""
    from cpbot.agents.tracing import LLMCallEvent, ReportEvent  # loaded already by the solve that emits it

    if isinstance(event, LLMCallEvent):
        state = f"error: {event.error}" if event.error else f"{event.usage.total_tokens} tokens"
        if event.finish_reason and event.finish_reason != "stop":
            state += f", finish {event.finish_reason}"
        notes = "".join(f"\n            note: {warning}" for warning in event.warnings)
        return shown(f"  {event.role:<9} {state} ({event.latency_ms / 1000:.1f} s){notes}")  # a server's error
    if isinstance(event, ReportEvent) and event.report_kind == "judge":
        r = event.report
        return f"  judge     {r['verdict']} {r['passed']}/{r['total']}"
    return None


def print_solve_result(result: SolveResult, path: Path | None) -> None:
    """The verdict, what was spent, and where the solution went."""
    verdict = result.verdict or "no program"
    _echo(f"{result.status}: {verdict} ({result.reason})")
    for gap in result.missing_evidence:  # why an answer that passed every test is not called solved
        _echo(f"  missing: {gap}")
    _echo(f"{result.calls} LLM calls, {result.tokens:,} tokens, {result.seconds:.1f} s")
    for line in judged_lines(result):
        _echo(line)
    if path is not None:
        _echo(f"solution: {path}")


def judged_lines(result: SolveResult) -> list[str]:
    """What judged the answers, when it was not the plain comparison of tokens: the statement's tolerance, or a
    checker or interactor the test designer wrote (and checked on the samples)."""
    lines = []
    if result.checker is not None:
        lines.append("answers judged by a checker the test designer wrote (it passed its checks on the samples)")
    elif result.judged_with != "tokens":
        lines.append(f"answers judged with {result.judged_with}")
    if result.interactor is not None:
        tests = len(result.interactor.tests)
        lines.append(f"judged through an interactor the test designer wrote ({tests} tests of its hidden data)")
    return lines


def decision_lines(decision: GateDecision) -> list[str]:
    """The gate's checks, one line each, and whether it allows the submission (with its reasons if not)."""
    lines = []
    for check in decision.checks:
        mark = "ok " if check.passed else ("-- " if not check.required else "NO ")
        need = "" if check.required else " (not required)"
        lines.append(f"  {mark}{check.name:<10} {decision.summary[check.name]}{need}")
    if decision.allowed:
        lines.append("gate: allowed")
    else:
        lines.append("gate: refused")
        lines += [f"  - {reason}" for reason in decision.reasons]
    return [printable(line) for line in lines]


# --- transcripts: `cpbot transcripts list` and `show` ---------------------------------------------------


def run_started(run: RunSummary) -> str:
    return run.started_at.strftime("%Y-%m-%d %H:%M:%S")


def _took(run: RunSummary) -> str:
    return f"{run.seconds:.1f} s" if run.seconds is not None else "-"


def run_line(r: RunSummary) -> str:
    """One run as a line of `list`."""
    tokens = tokens_text(r.prompt_tokens + r.completion_tokens)
    what = r.problem_id or "-"
    if r.children:
        # a contest holds one run per problem solve; a bench one per (problem, strategy)
        unit = "problem" if r.kind == "contest" else "run"
        what = f"{r.problem_id + ' ' if r.problem_id else ''}{r.children} {unit}{'s' if r.children != 1 else ''}"
    return f"{r.id:<23} {run_started(r):<19} {r.kind:<8} {what:<24} {r.status:<12} {r.llm_calls:>5} {tokens:>9}"


def excerpt(text: str, full: bool) -> str:
    text = text.rstrip()
    if full or len(text) <= EXCERPT:
        return text
    return text[:EXCERPT].rstrip() + f" ... [{len(text) - EXCERPT} more characters; --full shows all]"


def _block(text: str, marker: str) -> list[str]:
    """`text` as detail lines: the first after `marker`, the rest aligned under it."""
    lines = text.splitlines() or [""]
    pad = " " * len(marker)
    return [marker + lines[0], *(pad + line for line in lines[1:])]


def event_lines(event: StoredEvent, full: bool) -> list[str]:
    """The lines that show one event: its tag and line (`bot.report.event_view.describe`, as the HTML export
    labels it), then the details only the terminal prints."""
    from cpbot.agents.tracing import EnvelopeEvent, LLMCallEvent
    from cpbot.bot.report.event_view import describe, load
    from cpbot.bot.watch.events import RulesEvent, StandingEvent

    tag, text = describe(event, full)
    lines = [f"{tag:<9} {text}"]
    typed = load(event)
    if isinstance(typed, StandingEvent):
        for problem in typed.problems:
            state = "solved" if problem.solved else "unsolved"
            lines.append(f"  {problem.index}: {state}, {problem.points:g} points {problem.note}")
        lines += [f"  assumed: {a}" for a in typed.assumptions]
    elif isinstance(typed, RulesEvent):
        lines += [f"  {r}" for r in typed.reminders]
    elif isinstance(typed, LLMCallEvent):
        lines += _call_details(typed, full)
    elif isinstance(typed, EnvelopeEvent):
        body = typed.envelope.model_dump(mode="json")["payload"]
        lines += _block(excerpt(json.dumps(body, ensure_ascii=False), full), "")
    return lines


def _call_details(call: LLMCallEvent, full: bool) -> list[str]:
    """An LLM call's tries, warnings, the prompt (its last message unless `full`) and the reply."""
    lines = []
    for t in call.tries:
        if t.error:
            wait = f", waited {t.wait_s:g} s" if t.wait_s else ""
            lines.append(f"try {t.attempt}: {t.error}{wait}")
        elif t.usage is not None and len(call.tries) > 1:
            lines.append(
                f"try {t.attempt}: {tokens_text(t.usage.prompt_tokens)}+{tokens_text(t.usage.completion_tokens)} "
                f"tokens, finish {t.finish_reason or '?'}"
            )
    lines += [f"note: {w}" for w in call.warnings]
    for m in call.messages if full else call.messages[-1:]:
        lines += _block(excerpt(str(m.get("content") or ""), full), f"> {m.get('role', '?')}: ")
    if call.reasoning and full:
        lines += _block(call.reasoning.rstrip(), "~ reasoning: ")
    if call.error:
        lines.append(f"! {call.error_kind}: {call.error}")
    else:
        lines += _block(excerpt(call.reply, full) or "(empty reply)", "< ")
    return lines


def run_table(runs: list[RunSummary]) -> list[str]:
    """`cpbot transcripts list`: a header and one line per run."""
    header = f"{'run':<23} {'started (UTC)':<19} {'kind':<8} {'problem':<24} {'status':<12}"
    return [f"{header} {'calls':>5} {'tokens':>9}", *(printable_line(run_line(r)) for r in runs)]


def transcript_lines(transcript: RunTranscript, full: bool) -> list[str]:
    """`cpbot transcripts show`: the run's summary, its child runs, then every event with its offset."""
    r = transcript.run
    lines = [f"run       {r.id}  ({r.kind})"]
    for label, value in (("problem", r.problem_id), ("strategy", r.strategy), ("model", r.model)):
        if value:
            lines.append(f"{label:<9} {value}")
    reason = f": {r.reason}" if r.reason else ""
    lines.append(f"status    {r.status}{reason}")
    if r.parent:
        lines.append(f"contest   {r.parent}")
    lines.append(f"started   {run_started(r)} UTC, took {_took(r)}")
    reasoning = f" ({tokens_text(r.reasoning_tokens)} reasoning)" if r.reasoning_tokens else ""
    lines.append(
        f"llm       {r.llm_calls} calls, {tokens_text(r.prompt_tokens)} prompt + {tokens_text(r.completion_tokens)} "
        f"completion tokens{reasoning}, {r.llm_ms / 1000:.1f} s"
    )
    if transcript.children:
        lines.append(f"runs      {len(transcript.children)}")
        lines += [f"  {run_line(child)}" for child in transcript.children]
    lines.append("")
    for event in transcript.events:
        offset = (event.ts - r.started_at).total_seconds()
        task = f" [{event.task_id}]" if event.task_id else ""
        first, *rest = event_lines(event, full)
        lines.append(f"{event.seq:>4} {offset:>+8.2f}s {first}{task}")
        lines += [f"{'':<25}{line}" for line in rest]
    return [printable(line) for line in lines]
