"""Contest listings for either site: upcoming, recent, and the problems of one contest."""

from __future__ import annotations

from datetime import datetime

from cpbot.core.errors import ConfigError
from cpbot.scrapers import leetcode_contests
from cpbot.scrapers.codeforces_api import CodeforcesApi
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.listing import Contest, ContestProblem

SITES = ("codeforces", "leetcode")
_LIVE = ("BEFORE", "CODING")


def upcoming_contests(site: str, client: HttpClient, now: datetime) -> list[Contest]:
    """Contests that have not ended yet (running ones included), soonest first."""
    if site == "codeforces":
        contests = [c for c in CodeforcesApi(client).contests() if c.phase in _LIVE]
        return sorted(contests, key=lambda c: (c.start is None, c.start or now))
    if site == "leetcode":
        return leetcode_contests.fetch_upcoming(client, now)
    raise _unknown(site)


def recent_contests(site: str, client: HttpClient, now: datetime, limit: int = 10) -> list[Contest]:
    """The latest contests that have ended, newest first."""
    if site == "codeforces":
        done = [c for c in CodeforcesApi(client).contests() if c.phase not in _LIVE and c.start is not None]
        return sorted(done, key=lambda c: c.start or now, reverse=True)[:limit]
    if site == "leetcode":
        return leetcode_contests.fetch_recent(client, now, limit)
    raise _unknown(site)


def contest_problems(site: str, contest_id: str, client: HttpClient, now: datetime) -> list[ContestProblem]:
    """The problem list of one contest (Codeforces: contest.standings; LeetCode: contest info)."""
    if site == "codeforces":
        return CodeforcesApi(client).contest_problems(contest_id)
    if site == "leetcode":
        return leetcode_contests.fetch_contest_problems(contest_id, client, now)
    raise _unknown(site)


def _unknown(site: str) -> ConfigError:
    return ConfigError(f"unknown site: {site}", hint=f"use one of: {', '.join(SITES)}")
