"""AtCoder contest pages: the contest tables of `/contests/` and `/contests/archive`, a contest's task list
(`/contests/CONTEST/tasks`) and its schedule (the `startTime` / `endTime` every contest page carries).

Parsing is pure and tested on recorded pages (tests/fixtures/atcoder/).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from lxml.html import HtmlElement

from cpbot.core.errors import ParseError
from cpbot.scrapers.atcoder.urls import ROOT
from cpbot.scrapers.htmltools import collapse, load_html
from cpbot.scrapers.listing import ContestProblem

SITE_NAME = "atcoder"
_CONTEST_HREF = re.compile(r"^(?:https?://atcoder\.jp)?/contests/(?P<id>[\w-]+)/?$")
_TASK_HREF = re.compile(r"/contests/(?P<contest>[\w-]+)/tasks/(?P<task>[\w-]+)/?$")
_DURATION = re.compile(r"^(?P<h>\d+):(?P<m>\d{2})$")
_MOMENT = re.compile(r'var\s+(?P<which>startTime|endTime)\s*=\s*moment\("(?P<at>[^"]+)"\)')
_TIME_CELL = "%Y-%m-%d %H:%M:%S%z"
# The contest tables of /contests/ by what they hold (the archive page has one table without an id).
TABLES = {"action": "contest-table-action", "upcoming": "contest-table-upcoming", "recent": "contest-table-recent"}


class ContestKind:
    """The series a contest belongs to, from its name (the site's own names)."""

    ABC = "ABC"
    ARC = "ARC"
    ARC_DIV2 = "ARC Div. 2"
    AGC = "AGC"
    AHC = "AHC"
    OTHER = "other"


@dataclass(frozen=True)
class ContestEntry:
    """One row of a contest table."""

    id: str
    name: str
    start: datetime
    duration_s: int
    rated: str  # "All", " ~ 1999", "1200 ~ 2799", "-" (unrated)
    heuristic: bool

    @property
    def kind(self) -> str:
        return contest_kind(self.id, self.name, self.heuristic)


def contest_kind(contest_id: str, name: str = "", heuristic: bool = False) -> str:
    """ABC, ARC, ARC Div. 2, AGC, AHC or other, from the contest's id and name."""
    low, cid = name.lower(), contest_id.lower()
    if heuristic or cid.startswith("ahc") or "heuristic contest" in low:
        return ContestKind.AHC
    if cid.startswith("abc") or "beginner contest" in low:
        return ContestKind.ABC
    if cid.startswith("arc") or "regular contest" in low:
        return ContestKind.ARC_DIV2 if re.search(r"div\.?\s*2", low) else ContestKind.ARC
    if cid.startswith("agc") or "grand contest" in low:
        return ContestKind.AGC
    return ContestKind.OTHER


def parse_contest_table(
    html: bytes | str, which: str | None = None, where: str = "the AtCoder contests page"
) -> list[ContestEntry]:
    """The rows of one table of `/contests/` (`which`: action, upcoming or recent), or of the archive's
    only table when `which` is None; an absent table (nothing upcoming) is an empty list."""
    doc = load_html(html, where)
    if which is None:
        tables = doc.xpath("//table")
    else:
        holder = doc.get_element_by_id(TABLES[which], None)
        tables = holder.xpath(".//table") if holder is not None else []
    return [row for table in tables[:1] for row in _rows(table, where)]


def _rows(table: HtmlElement, where: str) -> list[ContestEntry]:
    out = []
    for tr in table.xpath(".//tbody/tr"):
        cells = tr.xpath("./td")
        if len(cells) < 3:
            continue
        link = next((a for a in cells[1].xpath(".//a") if _CONTEST_HREF.match(a.get("href") or "")), None)
        if link is None:
            continue
        contest_id = _CONTEST_HREF.match(link.get("href") or "").group("id")  # type: ignore[union-attr]
        start = _parse_time(collapse(cells[0].text_content()), where)
        m = _DURATION.match(collapse(cells[2].text_content()))
        if m is None:
            raise ParseError(f"cannot parse {where}: missing the duration (HH:MM) of {contest_id}")
        titles = " ".join(str(t) for t in cells[1].xpath(".//span/@title")).lower()
        out.append(
            ContestEntry(
                id=contest_id,
                name=collapse(link.text_content()),
                start=start,
                duration_s=(int(m.group("h")) * 60 + int(m.group("m"))) * 60,
                rated=collapse(cells[3].text_content()) if len(cells) > 3 else "",
                heuristic="heuristic" in titles,
            )
        )
    return out


def _parse_time(text: str, where: str) -> datetime:
    try:
        return datetime.strptime(text, _TIME_CELL).astimezone(UTC)
    except ValueError as e:
        raise ParseError(f"cannot parse {where}: the start time {text!r} is not 'YYYY-MM-DD hh:mm:ss+0900'") from e


@dataclass(frozen=True)
class Schedule:
    """A contest's name and times, from any of its pages."""

    name: str
    start: datetime
    end: datetime

    @property
    def duration_s(self) -> int:
        return int((self.end - self.start).total_seconds())


def parse_schedule(html: bytes | str, contest_id: str) -> Schedule:
    """The contest's name (from the page's title or navbar) and its start and end times."""
    text = html.decode("utf-8", errors="replace") if isinstance(html, bytes) else html
    where = f"{ROOT}/contests/{contest_id}"
    times = {m.group("which"): m.group("at") for m in _MOMENT.finditer(text)}
    if "startTime" not in times or "endTime" not in times:
        raise ParseError(f"cannot parse {where}: missing the contest's startTime / endTime")
    doc = load_html(text, where)
    named = doc.xpath('//a[contains(concat(" ", @class, " "), " contest-title ")]')
    name = collapse(named[0].text_content()) if named else ""
    if not name:
        title = collapse(doc.findtext(".//title") or "")
        name = title.rsplit(" - ", 1)[-1] if " - " in title else title
    try:
        start, end = (datetime.fromisoformat(times[k]).astimezone(UTC) for k in ("startTime", "endTime"))
    except ValueError as e:
        raise ParseError(f"cannot parse {where}: bad contest time ({e})") from e
    return Schedule(name or contest_id, start, end)


def parse_task_list(html: bytes | str, contest_id: str) -> list[ContestProblem]:
    """The tasks of `/contests/CONTEST/tasks`: letter, task id, name (the letter is the list's own: ABC 107's
    task C is arc101_a)."""
    where = f"{ROOT}/contests/{contest_id}/tasks"
    doc = load_html(html, where)
    out: list[ContestProblem] = []
    for tr in doc.xpath("//table//tbody/tr"):
        links = [a for a in tr.xpath("./td//a") if _TASK_HREF.search(a.get("href") or "")]
        if len(links) < 2:
            continue
        m = _TASK_HREF.search(links[0].get("href") or "")
        assert m is not None
        out.append(
            ContestProblem(
                site=SITE_NAME,
                contest_id=contest_id,
                problem_id=f"{SITE_NAME}:{m.group('task')}",
                index=collapse(links[0].text_content()),
                name=collapse(links[1].text_content()),
                url=f"{ROOT}/contests/{m.group('contest')}/tasks/{m.group('task')}",
            )
        )
    return out
