"""Codeforces as a `Site`: problem pages and the API's contest list, behind one object."""

from __future__ import annotations

import re
from datetime import datetime
from urllib.parse import urlsplit

from cpbot.core.errors import ConfigError
from cpbot.core.registry import site_spec
from cpbot.judge.model import Problem
from cpbot.scrapers.codeforces import parse
from cpbot.scrapers.codeforces.api import GYM_FIRST_ID, CodeforcesApi
from cpbot.scrapers.codeforces.ranking import fetch_ranklist
from cpbot.scrapers.codeforces.urls import is_codeforces_host, parse_codeforces_url
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.listing import Contest, ContestProblem, Phase
from cpbot.scrapers.ranklist import Ranklist
from cpbot.scrapers.site import ProblemName, Site
from cpbot.scrapers.submission import SubmitProtocol

# What a Codeforces problem page (saved from the browser) holds that no other page does.
_MARKERS = (b"problem-statement", b"problemindexholder", b"sample-tests")
# "A. Title", as the site (and Competitive Companion) names a problem
_SHOWN_NAME = re.compile(r"^(?P<index>[A-Za-z0-9]{1,4})\.\s+(?P<name>.+)$", re.DOTALL)


class CodeforcesSite(Site):
    """Codeforces: pages parsed by `scrapers.codeforces.parse`, contests from the official API."""

    spec = site_spec("codeforces")
    # the API allows one call per 2 s; the pages get the same courtesy
    min_interval_s = 2.0

    def owns_url(self, url: str) -> bool:
        return is_codeforces_host(urlsplit(url).hostname or "")

    def owns_content(self, data: bytes) -> bool:
        return any(marker in data for marker in _MARKERS)

    def name_problem(self, url: str, shown_name: str) -> ProblemName | None:
        try:
            ref = parse_codeforces_url(url)
        except ConfigError:
            return None
        m = _SHOWN_NAME.match(shown_name.strip())
        index = m.group("index").upper() if m else ref.index
        title = m.group("name").strip() if m else shown_name
        return ProblemName(ref.problem_id(index), index, title)

    def fetch_problems(self, url: str, client: HttpClient) -> list[Problem]:
        return parse.fetch_problems(url, client)

    def parse_problems(self, data: bytes, url: str | None = None) -> list[Problem]:
        return parse.parse_problems(data, url)

    def upcoming_contests(self, client: HttpClient, now: datetime) -> list[Contest]:
        contests = [c for c in CodeforcesApi(client).contests() if not c.phase.ended]
        return sorted(contests, key=lambda c: (c.start is None, c.start or now))

    def recent_contests(self, client: HttpClient, now: datetime, limit: int = 10) -> list[Contest]:
        done = [c for c in CodeforcesApi(client).contests() if c.phase.ended and c.start is not None]
        return sorted(done, key=lambda c: c.start or now, reverse=True)[:limit]

    def find_contest(self, contest_id: str, client: HttpClient, now: datetime) -> Contest:
        # gym contests (ids from 100000 on) are listed only by contest.list?gym=true
        gym = contest_id.isdigit() and int(contest_id) >= GYM_FIRST_ID
        for contest in CodeforcesApi(client).contests(gym=gym):
            if contest.id == contest_id:
                return contest
        raise self.unknown_contest(contest_id)

    def contest_problems(self, contest_id: str, client: HttpClient, now: datetime) -> list[ContestProblem]:
        return CodeforcesApi(client).contest_problems(contest_id)

    def practice_open(self, contest_id: str, client: HttpClient, now: datetime) -> bool:
        # practice submissions are taken once system testing is over
        return self.find_contest(contest_id, client, now).phase is Phase.FINISHED

    def ranklist(self, contest_id: str, client: HttpClient, now: datetime) -> Ranklist:
        return fetch_ranklist(client, contest_id)

    def submit_protocol(
        self, client: HttpClient, *, handle: str | None = None, password: str | None = None
    ) -> SubmitProtocol:
        from cpbot.scrapers.codeforces.submit import CodeforcesProtocol

        return CodeforcesProtocol(client, handle=handle, password=password)


SITE = CodeforcesSite()
