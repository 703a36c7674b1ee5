"""Codeforces as a `Site`: problem pages and the API's contest list, behind one object."""

from __future__ import annotations

import re
from datetime import datetime
from urllib.parse import urlsplit

from cpbot.core.errors import ConfigError
from cpbot.core.registry import site_spec
from cpbot.judge.model import Problem
from cpbot.scrapers import codeforces
from cpbot.scrapers.codeforces_api import GYM_FIRST_ID, CodeforcesApi
from cpbot.scrapers.codeforces_urls import is_codeforces_host, parse_codeforces_url
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.listing import Contest, ContestProblem
from cpbot.scrapers.ranklist import Ranklist, Scoring, parse_codeforces_rating_changes, parse_codeforces_standings
from cpbot.scrapers.site import ProblemName, Site

# What a Codeforces problem page (saved from the browser) holds that no other page does.
_MARKERS = (b"problem-statement", b"problemindexholder", b"sample-tests")
# "A. Title", as the site (and Competitive Companion) names a problem
_SHOWN_NAME = re.compile(r"^(?P<index>[A-Za-z0-9]{1,4})\.\s+(?P<name>.+)$", re.DOTALL)
# Contest phases that have not ended
_LIVE = ("BEFORE", "CODING")


class CodeforcesSite(Site):
    """Codeforces: pages parsed by `scrapers.codeforces`, contests from the official API."""

    spec = site_spec("codeforces")
    password_login = True

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
        return codeforces.fetch_problems(url, client)

    def parse_problems(self, data: bytes, url: str | None = None) -> list[Problem]:
        return codeforces.parse_problems(data, url)

    def upcoming_contests(self, client: HttpClient, now: datetime) -> list[Contest]:
        contests = [c for c in CodeforcesApi(client).contests() if c.phase in _LIVE]
        return sorted(contests, key=lambda c: (c.start is None, c.start or now))

    def recent_contests(self, client: HttpClient, now: datetime, limit: int = 10) -> list[Contest]:
        done = [c for c in CodeforcesApi(client).contests() if c.phase not in _LIVE and c.start is not None]
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
        return self.find_contest(contest_id, client, now).phase == "FINISHED"

    def ranklist(self, contest_id: str, client: HttpClient, now: datetime) -> Ranklist:
        api = CodeforcesApi(client)
        result = api.call("contest.standings", contestId=contest_id, showUnofficial="false")
        rows = parse_codeforces_standings(result)
        ratings = parse_codeforces_rating_changes(api.call("contest.ratingChanges", contestId=contest_id))
        contest = result.get("contest") or {}
        problems = result.get("problems") or []
        return Ranklist(
            contest_id=contest_id,
            scoring=Scoring.ICPC if contest.get("type") == "ICPC" else Scoring.POINTS,
            duration_s=int(contest.get("durationSeconds") or 0),
            max_points={p["index"]: float(p.get("points") or 0) for p in problems if isinstance(p, dict)},
            rows=[r.model_copy(update={"rating": ratings.get(r.handle)}) for r in rows],
            participants=len(rows),
            start_unix=float(contest.get("startTimeSeconds") or 0),
        )


SITE = CodeforcesSite()
