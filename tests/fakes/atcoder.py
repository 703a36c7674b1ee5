"""A fake AtCoder that speaks the site's real pages and JSON, for tests.

`FakeAtCoder` holds contests (their tasks are the recorded statements of tests/fixtures/atcoder/ in the
site's page shells, `tests.fakes.atcoder_pages`), the session, submissions and the official standings;
the shared `tests.fakes.server.FakeSiteServer` serves it (`FakeSite.atcoder`), routing AtCoder's paths
here. Pages as atcoder.jp serves them: `/contests/` (tables action / upcoming / recent),
`/contests/C` and `/contests/C/tasks` (404 before the start), task pages, `/contests/C/standings/json`,
the submit form (`data.TaskScreenName`, `data.LanguageId` with the current judge's ids, `csrf_token`),
the submission list (`WJ`, then `1/3`, then the final label) and submission pages. `/login` has the
Turnstile widget the real login has. Time comes from `FakeAtCoder.clock`; verdicts come from `policy`
(accepted unless the source holds `FAKE:WA`, `FAKE:TLE`, `FAKE:RE` or `FAKE:CE`).

A heuristic contest (`heuristic=True`, an AHC): its task's `tools` are served as the zip its statement links
(`https://img.atcoder.jp/CONTEST/tools.zip`, routed here like every atcoder.jp subdomain), its standings rank
the entrants by `score` alone (ties share a rank, `Fixed` once the contest is over), and a second submission
within `submit_interval_s` of the last is refused with the form's error, as AtCoder refuses it. After the end,
`/contests/C/results/json` serves `Contest.results` (the published performances) when set, else 404 (not out);
`Contest.results_after` makes the first looks after the end 404 too (the results come out later).
"""

from __future__ import annotations

import html
import io
import json
import re
import secrets
import threading
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from urllib.parse import quote

from cpbot.scrapers.atcoder.submissions import CURRENT_JUDGE_IDS
from tests.fakes.atcoder_pages import Statement, statement, task_page
from tests.fakes.http import Reply, Request

JST = timezone(timedelta(hours=9))
LANGUAGES = {
    **{v: k for k, v in CURRENT_JUDGE_IDS.items()},
    "6002": "Ada 2022 (GNAT 15.2.0)",
    "6088": "Rust (rustc 1.89.0)",
}
_MARKER = re.compile(r"FAKE:(WA|TLE|RE|CE)")
LOGIN_PAGE = (
    "<!DOCTYPE html><html><head><title>Sign In - AtCoder</title>"
    '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script></head><body>'
    '<form class="form-horizontal" action="" method="POST"><input type="text" name="username">'
    '<input type="password" name="password"><div class="cf-turnstile" data-sitekey="0x4AAAA-fake"></div>'
    '<input type="hidden" name="csrf_token" value="login-token" /><button type="submit">Sign In</button>'
    "</form></body></html>"
)


@dataclass
class Task:
    letter: str
    statement: Statement
    points: int = 100
    tools: dict[str, bytes] | None = None  # an AHC task's tools, served as the zip its statement links

    @property
    def id(self) -> str:
        return self.statement.task


@dataclass
class Entrant:
    """An official participant: the letters solved, elapsed time (penalty included), rating before, past contests."""

    handle: str
    solved: tuple[str, ...]
    elapsed_s: float
    rating: int = 0
    competitions: int = 0
    rated: bool = True
    score: float | None = None  # a heuristic contest's total score (then `solved` is ignored)


@dataclass
class Contest:
    id: str
    name: str
    start: float  # unix seconds
    duration_s: int
    tasks: list[Task] = field(default_factory=list)
    rated: str = " ~ 1999"
    heuristic: bool = False
    standings: list[Entrant] = field(default_factory=list)
    submit_interval_s: int = 300  # a heuristic contest's wait between two submissions
    results: list[dict[str, Any]] | None = None  # `/results/json` after the end (None: not published, 404)
    results_after: int = 0  # how many looks at `/results/json` after the end still get 404 (published later)
    results_looks: int = 0

    def running(self, now: float) -> bool:
        return self.start <= now < self.start + self.duration_s

    def task(self, task_id: str) -> Task | None:
        return next((t for t in self.tasks if t.id == task_id), None)


@dataclass
class Submission:
    id: int
    contest: str
    task: str
    language_id: str
    source: str
    created: float
    verdict: str
    polls: int = 0
    practice: bool = False  # sent after its contest ended


def marker_policy(source: str) -> str:
    m = _MARKER.search(source)
    return m.group(1) if m else "AC"


class FakeAtCoder:
    """The fake site's state; change its fields between requests (under `lock` from other threads)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.lock = threading.RLock()
        self.clock = clock
        self.contests: dict[str, Contest] = {}
        self.submissions: list[Submission] = []
        self.requests: list[tuple[str, str]] = []
        self.session = secrets.token_hex(16)
        self.csrf = "fake+csrf/token="
        self.user = "cpbot_user"
        self.judging_polls = 1  # list views that show WJ / progress before the final label
        self.human_check = False  # the submit form carries a Turnstile widget nobody passed
        self.policy: Callable[[str], str] = marker_policy

    def add_contest(
        self, contest_id: str, name: str, *, start_in_s: float, duration_s: int, tasks: list[tuple[Any, ...]], **kw: Any
    ) -> Contest:
        """A contest with `tasks` as (letter, recorded statement name[, points]), starting `start_in_s` from now."""
        contest = Contest(
            contest_id,
            name,
            self.clock() + start_in_s,
            duration_s,
            [Task(t[0], statement(t[1]), *t[2:]) for t in tasks],
            **kw,
        )
        self.contests[contest_id] = contest
        return contest

    def cookies_txt(self) -> str:
        """A Netscape cookies.txt holding the session."""
        return f"# Netscape HTTP Cookie File\n.atcoder.jp\tTRUE\t/\tTRUE\t4102444800\tREVEL_SESSION\t{self.session}\n"


_TOOLS_PATH = re.compile(r"^/(?P<contest>[\w-]+)/tools\.zip$")  # img.atcoder.jp/CONTEST/... routed here


def owns(path: str) -> bool:
    """Whether a request path is AtCoder's (the shared server routes it here)."""
    return path == "/login" or path == "/contests" or path.startswith("/contests/") or bool(_TOOLS_PATH.match(path))


def serve(site: FakeAtCoder, req: Request) -> Reply:
    """Answer one request as atcoder.jp would."""
    session = req.cookies.get("REVEL_SESSION")
    form = req.form() if req.method == "POST" else {}
    with site.lock:
        site.requests.append((req.method, req.path))
        return _route(site, req.method, req.path, req.query, form, session == site.session)


def _route(
    site: FakeAtCoder, method: str, path: str, query: dict[str, str], form: dict[str, str], signed: bool
) -> Reply:
    now = site.clock()
    if path in ("/contests", "/contests/"):
        return Reply(200, _contests_page(site, now))
    if path == "/contests/archive":
        ended = [c for c in site.contests.values() if now >= c.start + c.duration_s]
        return Reply(200, _page("Past Contests", _table(ended)))
    if path == "/login":
        return Reply(200, LOGIN_PAGE)
    tools = _TOOLS_PATH.match(path)
    if tools:
        return _tools_zip(site.contests.get(tools.group("contest")), now)
    m = re.match(r"^/contests/([\w-]+)(/.*)?$", path)
    contest = site.contests.get(m.group(1)) if m else None
    if contest is None:
        return Reply(404, _page("404", "<h1>404 Not Found</h1>"))
    rest = (m.group(2) or "").rstrip("/") if m else ""
    started = now >= contest.start
    if rest == "":
        return Reply(200, _contest_page(contest, "Top", f"<h1>{html.escape(contest.name)}</h1>"))
    if rest == "/tasks":
        return Reply(200, _task_list(contest)) if started else Reply(404, _page("404", "<h1>404</h1>"))
    t = re.match(r"^/tasks/([\w-]+)$", rest)
    if t:
        task = contest.task(t.group(1))
        if task is None or not started:
            return Reply(404, _page("404", "<h1>404</h1>"))
        return Reply(
            200,
            task_page(
                task.statement, task.letter, start=_iso(contest.start), end=_iso(contest.start + contest.duration_s)
            ),
        )
    if rest == "/standings/json":
        return Reply(200, json.dumps(_standings(contest, now)), "application/json")
    if rest == "/results/json":
        if contest.results is None or now < contest.start + contest.duration_s:
            return Reply(404, _page("404", "<h1>404</h1>"))
        contest.results_looks += 1
        if contest.results_looks <= contest.results_after:  # AtCoder publishes them some time after the end
            return Reply(404, _page("404", "<h1>404</h1>"))
        return Reply(200, json.dumps(contest.results), "application/json")
    if rest == "/submit":
        if not signed:
            return Reply.redirect(f"/login?continue={quote(path)}")
        return (
            _submit(site, contest, method, form, now) if method == "POST" else Reply(200, _submit_form(site, contest))
        )
    if rest == "/submissions/me":
        if not signed:
            return Reply.redirect(f"/login?continue={quote(path)}")
        return Reply(200, _my_submissions(site, contest))
    s = re.match(r"^/submissions/(\d+)$", rest)
    if s:
        sub = next((x for x in site.submissions if x.id == int(s.group(1)) and x.contest == contest.id), None)
        if sub is None:
            return Reply(404, _page("404", "<h1>404</h1>"))
        code = f'<pre id="submission-code" class="prettyprint linenums">{html.escape(sub.source)}</pre>'
        return Reply(200, _contest_page(contest, f"Submission #{sub.id}", code))
    return Reply(404, _page("404", "<h1>404 Not Found</h1>"))


def _iso(unix: float) -> str:
    return datetime.fromtimestamp(unix, JST).isoformat()


def _cell_time(unix: float) -> str:
    return datetime.fromtimestamp(unix, JST).strftime("%Y-%m-%d %H:%M:%S%z")


def _page(title: str, body: str, script: str = "") -> str:
    return (
        f"<!DOCTYPE html>\n<html>\n<head>\n\t<title>{html.escape(title)} - AtCoder</title>\n"
        f'\t<script>\n\t\tvar LANG = "en";\n\t\tvar csrfToken = "fake"\n\t</script>{script}\n</head>\n'
        f'<body>\n<div id="main-container" class="container">\n{body}\n</div>\n</body>\n</html>\n'
    )


def _contest_page(contest: Contest, title: str, body: str) -> str:
    script = (
        f'\n\t<script>\n\t\tvar contestScreenName = "{contest.id}";\n'
        f'\t\tvar startTime = moment("{_iso(contest.start)}");\n'
        f'\t\tvar endTime = moment("{_iso(contest.start + contest.duration_s)}");\n\t</script>'
    )
    link = f'<a class="contest-title" href="/contests/{contest.id}">{html.escape(contest.name)}</a>'
    nav = f'<ul class="nav navbar-nav"><li>{link}</li></ul>'
    return _page(f"{title} - {contest.name}", nav + body, script)


def _table(contests: list[Contest]) -> str:
    rows = []
    for c in sorted(contests, key=lambda c: c.start):
        mark = "Heuristic" if c.heuristic else "Algorithm"
        hours, minutes = divmod(c.duration_s // 60, 60)
        rows.append(
            "<tr>\n"
            f"<td class=\"text-center\"><a href='http://www.timeanddate.com/worldclock/fixedtime.html' target='blank'>"
            f"<time class='fixtime fixtime-full'>{_cell_time(c.start)}</time></a></td>\n"
            f"<td><span aria-hidden='true' data-toggle='tooltip' data-placement='top' title=\"{mark}\">"
            f"{'Ⓗ' if c.heuristic else 'Ⓐ'}</span> <a href='/contests/{c.id}'>{html.escape(c.name)}</a></td>\n"
            f'<td class="text-center">{hours:02d}:{minutes:02d}</td>\n<td class="text-center">{c.rated}</td>\n</tr>'
        )
    head = "<thead><tr><th>Start Time</th><th>Contest Name</th><th>Duration</th><th>Rated Range</th></tr></thead>"
    table = '<table class="table table-default table-striped table-hover table-condensed table-bordered small">'
    return f'<div class="table-responsive">{table}{head}<tbody>{"".join(rows)}</tbody></table></div>'


def _contests_page(site: FakeAtCoder, now: float) -> str:
    groups = {
        "action": [c for c in site.contests.values() if c.running(now)],
        "upcoming": [c for c in site.contests.values() if now < c.start],
        "recent": [c for c in site.contests.values() if now >= c.start + c.duration_s],
    }
    body = "".join(f'<div id="contest-table-{k}"><h3>{k}</h3>{_table(v)}</div>' for k, v in groups.items() if v)
    return _page("Contest", body)


def _task_list(contest: Contest) -> str:
    rows = "".join(
        f'<tr><td class="text-center no-break"><a href="/contests/{contest.id}/tasks/{t.id}">{t.letter}</a></td>'
        f'<td><a href="/contests/{contest.id}/tasks/{t.id}">{html.escape(t.statement.title)}</a></td>'
        f'<td class="text-right">{t.statement.time_s:g} sec</td>'
        f'<td class="text-right">{t.statement.memory_mb} MiB</td></tr>'
        for t in contest.tasks
    )
    head = "<thead><tr><th></th><th>Task Name</th></tr></thead>"
    table = f'<table class="table table-bordered table-striped">{head}<tbody>{rows}</tbody></table>'
    return _contest_page(contest, "Tasks", f"<h2>Tasks</h2>{table}")


def _tools_zip(contest: Contest | None, now: float) -> Reply:
    task = next((t for t in contest.tasks if t.tools), None) if contest is not None else None
    if contest is None or task is None or task.tools is None or now < contest.start:
        return Reply(404, "Not Found")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in task.tools.items():
            archive.writestr(name, data)
    return Reply(200, buffer.getvalue(), "application/zip")


def _standings(contest: Contest, now: float) -> dict[str, Any]:
    if contest.heuristic:
        return _heuristic_standings(contest, now)
    info = [{"Assignment": t.letter, "TaskName": t.statement.title, "TaskScreenName": t.id} for t in contest.tasks]
    points = {e.handle: sum(t.points for t in contest.tasks if t.letter in e.solved) for e in contest.standings}
    ordered = sorted(contest.standings, key=lambda e: (-points[e.handle], e.elapsed_s))
    rows = []
    for i, e in enumerate(ordered):
        mine = points[e.handle]
        rank = 1 + sum(
            1 for o in ordered if points[o.handle] > mine or (points[o.handle] == mine and o.elapsed_s < e.elapsed_s)
        )
        results = {
            t.id: {"Count": 1, "Failure": 0, "Penalty": 0, "Score": t.points * 100, "Elapsed": int(e.elapsed_s * 1e9),
                   "Status": 1, "Pending": False, "Frozen": False, "Additional": None}
            for t in contest.tasks
            if t.letter in e.solved
        }  # fmt: skip
        rows.append(
            {
                "Rank": rank, "Additional": None, "UserName": e.handle, "UserScreenName": e.handle,
                "UserIsDeleted": False, "Affiliation": "", "Country": "JP", "Rating": e.rating, "OldRating": e.rating,
                "IsRated": e.rated, "IsTeam": False, "Competitions": e.competitions, "AtCoderRank": i + 1,
                "TaskResults": results,
                "TotalResult": {
                    "Count": len(results), "Accepted": len(results), "Penalty": 0, "Score": mine * 100,
                    "Elapsed": int(e.elapsed_s * 1_000_000_000), "Frozen": False, "Additional": None,
                },
            }
        )  # fmt: skip
    return {"Fixed": True, "AdditionalColumns": None, "TaskInfo": info, "StandingsData": rows, "Translation": {}}


def _submit_form(site: FakeAtCoder, contest: Contest, error: str = "") -> str:
    tasks = "".join(
        f'<option value="{t.id}">{t.letter} - {html.escape(t.statement.title)}</option>' for t in contest.tasks
    )
    options = "".join(f'<option value="{k}">{html.escape(v)}</option>' for k, v in LANGUAGES.items())
    check = '<div class="cf-turnstile" data-sitekey="0x4AAAA-fake"></div>' if site.human_check else ""
    alert = (
        '<div class="alert alert-danger alert-dismissible"><button type="button" class="close">×</button>'
        f"{html.escape(error)}</div>"
        if error
        else ""
    )
    body = (
        f'{alert}<form class="form-horizontal form-code-submit" action="/contests/{contest.id}/submit" method="POST">'
        f'<select class="form-control" id="select-task" name="data.TaskScreenName">{tasks}</select>'
        '<div id="select-lang" class="col-sm-5" data-name="data.LanguageId">'
        '<select class="form-control" name="data.LanguageId">'
        f"<option></option>{options}</select></div>"
        f'<textarea name="sourceCode"></textarea>{check}'
        f'<input type="hidden" name="csrf_token" value="{html.escape(site.csrf)}" />'
        '<button type="submit" class="btn btn-primary" id="submit">Submit</button></form>'
    )
    return _contest_page(contest, "Submit", body)


def _submit(site: FakeAtCoder, contest: Contest, method: str, form: dict[str, str], now: float) -> Reply:
    error = ""
    if form.get("csrf_token") != site.csrf:
        error = "Invalid CSRF token"
    elif site.human_check and not form.get("cf-turnstile-response"):
        error = "Please verify that you are human"
    elif now < contest.start:
        error = "The contest has not started"
    elif contest.task(form.get("data.TaskScreenName", "")) is None:
        error = "Choose a task"
    elif contest.heuristic and any(
        x.contest == contest.id and now - x.created < contest.submit_interval_s for x in site.submissions
    ):
        error = f"You cannot submit within {contest.submit_interval_s} seconds of your previous submission"
    elif form.get("data.LanguageId") not in LANGUAGES:
        error = "Choose a language"
    elif not form.get("sourceCode", "").strip():
        error = "Source code is empty"
    if error:
        return Reply(200, _submit_form(site, contest, error))
    site.submissions.append(
        Submission(
            id=50_000_000 + len(site.submissions) + 1,
            contest=contest.id,
            task=form["data.TaskScreenName"],
            language_id=form["data.LanguageId"],
            source=form["sourceCode"],
            created=now,
            verdict=site.policy(form["sourceCode"]),
            practice=now >= contest.start + contest.duration_s,
        )
    )
    return Reply.redirect(f"/contests/{contest.id}/submissions/me")


def _label(cls: str, title: str, text: str, *, wide: bool) -> str:
    span = f"<span class='label {cls}' title=\"{title}\">{text}</span>"
    return f"<td colspan='3' class='text-center'>{span}</td>" if wide else f"<td class='text-center'>{span}</td>"


_TITLES = {
    "AC": "Accepted",
    "WA": "Wrong Answer",
    "TLE": "Time Limit Exceeded",
    "RE": "Runtime Error",
    "CE": "Compilation Error",
}


def _my_submissions(site: FakeAtCoder, contest: Contest) -> str:
    rows = []
    for s in sorted((x for x in site.submissions if x.contest == contest.id), key=lambda x: -x.id):
        task = contest.task(s.task)
        name = f"{task.letter} - {task.statement.title}" if task else s.task
        k = s.polls
        s.polls += 1
        if k < site.judging_polls:
            status = _label("label-default", "Waiting for Judging", "WJ", wide=True)
        elif k < 2 * site.judging_polls:
            status = _label("label-default", "Judging", "1/3", wide=True)
        else:
            cls = "label-success" if s.verdict == "AC" else "label-warning"
            status = _label(cls, _TITLES[s.verdict], s.verdict, wide=s.verdict == "CE")
            status += (
                "<td class='text-right'>21 ms</td><td class='text-right'>9084 KiB</td>" if s.verdict != "CE" else ""
            )
        rows.append(
            "<tr>"
            f"<td class=\"no-break\"><time class='fixtime fixtime-second'>{_cell_time(s.created)}</time></td>"
            f'<td><a href="/contests/{contest.id}/tasks/{s.task}">{html.escape(name)}</a></td>'
            f'<td><a href="/users/{site.user}">{site.user}</a></td>'
            f"<td>{html.escape(LANGUAGES[s.language_id])}</td>"
            f'<td class="text-right submission-score" data-id="{s.id}">{100 if s.verdict == "AC" else 0}</td>'
            f'<td class="text-right">{len(s.source)} Byte</td>{status}'
            f'<td class="text-center"><a href="/contests/{contest.id}/submissions/{s.id}">Detail</a></td></tr>'
        )
    head = '<table class="table table-bordered table-striped small th-center"><thead><tr><th>Time</th></tr></thead>'
    table = f"{head}<tbody>{''.join(rows)}</tbody></table>"
    return _contest_page(contest, "My Submissions", table)


def started_utc(contest: Contest) -> datetime:
    return datetime.fromtimestamp(contest.start, UTC)


def _heuristic_standings(contest: Contest, now: float) -> dict[str, Any]:
    """An AHC's standings JSON: one task, ranked by total score alone (ties share a rank), `Score` in
    hundredths as in every AtCoder standings; `Fixed` once the contest is over (the system test's totals)."""
    info = [{"Assignment": t.letter, "TaskName": t.statement.title, "TaskScreenName": t.id} for t in contest.tasks]
    task = contest.tasks[0]
    ordered = sorted(contest.standings, key=lambda e: -(e.score or 0.0))
    rows = []
    for i, e in enumerate(ordered):
        mine = e.score or 0.0
        rank = 1 + sum(1 for o in ordered if (o.score or 0.0) > mine)
        result = {
            "Count": 1,
            "Failure": 0,
            "Penalty": 0,
            "Score": round(mine * 100),
            "Elapsed": int(e.elapsed_s * 1e9),
            "Status": 1,
            "Pending": False,
            "Frozen": False,
            "Additional": None,
        }
        rows.append(
            {
                "Rank": rank, "Additional": None, "UserName": e.handle, "UserScreenName": e.handle,
                "UserIsDeleted": False, "Affiliation": "", "Country": "JP", "Rating": e.rating, "OldRating": e.rating,
                "IsRated": e.rated, "IsTeam": False, "Competitions": e.competitions, "AtCoderRank": i + 1,
                "TaskResults": {task.id: result} if mine else {},
                "TotalResult": {
                    "Count": 1, "Accepted": 1 if mine else 0, "Penalty": 0, "Score": round(mine * 100),
                    "Elapsed": int(e.elapsed_s * 1_000_000_000), "Frozen": False, "Additional": None,
                },
            }
        )  # fmt: skip
    fixed = now >= contest.start + contest.duration_s
    return {"Fixed": fixed, "AdditionalColumns": None, "TaskInfo": info, "StandingsData": rows, "Translation": {}}
