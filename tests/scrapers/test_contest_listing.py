"""Contest listings from the Codeforces API and LeetCode (recorded answers, replayed)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest
from pytest_httpx import HTTPXMock

from cpbot.core.errors import FetchError
from cpbot.scrapers.codeforces.api import CodeforcesApi, parse_contest_list, parse_envelope, parse_standings_problems
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.leetcode.contests import fetch_upcoming, parse_contest_info, parse_contests
from cpbot.scrapers.ratelimit import RateLimiter
from cpbot.scrapers.sites import get_site
from tests.scrapers.scraper_support import FakeClock, fixture_path

CONTEST_LIST = re.compile(r"https://codeforces\.com/api/contest\.list\?gym=false")


def _client(clock: FakeClock) -> HttpClient:
    return HttpClient(limiter=RateLimiter(clock=clock, sleep=clock.sleep), sleep=clock.sleep, jitter=0.0)


def test_contest_list_gives_phase_start_and_duration() -> None:
    result = parse_envelope(fixture_path("codeforces", "api", "api_contest.list_2022-08-14.json").read_bytes(), "x")
    contests = parse_contest_list(result)
    assert len(contests) == 1633
    first = contests[0]
    assert (first.id, first.name, first.phase, first.kind) == ("1717", "Codeforces Round (Div. 2)", "BEFORE", "CF")
    assert first.start == datetime.fromtimestamp(1662129300, UTC)
    assert first.duration_s == 7200
    assert first.url == "https://codeforces.com/contest/1717"


def test_upcoming_codeforces_contests_are_the_before_phase_soonest_first(
    httpx_mock: HTTPXMock, clock: FakeClock
) -> None:
    body = fixture_path("codeforces", "api", "api_contest.list_2022-08-14.json").read_bytes()
    httpx_mock.add_response(url=CONTEST_LIST, content=body)
    with _client(clock) as client:
        contests = get_site("cf").upcoming_contests(client, datetime(2022, 8, 14, tzinfo=UTC))
    assert [c.phase for c in contests] == ["BEFORE"] * 4
    assert [c.start for c in contests] == sorted(c.start for c in contests)


def test_standings_with_one_row_list_the_contest_problems() -> None:
    body = fixture_path("codeforces", "api", "api_contest.standings_1474_handles_tiger2005.json").read_bytes()
    problems = parse_standings_problems(parse_envelope(body, "contest.standings"))
    assert [p.index for p in problems] == ["A", "B", "C", "D", "E", "F"]
    assert problems[0].points == 500.0 and problems[0].rating == 800
    assert problems[0].problem_id == "codeforces:1474A"
    assert problems[0].url == "https://codeforces.com/contest/1474/problem/A"


def test_api_call_limit_is_retried_after_a_pause(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    url = re.compile(r"https://codeforces\.com/api/contest\.standings\?.*")
    httpx_mock.add_response(url=url, status_code=400, json={"status": "FAILED", "comment": "Call limit exceeded"})
    body = fixture_path("codeforces", "api", "api_contest.standings_1474_handles_tiger2005.json").read_bytes()
    httpx_mock.add_response(url=url, content=body)
    with _client(clock) as client:
        problems = CodeforcesApi(client).contest_problems(1474)
    assert len(problems) == 6
    request = httpx_mock.get_requests()[0]
    assert dict(request.url.params) == {"contestId": "1474", "from": "1", "count": "1"}
    assert sum(clock.sleeps) >= 2.0


def test_api_failure_comment_is_shown_to_the_user(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(
        status_code=400, json={"status": "FAILED", "comment": "contestId: Contest with id 99999 not found"}
    )
    with _client(clock) as client, pytest.raises(FetchError, match="99999 not found"):
        CodeforcesApi(client).contest_problems(99999)


def test_leetcode_contest_phases_follow_the_clock() -> None:
    data = json.loads(fixture_path("leetcode", "api", "graphql_allContests_2018-07.json").read_text(encoding="utf-8"))
    now = datetime.fromtimestamp(1530408600 + 60, UTC)  # a minute into Weekly Contest 91
    contests = parse_contests(data, now)
    assert len(contests) == 97
    assert (contests[0].id, contests[0].phase, contests[0].kind) == ("weekly-contest-91", "CODING", "weekly")
    assert contests[1].phase == "FINISHED"


def test_leetcode_upcoming_falls_back_to_all_contests(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(url="https://leetcode.com/graphql", json={"errors": [{"message": "Cannot query field"}]})
    body = fixture_path("leetcode", "api", "graphql_allContests_2018-07.json").read_bytes()
    httpx_mock.add_response(url="https://leetcode.com/graphql", content=body)
    with _client(clock) as client:
        contests = fetch_upcoming(client, datetime.fromtimestamp(1530408600 - 3600, UTC))
    assert [c.id for c in contests] == ["weekly-contest-91"]
    queries = [json.loads(r.content)["operationName"] for r in httpx_mock.get_requests()]
    assert queries == ["upcomingContests", "allContests"]


def test_leetcode_contest_info_lists_questions_in_order() -> None:
    # Unrecorded shape: built from the fields clients are documented to read.
    info = {
        "contest": {
            "title": "Weekly Contest 300",
            "title_slug": "weekly-contest-300",
            "start_time": 1656815400,
            "duration": 5400,
        },
        "questions": [
            {"question_id": 2325, "title": "Decode the Message", "title_slug": "decode-the-message", "credit": 3},
            {"question_id": 2326, "title": "Spiral Matrix IV", "title_slug": "spiral-matrix-iv", "credit": 4},
        ],
    }
    contest, problems = parse_contest_info(info, datetime(2030, 1, 1, tzinfo=UTC))
    assert (contest.name, contest.phase, contest.duration_s) == ("Weekly Contest 300", "FINISHED", 5400)
    assert [(p.index, p.problem_id, p.points) for p in problems] == [
        ("Q1", "leetcode:decode-the-message", 3),
        ("Q2", "leetcode:spiral-matrix-iv", 4),
    ]
    assert problems[0].url == "https://leetcode.com/contest/weekly-contest-300/problems/decode-the-message/"
