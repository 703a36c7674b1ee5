"""The official Codeforces API (contest.list, contest.standings) for contest listings.

The API allows one call per 2 s; the shared rate limiter spaces calls and a "Call limit exceeded"
answer is retried after a pause. Parsing the envelope and the objects is pure and tested on the
recorded answers.
"""

from __future__ import annotations

import json
from typing import Any

from cpbot.core import bounds
from cpbot.core.errors import FetchError, ParseError
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.listing import Contest, ContestProblem, Phase, utc_from_seconds

API_ROOT = "https://codeforces.com/api"
GYM_FIRST_ID = 100000  # gym contest ids start here
_CALL_LIMIT = "call limit exceeded"


class CallLimitExceeded(FetchError):
    """The API refused a call for coming too soon after another one."""


class CodeforcesApi:
    """A thin client of the methods cpbot needs; every call goes through the shared `HttpClient`."""

    def __init__(self, client: HttpClient, root: str = API_ROOT, attempts: int = 3) -> None:
        self.client = client
        self.root = root.rstrip("/")
        self.attempts = attempts

    def call(self, method: str, **params: str | int) -> Any:
        """Call `method` and return its `result`; FAILED answers raise `FetchError`."""
        url = f"{self.root}/{method}"
        for attempt in range(1, self.attempts + 1):
            # The API answers FAILED with HTTP 400, so that status still carries a readable body.
            response = self.client.get(url, params={k: str(v) for k, v in params.items()}, accept=(400,))
            try:
                return parse_envelope(response.content, method)
            except CallLimitExceeded:
                if attempt == self.attempts:
                    raise
                self.client.sleep(2.0 * attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    def contests(self, gym: bool = False) -> list[Contest]:
        """All contests (`contest.list`), newest first as the API gives them."""
        return parse_contest_list(self.call("contest.list", gym=str(gym).lower()))

    def contest_problems(self, contest_id: str | int) -> list[ContestProblem]:
        """The problems of one contest, from `contest.standings` with a single row."""
        result = self.call("contest.standings", contestId=contest_id, **{"from": 1, "count": 1})
        return parse_standings_problems(result)


def parse_envelope(body: bytes, method: str) -> Any:
    """The `result` of an API answer; `FetchError` for FAILED, `CallLimitExceeded` for the limit."""
    try:
        data = bounds.loads(body, f"the Codeforces API's answer to {method}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise FetchError(
            f"the Codeforces API answered {method} with something that is not JSON",
            hint="Cloudflare sometimes guards the API too; try again later or import cookies with --cookies",
        ) from e
    if not isinstance(data, dict) or data.get("status") not in ("OK", "FAILED"):
        raise ParseError(f"cannot parse the Codeforces API answer to {method}: missing status")
    if data["status"] == "FAILED":
        comment = str(data.get("comment", ""))
        if _CALL_LIMIT in comment.lower():
            raise CallLimitExceeded(f"the Codeforces API refused {method}: {comment}", hint="wait and retry")
        raise FetchError(f"the Codeforces API refused {method}: {comment or 'no reason given'}")
    if "result" not in data:
        raise ParseError(f"cannot parse the Codeforces API answer to {method}: missing result")
    return data["result"]


def parse_contest_list(result: Any) -> list[Contest]:
    """`contest.list` result -> contests."""
    if not isinstance(result, list):
        raise ParseError("cannot parse contest.list: missing the list of contests")
    return [_contest(c) for c in result]


def parse_standings_problems(result: Any) -> list[ContestProblem]:
    """`contest.standings` result -> the contest's problems in order."""
    if not isinstance(result, dict) or not isinstance(result.get("problems"), list):
        raise ParseError("cannot parse contest.standings: missing problems")
    contest = result.get("contest")
    contest_id = contest.get("id") if isinstance(contest, dict) else None
    problems = []
    for p in result["problems"]:
        if not isinstance(p, dict) or not isinstance(p.get("index"), str) or not isinstance(p.get("name"), str):
            raise ParseError("cannot parse contest.standings: missing the index or name of a problem")
        cid = p.get("contestId", contest_id)
        if not isinstance(cid, int):
            raise ParseError("cannot parse contest.standings: missing the contestId of a problem")
        tags = p.get("tags")
        problems.append(
            ContestProblem(
                site="codeforces",
                contest_id=str(cid),
                problem_id=f"codeforces:{cid}{p['index']}",
                index=p["index"],
                name=p["name"],
                url=f"{contest_url(cid)}/problem/{p['index']}",
                points=p["points"] if isinstance(p.get("points"), int | float) else None,
                rating=p["rating"] if isinstance(p.get("rating"), int) else None,
                tags=[t for t in tags if isinstance(t, str)] if isinstance(tags, list) else [],
            )
        )
    return problems


def contest_url(contest_id: int) -> str:
    """The contest's page; gym contests live under /gym/."""
    kind = "gym" if contest_id >= GYM_FIRST_ID else "contest"
    return f"https://codeforces.com/{kind}/{contest_id}"


def _contest(c: Any) -> Contest:
    if not isinstance(c, dict):
        raise ParseError("cannot parse contest.list: missing a contest object")
    for key, kind in (("id", int), ("name", str), ("phase", str)):
        if not isinstance(c.get(key), kind) or isinstance(c.get(key), bool):
            raise ParseError(f"cannot parse contest.list: missing {key} of a contest")
    if c["phase"] not in Phase.__members__:
        raise ParseError(f"cannot parse contest.list: unknown phase {c['phase']!r}")
    start = c.get("startTimeSeconds")
    duration = c.get("durationSeconds")
    return Contest(
        site="codeforces",
        id=str(c["id"]),
        name=c["name"],
        phase=Phase(c["phase"]),
        start=utc_from_seconds(start, "contest.list"),
        duration_s=duration if isinstance(duration, int) else 0,
        url=contest_url(c["id"]),
        kind=c.get("type") if isinstance(c.get("type"), str) else None,
        gym=c["id"] >= GYM_FIRST_ID,
    )
