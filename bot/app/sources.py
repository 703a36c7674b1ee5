"""Where a command's problem comes from: a URL, a page saved from the browser, a LeetCode GraphQL
answer, a Competitive Companion JSON, or cpbot's own problem.json.

(`open_client` and `load_problems` come from `bot/commands/fetch.py`, `load_source` from
`bot/commands/solve.py`, moved unchanged so that the commands hold click code only.)
"""

from __future__ import annotations

import re
from pathlib import Path

from cpbot.bot.app.problem_folder import load_problem
from cpbot.core.errors import ConfigError
from cpbot.judge.model import Problem
from cpbot.scrapers.cookies import load_cookies_txt
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.sites import fetch_url, parse_content


def open_client(cookies: Path | None) -> HttpClient:
    """The HTTP client of a command, with the user's browser cookies when given."""
    return HttpClient(cookies=load_cookies_txt(cookies) if cookies else None)


def load_problems(
    source: str, *, site: str | None = None, cookies: Path | None = None, page_url: str | None = None
) -> list[Problem]:
    """The problems at a URL, or in a saved page, LeetCode GraphQL answer or Competitive Companion JSON."""
    if re.match(r"^https?://", source, re.IGNORECASE):
        with open_client(cookies) as client:
            return fetch_url(source, client, site)
    path = Path(source)
    if not path.is_file():
        what = "is a directory, not a file" if path.is_dir() else "does not exist"
        raise ConfigError(f"{source} {what}", hint="give a problem URL (https://...) or a saved page")
    return parse_content(path.read_bytes(), site, page_url)


def load_source(source: str, *, site: str | None = None, cookies: Path | None = None) -> Problem:
    """The one problem at a URL, in a problem.json, a Competitive Companion JSON or a saved page."""
    path = Path(source)
    if path.suffix == ".json" and path.is_file():
        data = path.read_bytes()
        if b'"schema_version"' in data and b'"samples"' in data:
            return load_problem(path)  # cpbot's own problem.json
    problems = load_problems(source, site=site, cookies=cookies)
    if len(problems) != 1:
        raise ConfigError(
            f"{source} holds {len(problems)} problems; `cpbot solve` takes one",
            hint="give the URL of one problem (…/problem/A), or `cpbot fetch` the contest first",
        )
    return problems[0]
