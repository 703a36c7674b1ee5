"""`cpbot transcripts list`, `show RUN` and `export RUN --html FILE`: read back what runs and contests did.

Reading marks runs whose process is gone as stale first, so a killed `cpbot watch` does not look
like it is still running.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from cpbot.bot.transcripts import RunList, RunSummary, StoredEvent, TranscriptError, TranscriptStore, default_db_path

EXCERPT = 160  # characters of a prompt or reply shown without --full
# A running run whose owner cannot be checked (another host, an old store) is stale after this long idle.
STALE_AFTER_S = 6 * 3600


def _open() -> TranscriptStore | None:
    path = default_db_path()
    if not path.exists():
        return None
    store = TranscriptStore(path)
    try:
        store.mark_stale(older_than_s=STALE_AFTER_S)
    except BaseException:
        store.close()
        raise
    return store


def _tokens(n: int) -> str:
    return f"{n:,}"


def _when(run: RunSummary) -> str:
    return run.started_at.strftime("%Y-%m-%d %H:%M:%S")


def _took(run: RunSummary) -> str:
    return f"{run.seconds:.1f} s" if run.seconds is not None else "-"


@click.group()
def transcripts() -> None:
    """Browse the transcripts of past runs (solves, contests, benchmarks)."""


@transcripts.command("list")
@click.option("-n", "--limit", type=click.IntRange(min=1), default=20, show_default=True, help="How many runs.")
@click.option("--kind", help="Only runs of this kind (solve, contest, watch, bench, ...).")
@click.option("--all", "every", is_flag=True, help="Also the runs inside contests (one per problem).")
@click.option("--json", "as_json", is_flag=True, help="Print a RunList as JSON.")
def list_runs(limit: int, kind: str | None, every: bool, as_json: bool) -> int:
    """List the latest runs, newest first; a contest counts its problems (`show CONTEST` lists them)."""
    store = _open()
    runs: list[RunSummary] = []
    if store is not None:
        with store:
            runs = store.list_runs(limit=limit, kind=kind, top_level=not every)
    if as_json:
        click.echo(RunList(runs=runs).model_dump_json(indent=2))
        return 0
    if not runs:
        click.echo(f"no {kind} runs" if kind else "no transcripts yet")
        return 0
    header = f"{'run':<23} {'started (UTC)':<19} {'kind':<8} {'problem':<24} {'status':<12}"
    click.echo(f"{header} {'calls':>5} {'tokens':>9}")
    for r in runs:
        click.echo(_row(r))
    return 0


def _row(r: RunSummary) -> str:
    """One run as a line of `list`."""
    tokens = _tokens(r.prompt_tokens + r.completion_tokens)
    what = r.problem_id or "-"
    if r.children:
        # a contest holds one run per problem solve; a bench one per (problem, strategy)
        unit = "problem" if r.kind == "contest" else "run"
        what = f"{r.problem_id + ' ' if r.problem_id else ''}{r.children} {unit}{'s' if r.children != 1 else ''}"
    return f"{r.id:<23} {_when(r):<19} {r.kind:<8} {what:<24} {r.status:<12} {r.llm_calls:>5} {tokens:>9}"


def _excerpt(text: str, full: bool) -> str:
    text = text.rstrip()
    if full or len(text) <= EXCERPT:
        return text
    return text[:EXCERPT].rstrip() + f" ... [{len(text) - EXCERPT} more characters; --full shows all]"


def _block(text: str, marker: str) -> list[str]:
    """`text` as detail lines: the first after `marker`, the rest aligned under it."""
    lines = text.splitlines() or [""]
    pad = " " * len(marker)
    return [marker + lines[0], *(pad + line for line in lines[1:])]


def _describe(event: StoredEvent, full: bool) -> list[str]:
    """The lines that show one event."""
    p: dict[str, Any] = event.payload
    kind = event.kind
    if kind == "llm_call":
        usage = p.get("usage", {})
        head = (
            f"llm       {p['role']} via {p['model']}: {_tokens(usage.get('prompt_tokens', 0))}+"
            f"{_tokens(usage.get('completion_tokens', 0))} tokens"
            + (f" ({_tokens(usage['reasoning_tokens'])} reasoning)" if usage.get("reasoning_tokens") else "")
            + (" (estimated)" if usage.get("estimated") else "")
            + f", {p.get('latency_ms', 0):.0f} ms"
            + (f", {p['attempts']} tries" if p.get("attempts", 1) > 1 else "")
            + (f", finish {p['finish_reason']}" if p.get("finish_reason") else "")
        )
        lines = [head]
        for t in p.get("tries", []):
            if t.get("error"):
                wait = f", waited {t['wait_s']:g} s" if t.get("wait_s") else ""
                lines.append(f"try {t['attempt']}: {t['error']}{wait}")
            elif t.get("usage") and len(p.get("tries", [])) > 1:
                used = t["usage"]
                lines.append(
                    f"try {t['attempt']}: {_tokens(used.get('prompt_tokens', 0))}+"
                    f"{_tokens(used.get('completion_tokens', 0))} tokens, finish {t.get('finish_reason') or '?'}"
                )
        lines += [f"note: {w}" for w in p.get("warnings", [])]
        messages = p.get("messages", [])
        shown = messages if full else messages[-1:]
        for m in shown:
            lines += _block(_excerpt(str(m.get("content") or ""), full), f"> {m.get('role', '?')}: ")
        if p.get("reasoning") and full:
            lines += _block(p["reasoning"].rstrip(), "~ reasoning: ")
        if p.get("error"):
            lines.append(f"! {p.get('error_kind', '')}: {p['error']}")
        else:
            lines += _block(_excerpt(p.get("reply", ""), full) or "(empty reply)", "< ")
        return lines
    if kind == "envelope":
        env = p["envelope"]
        h = env["header"]
        sender = f" from {h['sender']}" if h.get("sender") else ""
        body = json.dumps(env["payload"], ensure_ascii=False)
        return [f"envelope  {h['type']} #{h['iteration']}{sender}", *_block(_excerpt(body, full), "")]
    if kind == "report":
        r = p["report"]
        if p["report_kind"] == "judge":
            detail = f"{r.get('verdict')} {r.get('passed')}/{r.get('total')} tests"
        elif p["report_kind"] == "profile":
            detail = f"{r.get('complexity') or 'complexity unknown'}, efficient={r.get('efficient')}"
        else:
            detail = _excerpt(json.dumps(r), full)
        iteration = f" #{p['iteration']}" if p.get("iteration") is not None else ""
        return [f"{p['report_kind']:<9} {detail}{iteration}"]
    if kind == "budget":
        return [f"budget    exhausted: {p['reason']}"]
    if kind == "note":
        return [f"note      {p['message']}"]
    if kind == "run_start":
        return [f"start     {p.get('kind')} {p.get('problem_id') or ''}".rstrip()]
    if kind == "run_end":
        reason = f": {p['reason']}" if p.get("reason") else ""
        return [f"end       {p['status']}{reason}"]
    if kind == "run_resume":
        return [f"resume    was {p.get('previous_status')}, now pid {p.get('pid')}"]
    return [f"{kind:<9} {_excerpt(json.dumps(p), full)}"]


@transcripts.command("show")
@click.argument("run")
@click.option("--full", is_flag=True, help="Whole prompts, replies and payloads instead of excerpts.")
@click.option("--json", "as_json", is_flag=True, help="Print the RunTranscript as JSON.")
def show(run: str, full: bool, as_json: bool) -> int:
    """Show run RUN (an id, a unique prefix of one, or `last`): its summary and every event in order."""
    store = _open()
    if store is None:
        raise TranscriptError(f"no transcripts yet in {default_db_path()}", hint="runs are recorded by `cpbot solve`")
    with store:
        transcript = store.transcript(run)
    if as_json:
        click.echo(transcript.model_dump_json(indent=2))
        return 0
    r = transcript.run
    click.echo(f"run       {r.id}  ({r.kind})")
    for label, value in (("problem", r.problem_id), ("strategy", r.strategy), ("model", r.model)):
        if value:
            click.echo(f"{label:<9} {value}")
    reason = f": {r.reason}" if r.reason else ""
    click.echo(f"status    {r.status}{reason}")
    if r.parent:
        click.echo(f"contest   {r.parent}")
    click.echo(f"started   {_when(r)} UTC, took {_took(r)}")
    reasoning = f" ({_tokens(r.reasoning_tokens)} reasoning)" if r.reasoning_tokens else ""
    click.echo(
        f"llm       {r.llm_calls} calls, {_tokens(r.prompt_tokens)} prompt + {_tokens(r.completion_tokens)} "
        f"completion tokens{reasoning}, {r.llm_ms / 1000:.1f} s"
    )
    if transcript.children:
        click.echo(f"runs      {len(transcript.children)}")
        for child in transcript.children:
            click.echo(f"  {_row(child)}")
    click.echo("")
    for event in transcript.events:
        offset = (event.ts - r.started_at).total_seconds()
        task = f" [{event.task_id}]" if event.task_id else ""
        lines = _describe(event, full)
        click.echo(f"{event.seq:>4} {offset:>+8.2f}s {lines[0]}{task}")
        for line in lines[1:]:
            click.echo(f"{'':<25}{line}")
    return 0


@transcripts.command("export")
@click.argument("run")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path), help="Write the HTML page here.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), help="Write the report as JSON.")
def export(run: str, html_path: Path | None, json_path: Path | None) -> int:
    """Export RUN or a whole contest (an id, a unique prefix, or `last`) as one self-contained HTML page
    (timeline, statements, attempts with the agents' messages, code and diffs, judge results, profile
    plots, gate decisions, remote verdicts, tokens and time per stage) and/or as JSON."""
    if html_path is None and json_path is None:
        raise click.UsageError("say where to write: --html FILE and/or --json FILE")
    from cpbot.bot.export import gather, render_html  # jinja2 is only needed here

    store = _open()
    if store is None:
        raise TranscriptError(f"no transcripts yet in {default_db_path()}", hint="runs are recorded by `cpbot solve`")
    with store:
        report = gather(store, run)
    outputs = [(html_path, render_html(report) if html_path else ""), (json_path, report.model_dump_json(indent=2))]
    for path, text in outputs:
        if path is None:
            continue
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as e:
            raise TranscriptError(f"cannot write {path}: {e}", hint="choose a writable path") from e
        click.echo(f"wrote {path} ({len(text.encode()) / 1024:,.0f} KB)")
    return 0
