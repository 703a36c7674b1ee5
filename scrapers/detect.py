"""Tell which site a saved file or a URL comes from, by its content or its host."""

from __future__ import annotations

import json
from typing import Literal
from urllib.parse import urlsplit

from cpbot.core.errors import ConfigError
from cpbot.scrapers.codeforces_urls import is_codeforces_host
from cpbot.scrapers.leetcode import is_leetcode_host

Kind = Literal["codeforces", "leetcode", "companion"]
_CF_MARKERS = (b"problem-statement", b"problemindexholder", b"sample-tests")


def detect_content(data: bytes) -> Kind:
    """Codeforces HTML, a LeetCode GraphQL answer, or a Competitive Companion problem JSON."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith((b"{", b"[")):
        try:
            obj = json.loads(head)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise ConfigError(f"the file looks like JSON but is not valid JSON: {e}") from e
        if isinstance(obj, dict):
            if "tests" in obj and ("timeLimit" in obj or "group" in obj):
                return "companion"
            if "data" in obj or "question" in obj or ("content" in obj and "metaData" in obj):
                return "leetcode"
        raise ConfigError(
            "cannot tell which site this JSON comes from",
            hint='expected a LeetCode GraphQL answer ({"data": {"question": ...}}) or a Competitive '
            "Companion problem; pass --site to say which",
        )
    if any(marker in data for marker in _CF_MARKERS):
        return "codeforces"
    raise ConfigError(
        "cannot tell which site this file comes from",
        hint="give a Codeforces page saved from the browser or a LeetCode GraphQL answer, or pass --site",
    )


def detect_url(url: str) -> Literal["codeforces", "leetcode"]:
    """The site of a problem URL, from its host."""
    host = urlsplit(url).hostname or ""
    if is_codeforces_host(host):
        return "codeforces"
    if is_leetcode_host(host):
        return "leetcode"
    raise ConfigError(f"no scraper for {host or url}", hint="cpbot knows codeforces.com and leetcode.com")
