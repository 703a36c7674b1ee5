"""LeetCode as a `Site`: GraphQL question answers and the contest API, behind one object."""

from __future__ import annotations

import json
import math
from datetime import datetime
from urllib.parse import urlsplit

from cpbot.core import bounds
from cpbot.core.errors import ConfigError
from cpbot.core.registry import site_spec
from cpbot.judge.model import Problem
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.leetcode import contests, parse
from cpbot.scrapers.leetcode.ranking import LEETCODE_PAGE_SIZE, fetch_leetcode_ranking_page
from cpbot.scrapers.leetcode.urls import HOSTS, is_leetcode_host, parse_leetcode_url
from cpbot.scrapers.listing import Contest, ContestProblem, Phase
from cpbot.scrapers.ranklist import Ranklist, Scoring, ahead_in_pages
from cpbot.scrapers.site import ProblemName, Site
from cpbot.scrapers.submission import SubmitProtocol

# How far back `find_contest` looks among finished contests
_SEARCH_DEPTH = 1000


class LeetcodeSite(Site):
    """LeetCode: questions through GraphQL (`scrapers.leetcode.parse`), contests through its contest API."""

    spec = site_spec("leetcode")
    # the two cookies of a browser session; csrftoken is echoed in a header on every POST
    session_cookies = ("LEETCODE_SESSION", "csrftoken")
    # LeetCode publishes no limit; one request a second stays well under what its clients report as tolerated
    min_interval_s = 1.0

    def rate_bucket(self, host: str) -> str | None:
        # leetcode.com and leetcode.cn are two sites with two budgets
        host = host.lower()
        return next((h for h in HOSTS if host == h or host.endswith("." + h)), None)

    def owns_url(self, url: str) -> bool:
        return is_leetcode_host(urlsplit(url).hostname or "")

    def owns_content(self, data: bytes) -> bool:
        """A GraphQL answer holding a question (or the bare question object)."""
        try:
            obj = bounds.loads(data.lstrip(b"\xef\xbb\xbf \t\r\n"), "a LeetCode answer")
        except (json.JSONDecodeError, UnicodeDecodeError):
            return False
        return isinstance(obj, dict) and (
            "data" in obj or "question" in obj or ("content" in obj and "metaData" in obj)
        )

    def name_problem(self, url: str, shown_name: str) -> ProblemName | None:
        try:
            ref = parse_leetcode_url(url)
        except ConfigError:
            return None
        return ProblemName(f"{self.name}:{ref.slug}", None, shown_name)

    def fetch_problems(self, url: str, client: HttpClient) -> list[Problem]:
        return [parse.fetch_problem(url, client)]

    def parse_problems(self, data: bytes, url: str | None = None) -> list[Problem]:
        return [parse.parse_question(data, url)]

    def upcoming_contests(self, client: HttpClient, now: datetime) -> list[Contest]:
        return contests.fetch_upcoming(client, now)

    def recent_contests(self, client: HttpClient, now: datetime, limit: int = 10) -> list[Contest]:
        return contests.fetch_recent(client, now, limit)

    def find_contest(self, contest_id: str, client: HttpClient, now: datetime) -> Contest:
        listed = self.upcoming_contests(client, now) + self.recent_contests(client, now, _SEARCH_DEPTH)
        for contest in listed:
            if contest.id == contest_id:
                return contest
        raise self.unknown_contest(contest_id)

    def contest_problems(self, contest_id: str, client: HttpClient, now: datetime) -> list[ContestProblem]:
        return contests.fetch_contest_problems(contest_id, client, now)

    def practice_open(self, contest_id: str, client: HttpClient, now: datetime) -> bool:
        # the problems take submissions on their own pages as soon as the contest is over
        return self.find_contest(contest_id, client, now).phase is Phase.FINISHED

    def ranklist(self, contest_id: str, client: HttpClient, now: datetime) -> Ranklist:
        contest = self.find_contest(contest_id, client, now)
        start = contest.start.timestamp() if contest.start else 0.0
        first = fetch_leetcode_ranking_page(client, contest_id, 1, start)
        problems = self.contest_problems(contest_id, client, now)
        return Ranklist(
            contest_id=contest_id,
            scoring=Scoring.SCORE_TIME,
            duration_s=contest.duration_s,
            max_points={(p.index or p.problem_id): float(p.points or 0) for p in problems},
            participants=first.participants,
            start_unix=start,
        )

    def submit_protocol(
        self, client: HttpClient, *, handle: str | None = None, password: str | None = None
    ) -> SubmitProtocol:
        # only the session cookies `client` carries: LeetCode takes no password login
        from cpbot.scrapers.leetcode.submit import LeetcodeProtocol

        return LeetcodeProtocol(client)

    def count_ahead(self, ranklist: Ranklist, points: float, penalty: float, client: HttpClient) -> int:
        # thousands of pages: a binary search reads a handful
        return ahead_in_pages(
            lambda page: fetch_leetcode_ranking_page(client, ranklist.contest_id, page, ranklist.start_unix).rows,
            math.ceil(ranklist.participants / LEETCODE_PAGE_SIZE),
            points,
            penalty,
        )


SITE = LeetcodeSite()
