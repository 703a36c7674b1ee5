"""Where a command's problem comes from: a URL, a page saved from the browser, a site's API answer (a
LeetCode GraphQL answer), a Competitive Companion JSON, or cpbot's own problem.json.

Every command that takes a problem loads it here, through the site registry (`cpbot.scrapers.sites`)
and the one HTTP client factory (`cpbot.scrapers.endpoints.site_client`), so that a site's base URL
override (`CPBOT_CODEFORCES_URL`, ...) holds for fetch, solve and submit alike.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from cpbot.bot.app.problem_folder import load_problem
from cpbot.core.errors import ConfigError
from cpbot.judge.model import Problem

if TYPE_CHECKING:
    from cpbot.scrapers.browser_settings import BrowserSettings
    from cpbot.scrapers.http import HttpClient

_URL = re.compile(r"^https?://", re.IGNORECASE)


def is_url(source: str) -> bool:
    """True for an http(s) address, False for a path."""
    return bool(_URL.match(source))


def open_client(cookies: Path | None = None, browser: BrowserSettings | None = None) -> HttpClient:
    """The HTTP client of a command (the one factory's), with the browser cookies of a cookies.txt, and
    the browser transport for a site behind a challenge page when `browser` is enabled."""
    from cpbot.scrapers.cookies import load_cookies_txt
    from cpbot.scrapers.endpoints import site_client

    return site_client(cookies=load_cookies_txt(cookies) if cookies else None, browser=browser)


def load_problems(
    source: str,
    *,
    site: str | None = None,
    cookies: Path | None = None,
    page_url: str | None = None,
    client: HttpClient | None = None,
    browser: BrowserSettings | None = None,
) -> list[Problem]:
    """The problems at `source`: a URL (fetched with `client`, or with `open_client(cookies)`), or a file.
    `site` says which site when it cannot be told; `page_url` is the address a saved page came from (it
    gives the problem ids)."""
    from cpbot.scrapers.companion import is_companion_payload, parse_companion
    from cpbot.scrapers.sites import fetch_url, parse_content

    if is_url(source):
        if client is not None:
            return fetch_url(source, client, site)
        with open_client(cookies, browser) as own:
            return fetch_url(source, own, site)
    path = Path(source)
    if not path.is_file():
        what = "is a directory, not a file" if path.is_dir() else "does not exist"
        raise ConfigError(f"{source} {what}", hint="give a problem URL (https://...) or a saved page")
    data = path.read_bytes()
    if path.suffix == ".json" and b'"schema_version"' in data and b'"samples"' in data:
        return [load_problem(path)]  # cpbot's own problem.json
    if site is None and is_companion_payload(data):
        return [parse_companion(data)]
    return parse_content(data, site, page_url)


def load_source(
    source: str,
    *,
    site: str | None = None,
    cookies: Path | None = None,
    client: HttpClient | None = None,
    browser: BrowserSettings | None = None,
) -> Problem:
    """The one problem at `source` (see `load_problems`); a contest's URL or page is an error."""
    problems = load_problems(source, site=site, cookies=cookies, client=client, browser=browser)
    if len(problems) != 1:
        raise ConfigError(
            f"{source} holds {len(problems)} problems; give one",
            hint="give the URL of one problem (…/problem/A), or `cpbot fetch` the contest first",
        )
    return problems[0]
