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

from cpbot.bot.app.problem_folder import is_problem_file, load_problem
from cpbot.core.bounds import PAGE
from cpbot.core.errors import ConfigError
from cpbot.core.registry import LOCAL_SITE
from cpbot.core.safe_paths import read_file
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
    if not path.exists():
        raise ConfigError(f"{source} does not exist", hint="give a problem URL (https://...) or a saved page")
    data = read_file(path, PAGE)  # a saved page: bounded as a fetched one is; a FIFO or a device is refused
    if site == LOCAL_SITE or is_problem_file(path, data):
        return [load_problem(path)]  # cpbot's own problem.json, or one written by hand
    if site is None and is_companion_payload(data):
        return [parse_companion(data)]
    problems = parse_content(data, site, page_url)
    if page_url is not None:
        _check_page_url(page_url, problems, parse_content(data, site))
    return problems


def _check_page_url(page_url: str, problems: list[Problem], as_saved: list[Problem]) -> None:
    """A saved page's --url must name the problem on the page: the index it gives, and the problem the
    page names itself (its own links), when it does. `as_saved` is the page parsed without the URL."""
    from cpbot.scrapers.sites import site_for_url

    try:
        named = site_for_url(page_url).name_problem(page_url, "")
    except ConfigError:
        return  # no site's address: it names nothing to compare with
    if named is None:
        return
    # a contest's address (no index) names each of its problems
    fits = [p for p in problems if p.id == named.id or (named.index is None and p.index and p.id.startswith(named.id))]
    own = [p.id for p in as_saved if not p.id.startswith(f"{LOCAL_SITE}:")]
    if not fits or any(i not in {p.id for p in problems} for i in own):
        on_page = ", ".join(own or [p.index or p.id for p in problems])
        raise ConfigError(
            f"--url {page_url} names {named.id}, but the page holds {on_page}",
            hint="give the address the page was saved from, or leave --url out",
        )


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
