"""The site objects of the registry, looked up by name, URL or content, and the entry points built on them.

Each `SiteSpec` in `cpbot.core.registry` names the module whose `SITE` object implements
`cpbot.scrapers.site.Site`; a module is imported the first time its site is asked for. Competitive
Companion's JSON is a format of its own, read by `scrapers.companion` for whichever site it names (it
asks this module; this module never asks it).
"""

from __future__ import annotations

import importlib
import json
from urllib.parse import urlsplit

from cpbot.core import bounds
from cpbot.core.errors import ConfigError
from cpbot.core.registry import SITE_ALIASES, SITE_SPECS, site_spec
from cpbot.judge.model import Problem
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.site import Site

_BOM_AND_SPACE = b"\xef\xbb\xbf \t\r\n"


def get_site(name_or_alias: str) -> Site:
    """The site called `name_or_alias` (`cf`, `Codeforces`, `leetcode`, ...); `ConfigError` if unknown."""
    spec = site_spec(name_or_alias)
    site = importlib.import_module(spec.module).SITE
    if not isinstance(site, Site) or site.name != spec.name:
        raise ConfigError(f"{spec.module}.SITE does not implement the site {spec.name}")
    return site


def find_site(name: str) -> Site | None:
    """The site called `name`, or None for problems of no registered site (`local`, a dataset's)."""
    return get_site(name) if name.strip().lower() in SITE_ALIASES else None


def all_sites() -> tuple[Site, ...]:
    """Every registered site, in the registry's order."""
    return tuple(get_site(spec.name) for spec in SITE_SPECS)


def site_for_url(url: str) -> Site:
    """The site a URL belongs to, from its host."""
    for site in all_sites():
        if site.owns_url(url):
            return site
    host = urlsplit(url).hostname or url
    known = ", ".join(s.spec.domain for s in all_sites())
    raise ConfigError(f"no scraper for {host}", hint=f"cpbot knows {known}")


def site_for_content(data: bytes) -> Site:
    """The site a saved page or API answer comes from, from its content."""
    head = data.lstrip(_BOM_AND_SPACE)
    if head.startswith((b"{", b"[")):
        try:
            bounds.loads(head, "the file")
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise ConfigError(f"the file looks like JSON but is not valid JSON: {e}") from e
    for site in all_sites():
        if site.owns_content(head):
            return site
    raise ConfigError(
        "cannot tell which site this file comes from",
        hint="give a page saved from the browser, an API answer of a site (e.g. LeetCode's GraphQL "
        "question) or a Competitive Companion problem JSON; or pass --site to say which",
    )


def fetch_url(url: str, client: HttpClient, site: str | None = None) -> list[Problem]:
    """Fetch the problem (or, for a contest URL, every problem) at `url`."""
    return (get_site(site) if site else site_for_url(url)).fetch_problems(url, client)


def parse_content(data: bytes, site: str | None = None, url: str | None = None) -> list[Problem]:
    """Parse what a browser saved or a site's API answered; the site is detected when not given.
    (Competitive Companion's JSON names its site itself: `scrapers.companion.parse_companion`.)"""
    return (get_site(site) if site else site_for_content(data)).parse_problems(data, url)
