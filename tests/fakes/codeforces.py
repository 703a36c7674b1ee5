"""A fake Codeforces: its state (contests, problems from the recorded pages) and its HTTP answers (the
official API and the pages cpbot reads and posts to), as the real site gives them."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from cpbot.scrapers.codeforces.api import GYM_FIRST_ID
from tests.fakes.http import Reply, Request, autofill

if TYPE_CHECKING:
    from tests.fakes.state import FakeSite, FakeSubmission

CF_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "codeforces"
SUBMIT_FORM_FIXTURE = CF_FIXTURES / "api" / "problemset_submit_form_browser_saved.html"
CF = "https://codeforces.com"
_TITLE_INDEX = re.compile(r'(<div class="title"[^>]*>\s*)([A-Za-z0-9]{1,4})(\.)')


@dataclass
class CfProblem:
    """A Codeforces problem: its index in the contest, its name and its statement HTML."""

    index: str
    name: str
    html: str
    tests: int = 12
    points: float | None = None  # the initial value in a Codeforces-scored round


@dataclass
class CfContest:
    id: int
    name: str
    start: float  # unix seconds
    duration_s: int = 7200
    problems: list[CfProblem] = field(default_factory=list)
    type: str = "CF"
    # the official standings once the round is over: (handle, points, penalty, rating before the round)
    ranklist: list[tuple[str, float, int, int | None]] = field(default_factory=list)
    # set: the round starts this many seconds after the first contest list is served (whole seconds, as the
    # API gives them), so a test's round begins when cpbot first looks, however long cpbot took to start
    starts_after_first_list_s: float | None = None

    def phase(self, now: float) -> str:
        if now < self.start:
            return "BEFORE"
        if now < self.start + self.duration_s:
            return "CODING"
        return "FINISHED"

    def problem(self, index: str) -> CfProblem | None:
        return next((p for p in self.problems if p.index.upper() == index.upper()), None)


def cf_problem(fixture: str, index: str | None = None) -> CfProblem:
    """A problem from a recorded Codeforces fixture (`cf_1702A_modern_single_line_cases`), served
    under `index` (the page's own index by default)."""
    html = (CF_FIXTURES / f"{fixture}.html").read_text(encoding="utf-8")
    expected = json.loads((CF_FIXTURES / f"{fixture}.expected.json").read_text(encoding="utf-8"))
    return CfProblem(index=index or expected["index"], name=expected["title"], html=html)


def cf_languages() -> list[tuple[str, str]]:
    """(programTypeId, name) of the language options of the recorded submit form."""
    html = SUBMIT_FORM_FIXTURE.read_text(encoding="utf-8")
    select = re.search(r'<select[^>]*name="programTypeId"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None, "the recorded submit form lost its language select"
    return re.findall(r'<option value="(\d+)"[^>]*>([^<]*)</option>', select.group(1))


def api(site: FakeSite, req: Request) -> Reply:
    """The official API (`/api/<method>`): contest lists, standings, rating changes, submissions."""
    method = req.path[len("/api/") :]
    q = req.query
    now = site.clock()
    with site.lock:
        if method == "contest.list":
            for c in site.cf_contests.values():
                if c.starts_after_first_list_s is not None:
                    c.start = float(int(now + c.starts_after_first_list_s) + 1)
                    c.starts_after_first_list_s = None
            # gym contests (ids from 100000 on) are listed only with gym=true, rounds only without
            gym = q.get("gym", "false") == "true"
            listed = [c for c in site.cf_contests.values() if (c.id >= GYM_FIRST_ID) == gym]
            return _ok([_cf_contest_obj(c, now) for c in sorted(listed, key=lambda c: -c.start)])
        if method == "contest.standings":
            contest = site.cf_contests.get(int(q.get("contestId", "0") or 0))
            if contest is None:
                return _failed(f"contestId: Contest with id {q.get('contestId')} not found")
            if contest.phase(now) == "BEFORE":
                return _failed(f"contestId: Contest with id {contest.id} has not started")
            problems = [
                {"contestId": contest.id, "index": p.index, "name": p.name, "type": "PROGRAMMING", "tags": []}
                | ({"points": p.points} if p.points is not None else {})
                for p in contest.problems
            ]
            rows = []
            if contest.phase(now) == "FINISHED":  # official rows, as contest.standings gives them
                for rank, (handle, points, penalty, _) in enumerate(contest.ranklist, start=1):
                    party = {"contestId": contest.id, "members": [{"handle": handle}], "participantType": "CONTESTANT"}
                    rows.append({"party": party, "rank": rank, "points": points, "penalty": penalty,
                                 "problemResults": []})  # fmt: skip
            return _ok({"contest": _cf_contest_obj(contest, now), "problems": problems, "rows": rows})
        if method == "contest.ratingChanges":
            contest = site.cf_contests.get(int(q.get("contestId", "0") or 0))
            if contest is None:
                return _failed(f"contestId: Contest with id {q.get('contestId')} not found")
            changes = [
                {"contestId": contest.id, "handle": handle, "rank": rank, "oldRating": rating, "newRating": rating}
                for rank, (handle, _, _, rating) in enumerate(contest.ranklist, start=1)
                if rating is not None and contest.phase(now) == "FINISHED"
            ]
            return _ok(changes)
        if method in ("user.status", "contest.status"):
            handle = q.get("handle", "")
            if method == "user.status" and not handle:
                return _failed("handle: Field should not be empty")
            subs = [s for s in site.submissions if s.site == "codeforces" and (not handle or s.handle == handle)]
            if method == "contest.status":
                subs = [s for s in subs if str(s.contest_id) == q.get("contestId")]
            subs.sort(key=lambda s: -s.id)
            start = max(1, int(q.get("from", "1") or 1))
            count = int(q.get("count", "0") or 0) or len(subs)
            chosen = subs[start - 1 : start - 1 + count]
            return _ok([_cf_submission_obj(site, s) for s in chosen])
    return _failed(f"Method {method} not found")


def _ok(result: Any) -> Reply:
    return Reply.json({"status": "OK", "result": result})


def _failed(comment: str) -> Reply:
    return Reply.json({"status": "FAILED", "comment": comment}, status=400)


def _cf_contest_obj(c: CfContest, now: float) -> dict[str, Any]:
    return {
        "id": c.id,
        "name": c.name,
        "type": c.type,
        "phase": c.phase(now),
        "frozen": False,
        "durationSeconds": c.duration_s,
        "startTimeSeconds": int(c.start),
        "relativeTimeSeconds": int(now - c.start),
    }


def _cf_stage(site: FakeSite, s: FakeSubmission) -> tuple[str | None, bool]:
    stage, _ = s.observe(site.queued_polls, site.testing_polls)
    if stage == "queued":
        return None, False
    if stage == "testing":
        return "TESTING", False
    return s.outcome.verdict, True


def _cf_submission_obj(site: FakeSite, s: FakeSubmission) -> dict[str, Any]:
    verdict, final = _cf_stage(site, s)
    o = s.outcome
    contest = site.cf_contests.get(s.contest_id or 0)
    obj: dict[str, Any] = {
        "id": s.id,
        "contestId": s.contest_id,
        "creationTimeSeconds": int(s.created),
        "relativeTimeSeconds": int(s.created - contest.start) if contest and not s.practice else 2147483647,
        "problem": {"contestId": s.contest_id, "index": s.index, "name": "", "type": "PROGRAMMING", "tags": []},
        "author": {
            "contestId": s.contest_id,
            "members": [{"handle": s.handle}],
            "participantType": "PRACTICE" if s.practice else "CONTESTANT",
            "ghost": False,
        },
        "programmingLanguage": s.language,
        "testset": "TESTS",
        "passedTestCount": 0,
        "timeConsumedMillis": 0,
        "memoryConsumedBytes": 0,
    }
    if contest is not None:
        problem = contest.problem(s.index or "")
        obj["problem"]["name"] = problem.name if problem else ""
    if verdict is not None:
        obj["verdict"] = verdict
    if final:
        passed = o.total_tests if o.verdict == "OK" else max(0, (o.failed_test or 1) - 1)
        obj.update(passedTestCount=passed, timeConsumedMillis=o.time_ms, memoryConsumedBytes=o.memory_kb * 1024)
    return obj


def _origin(req: Request) -> str:
    """Where Codeforces redirects and its login form point: the real site for cpbot's HTTP client (whose
    routing sends its requests here with the real Host), this server's own address for a browser, which
    follows redirects and forms itself."""
    host = req.headers.get("Host", "")
    return CF if not host or host.split(":")[0].endswith("codeforces.com") else f"http://{host}"


def _cf_user(site: FakeSite, req: Request) -> str | None:
    if site.logged_out:
        return None
    return site.cf_sessions.get(req.cookies.get("JSESSIONID", ""))


def _cf_page(site: FakeSite, user: str | None, title: str, body: str) -> str:
    if user:
        header = f'<a href="{CF}/profile/{user}">{user}</a> | <a href="{CF}/{site.cf_csrf}/logout">Logout</a>'
        script = f'<script type="text/javascript">var handle = "{user}";</script>'
    else:
        header = f'<a href="{CF}/enter?back=%2F">Enter</a> | <a href="{CF}/register">Register</a>'
        script = ""
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta name="X-Csrf-Token" content="{site.cf_csrf}">'
        f'<meta name="utc_offset" content="+00:00"><title>{html.escape(title)} - Codeforces</title>{script}</head>'
        f"<body><span style=\"display:none;\" class='csrf-token' data-csrf='{site.cf_csrf}'>&nbsp;</span>"
        f'<div id="header"><div class="lang-chooser"><div>{header}</div></div></div>'
        f'<div id="pageContent">{body}</div></body></html>'
    )


def pages(site: FakeSite, req: Request) -> Reply:
    """The site's pages: home, login, contests, problems, the submit form, my submissions, sources."""
    p = req.path.rstrip("/") or "/"
    user = _cf_user(site, req)
    now = site.clock()
    if p == "/enter":
        return _cf_enter(site, req, user)
    if p == "/":
        return Reply(200, _cf_page(site, user, "Codeforces", "<p>Welcome</p>"))
    m = re.match(r"^/(contest|gym|problemset/problem)/(\d+)(?:/(problem/)?([A-Za-z0-9]+))?(/[a-z]+(?:/\d+)?)?$", p)
    if not m:
        return Reply(404, _cf_page(site, user, "Not found", "<p>Page not found</p>"))
    contest = site.cf_contests.get(int(m.group(2)))
    if contest is None:
        return Reply(404, _cf_page(site, user, "Not found", "<p>No such contest</p>"))
    tail = m.group(5) or ""
    index = m.group(4)
    if m.group(1) == "problemset/problem":
        index, tail = (index, "") if index else (None, tail)
    elif index and not m.group(3):  # /contest/N/problems, /contest/N/submit, /contest/N/my (/gym/N/... alike)
        tail, index = "/" + index + tail, None
    if tail == "/submit":
        return _cf_submit(site, req, user, contest)
    if tail == "/my":
        return _cf_my(site, req, user, contest)
    sm = re.match(r"^/submission/(\d+)$", tail)
    if sm:
        return _cf_source(site, req, user, contest, int(sm.group(1)))
    if contest.phase(now) == "BEFORE":
        left = int(contest.start - now)
        body = f'<div class="contest-state">The contest has not started yet. Before start: {left} s</div>'
        return Reply(200, _cf_page(site, user, contest.name, body))
    if index:
        problem = contest.problem(index)
        if problem is None:
            return Reply(404, _cf_page(site, user, "Not found", "<p>No such problem</p>"))
        return Reply(200, _cf_problem_page(site, user, contest, problem.index, problem.html))
    if tail == "/problems":
        frames = "".join(
            f"<div>{_statement_block(pr.index, pr.html)}</div>" for pr in contest.problems if "<html" not in pr.html
        )
        body = f'<div class="caption">{html.escape(contest.name)}</div><div class="problem-frames">{frames}</div>'
        return Reply(200, _cf_page(site, user, contest.name, body))
    rows = "".join(
        f'<tr><td class="id"><a href="/contest/{contest.id}/problem/{pr.index}">{pr.index}</a></td>'
        f"<td>{html.escape(pr.name)}</td></tr>"
        for pr in contest.problems
    )
    body = f'<table class="problems"><tbody>{rows}</tbody></table>'
    return Reply(200, _cf_page(site, user, contest.name, body))


def _statement_block(index: str, fixture_html: str) -> str:
    text = _TITLE_INDEX.sub(lambda m: m.group(1) + index + m.group(3), fixture_html, count=1)
    if "problem-statement" in text:
        return text
    return (
        f'<div class="problemindexholder" problemindex="{index}"><div class="ttypography">'
        f'<div class="problem-statement">{text}</div></div></div>'
    )


def _cf_problem_page(site: FakeSite, user: str | None, contest: CfContest, index: str, fixture_html: str) -> str:
    block = _statement_block(index, fixture_html)
    if "<html" in fixture_html:
        return block  # a whole page saved from the site: served as recorded (index rewritten)
    sidebar = (
        f'<table class="rtable"><tbody><tr><th><a href="{CF}/contest/{contest.id}">'
        f"{html.escape(contest.name)}</a></th></tr></tbody></table>"
    )
    return _cf_page(site, user, f"Problem - {index}", sidebar + block)


def _cf_enter(site: FakeSite, req: Request, user: str | None) -> Reply:
    if req.method == "GET":
        if user:
            return Reply.redirect(f"{_origin(req)}/")
        script = autofill(site.autofill_login, site.cf_handle, site.cf_password)
        return Reply(200, _cf_page(site, None, "Login", _login_form(site, req, "") + script))
    form = req.form()
    if form.get("csrf_token") != site.cf_csrf or form.get("_tta") != site.cf_tta:
        return Reply(403, _cf_page(site, None, "Login", "<p>Invalid CSRF token</p>"))
    if form.get("handleOrEmail") != site.cf_handle or form.get("password") != site.cf_password:
        error = '<span class="error for__password">Invalid handle/email or password</span>'
        return Reply(200, _cf_page(site, None, "Login", _login_form(site, req, error)))
    session = "cfsess-" + f"{len(site.cf_sessions):04d}" + site.cf_csrf[:8]
    with site.lock:
        site.cf_sessions[session] = site.cf_handle
    r = Reply.redirect(f"{_origin(req)}/")
    keep = "; Max-Age=2592000" if form.get("remember") == "on" else ""  # "remember me": outlives the browser
    r.headers.append(("Set-Cookie", f"JSESSIONID={session}; Path=/; HttpOnly{keep}"))
    return r


def _login_form(site: FakeSite, req: Request, error: str) -> str:
    return (
        f'<form method="post" action="{_origin(req)}/enter" id="enterForm">'
        f'<input type="hidden" name="csrf_token" value="{site.cf_csrf}">'
        '<input type="hidden" name="action" value="enter"><input type="hidden" name="ftaa" value="">'
        '<input type="hidden" name="bfaa" value=""><input name="handleOrEmail" id="handleOrEmail">'
        f'<input name="password" type="password" id="password">{error}'
        f'<input type="hidden" name="_tta" value="{site.cf_tta}">'
        '<input type="checkbox" name="remember" checked><input type="submit" value="Login"></form>'
    )


def _cf_submit_form(site: FakeSite, user: str, contest: CfContest, error: str = "") -> str:
    page = SUBMIT_FORM_FIXTURE.read_text(encoding="utf-8")
    page = page.replace("aed84904bdfbdfffc9fd857ea451dfe4", site.cf_csrf).replace("sirkim21", user)
    page = page.replace('name="_tta" value="790"', f'name="_tta" value="{site.cf_tta}"')
    page = page.replace(f"{CF}/problemset/submit?", f"{CF}/contest/{contest.id}/submit?")
    options = "".join(f'<option value="{p.index}">{p.index} - {html.escape(p.name)}</option>' for p in contest.problems)
    select = f'<select name="submittedProblemIndex"><option value="">Choose problem</option>{options}</select>'
    page = page.replace('<input name="submittedProblemCode" value="">', select)
    if error:
        page = page.replace(
            '<span class="error for__source" style="display: none;">&nbsp;</span>',
            f'<span class="error for__source">{html.escape(error)}</span>',
        )
        if "error for__source" not in page:
            page = page.replace("</form>", f'<span class="error for__source">{html.escape(error)}</span></form>', 1)
    return page


def _cf_submit(site: FakeSite, req: Request, user: str | None, contest: CfContest) -> Reply:
    if not user:
        return Reply.redirect(f"{_origin(req)}/enter?back={quote(f'/contest/{contest.id}/submit', safe='')}")
    if req.method == "GET":
        return Reply(200, _cf_submit_form(site, user, contest))
    form = req.form()
    if req.query.get("csrf_token") != site.cf_csrf or form.get("csrf_token") != site.cf_csrf:
        site.rejected["csrf"] += 1
        return Reply(403, _cf_page(site, user, "Error", "<p>Invalid CSRF token</p>"))
    if form.get("_tta") != site.cf_tta:
        site.rejected["_tta"] += 1
        return Reply(403, _cf_page(site, user, "Error", "<p>Invalid CSRF token</p>"))
    error = ""
    index = form.get("submittedProblemIndex", "")
    problem = contest.problem(index) if index else None
    languages = dict(site.cf_languages)
    source = form.get("source", "")
    if contest.phase(site.clock()) == "BEFORE":
        error = "The contest has not started"
    elif problem is None:
        error = "Choose a problem"
    elif form.get("programTypeId") not in languages:
        error = "Choose a language"
    elif not source.strip():
        error = "Source should not be empty"
    elif form.get("action") != "submitSolutionFormSubmitted":
        error = "Invalid action"
    if not error:
        with site.lock:
            key = f"{contest.id}{problem.index}" if problem else ""
            if any(s.site == "codeforces" and s.problem_key == key and s.source == source for s in site.submissions):
                error = "You have submitted exactly the same code before"
            else:
                site.new_submission(
                    site="codeforces",
                    problem_key=key,
                    source=source,
                    language=languages[form["programTypeId"]],
                    handle=user,
                    contest_id=contest.id,
                    index=problem.index if problem else None,
                    practice=contest.phase(site.clock()) == "FINISHED",  # the contest's page takes practice
                )
                return Reply.redirect(f"{_origin(req)}/contest/{contest.id}/my")
    site.rejected[error] += 1
    return Reply(200, _cf_submit_form(site, user, contest, error))


_CF_VERDICT_TEXT = {
    "OK": "Accepted",
    "WRONG_ANSWER": "Wrong answer",
    "TIME_LIMIT_EXCEEDED": "Time limit exceeded",
    "MEMORY_LIMIT_EXCEEDED": "Memory limit exceeded",
    "RUNTIME_ERROR": "Runtime error",
    "COMPILATION_ERROR": "Compilation error",
}


def _cf_my(site: FakeSite, req: Request, user: str | None, contest: CfContest) -> Reply:
    if not user:
        return Reply.redirect(f"{_origin(req)}/enter?back={quote(f'/contest/{contest.id}/my', safe='')}")
    rows = []
    with site.lock:
        mine = [
            s for s in site.submissions if s.site == "codeforces" and s.handle == user and s.contest_id == contest.id
        ]
        for s in sorted(mine, key=lambda s: -s.id):
            verdict, final = _cf_stage(site, s)
            if verdict is None:
                cell = '<span class="submissionVerdictWrapper" submissionId="{0}" submissionverdict="null">'
                cell += '<span class="verdict-waiting">In queue</span></span>'
            elif not final:
                cell = '<span class="submissionVerdictWrapper" submissionId="{0}" submissionverdict="TESTING">'
                cell += '<span class="verdict-waiting">Running on test 1</span></span>'
            else:
                cls = "verdict-accepted" if verdict == "OK" else "verdict-rejected"
                words = _CF_VERDICT_TEXT.get(verdict, verdict)
                test = s.outcome.failed_test
                on = f' on test <span class="verdict-format-judged">{test}</span>' if test else ""
                cell = f'<span class="submissionVerdictWrapper" submissionId="{{0}}" submissionverdict="{verdict}">'
                cell += f'<span class="{cls}">{words}{on}</span></span>'
            time_ms = s.outcome.time_ms if final else 0
            mem = s.outcome.memory_kb if final else 0
            rows.append(
                f'<tr data-submission-id="{s.id}"><td class="id-cell">'
                f'<a href="/contest/{contest.id}/submission/{s.id}">{s.id}</a></td>'
                f'<td data-problemId="{s.problem_key}">{s.index}</td><td>{html.escape(s.language)}</td>'
                f'<td class="status-cell status-verdict-cell">{cell.format(s.id)}</td>'
                f'<td class="time-consumed-cell">{time_ms}&nbsp;ms</td>'
                f'<td class="memory-consumed-cell">{mem}&nbsp;KB</td></tr>'
            )
    body = f'<div class="datatable"><table class="status-frame-datatable"><tbody>{"".join(rows)}</tbody></table></div>'
    return Reply(200, _cf_page(site, user, "My submissions", body))


def _cf_source(site: FakeSite, req: Request, user: str | None, contest: CfContest, sub_id: int) -> Reply:
    s = site.submission("codeforces", sub_id)
    if s is None or s.contest_id != contest.id:
        return Reply(404, _cf_page(site, user, "Not found", "<p>No such submission</p>"))
    if s.handle != user and contest.phase(site.clock()) != "FINISHED":
        return Reply.redirect(f"{_origin(req)}/")  # other people's code is hidden during the round
    body = f'<pre id="program-source-text" class="prettyprint program-source">{html.escape(s.source)}</pre>'
    return Reply(200, _cf_page(site, user, f"Submission {s.id}", body))
