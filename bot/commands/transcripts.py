"""`cpbot transcripts list`, `show RUN` and `export RUN --html FILE`: read back what runs and contests did.

Reading marks runs whose process is gone as stale first, so a killed `cpbot watch` does not look
like it is still running.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from cpbot.bot.store.transcripts import TranscriptStore

# A running run whose owner cannot be checked (another host, an old store) is stale after this long idle.
STALE_AFTER_S = 6 * 3600


def _open() -> TranscriptStore | None:
    """The user's transcript store with dead runs marked stale, or None when nothing was recorded yet."""
    from cpbot.bot.store.storage import StorageError, disk_full
    from cpbot.bot.store.transcripts import TranscriptStore, default_db_path

    path = default_db_path()
    if not path.exists():
        return None
    try:
        store = TranscriptStore(path)
    except StorageError:
        if not disk_full(path):
            raise
        click.echo(f"note: the disk holding {path.parent} is full: reading the transcripts as they are", err=True)
        return TranscriptStore(path, read_only=True)
    try:
        store.mark_stale(older_than_s=STALE_AFTER_S)
    except BaseException:
        store.close()
        raise
    return store


def _opened() -> TranscriptStore:
    """`_open()`, or an error saying that nothing was recorded yet."""
    from cpbot.bot.store.transcripts import TranscriptError, default_db_path

    store = _open()
    if store is None:
        raise TranscriptError(f"no transcripts yet in {default_db_path()}", hint="runs are recorded by `cpbot solve`")
    return store


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
    from cpbot.bot.report.render import run_table
    from cpbot.bot.store.transcripts import RunList, RunSummary

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
    click.echo("\n".join(run_table(runs)))
    return 0


@transcripts.command("show")
@click.argument("run")
@click.option("--full", is_flag=True, help="Whole prompts, replies and payloads instead of excerpts.")
@click.option("--json", "as_json", is_flag=True, help="Print the RunTranscript as JSON.")
def show(run: str, full: bool, as_json: bool) -> int:
    """Show run RUN (an id, a unique prefix of one, or `last`): its summary and every event in order."""
    from cpbot.bot.report.render import transcript_lines

    store = _opened()
    with store:
        transcript = store.transcript(run)
    if as_json:
        click.echo(transcript.model_dump_json(indent=2))
        return 0
    click.echo("\n".join(transcript_lines(transcript, full)))
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
    from cpbot.bot.report.export import gather, render_html
    from cpbot.bot.store.transcripts import TranscriptError

    store = _opened()
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
