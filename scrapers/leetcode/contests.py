"""LeetCode contests: GraphQL contest lists and the REST contest info (its question list).

Recorded: only a 2018 `allContests` answer. The `upcomingContests` GraphQL answer and the
`/contest/api/info/<slug>/` answer are unrecorded; their parsers read the fields the notes list as
used by clients (title, titleSlug, startTime, duration; contest.title/title_slug/start_time/duration
and questions[].question_id/title/title_slug/credit).
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from cpbot.core import bounds
from cpbot.core.errors import FetchError, ParseError
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.listing import Contest, ContestProblem, Phase, phase_at, utc_from_seconds

ROOT = "https://leetcode.com"
UPCOMING_QUERY = "query upcomingContests { upcomingContests { title titleSlug startTime duration } }"
ALL_QUERY = "query allContests { allContests { title titleSlug startTime duration } }"
_LIST_KEYS = ("upcomingContests", "contestUpcomingContests", "allContests")
_KIND = re.compile(r"^(weekly|biweekly)-contest-\d+$")


class GraphQLRefused(FetchError):
    """LeetCode answered the query with GraphQL errors (e.g. a field it no longer serves)."""


def parse_contests(payload: bytes | str | dict[str, Any], now: datetime) -> list[Contest]:
    """A GraphQL answer holding `upcomingContests`, `contestUpcomingContests` or `allContests`."""
    data = _json(payload, "the LeetCode contest list")
    body = data.get("data") if isinstance(data, dict) else None
    if isinstance(body, dict):
        for key in _LIST_KEYS:
            items = body.get(key)
            if isinstance(items, list):
                return [_contest(c, now) for c in items]
    if isinstance(data, dict) and data.get("errors"):
        raise GraphQLRefused(f"LeetCode refused the contest list: {data['errors']}")
    raise ParseError("cannot parse the LeetCode contest list: missing data.upcomingContests or data.allContests")


def parse_contest_info(payload: bytes | str | dict[str, Any], now: datetime) -> tuple[Contest, list[ContestProblem]]:
    """The `/contest/api/info/<slug>/` answer -> the contest and its questions in order."""
    data = _json(payload, "the LeetCode contest info")
    contest = data.get("contest") if isinstance(data, dict) else None
    questions = data.get("questions") if isinstance(data, dict) else None
    if not isinstance(contest, dict) or not isinstance(questions, list):
        raise ParseError("cannot parse the LeetCode contest info: missing contest or questions")
    slug = contest.get("title_slug")
    if not isinstance(slug, str) or not slug:
        raise ParseError("cannot parse the LeetCode contest info: missing contest.title_slug")
    parsed = _contest(
        {
            "title": contest.get("title"),
            "titleSlug": slug,
            "startTime": contest.get("start_time"),
            "duration": contest.get("duration"),
        },
        now,
    )
    problems = []
    for n, q in enumerate(questions, start=1):
        if not isinstance(q, dict) or not isinstance(q.get("title_slug"), str) or not isinstance(q.get("title"), str):
            raise ParseError(f"cannot parse the LeetCode contest info of {slug}: missing title_slug of question {n}")
        credit = q.get("credit")
        problems.append(
            ContestProblem(
                site="leetcode",
                contest_id=slug,
                problem_id=f"leetcode:{q['title_slug']}",
                index=f"Q{n}",
                name=q["title"],
                url=f"{ROOT}/contest/{slug}/problems/{q['title_slug']}/",
                points=credit if isinstance(credit, int | float) and not isinstance(credit, bool) else None,
            )
        )
    return parsed, problems


def fetch_upcoming(client: HttpClient, now: datetime) -> list[Contest]:
    """Upcoming (and running) contests; falls back to `allContests` when the first query is refused."""
    try:
        contests = parse_contests(_graphql(client, UPCOMING_QUERY, "upcomingContests"), now)
    except GraphQLRefused:
        contests = parse_contests(_graphql(client, ALL_QUERY, "allContests"), now)
    return sorted((c for c in contests if c.phase is not Phase.FINISHED), key=_start_key)


def fetch_recent(client: HttpClient, now: datetime, limit: int = 10) -> list[Contest]:
    """The most recent finished contests, newest first."""
    contests = parse_contests(_graphql(client, ALL_QUERY, "allContests"), now)
    done = [c for c in contests if c.phase is Phase.FINISHED]
    return sorted(done, key=_start_key, reverse=True)[:limit]


def fetch_contest_problems(slug: str, client: HttpClient, now: datetime) -> list[ContestProblem]:
    """The questions of one contest (available once it has started)."""
    response = client.get(f"{ROOT}/contest/api/info/{slug}/")
    return parse_contest_info(response.content, now)[1]


def _graphql(client: HttpClient, query: str, operation: str) -> bytes:
    headers = {"Referer": f"{ROOT}/contest/", "Origin": ROOT, "Content-Type": "application/json"}
    body = {"query": query, "variables": {}, "operationName": operation}
    return client.post(f"{ROOT}/graphql", json=body, headers=headers).content


def _json(payload: bytes | str | dict[str, Any], what: str) -> Any:
    if isinstance(payload, dict):
        return payload
    try:
        return bounds.loads(payload, what)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ParseError(f"cannot parse {what}: missing JSON ({e})") from e


def _contest(c: Any, now: datetime) -> Contest:
    if not isinstance(c, dict) or not isinstance(c.get("titleSlug"), str) or not isinstance(c.get("title"), str):
        raise ParseError("cannot parse the LeetCode contest list: missing title or titleSlug of a contest")
    start = utc_from_seconds(c.get("startTime"), f"LeetCode contest {c['titleSlug']}")
    duration = c.get("duration")
    duration_s = duration if isinstance(duration, int) and not isinstance(duration, bool) else 0
    kind = _KIND.match(c["titleSlug"])
    return Contest(
        site="leetcode",
        id=c["titleSlug"],
        name=c["title"],
        phase=phase_at(start, duration_s, now),
        start=start,
        duration_s=duration_s,
        url=f"{ROOT}/contest/{c['titleSlug']}/",
        kind=kind.group(1) if kind else None,
    )


def _start_key(c: Contest) -> float:
    return c.start.timestamp() if c.start else float("inf")
