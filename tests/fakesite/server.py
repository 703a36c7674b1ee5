"""The HTTP side of the fake sites: a threaded server on 127.0.0.1 answering like Codeforces and LeetCode.

Routing is by path (the two sites' paths do not overlap), so requests may arrive with the real sites'
Host headers (through `cpbot.scrapers.endpoints.RoutingTransport`) or with 127.0.0.1.
"""

from __future__ import annotations

import html
import json
import re
import threading
from email.message import Message
from email.parser import BytesParser
from email.policy import HTTP
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from cpbot.scrapers.codeforces.api import GYM_FIRST_ID
from tests.fakesite.state import LC_STATUS, SUBMIT_FORM_FIXTURE, CfContest, FakeSite, FakeSubmission

CF = "https://codeforces.com"
_TITLE_INDEX = re.compile(r'(<div class="title"[^>]*>\s*)([A-Za-z0-9]{1,4})(\.)')
CAPTCHA_PAGE = (
    "<!DOCTYPE html><html><head><title>Verification</title>"
    '<script src="https://www.google.com/recaptcha/api.js"></script></head><body>'
    '<form method="post"><div class="g-recaptcha" data-sitekey="6Lc-fake"></div></form></body></html>'
)
CLOUDFLARE_PAGE = (
    "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>"
    '<div id="challenge-form"></div><script>window._cf_chl_opt={cType: "managed"};</script></body></html>'
)
LC_LOGIN_PAGE = (
    "<!DOCTYPE html><html><head><title>Account Login - LeetCode</title></head><body>"
    '<form method="post" action="/accounts/login/"><input name="login"><input name="password" type="password">'
    '<button type="submit">Sign In</button></form></body></html>'
)


class Reply:
    """What a handler answers: status, headers, body."""

    def __init__(self, status: int, body: bytes | str = b"", ctype: str = "text/html; charset=utf-8") -> None:
        self.status = status
        self.body = body.encode("utf-8") if isinstance(body, str) else body
        self.headers: list[tuple[str, str]] = [("Content-Type", ctype)]

    @classmethod
    def json(cls, obj: Any, status: int = 200) -> Reply:
        return cls(status, json.dumps(obj), "application/json")

    @classmethod
    def redirect(cls, location: str) -> Reply:
        r = cls(302, b"")
        r.headers.append(("Location", location))
        return r


class Request:
    def __init__(self, method: str, path: str, headers: Message, body: bytes) -> None:
        parts = urlsplit(path)
        self.method = method
        self.path = parts.path
        self.query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        self.headers = headers
        self.body = body
        jar: SimpleCookie = SimpleCookie()
        for header in headers.get_all("Cookie") or []:
            jar.load(header)
        self.cookies = {k: m.value for k, m in jar.items()}

    def form(self) -> dict[str, str]:
        """The fields of a urlencoded or multipart/form-data body."""
        ctype = self.headers.get("Content-Type", "")
        if ctype.startswith("multipart/form-data"):
            msg = BytesParser(policy=HTTP).parsebytes(b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + self.body)
            out = {}
            for part in msg.iter_parts():
                name = part.get_param("name", header="content-disposition")
                if name:
                    payload = part.get_payload(decode=True) or b""
                    out[str(name)] = payload.decode("utf-8")
            return out
        return {k: v[-1] for k, v in parse_qs(self.body.decode("utf-8"), keep_blank_values=True).items()}

    def json(self) -> Any:
        try:
            return json.loads(self.body or b"null")
        except json.JSONDecodeError:
            return None


class FakeSiteServer:
    """Serves a `FakeSite` on 127.0.0.1 (random port); use as a context manager."""

    def __init__(self, site: FakeSite | None = None, host: str = "127.0.0.1", port: int = 0) -> None:
        self.site = site or FakeSite()
        self._httpd = ThreadingHTTPServer((host, port), _handler_class(self.site))
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeSiteServer:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="fakesite", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeSiteServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def env(self) -> dict[str, str]:
        """Environment variables that point cpbot's site clients at this server."""
        return {"CPBOT_CODEFORCES_URL": self.url, "CPBOT_LEETCODE_URL": self.url}

    def client(self, cookies: Any = None) -> Any:
        """A `scrapers.http.HttpClient` whose codeforces.com / leetcode.com requests come here (and
        nowhere else)."""
        from cpbot.scrapers.endpoints import Endpoints, site_client

        return site_client(Endpoints.everywhere(self.url), cookies=cookies, strict=True)


def _handler_class(site: FakeSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def _serve(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            req = Request(method, self.path, self.headers, body)
            with site.lock:
                site.requests.append((method, req.path))
            try:
                reply = route(site, req)
            except Exception as e:  # a bug in the fake must show up in the test, as a 500 with the error
                reply = Reply(500, f"fake site error: {type(e).__name__}: {e}", "text/plain")
            self.send_response(reply.status)
            for name, value in reply.headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        def do_GET(self) -> None:
            self._serve("GET")

        def do_POST(self) -> None:
            self._serve("POST")

    return Handler


def route(site: FakeSite, req: Request) -> Reply:
    """Dispatch one request to the site that owns its path."""
    p = req.path
    if site.wall is not None:
        with site.lock:
            agent = req.headers.get("User-Agent", "")
            if not site.wall.admits(req.cookies, agent):
                r = Reply(403, site.wall.challenge_page(agent))
                r.headers += [("cf-mitigated", "challenge"), ("Server", "cloudflare")]
                return r
    if p.startswith("/api/"):
        if site.block is not None and site.block_scope == "all":
            return _blocked(site)
        return cf_api(site, req)
    lc = p == "/graphql" or p.startswith(("/contest/api/", "/submissions/", "/accounts/", "/problems/"))
    lc = lc or bool(re.match(r"^/contest/[a-z][\w-]*/problems/", p))
    is_submit = p.endswith("/submit") or p.endswith("/submit/")
    if site.block is not None and (site.block_scope in ("pages", "all") or is_submit):
        return _blocked(site)
    return leetcode(site, req) if lc else codeforces(site, req)


def _blocked(site: FakeSite) -> Reply:
    if site.block == "cloudflare":
        r = Reply(403, CLOUDFLARE_PAGE)
        r.headers += [("cf-mitigated", "challenge"), ("Server", "cloudflare")]
        return r
    return Reply(200, CAPTCHA_PAGE)


# ---------------------------------------------------------------- Codeforces


def cf_api(site: FakeSite, req: Request) -> Reply:
    method = req.path[len("/api/") :]
    q = req.query
    now = site.clock()
    with site.lock:
        if method == "contest.list":
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


def codeforces(site: FakeSite, req: Request) -> Reply:
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
        return Reply(
            200,
            _cf_page(
                site, None, "Login", _login_form(site, req, "") + _autofill(site, site.cf_handle, site.cf_password)
            ),
        )
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


# ---------------------------------------------------------------- LeetCode


def _lc_signed_in(site: FakeSite, req: Request) -> bool:
    return not site.logged_out and req.cookies.get("LEETCODE_SESSION") == site.lc_session


def _lc_csrf_ok(site: FakeSite, req: Request) -> bool:
    cookie = req.cookies.get("csrftoken")
    return bool(cookie) and cookie == site.lc_csrf and req.headers.get("x-csrftoken") == cookie


def leetcode(site: FakeSite, req: Request) -> Reply:
    p = req.path
    if p == "/graphql" and req.method == "POST":
        return _lc_graphql(site, req)
    if p.startswith("/accounts/login"):
        return _lc_login(site, req)
    m = re.match(r"^/contest/api/info/([\w-]+)/?$", p)
    if m:
        contest = site.lc_contests.get(m.group(1))
        if contest is None:
            return Reply.json({"error": "contest not found"}, status=404)
        started = contest.started(site.clock())
        questions = [
            {"question_id": int(q.question_id), "title": q.title, "title_slug": q.slug, "credit": q.credit}
            for q in contest.questions
        ]
        info = {"title": contest.title, "title_slug": contest.slug, "start_time": int(contest.start)}
        info["duration"] = contest.duration_s
        return Reply.json({"contest": info, "questions": questions if started else [], "registered": False})
    m = re.match(r"^/contest/api/ranking/([\w-]+)/?$", p)
    if m:
        contest = site.lc_contests.get(m.group(1))
        if contest is None:
            return Reply.json({"error": "contest not found"}, status=404)
        page = int(req.query.get("pagination", "1") or 1)
        rows = [
            {"username": name, "user_slug": name, "rank": i, "score": score, "finish_time": int(contest.start) + at}
            for i, (name, score, at) in enumerate(contest.ranking, start=1)
        ]
        site.ranking_pages.append(page)
        return Reply.json({"total_rank": rows[(page - 1) * 25 : page * 25], "user_num": len(rows)})
    m = re.match(r"^(?:/contest/[\w-]+)?/problems/([\w-]+)/submit/?$", p)
    if m and req.method == "POST":
        return _lc_submit(site, req, m.group(1))
    m = re.match(r"^/submissions/detail/(\d+)/check/?$", p)
    if m:
        if not _lc_signed_in(site, req):
            return Reply.redirect(f"/accounts/login/?next={quote(p)}")
        return _lc_check(site, int(m.group(1)))
    m = re.match(r"^(?:/contest/[\w-]+)?/problems/([\w-]+)/?$", p)
    if m:
        return Reply(200, f"<html><head><title>{m.group(1)} - LeetCode</title></head><body></body></html>")
    return Reply(404, "<html><body>Not found</body></html>")


def _lc_login(site: FakeSite, req: Request) -> Reply:
    form = req.form() if req.method == "POST" else {}
    if form.get("login") == site.lc_user and form.get("password") == site.lc_password:
        r = Reply.redirect("/")
        for name, value in (("LEETCODE_SESSION", site.lc_session), ("csrftoken", site.lc_csrf)):
            r.headers.append(("Set-Cookie", f"{name}={value}; Path=/; Max-Age=1209600"))
        return r
    return Reply(200, LC_LOGIN_PAGE.replace("</body>", _autofill(site, site.lc_user, site.lc_password) + "</body>"))


def _autofill(site: FakeSite, user: str, password: str) -> str:
    """With `site.autofill_login`, a script that signs in as the user would (a password manager): tests of
    `cpbot login --browser` need no one at the keyboard."""
    if not site.autofill_login:
        return ""
    return (
        "<script>setTimeout(function () {"
        "var f = document.forms[0];"
        f"(f.handleOrEmail || f.login).value = {json.dumps(user)};"
        f"f.password.value = {json.dumps(password)};"
        "f.submit(); }, 100);</script>"
    )


def _lc_submit(site: FakeSite, req: Request, slug: str) -> Reply:
    if not req.cookies.get("LEETCODE_SESSION") or not _lc_signed_in(site, req):
        site.rejected["login"] += 1
        return Reply.redirect(f"/accounts/login/?next={quote(req.path)}")
    if not _lc_csrf_ok(site, req):
        site.rejected["csrf"] += 1
        return Reply(403, "<html><body><h1>Forbidden (403)</h1><p>CSRF verification failed.</p></body></html>")
    q = site.lc_public(slug)
    body = req.json()
    if q is None:
        return Reply.json({"error": "question not found"}, status=404)
    if not isinstance(body, dict) or str(body.get("question_id")) != q.question_id:
        site.rejected["question_id"] += 1
        return Reply.json({"error": "invalid question_id"}, status=400)
    if body.get("lang") not in ("cpp", "python3", "python", "java"):
        site.rejected["lang"] += 1
        return Reply.json({"error": "invalid lang"}, status=400)
    code = body.get("typed_code")
    if not isinstance(code, str) or not code.strip():
        return Reply.json({"error": "empty code"}, status=400)
    sub = site.new_submission(
        site="leetcode",
        problem_key=slug,
        source=code,
        language=body["lang"],
        handle=site.lc_user,
        practice=site.lc_over(slug),
    )
    return Reply.json({"submission_id": sub.id})


def _lc_check(site: FakeSite, sub_id: int) -> Reply:
    s = site.submission("leetcode", sub_id)
    if s is None:
        return Reply.json({"state": "PENDING"})  # like the real site: unknown ids look pending
    with site.lock:
        stage, _ = s.observe(site.queued_polls, site.testing_polls)
    if stage == "queued":
        return Reply.json({"state": "PENDING"})
    if stage == "testing":
        return Reply.json({"state": "STARTED"})
    o = s.outcome
    code, msg = LC_STATUS.get(o.verdict, (21, "Unknown Error"))
    q = site.lc_questions.get(s.problem_key)
    total = q.tests if q else o.total_tests
    correct = total if o.verdict == "OK" else max(0, (o.failed_test or 1) - 1)
    result: dict[str, Any] = {
        "status_code": code,
        "lang": s.language,
        "run_success": o.verdict not in ("COMPILATION_ERROR", "RUNTIME_ERROR"),
        "status_runtime": f"{o.time_ms} ms",
        "memory": o.memory_kb * 1000,
        "question_id": q.question_id if q else "",
        "elapsed_time": o.time_ms + 20,
        "compare_result": "1" * correct + ("0" if correct < total else "") + "0" * max(0, total - correct - 1),
        "code_output": "",
        "std_output": "",
        "last_testcase": "",
        "expected_output": "",
        "task_finish_time": int(s.created * 1000) + 1500,
        "total_correct": None if o.verdict == "COMPILATION_ERROR" else correct,
        "total_testcases": None if o.verdict == "COMPILATION_ERROR" else total,
        "runtime_percentile": 71.5 if o.verdict == "OK" else None,
        "status_memory": f"{o.memory_kb / 1000:.1f} MB",
        "memory_percentile": 40.2 if o.verdict == "OK" else None,
        "pretty_lang": {"cpp": "C++", "python3": "Python3"}.get(s.language, s.language),
        "submission_id": str(s.id),
        "status_msg": msg,
        "state": "SUCCESS",
    }
    if o.verdict == "WRONG_ANSWER":
        result.update(last_testcase="[1,2,3]\n4", code_output="5", expected_output="7")
    if o.verdict == "RUNTIME_ERROR":
        result.update(runtime_error="Line 3: IndexError: list index out of range", last_testcase="[]")
    if o.verdict == "COMPILATION_ERROR":
        result.update(compile_error="Line 1: error: expected ';'", full_compile_error="Line 1: error: expected ';'")
    return Reply.json(result)


def _lc_graphql(site: FakeSite, req: Request) -> Reply:
    body = req.json()
    if not isinstance(body, dict) or not isinstance(body.get("query"), str):
        return Reply.json({"errors": [{"message": "Must provide query string."}]}, status=400)
    query = body["query"]
    variables = body.get("variables") or {}
    now = site.clock()
    if "upcomingContests" in query or "allContests" in query:
        key = "upcomingContests" if "upcomingContests" in query else "allContests"
        contests = sorted(site.lc_contests.values(), key=lambda c: c.start)
        if key == "upcomingContests":
            contests = [c for c in contests if now < c.start + c.duration_s]
        rows = [
            {"title": c.title, "titleSlug": c.slug, "startTime": int(c.start), "duration": c.duration_s}
            for c in contests
        ]
        return Reply.json({"data": {key: rows}})
    if "userStatus" in query:
        signed = _lc_signed_in(site, req)
        status = {"isSignedIn": signed, "username": site.lc_user if signed else "", "isPremium": False}
        return Reply.json({"data": {"userStatus": status}})
    if "submissionList" in query:
        if not _lc_signed_in(site, req):
            return Reply.json({"errors": [{"message": "User is not authenticated"}], "data": None})
        slug = variables.get("questionSlug")
        with site.lock:
            subs = [s for s in site.submissions if s.site == "leetcode" and (not slug or s.problem_key == slug)]
        subs.sort(key=lambda s: -s.id)
        rows = [
            {"id": str(s.id), "titleSlug": s.problem_key, "lang": s.language, "timestamp": str(int(s.created))}
            for s in subs
        ]
        return Reply.json({"data": {"questionSubmissionList": {"submissions": rows, "hasNext": False}}})
    if "submissionDetails" in query:
        if not _lc_signed_in(site, req):
            return Reply.json({"errors": [{"message": "User is not authenticated"}], "data": None})
        s = site.submission("leetcode", int(variables.get("submissionId") or 0))
        if s is None:
            return Reply.json({"data": {"submissionDetails": None}})
        details = {
            "code": s.source,
            "timestamp": int(s.created),
            "lang": {"name": s.language},
            "question": {"titleSlug": s.problem_key},
        }
        return Reply.json({"data": {"submissionDetails": details}})
    if "question(" in query or "question (" in query:
        slug = variables.get("titleSlug", "")
        q = site.lc_public(slug)
        return Reply.json({"data": {"question": dict(q.payload) if q else None}})
    return Reply.json({"errors": [{"message": "Cannot query this field on the fake site"}]}, status=400)
