"""LeetCode's submit protocol: POST the code with the session cookies, then poll the check endpoint.

Needs the `LEETCODE_SESSION` and `csrftoken` cookies (imported from the browser); the csrf value is
echoed in the `x-csrftoken` header. The check endpoint goes PENDING -> STARTED -> SUCCESS; its
status_code / total_correct / total_testcases become a `RemoteVerdict`.
"""

from __future__ import annotations

import json
from collections.abc import Set
from typing import Any

import httpx

from cpbot.core import bounds
from cpbot.core.errors import FetchError, SubmitError
from cpbot.core.registry import language_spec, site_spec
from cpbot.judge.languages import SNIPPET_KEYS
from cpbot.judge.model import Problem, Solution, Verdict
from cpbot.scrapers.blocking import BlockedError
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.leetcode.parse import fetch_problem, find_question
from cpbot.scrapers.leetcode.urls import parse_leetcode_url
from cpbot.scrapers.submission import (
    CaptchaRequired,
    ListedSubmission,
    LoginRequired,
    Post,
    RemoteVerdict,
    SubmitProtocol,
    SubmitTooSoon,
)

SPEC = site_spec("leetcode")
SITE = SPEC.name
ROOT = SPEC.base_url
# status_code -> verdict (codes as the site's clients document them)
STATUS = {
    10: Verdict.AC,
    11: Verdict.WA,
    12: Verdict.MLE,
    13: Verdict.OLE,
    14: Verdict.TLE,
    15: Verdict.RE,
    16: Verdict.IE,
    20: Verdict.CE,
}
STATUS_MSG = {
    "accepted": Verdict.AC,
    "wrong answer": Verdict.WA,
    "memory limit exceeded": Verdict.MLE,
    "output limit exceeded": Verdict.OLE,
    "time limit exceeded": Verdict.TLE,
    "runtime error": Verdict.RE,
    "internal error": Verdict.IE,
    "compile error": Verdict.CE,
}
_SUBMISSION_LIST = (
    "query submissionList($offset: Int!, $limit: Int!, $questionSlug: String!) { questionSubmissionList("
    "offset: $offset, limit: $limit, questionSlug: $questionSlug) { hasNext submissions { id titleSlug lang "
    "timestamp } } }"
)
_SUBMISSION_DETAILS = (
    "query submissionDetails($submissionId: Int!) { submissionDetails(submissionId: $submissionId) { code "
    "timestamp lang { name } question { titleSlug } } }"
)


def lang_slug(language: str) -> str:
    """LeetCode's name (langSlug) for the language a solution is in: one per language family, the
    same key its starting code has in `Problem.code_snippets`."""
    return SNIPPET_KEYS[language_spec(language).family]


def map_check(result: dict[str, Any], problem_id: str, submission_id: str) -> RemoteVerdict:
    """A check-endpoint answer -> `RemoteVerdict`."""
    state = str(result.get("state", ""))
    if state != "SUCCESS":
        final = state == "FAILURE"
        return RemoteVerdict(
            site=SITE,
            submission_id=submission_id,
            problem_id=problem_id,
            verdict=Verdict.IE if final else None,
            final=final,
            status_text=state or "PENDING",
            raw=result,
        )
    code = result.get("status_code")
    msg = str(result.get("status_msg") or "")
    verdict = STATUS.get(code) if isinstance(code, int) else None
    verdict = verdict or STATUS_MSG.get(msg.lower())
    correct, total = result.get("total_correct"), result.get("total_testcases")
    passed = correct if isinstance(correct, int) else None
    total_n = total if isinstance(total, int) else None
    if verdict == Verdict.AC and passed is not None and total_n is not None and passed < total_n:
        verdict = Verdict.WA  # accepted only when every test passed (a Run result can say 10 otherwise)
    failed = passed + 1 if verdict not in (None, Verdict.AC, Verdict.CE) and passed is not None else None
    memory = result.get("memory")
    runtime = str(result.get("status_runtime") or "")
    raw = dict(result)
    return RemoteVerdict(
        site=SITE,
        submission_id=submission_id,
        problem_id=problem_id,
        verdict=verdict,
        final=True,
        status_text=msg or str(code),
        failed_test=failed,
        passed_tests=passed,
        total_tests=total_n,
        time_ms=int(runtime.split()[0]) if runtime.split() and runtime.split()[0].isdigit() else None,
        memory_kb=memory // 1000 if isinstance(memory, int) else None,
        raw=raw,
    )


class LeetcodeProtocol(SubmitProtocol):
    """Submits through LeetCode's JSON endpoints with imported session cookies (no password login)."""

    site = SITE

    def __init__(self, client: HttpClient) -> None:
        self.client = client

    def close(self) -> None:
        self.client.close()

    def submission_url(self, problem: Problem, submission_id: str) -> str:
        return f"{ROOT}/submissions/detail/{submission_id}/"

    def _session(self) -> str:
        session = self.client.cookie("LEETCODE_SESSION", SPEC.domain)
        csrf = self.client.cookie("csrftoken", SPEC.domain)
        if not session or not csrf:
            missing = " and ".join(n for n, v in (("LEETCODE_SESSION", session), ("csrftoken", csrf)) if not v)
            raise LoginRequired(SITE, f"the {missing} cookie is missing")
        return csrf

    def _headers(self, referer: str) -> dict[str, str]:
        return {
            "Referer": referer,
            "Origin": ROOT,
            "Content-Type": "application/json",
            "x-csrftoken": self._session(),
            "x-requested-with": "XMLHttpRequest",
        }

    def _request(self, method: str, url: str, **kw: Any) -> httpx.Response:
        try:
            response = self.client.request(method, url, accept=(400, 403, 404, 429), **kw)
        except BlockedError as e:
            raise CaptchaRequired(SITE, e.message) from e
        if "/accounts/login" in str(response.url):
            raise LoginRequired(SITE, "the session cookie was refused")
        if response.status_code == 403:
            raise LoginRequired(SITE, "the csrf token or session was refused (HTTP 403)")
        return response

    def _question_id(self, problem: Problem, url: str) -> str:
        for raw in (problem.raw, None):
            if raw is None:
                raw = fetch_problem(url, self.client).raw
            try:
                qid = find_question(raw).get("questionId")
            except FetchError:
                qid = None
            if qid:
                return str(qid)
        raise SubmitError(f"cannot find the question id of {problem.id}")

    def prepare(self, problem: Problem, solution: Solution) -> Post:
        if not problem.url:
            raise SubmitError(f"{problem.id} has no URL to submit to", hint="fetch it from its LeetCode URL")
        ref = parse_leetcode_url(problem.url)
        headers = self._headers(f"{ROOT}/problems/{ref.slug}/")
        question_id = self._question_id(problem, problem.url)
        body = {"lang": lang_slug(solution.language), "question_id": question_id, "typed_code": solution.source}
        return Post(lambda known: self._post(f"{ROOT}/problems/{ref.slug}/submit/", body, headers), body["lang"])

    def _post(self, url: str, body: dict[str, Any], headers: dict[str, str]) -> str:
        response = self._request("POST", url, json=body, headers=headers)
        data = _json(response)
        sub_id = data.get("submission_id") if isinstance(data, dict) else None
        if not sub_id:
            error = str(data.get("error", "")) if isinstance(data, dict) else ""
            if "too soon" in error.lower() or response.status_code == 429:
                raise SubmitTooSoon(f"LeetCode says: {error or 'too many requests'}", wait_s=10)
            raise LoginRequired(SITE, error or "no submission id in the answer (the cookies may be stale)")
        return str(sub_id)

    def poll(self, problem: Problem, submission_id: str) -> RemoteVerdict | None:
        response = self._request("GET", f"{ROOT}/submissions/detail/{submission_id}/check/")
        data = _json(response)
        if not isinstance(data, dict):
            raise SubmitError(f"LeetCode's check of submission {submission_id} is not a JSON object")
        return map_check(data, problem.id, submission_id)

    def listed(self, problem_ids: Set[str]) -> list[ListedSubmission]:
        found = []
        for problem_id in sorted(problem_ids):
            slug = problem_id.split(":", 1)[-1]
            listed = self._graphql(_SUBMISSION_LIST, {"offset": 0, "limit": 20, "questionSlug": slug})
            subs = ((listed.get("questionSubmissionList") or {}).get("submissions")) or []
            found += [
                ListedSubmission(str(sub.get("id")), problem_id, float(sub.get("timestamp") or 0), sub) for sub in subs
            ]
        return found

    def source_of(self, listed: ListedSubmission) -> str | None:
        answer = self._graphql(_SUBMISSION_DETAILS, {"submissionId": int(listed.submission_id)})
        details = answer.get("submissionDetails")
        return str(details.get("code", "")) if isinstance(details, dict) else None

    def _graphql(self, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        body = {"query": query, "variables": variables, "operationName": query.split()[1].split("(")[0]}
        response = self._request("POST", f"{ROOT}/graphql", json=body, headers=self._headers(f"{ROOT}/"))
        data = _json(response)
        if not isinstance(data, dict) or not isinstance(data.get("data"), dict):
            errors = data.get("errors") if isinstance(data, dict) else None
            raise SubmitError(f"LeetCode refused the query {body['operationName']}: {errors}")
        return data["data"]


def _json(response: httpx.Response) -> Any:
    try:
        return bounds.loads(response.content, "a LeetCode answer")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        if b"<html" in response.content[:2000].lower():
            raise LoginRequired(SITE, "an HTML page came back instead of JSON") from e
        raise SubmitError(f"LeetCode answered {response.url} with something that is not JSON") from e
