"""Codeforces' submit protocol: the submit form as the site serves it, then the verdict from the API.

Session: imported browser cookies, or a login with handle and password. The csrf token, the language
ids and the problem field are read from the served form (never hard-coded); the verdict is polled
with the public API `user.status` until it is final.
"""

from __future__ import annotations

import re
from collections.abc import Set
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx
import lxml.html
from lxml.html import HtmlElement

from cpbot.core.errors import SubmitError
from cpbot.core.registry import Family, language_spec, site_spec
from cpbot.judge.model import Problem, Solution, Verdict
from cpbot.scrapers.blocking import BlockedError
from cpbot.scrapers.codeforces.api import CodeforcesApi
from cpbot.scrapers.codeforces.urls import CodeforcesRef, parse_codeforces_url
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.submission import (
    CaptchaRequired,
    DuplicateSubmission,
    ListedSubmission,
    LoginRequired,
    Post,
    PostUncertain,
    RemoteVerdict,
    SubmitProtocol,
)

SITE = site_spec("codeforces").name
ROOT = site_spec("codeforces").base_url
_HANDLE = re.compile(r'var handle = "([^"]+)"')
# Still judging: no verdict yet, or one of these.
_RUNNING = {"TESTING", "SUBMITTED"}
VERDICTS: dict[str, Verdict | None] = {
    "OK": Verdict.AC,
    "WRONG_ANSWER": Verdict.WA,
    "CHALLENGED": Verdict.WA,  # hacked: a test broke it
    "PRESENTATION_ERROR": Verdict.PE,
    "TIME_LIMIT_EXCEEDED": Verdict.TLE,
    "IDLENESS_LIMIT_EXCEEDED": Verdict.TLE,
    "MEMORY_LIMIT_EXCEEDED": Verdict.MLE,
    "RUNTIME_ERROR": Verdict.RE,
    "SECURITY_VIOLATED": Verdict.RE,
    "COMPILATION_ERROR": Verdict.CE,
    "CRASHED": Verdict.IE,
    "FAILED": Verdict.IE,
    "INPUT_PREPARATION_CRASHED": Verdict.IE,
    "SKIPPED": None,
    "REJECTED": None,
    "PARTIAL": None,
}
# The C++ standards a form may offer; a program written for one compiles under the later ones.
CPP_STANDARDS = (11, 14, 17, 20, 23, 26)
# Preferred option texts for a Python runtime, best first (PyPy: the 64-bit build when there is one).
PYTHON_PREFERENCES = {
    "cpython": [r"^Python 3\b"],
    "pypy": [r"^PyPy 3\.\d+ \(.*64", r"^PyPy 3\b", r"^Python 3\b"],
}


def language_preferences(language: str) -> list[str]:
    """The form option texts that run `language`, best first (case-insensitive regexes), from the
    language's registry entry: its family, C++ standard or Python runtime."""
    spec = language_spec(language)
    if spec.family is Family.CPP:
        year = int(spec.standard.lower().removeprefix("c++").removeprefix("gnu++"))
        later = [f"{y:02d}" for y in CPP_STANDARDS if y >= year]
        # the standard asked for, then newer ones; then any G++ or other C++ at one of those standards
        return [
            *(rf"^GNU G\+\+{y}\b" for y in later),
            rf"^GNU G\+\+(?:{'|'.join(later)})",
            rf"C\+\+(?:{'|'.join(later)})\b",
        ]
    return PYTHON_PREFERENCES.get(spec.runtime, [])


def choose_language(options: list[tuple[str, str]], language: str) -> tuple[str, str]:
    """The (programTypeId, text) of the form option that runs `language`; the newest matching version
    wins within the first preference that matches."""
    for pattern in language_preferences(language):
        found = [(v, t) for v, t in options if re.search(pattern, t.strip(), re.IGNORECASE)]
        if found:
            return max(found, key=lambda o: _version_key(o[1]))
    names = ", ".join(t for _, t in options[:12])
    raise SubmitError(
        f"the Codeforces submit form offers no language for {language}",
        hint=f"the form lists: {names}",
    )


def _version_key(text: str) -> tuple[int, ...]:
    m = re.search(r"(\d+(?:\.\d+)*)", text.split("(")[0].split()[-1] if text.split() else "")
    return tuple(int(x) for x in m.group(1).split(".")) if m else ()


def map_verdict(sub: dict[str, Any], problem_id: str) -> RemoteVerdict:
    """An API `Submission` object -> `RemoteVerdict` (no verdict yet, TESTING, or final)."""
    status = sub.get("verdict")
    final = status is not None and status not in _RUNNING
    verdict = VERDICTS.get(status) if final and isinstance(status, str) else None
    passed = sub.get("passedTestCount") if isinstance(sub.get("passedTestCount"), int) else None
    failed = None
    if final and verdict not in (None, Verdict.AC, Verdict.CE) and passed is not None:
        failed = passed + 1
    memory = sub.get("memoryConsumedBytes")
    return RemoteVerdict(
        site=SITE,
        submission_id=str(sub.get("id")),
        problem_id=problem_id,
        verdict=verdict,
        final=final,
        status_text=status or "IN_QUEUE",
        failed_test=failed,
        passed_tests=passed,
        time_ms=sub.get("timeConsumedMillis") if final else None,
        memory_kb=memory // 1024 if final and isinstance(memory, int) else None,
        raw=sub,
    )


class CodeforcesProtocol(SubmitProtocol):
    """Posts through the served submit form; follows verdicts through the API. The session comes from
    the client's cookies, or a login with `handle` and `password`."""

    site = SITE

    def __init__(self, client: HttpClient, *, handle: str | None = None, password: str | None = None) -> None:
        self.client = client
        self.handle = handle
        self._password = password
        self.api = CodeforcesApi(client)

    def close(self) -> None:
        self.client.close()

    # ---- session ----

    def _get(self, url: str) -> httpx.Response:
        try:
            return self.client.get(url)
        except BlockedError as e:
            raise CaptchaRequired(SITE, e.message) from e

    def _page(self, url: str) -> httpx.Response:
        """GET a page that needs a session; logs in once when redirected to /enter and a password is known."""
        response = self._get(url)
        if urlsplit(str(response.url)).path.rstrip("/") == "/enter":
            self._login(response)
            response = self._get(url)
            if urlsplit(str(response.url)).path.rstrip("/") == "/enter":
                raise LoginRequired(SITE, "the login did not stick")
        self._remember_handle(response.text)
        return response

    def _remember_handle(self, text: str) -> None:
        m = _HANDLE.search(text)
        if m:
            self.handle = m.group(1)

    def _login(self, enter_page: httpx.Response) -> None:
        if not self.handle or not self._password:
            raise LoginRequired(SITE, "no session cookie and no handle/password")
        form = read_login_form(enter_page.content, str(enter_page.url))
        fields = dict(form.hidden)
        fields.update(handleOrEmail=self.handle, password=self._password, remember="on")
        try:
            response = self.client.post(form.action, data=fields)
        except BlockedError as e:
            raise CaptchaRequired(SITE, e.message) from e
        if f'var handle = "{self.handle}"' not in response.text:
            raise LoginRequired(SITE, "the handle or password was refused")

    # ---- submit ----

    def submission_url(self, problem: Problem, submission_id: str) -> str:
        return f"{_ref(problem).base()}/submission/{submission_id}"

    def prepare(self, problem: Problem, solution: Solution) -> Post:
        ref = _ref(problem)
        form_page = self._page(f"{ref.base()}/submit")
        form = read_submit_form(form_page.content, str(form_page.url))
        program_type, option = choose_language(form.languages, solution.language)
        fields = dict(form.hidden)
        fields.update(programTypeId=program_type, source=solution.source, tabSize="4", sourceCodeConfirmed="true")
        if form.problem_field == "submittedProblemCode":
            fields["submittedProblemCode"] = f"{ref.contest_id}{ref.index}"
        else:
            if ref.index not in form.problem_choices:
                raise SubmitError(f"the submit form of contest {ref.contest_id} offers no problem {ref.index}")
            fields["submittedProblemIndex"] = ref.index or ""
        fields["contestId"] = ref.contest_id
        return Post(lambda known: self._post(form.action, fields, ref, known), option, self.handle or "")

    def _post(self, action: str, fields: dict[str, str], ref: CodeforcesRef, known: Set[str]) -> str:
        try:
            # multipart, like the browser (the form has a file field)
            response = self.client.post(action, data=fields, files={"sourceFile": ("", b"")})
        except BlockedError as e:
            raise CaptchaRequired(SITE, e.message) from e
        path = urlsplit(str(response.url)).path.rstrip("/")
        if path.endswith("/enter"):
            raise LoginRequired(SITE, "the session expired while submitting")
        if not path.endswith("/my"):
            error = form_error(response.content) or "the site did not accept the submission"
            if "same code" in error.lower():
                raise DuplicateSubmission(f"Codeforces: {error}", hint="change the solution")
            raise SubmitError(f"Codeforces refused the submission: {error}")
        sub_id = _newest_id(response.content, ref, known)
        if sub_id is None:
            raise PostUncertain("Codeforces took the submission but its id was not on the page", hint="run it again")
        return sub_id

    # ---- verdicts ----

    def _user(self) -> str:
        if not self.handle:
            self._remember_handle(self._get(f"{ROOT}/").text)
        if not self.handle:
            raise LoginRequired(SITE, "cannot tell whose submissions to follow")
        return self.handle

    def _recent(self, count: int = 30) -> list[dict[str, Any]]:
        try:
            result = self.api.call("user.status", handle=self._user(), **{"from": 1, "count": count})
        except BlockedError as e:
            raise CaptchaRequired(SITE, e.message) from e
        if not isinstance(result, list):
            raise SubmitError("the Codeforces API answered user.status without a list")
        return [s for s in result if isinstance(s, dict)]

    def poll(self, problem: Problem, submission_id: str) -> RemoteVerdict | None:
        for sub in self._recent():
            if str(sub.get("id")) == str(submission_id):
                return map_verdict(sub, problem.id)
        return None

    # ---- crash recovery ----

    def listed(self, problem_ids: Set[str]) -> list[ListedSubmission]:
        found = []
        for sub in self._recent(50):
            problem = sub.get("problem") or {}
            key = f"{SITE}:{problem.get('contestId')}{problem.get('index')}"
            if key in problem_ids:
                found.append(ListedSubmission(str(sub.get("id")), key, sub.get("creationTimeSeconds") or 0, sub))
        return found

    def source_of(self, listed: ListedSubmission) -> str | None:
        cid = listed.raw.get("contestId")
        response = self._get(f"{ROOT}/contest/{cid}/submission/{listed.submission_id}")
        doc = lxml.html.fromstring(response.content)
        pre = doc.xpath('//pre[@id="program-source-text"]')
        return pre[0].text_content() if pre else None


def _newest_id(my_page: bytes, ref: CodeforcesRef, known: Set[str]) -> str | None:
    """The first submission on the "my submissions" page that is not yet known, for the problem posted."""
    doc = lxml.html.fromstring(my_page)
    for tr in doc.xpath("//tr[@data-submission-id]"):
        sid = tr.get("data-submission-id", "")
        cell = tr.xpath(".//td[@data-problemId]")
        key = cell[0].get("data-problemId") if cell else None
        if sid not in known and key in (None, f"{ref.contest_id}{ref.index}"):
            return sid
    return None


class SubmitForm:
    """What the served submit form asks for."""

    def __init__(
        self,
        action: str,
        hidden: dict[str, str],
        languages: list[tuple[str, str]],
        problem_field: str,
        problem_choices: list[str],
    ) -> None:
        self.action = action
        self.hidden = hidden
        self.languages = languages
        self.problem_field = problem_field
        self.problem_choices = problem_choices


def read_submit_form(page: bytes, page_url: str) -> SubmitForm:
    """Read the submit form of a Codeforces page: action, hidden fields, languages, problem field."""
    doc = lxml.html.fromstring(page)
    forms = doc.xpath('//form[contains(concat(" ", normalize-space(@class), " "), " submit-form ")]')
    if not forms:
        forms = [f for f in doc.xpath("//form") if f.xpath('.//select[@name="programTypeId"]')]
    if not forms:
        if doc.xpath('//form[@id="enterForm"]'):
            raise LoginRequired(SITE)
        raise SubmitError(f"cannot find the submit form on {page_url}", hint="the page layout may have changed")
    form: HtmlElement = forms[0]
    action = urljoin(page_url, form.get("action") or page_url)
    hidden = {i.get("name"): i.get("value") or "" for i in form.xpath('.//input[@type="hidden"][@name]')}
    if not hidden.get("csrf_token"):
        hidden["csrf_token"] = _csrf(doc, page.decode("utf-8", "replace"))
    languages = [
        ((o.get("value") or "").strip(), " ".join(o.text_content().split()))
        for o in form.xpath('.//select[@name="programTypeId"]/option')
        if (o.get("value") or "").strip()
    ]
    if not languages:
        raise SubmitError(f"the submit form on {page_url} lists no languages")
    choices = [
        (o.get("value") or "").strip().upper()
        for o in form.xpath('.//select[@name="submittedProblemIndex"]/option')
        if (o.get("value") or "").strip()
    ]
    field = "submittedProblemIndex" if form.xpath('.//*[@name="submittedProblemIndex"]') else "submittedProblemCode"
    return SubmitForm(action, hidden, languages, field, choices)


class LoginForm:
    """What the served login form asks for besides the handle and password."""

    def __init__(self, action: str, hidden: dict[str, str]) -> None:
        self.action = action
        self.hidden = hidden


def read_login_form(page: bytes, page_url: str) -> LoginForm:
    """Read the login form of the /enter page: its action and every hidden field (csrf_token, ftaa,
    bfaa, _tta, ...) with the values the page gives them."""
    doc = lxml.html.fromstring(page)
    forms = doc.xpath('//form[@id="enterForm"]') or [
        f for f in doc.xpath("//form") if f.xpath('.//input[@name="handleOrEmail"]')
    ]
    if not forms:
        raise SubmitError(f"cannot find the login form on {page_url}", hint="the page layout may have changed")
    form: HtmlElement = forms[0]
    hidden = {i.get("name"): i.get("value") or "" for i in form.xpath('.//input[@type="hidden"][@name]')}
    if not hidden.get("csrf_token"):
        hidden["csrf_token"] = _csrf(doc, page.decode("utf-8", "replace"))
    hidden.setdefault("action", "enter")
    return LoginForm(urljoin(page_url, form.get("action") or page_url), hidden)


def form_error(page: bytes) -> str | None:
    """The error the form shows after a refused POST ("You have submitted exactly the same code before")."""
    doc = lxml.html.fromstring(page)
    for span in doc.xpath('//span[contains(concat(" ", normalize-space(@class), " "), " error ")]'):
        text = " ".join(span.text_content().split())
        if text and "display: none" not in (span.get("style") or ""):
            return text
    return None


def _csrf(doc: HtmlElement, text: str) -> str:
    for xpath in ('//meta[@name="X-Csrf-Token"]/@content', '//span[contains(@class, "csrf-token")]/@data-csrf'):
        found = doc.xpath(xpath)
        if found:
            return str(found[0])
    m = re.search(r"csrf='(.+?)'", text)
    if m:
        return m.group(1)
    raise SubmitError("cannot find the csrf token on the Codeforces page", hint="the page layout may have changed")


def _ref(problem: Problem) -> CodeforcesRef:
    if not problem.url:
        raise SubmitError(f"{problem.id} has no URL to submit to", hint="fetch the problem from its Codeforces URL")
    ref = parse_codeforces_url(problem.url)
    if not ref.index or ref.kind not in ("contest", "gym"):
        raise SubmitError(f"cpbot cannot submit to {problem.url}", hint="contest and gym problems are supported")
    return ref
