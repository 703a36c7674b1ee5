"""A fake LeetCode: its state (contests, questions from the recorded answers) and its HTTP answers
(GraphQL, the contest API, submit and check), as the real site gives them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from tests.fakes.http import Reply, Request, autofill

if TYPE_CHECKING:
    from tests.fakes.state import FakeSite

LC_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "leetcode"
# Codeforces verdict -> LeetCode (status_code, status_msg)
LC_STATUS = {
    "OK": (10, "Accepted"),
    "WRONG_ANSWER": (11, "Wrong Answer"),
    "MEMORY_LIMIT_EXCEEDED": (12, "Memory Limit Exceeded"),
    "OUTPUT_LIMIT_EXCEEDED": (13, "Output Limit Exceeded"),
    "TIME_LIMIT_EXCEEDED": (14, "Time Limit Exceeded"),
    "RUNTIME_ERROR": (15, "Runtime Error"),
    "COMPILATION_ERROR": (20, "Compile Error"),
}
LC_LOGIN_PAGE = (
    "<!DOCTYPE html><html><head><title>Account Login - LeetCode</title></head><body>"
    '<form method="post" action="/accounts/login/"><input name="login"><input name="password" type="password">'
    '<button type="submit">Sign In</button></form></body></html>'
)


def owns(path: str) -> bool:
    """Whether a request path is LeetCode's (the two fake sites' paths do not overlap)."""
    if path == "/graphql" or path.startswith(("/contest/api/", "/submissions/", "/accounts/", "/problems/")):
        return True
    return bool(re.match(r"^/contest/[a-z][\w-]*/problems/", path))


@dataclass
class LcQuestion:
    """A LeetCode question: the GraphQL `question` object served for its slug."""

    slug: str
    title: str
    question_id: str
    payload: dict[str, Any]
    credit: int = 4
    tests: int = 60


@dataclass
class LcContest:
    slug: str
    title: str
    start: float
    duration_s: int = 5400
    questions: list[LcQuestion] = field(default_factory=list)
    # the global ranking once the contest is over: (username, score, seconds from the start to the finish)
    ranking: list[tuple[str, int, int]] = field(default_factory=list)

    def started(self, now: float) -> bool:
        return now >= self.start


def lc_question(fixture: str) -> LcQuestion:
    """A question from a recorded LeetCode fixture (`lc_decode-ways_example_block`), in wire form."""
    data = json.loads((LC_FIXTURES / f"{fixture}.json").read_text(encoding="utf-8"))
    q = dict(data["data"]["question"])
    if isinstance(q.get("metaData"), dict | list):
        q["metaData"] = json.dumps(q["metaData"])  # on the wire metaData is a JSON string
    return LcQuestion(slug=q["titleSlug"], title=q["title"], question_id=str(q["questionId"]), payload=q)


def _lc_signed_in(site: FakeSite, req: Request) -> bool:
    return not site.logged_out and req.cookies.get("LEETCODE_SESSION") == site.lc_session


def _lc_csrf_ok(site: FakeSite, req: Request) -> bool:
    cookie = req.cookies.get("csrftoken")
    return bool(cookie) and cookie == site.lc_csrf and req.headers.get("x-csrftoken") == cookie


def serve(site: FakeSite, req: Request) -> Reply:
    """LeetCode's answers: GraphQL, the contest API, submit and check, the login page."""
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
    script = autofill(site.autofill_login, site.lc_user, site.lc_password)
    return Reply(200, LC_LOGIN_PAGE.replace("</body>", script + "</body>"))


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
