"""What `cpbot watch` shows: a report of the watched contests (JSON with --json) and its rich view, one
table per contest whose title says where the contest stands (a countdown before it starts, the time
left while it runs) and whose caption sums it up; live on stderr while it runs (`follow`), once more on
stdout at the end (`print_final`)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import click
from pydantic import BaseModel
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.watch.rules import Participation
from cpbot.bot.watch.state import ContestRow, WatchState
from cpbot.core.terminal import printable, printable_line
from cpbot.core.texts import clock

if TYPE_CHECKING:
    from cpbot.bot.watch.scheduler import Watcher

SCHEMA_VERSION = 2  # 2: ProblemLine.running, WatchReport.at


class ProblemLine(BaseModel):
    """One problem's row of the table."""

    problem_id: str
    index: str | None
    name: str
    status: str
    detail: str
    attempts: int
    tokens: int  # finished attempts, plus what a running one has used so far
    seconds: float  # solving time, a running attempt's included
    submissions: int
    verdict: str | None = None  # the site's last verdict
    running: bool = False  # a solve is in progress


class ContestReport(BaseModel):
    """One contest and its problems."""

    contest: ContestRow
    problems: list[ProblemLine]


class WatchReport(BaseModel):
    """`cpbot watch --json`: every contest the run looked at."""

    schema_version: int = SCHEMA_VERSION
    at: datetime | None = None  # when the report was made
    contests: list[ContestReport]


def report(
    state: WatchState, keys: list[str], *, store: TranscriptStore | None = None, now: datetime | None = None
) -> WatchReport:
    """The current state of the contests `keys`; with `store`, a running solve's tokens are counted live."""
    now = now or datetime.now(UTC)
    contests = []
    for key in keys:
        lines = []
        for p in state.problems(key):
            spent = state.spent(key, p.problem_id)
            subs = state.submissions(key, p.problem_id)
            tokens, seconds = spent.tokens, spent.seconds
            running = [a for a in state.attempts(key, p.problem_id) if a.status == "running"]
            for a in running:
                if a.started_at is not None:
                    seconds += max(0.0, (now - a.started_at).total_seconds())
                if store is not None and a.run_id:
                    run = store.run(a.run_id)
                    tokens += run.prompt_tokens + run.completion_tokens
            lines.append(
                ProblemLine(
                    problem_id=p.problem_id,
                    index=p.index,
                    name=p.name,
                    status=p.status,
                    detail=p.detail,
                    attempts=spent.attempts,
                    tokens=tokens,
                    seconds=round(seconds, 3),
                    submissions=len(subs),
                    verdict=subs[-1].verdict if subs else None,
                    running=bool(running) and p.status == "solving",
                )
            )
        contests.append(ContestReport(contest=state.contest(key), problems=lines))
    return WatchReport(at=now, contests=contests)


_STYLE = {
    "solved": "bold green",
    "given_up": "red",
    "solving": "magenta",
    "judged": "blue",
    "gated": "cyan",
    "submitted": "yellow",
    "verdict": "yellow",
}
_COLUMNS = (  # name, justify, min width: wide enough for the usual values, so rows do not jump
    ("#", "left", 2),
    ("problem", "left", 12),
    ("state", "left", 9),
    ("tries", "right", 5),
    ("tokens", "right", 7),
    ("time", "right", 7),
    ("remote", "left", 7),
    ("detail", "left", 30),
)


def view(data: WatchReport, *, now: datetime | None = None) -> RenderableType:
    """The live view: one table per contest (a placeholder while no contest is known)."""
    now = now or data.at or datetime.now(UTC)
    if not data.contests:
        return Text("cpbot watch: no contest to work on yet; the contest lists are polled", style="dim")
    return Group(*(_contest_table(c, now) for c in data.contests))


def _contest_table(c: ContestReport, now: datetime) -> Table:
    t = Table(
        title=f"[bold]{escape(printable_line(c.contest.name))}[/] · {escape(phase(c.contest, now))}",
        caption=escape(printable(_caption(c))),
        title_justify="left",
        caption_justify="left",
    )
    for name, justify, width in _COLUMNS:
        # on a narrow terminal only the problem's name and the detail give way (cut with an ellipsis);
        # the short columns keep their width
        flexible = name in ("problem", "detail")
        t.add_column(
            name,
            justify=justify,  # type: ignore[arg-type]
            min_width=None if flexible else width,
            max_width=60 if name == "detail" else 32 if name == "problem" else None,
            no_wrap=not flexible,
        )
    if not c.problems:
        waiting = c.contest.detail or "the problem list is not published yet"
        t.add_row("", "", "[dim]waiting[/]", "", "", "", "", _one_line(waiting))
    for p in c.problems:
        style = _STYLE.get(p.status, "")
        status = p.status + (" …" if p.running else "")
        remote = ""
        if p.verdict:
            remote = f"[{'green' if p.verdict == 'AC' else 'red'}]{escape(p.verdict)}[/]"
        elif p.status == "submitted":
            remote = "[dim]waiting[/]"
        t.add_row(
            escape(printable_line(p.index or "")),
            _one_line(p.name),
            f"[{style}]{status}[/]" if style else status,
            str(p.attempts),
            f"{p.tokens:,}",
            duration(p.seconds),
            remote,
            _one_line(p.detail),
        )
    return t


def _one_line(text: str) -> Text:
    """A cell that stays on one line, cut with an ellipsis when its column is narrower."""
    return Text(" ".join(printable(text).split()), no_wrap=True, overflow="ellipsis")


def phase(contest: ContestRow, now: datetime) -> str:
    """Where a contest stands, for its title: a countdown before it starts, the time left while it runs."""
    if contest.status == "done":
        return f"done: {contest.detail}" if contest.detail else "done"
    if contest.mode == "virtual":
        return "finished contest, worked on as a virtual one" + ("" if contest.status == "running" else " (queued)")
    if contest.start is not None and now < contest.start:
        return f"starts in {clock((contest.start - now).total_seconds())}"
    end = contest.end
    if contest.status == "watching":
        return "starting"
    if end is None:
        return "running"
    left = (end - now).total_seconds()
    return f"running, {clock(left)} left" if left > 0 else "over (finishing what was sent)"


def _caption(c: ContestReport) -> str:
    n = len(c.problems)
    if not n:
        return ""
    solved = sum(p.status == "solved" for p in c.problems)
    given_up = sum(p.status == "given_up" for p in c.problems)
    posts = sum(p.submissions for p in c.problems)
    tokens = sum(p.tokens for p in c.problems)
    seconds = sum(p.seconds for p in c.problems)
    parts = [f"{solved}/{n} solved"]
    if given_up:
        parts.append(f"{given_up} given up")
    parts += [f"{posts} submission{'s' if posts != 1 else ''}", f"{tokens:,} tokens", f"{duration(seconds)} solving"]
    if c.contest.participation:
        parts.append(PARTICIPATION[c.contest.participation])
    standing = standing_line(c.contest)
    if standing:
        parts.append(standing)
    return " · ".join(parts)


PARTICIPATION = {
    Participation.LIVE: "submitting live (the rules allow it)",
    Participation.SHADOW: "in the shadow: nothing is posted during the round",
    Participation.PRACTICE: "practice",
}


def standing_line(contest: ContestRow) -> str:
    """The standing cpbot would have had, in one line ("" before there is one)."""
    s = contest.standing
    if s is None:
        return ""
    line = f"in the shadow: rank {s.rank:,} of {s.participants:,} ({s.percentile:g}% at or behind)"
    if s.performance is not None:
        line += f", performance {s.performance}" + (f" ({s.performance_note})" if s.performance_note else "")
    return line


def duration(seconds: float) -> str:
    """A short duration: 0.4s, 12.3s, 2m05s, 1h02m."""
    if seconds < 60:
        return f"{seconds:.1f}s"
    if seconds < 3600:
        m, s = divmod(int(seconds), 60)
        return f"{m}m{s:02d}s"
    h, m = divmod(int(seconds) // 60, 60)
    return f"{h}h{m:02d}m"


def changes(data: WatchReport, seen: dict[tuple[str, str], str]) -> list[str]:
    """One line per contest or problem whose state changed since `seen` (updated in place): the plain
    progress `cpbot watch` writes when stderr is not a terminal (a log, a pipe, a service)."""
    at = (data.at or datetime.now(UTC)).strftime("%H:%M:%S")
    out = []
    for c in data.contests:
        lines = []
        for p in c.problems:
            line = p.status + (f": {p.detail}" if p.detail else "")
            if p.verdict and p.status in ("verdict", "solved"):
                line += f" [{p.verdict}]"
            if seen.get((c.contest.key, p.problem_id)) != line:
                seen[(c.contest.key, p.problem_id)] = line
                lines.append(f"{at} {c.contest.name} {p.index or p.problem_id}: {line}")
        state = f"{c.contest.status} ({c.contest.mode})" + (f": {c.contest.detail}" if c.contest.detail else "")
        if seen.get((c.contest.key, "")) != state:
            seen[(c.contest.key, "")] = state
            head = f"{at} {c.contest.name}: {state}"
            # a contest's start reads before its problems' first steps, its end after their last
            lines = [*lines, head] if c.contest.status == "done" else [head, *lines]
        out += [printable_line(line) for line in lines]
    return out


def follow(
    watcher: Watcher, state: WatchState, store: TranscriptStore, *, once: bool, stop: threading.Event, live: bool
) -> None:
    """Show the live view on stderr until stopped (or, with --once, until every contest seen is done); it is
    cleared at the end, when the final table is printed. When stderr is no terminal, one line per change
    instead (`live=False`: nothing at all)."""
    console = Console(stderr=True)

    def finished() -> bool:
        return once and watcher.polled.is_set() and not watcher.pending() and not watcher.active()

    def render() -> Any:
        return view(report(state, watcher.seen(), store=store))

    if live and console.is_terminal:
        with Live(render(), console=console, refresh_per_second=2, transient=True) as screen:
            while not stop.is_set() and not finished():
                watcher.changed.wait(0.5)
                watcher.changed.clear()
                screen.update(render())
        return
    seen: dict[tuple[str, str], str] = {}

    def log_changes() -> None:
        if live:  # stderr is a log or a pipe: one line per change instead of the table
            for line in changes(report(state, watcher.seen()), seen):
                click.echo(line, err=True)

    while not stop.is_set() and not finished():
        log_changes()
        watcher.changed.wait(0.5)
        watcher.changed.clear()
    log_changes()


def print_final(final: WatchReport, *, within_h: float | None) -> None:
    """The final table on stdout when `cpbot watch` exits (or a line saying there was no contest)."""
    console = Console()
    if not console.is_terminal:
        console.width = 160  # a log or a file: room for whole names rather than the 80-column default
    if not final.contests:
        # the live view's placeholder says the lists are polled; at exit nothing polls any more
        ahead = f" starting within {within_h:g} h" if within_h is not None else ""
        console.print(f"cpbot watch: no contest{ahead} to work on", style="dim")
        return
    console.print(view(final))
