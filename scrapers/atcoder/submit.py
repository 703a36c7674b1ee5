"""AtCoder's submit protocol: the submit form as the site serves it, then the verdict from the submission list.

Session: the `REVEL_SESSION` cookie of a browser login. AtCoder's login has a Cloudflare Turnstile check
since 2025-03 and its submit form a human check since 2025, so cpbot never logs in with a password: it
takes the session from the browser (`cpbot login --site atcoder --browser` or exported cookies), and posts
through the browser transport (`--browser`) when the site answers with a challenge page. A form whose
human check is not already passed in that session is reported as `CaptchaRequired`, never bypassed.
The csrf token, the tasks and the language ids are read from the served form (never hard-coded); the
verdict is read from `/contests/CONTEST/submissions/me` until the label is final.
"""

from __future__ import annotations

import re
from collections.abc import Set
from urllib.parse import urlsplit

import httpx

from cpbot.core.errors import SubmitError
from cpbot.core.registry import site_spec
from cpbot.judge.model import Problem, Solution
from cpbot.scrapers.atcoder.submissions import (
    SubmissionRow,
    choose_language,
    parse_submissions,
    parse_submit_form,
)
from cpbot.scrapers.atcoder.urls import ROOT, AtCoderRef, parse_atcoder_url
from cpbot.scrapers.blocking import BlockedError
from cpbot.scrapers.htmltools import load_html
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

SITE = site_spec("atcoder").name
# Filled by the Turnstile widget once a person (or the browser's own check) passed it
_HUMAN_TOKEN_FIELDS = ("cf-turnstile-response", "g-recaptcha-response")
_USER = re.compile(r'var userScreenName = "([^"]+)"')  # the logged-in account, on every page


def _ref(problem: Problem) -> AtCoderRef:
    if not problem.url:
        raise SubmitError(f"{problem.id} has no AtCoder URL to submit to")
    ref = parse_atcoder_url(problem.url)
    if not ref.task:
        raise SubmitError(f"{problem.url} names no task")
    return ref


class AtCoderProtocol(SubmitProtocol):
    """Posts through the served submit form; follows verdicts on the account's submission list."""

    site = SITE

    def __init__(self, client: HttpClient) -> None:
        self.client = client

    def close(self) -> None:
        self.client.close()

    def _get(self, url: str, **params: str) -> httpx.Response:
        try:
            response = self.client.get(url, params=params or None)
        except BlockedError as e:
            raise CaptchaRequired(SITE, e.message) from e
        if urlsplit(str(response.url)).path.rstrip("/") == "/login":
            raise LoginRequired(SITE, "no session: sign in from the browser (the login has a Turnstile check)")
        return response

    # ---- submit ----

    def submission_url(self, problem: Problem, submission_id: str) -> str:
        return f"{ROOT}/contests/{_ref(problem).contest}/submissions/{submission_id}"

    def prepare(self, problem: Problem, solution: Solution) -> Post:
        ref = _ref(problem)
        page = self._get(f"{ROOT}/contests/{ref.contest}/submit", taskScreenName=ref.task or "")
        form = parse_submit_form(page.content, str(page.url))
        if ref.task not in form.tasks:
            raise SubmitError(f"the submit form of {ref.contest} offers no task {ref.task}")
        if form.human_check and not _human_token(page.content):
            raise CaptchaRequired(SITE, "the submit form asks for a human check (Turnstile)")
        language_id, option = choose_language(form.options(ref.task or ""), solution.language)
        fields = {
            "data.TaskScreenName": ref.task or "",
            "data.LanguageId": language_id,
            "sourceCode": solution.source,
            "csrf_token": form.csrf_token,
        }
        for name in _HUMAN_TOKEN_FIELDS:
            token = _human_token(page.content, name)
            if token:
                fields[name] = token
        account = _USER.search(page.text)
        return Post(lambda known: self._post(ref, fields, known), option, account[1] if account else "")

    def _post(self, ref: AtCoderRef, fields: dict[str, str], known: Set[str]) -> str:
        try:
            response = self.client.post(f"{ROOT}/contests/{ref.contest}/submit", data=fields)
        except BlockedError as e:
            raise CaptchaRequired(SITE, e.message) from e
        path = urlsplit(str(response.url)).path.rstrip("/")
        if path == "/login":
            raise LoginRequired(SITE, "the session expired while submitting")
        if not path.endswith("/submissions/me"):
            error = _form_error(response.content) or "the site did not accept the submission"
            if "same" in error.lower() and "code" in error.lower():
                raise DuplicateSubmission(f"AtCoder: {error}", hint="change the solution")
            raise SubmitError(f"AtCoder refused the submission: {error}")
        for row in parse_submissions(response.content, str(response.url)):
            if row.submission_id not in known and row.task == ref.task:
                return row.submission_id
        raise PostUncertain("AtCoder took the submission but its id was not on the page", hint="run it again")

    # ---- verdicts ----

    def _rows(self, contest: str) -> list[SubmissionRow]:
        page = self._get(f"{ROOT}/contests/{contest}/submissions/me")
        return parse_submissions(page.content, str(page.url))

    def poll(self, problem: Problem, submission_id: str) -> RemoteVerdict | None:
        for row in self._rows(_ref(problem).contest):
            if row.submission_id == str(submission_id):
                return _verdict(row, problem.id)
        return None

    # ---- crash recovery ----

    def listed(self, problem_ids: Set[str]) -> list[ListedSubmission]:
        contests = {c for c in (_contest_of(p) for p in problem_ids) if c}
        found = []
        for contest in sorted(contests):
            for row in self._rows(contest):
                key = f"{SITE}:{row.task}"
                if key in problem_ids:
                    created = row.created.timestamp() if row.created else 0.0
                    found.append(ListedSubmission(row.submission_id, key, created, {"contest": row.contest}))
        return found

    def source_of(self, listed: ListedSubmission) -> str | None:
        page = self._get(f"{ROOT}/contests/{listed.raw.get('contest')}/submissions/{listed.submission_id}")
        doc = load_html(page.content, str(page.url))
        pre = doc.xpath('//pre[@id="submission-code"]')
        return pre[0].text_content() if pre else None


def _contest_of(problem_id: str) -> str | None:
    """The contest a pending problem id most likely belongs to: ids name only the task (abc300_a -> abc300;
    a task reused by another contest, like abc107's arc101_a, is looked for in its own contest)."""
    task = problem_id.split(":", 1)[-1]
    return task.rsplit("_", 1)[0].replace("_", "-") if "_" in task else None


def _verdict(row: SubmissionRow, problem_id: str) -> RemoteVerdict:
    return RemoteVerdict(
        site=SITE,
        submission_id=row.submission_id,
        problem_id=problem_id,
        verdict=row.verdict,
        final=row.final,
        status_text=row.status,
        time_ms=row.time_ms if row.final else None,
        memory_kb=row.memory_kb if row.final else None,
        raw={"status": row.status, "language": row.language, "task": row.task},
    )


def _human_token(page: bytes, name: str | None = None) -> str:
    doc = load_html(page, "the AtCoder submit page")
    for field in (name,) if name else _HUMAN_TOKEN_FIELDS:
        values = [v for v in doc.xpath(f'//input[@name="{field}"]/@value') if v]
        if values:
            return str(values[0])
    return ""


def _form_error(page: bytes) -> str:
    doc = load_html(page, "the AtCoder submit answer")
    for xpath in ('//div[contains(@class, "alert-danger")]', '//span[@class="error"]'):
        texts = [" ".join(e.text_content().split()) for e in doc.xpath(xpath)]
        texts = [t.strip("× ").strip() for t in texts if t.strip("× ").strip()]
        if texts:
            return texts[0]
    return ""
