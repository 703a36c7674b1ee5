"""One entry point per source: fetch a URL, or parse saved content, for whichever site it is."""

from __future__ import annotations

from cpbot.core.errors import ConfigError
from cpbot.judge.model import Problem
from cpbot.scrapers import codeforces, leetcode
from cpbot.scrapers.companion import parse_companion
from cpbot.scrapers.detect import detect_content, detect_url
from cpbot.scrapers.http import HttpClient

SITES = ("codeforces", "leetcode")


def fetch_url(url: str, client: HttpClient, site: str | None = None) -> list[Problem]:
    """Fetch the problem (or, for a Codeforces contest URL, every problem) at `url`."""
    site = site or detect_url(url)
    if site == "codeforces":
        return codeforces.fetch_problems(url, client)
    if site == "leetcode":
        return [leetcode.fetch_problem(url, client)]
    raise ConfigError(f"unknown site: {site}", hint=f"use one of: {', '.join(SITES)}")


def parse_content(data: bytes, site: str | None = None, url: str | None = None) -> list[Problem]:
    """Parse what a browser saved (or an API answered); the site is detected when not given."""
    kind = site or detect_content(data)
    if kind == "codeforces":
        return codeforces.parse_problems(data, url)
    if kind == "leetcode":
        return [leetcode.parse_question(data, url)]
    if kind == "companion":
        return [parse_companion(data)]
    raise ConfigError(f"unknown site: {site}", hint=f"use one of: {', '.join(SITES)}")
