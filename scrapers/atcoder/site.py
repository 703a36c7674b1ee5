"""AtCoder as a `Site`: task pages, the contest tables, task lists, the standings JSON and the submit form."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

from cpbot.core.errors import ConfigError, ParseError
from cpbot.core.registry import site_spec
from cpbot.judge.model import Problem
from cpbot.scrapers.atcoder import ahc, contests, rules
from cpbot.scrapers.atcoder.ahc_tools import download_tools, tools_spec, unpack_tools
from cpbot.scrapers.atcoder.parse import is_task_page, parse_task_page
from cpbot.scrapers.atcoder.performance import performance
from cpbot.scrapers.atcoder.ranking import Standings, parse_standings
from cpbot.scrapers.atcoder.urls import ROOT, AtCoderRef, is_atcoder_host, parse_atcoder_url
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.listing import Contest, ContestProblem, Phase, phase_at
from cpbot.scrapers.ranklist import Ranklist, RanklistRow, Scoring
from cpbot.scrapers.scored import Placing
from cpbot.scrapers.site import ProblemName, Site
from cpbot.scrapers.submission import SubmitProtocol

# "A - Title", as the site (and Competitive Companion) names a task
_SHOWN_NAME = re.compile(r"^(?P<index>[A-Za-z0-9]{1,3})\s+-\s+(?P<name>.+)$", re.DOTALL)


class AtCoderSite(Site):
    """AtCoder: task pages parsed by `scrapers.atcoder.parse`, contests from the site's contest pages."""

    spec = site_spec("atcoder")
    session_cookies = ("REVEL_SESSION",)
    # AtCoder publishes no limit; its tools keep to about one request a second
    min_interval_s = 1.0

    def __init__(self) -> None:
        # the standings of the last `ranklist` per contest, with the contest's kind
        self._standings: dict[str, tuple[Standings, str]] = {}

    def owns_url(self, url: str) -> bool:
        return is_atcoder_host(urlsplit(url).hostname or "")

    def owns_content(self, data: bytes) -> bool:
        return is_task_page(data)

    def name_problem(self, url: str, shown_name: str) -> ProblemName | None:
        try:
            ref = parse_atcoder_url(url)
        except ConfigError:
            return None
        if not ref.task:
            return None
        m = _SHOWN_NAME.match(shown_name.strip())
        index = m.group("index").upper() if m else None
        title = m.group("name").strip() if m else shown_name
        return ProblemName(f"{self.name}:{ref.task}", index, title)

    # ---- problems ----

    def fetch_problems(self, url: str, client: HttpClient) -> list[Problem]:
        ref = parse_atcoder_url(url)
        if ref.task:
            return [self._fetch_task(ref, ref.task, client)]
        return [self._fetch_task(ref, p.problem_id.split(":", 1)[1], client) for p in self._tasks(ref.contest, client)]

    def _fetch_task(self, ref: AtCoderRef, task: str, client: HttpClient) -> Problem:
        url = ref.task_url(task)
        response = client.get(url, params={"lang": "en"})
        return parse_task_page(response.content, url)

    def parse_problems(self, data: bytes, url: str | None = None) -> list[Problem]:
        return [parse_task_page(data, url)]

    # ---- contests ----

    def _listed(self, client: HttpClient, which: tuple[str, ...]) -> list[contests.ContestEntry]:
        page = client.get(f"{ROOT}/contests/", params={"lang": "en"}).content
        return [e for w in which for e in contests.parse_contest_table(page, w)]

    def _contest(self, entry: contests.ContestEntry, now: datetime) -> Contest:
        return Contest(
            site=self.name,
            id=entry.id,
            name=entry.name,
            phase=phase_at(entry.start, entry.duration_s, now),
            start=entry.start,
            duration_s=entry.duration_s,
            url=f"{ROOT}/contests/{entry.id}",
            kind=entry.kind,
        )

    def upcoming_contests(self, client: HttpClient, now: datetime) -> list[Contest]:
        found = [self._contest(e, now) for e in self._listed(client, ("action", "upcoming"))]
        live = [c for c in found if c.phase != Phase.FINISHED]
        return sorted(live, key=lambda c: (c.start is None, c.start or now))

    def recent_contests(self, client: HttpClient, now: datetime, limit: int = 10) -> list[Contest]:
        found = [self._contest(e, now) for e in self._listed(client, ("recent",))]
        if not found:
            page = client.get(f"{ROOT}/contests/archive", params={"lang": "en"}).content
            found = [self._contest(e, now) for e in contests.parse_contest_table(page)]
        done = [c for c in found if c.phase == Phase.FINISHED]
        return sorted(done, key=lambda c: c.start or now, reverse=True)[:limit]

    def find_contest(self, contest_id: str, client: HttpClient, now: datetime) -> Contest:
        response = client.get(f"{ROOT}/contests/{contest_id}", params={"lang": "en"})
        if response.status_code == 404:
            raise self.unknown_contest(contest_id)
        schedule = contests.parse_schedule(response.content, contest_id)
        return Contest(
            site=self.name,
            id=contest_id,
            name=schedule.name,
            phase=phase_at(schedule.start, schedule.duration_s, now),
            start=schedule.start,
            duration_s=schedule.duration_s,
            url=f"{ROOT}/contests/{contest_id}",
            kind=contests.contest_kind(contest_id, schedule.name),
        )

    def _tasks(self, contest_id: str, client: HttpClient) -> list[ContestProblem]:
        response = client.get(f"{ROOT}/contests/{contest_id}/tasks", params={"lang": "en"})
        return contests.parse_task_list(response.content, contest_id)

    def contest_problems(self, contest_id: str, client: HttpClient, now: datetime) -> list[ContestProblem]:
        return self._tasks(contest_id, client)

    def practice_open(self, contest_id: str, client: HttpClient, now: datetime) -> bool:
        # the task pages take submissions as soon as the contest is over
        return self.find_contest(contest_id, client, now).phase == Phase.FINISHED

    def scored_contest(self, contest_id: str, name: str = "") -> bool:
        return rules.heuristic(contest_id, name)

    def fetch_tools(self, problem: Problem, folder: Path, client: HttpClient) -> Problem:
        """The AHC tools zip the task page links, unpacked into `folder / tools` (`ahc_tools.py`)."""
        spec = problem.heuristic
        if spec is None or spec.tools_url is None:
            raise ParseError(f"{problem.url or problem.id} links no tools (a Tools section with a zip)")
        unpack_tools(download_tools(spec.tools_url, client), folder)
        return problem.model_copy(update={"heuristic": tools_spec(spec, folder)})

    def submit_interval_s(self, duration_s: float) -> float:
        return float(ahc.submit_interval_s(duration_s))

    def place_score(self, contest_id: str, total: float, *, relative: bool, client: HttpClient) -> Placing | None:
        """Rank and performance against the final standings (`ahc.py`); None until they are fixed."""
        standings = parse_standings(client.get(f"{ROOT}/contests/{contest_id}/standings/json").content)
        if not standings.fixed:
            return None
        if relative:  # the standings hold relative totals only: no raw scores to recompute them from
            return ahc.relative_placing([], None, "maximize", participants=len(standings.rows))
        # the published performances, once out, give the performance of a rank; until then, the APerf estimate
        results = client.get(f"{ROOT}/contests/{contest_id}/results/json", accept=(404,))
        table = ahc.parse_results(results.content) if results.status_code == 200 else []
        if len({rank for rank, _ in table}) >= 2:
            return ahc.table_placing(total, [r.points for r in standings.rows], table)
        return ahc.ahc_performance(standings, total)

    def closed_to_ai(self, contest_id: str, name: str = "") -> str | None:
        return rules.closed_to_ai(contest_id, name)

    # ---- standings ----

    def ranklist(self, contest_id: str, client: HttpClient, now: datetime) -> Ranklist:
        contest = self.find_contest(contest_id, client, now)
        standings = parse_standings(client.get(f"{ROOT}/contests/{contest_id}/standings/json").content)
        self._standings[contest_id] = (standings, contest.kind or "")  # for `performance`, asked next
        return Ranklist(
            contest_id=contest_id,
            scoring=Scoring.SCORE_TIME,  # score, then time with 5 minutes per rejected attempt (ranking.py)
            duration_s=contest.duration_s,
            max_points=standings.max_points,
            rows=[RanklistRow(rank=r.rank, handle=r.handle, points=r.points, penalty=r.time_s) for r in standings.rows],
            participants=len(standings.rows),
            start_unix=contest.start.timestamp() if contest.start else 0.0,
        )

    def performance(
        self, ranklist: Ranklist, points: float, penalty: float, client: HttpClient
    ) -> tuple[int, str, list[str]] | None:
        """AtCoder's performance (scrapers/atcoder/performance.py) from the standings `ranklist` came from."""
        cached = self._standings.get(ranklist.contest_id)
        if cached is None:
            return None
        standings, kind = cached
        result = performance(standings.rows, points, penalty, kind)
        return None if result is None else (result.value, result.note, result.assumptions)

    # ---- submitting ----

    def submit_protocol(
        self, client: HttpClient, *, handle: str | None = None, password: str | None = None
    ) -> SubmitProtocol:
        from cpbot.scrapers.atcoder.submit import AtCoderProtocol

        return AtCoderProtocol(client)


SITE = AtCoderSite()
