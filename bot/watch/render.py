"""What `cpbot watch` shows: a report of the watched contests (JSON with --json) and its rich table."""

from __future__ import annotations

from pydantic import BaseModel
from rich.markup import escape
from rich.table import Table

from bot.watch.state import ContestRow, WatchState

SCHEMA_VERSION = 1


class ProblemLine(BaseModel):
    """One problem's row of the table."""

    problem_id: str
    index: str | None
    name: str
    status: str
    detail: str
    attempts: int
    tokens: int
    seconds: float
    submissions: int
    verdict: str | None = None  # the site's last verdict


class ContestReport(BaseModel):
    """One contest and its problems."""

    contest: ContestRow
    problems: list[ProblemLine]


class WatchReport(BaseModel):
    """`cpbot watch --json`: every contest the run looked at."""

    schema_version: int = SCHEMA_VERSION
    contests: list[ContestReport]


def report(state: WatchState, keys: list[str]) -> WatchReport:
    """The current state of the contests `keys`."""
    contests = []
    for key in keys:
        lines = []
        for p in state.problems(key):
            spent = state.spent(key, p.problem_id)
            subs = state.submissions(key, p.problem_id)
            lines.append(
                ProblemLine(
                    problem_id=p.problem_id,
                    index=p.index,
                    name=p.name,
                    status=p.status,
                    detail=p.detail,
                    attempts=spent.attempts,
                    tokens=spent.tokens,
                    seconds=spent.seconds,
                    submissions=len(subs),
                    verdict=subs[-1].verdict if subs else None,
                )
            )
        contests.append(ContestReport(contest=state.contest(key), problems=lines))
    return WatchReport(contests=contests)


_STYLE = {"solved": "green", "given_up": "red", "gated": "cyan", "submitted": "yellow", "verdict": "yellow"}


def table(data: WatchReport) -> Table:
    """The live table: one row per problem, grouped by contest."""
    t = Table(title="cpbot watch", expand=False)
    for name in ("contest", "#", "problem", "state", "tries", "tokens", "time", "remote", "detail"):
        t.add_column(name, justify="right" if name in ("tries", "tokens", "time") else "left")
    if not data.contests:
        t.add_row("(no contest yet)", "", "", "", "", "", "", "", "")
    for c in data.contests:
        head = f"{escape(c.contest.name)} ({c.contest.status})"
        if not c.problems:
            t.add_row(head, "", "", "waiting", "", "", "", "", escape(c.contest.detail))
        for i, p in enumerate(c.problems):
            style = _STYLE.get(p.status, "")
            t.add_row(
                head if i == 0 else "",
                p.index or "",
                escape(p.name),
                f"[{style}]{p.status}[/]" if style else p.status,
                str(p.attempts),
                f"{p.tokens:,}",
                f"{p.seconds:.1f}s",
                p.verdict or "",
                escape(p.detail[:60]),
            )
    return t
