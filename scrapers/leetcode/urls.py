"""LeetCode URLs: recognise problem and contest problem URLs and build canonical ones."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from cpbot.core.errors import ConfigError

HOSTS = ("leetcode.com", "leetcode.cn")
_SLUG = r"(?P<slug>[a-z0-9][a-z0-9-]*)"
PROBLEM_PATH = re.compile(rf"^/problems/{_SLUG}(?:/.*)?$")
_CONTEST_PATH = re.compile(rf"^/contest/(?P<contest>[a-z0-9-]+)/problems/{_SLUG}(?:/.*)?$")


@dataclass(frozen=True)
class LeetcodeRef:
    """A LeetCode problem URL: the slug, and the contest when it is a contest problem page."""

    slug: str
    contest: str | None = None
    host: str = "leetcode.com"

    @property
    def url(self) -> str:
        """The problem's canonical address."""
        if self.contest:
            return f"https://{self.host}/contest/{self.contest}/problems/{self.slug}/"
        return f"https://{self.host}/problems/{self.slug}/"


def is_leetcode_host(host: str) -> bool:
    """True for leetcode.com, leetcode.cn and their subdomains."""
    host = (host or "").lower()
    return any(host == h or host.endswith("." + h) for h in HOSTS)


def parse_leetcode_url(url: str) -> LeetcodeRef:
    """Recognise `/problems/<slug>/...` and `/contest/<c>/problems/<slug>/`; `ConfigError` otherwise."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    if parts.scheme in ("http", "https") and is_leetcode_host(host):
        base = "leetcode.cn" if host.endswith("leetcode.cn") else "leetcode.com"
        m = _CONTEST_PATH.match(parts.path) or PROBLEM_PATH.match(parts.path)
        if m:
            return LeetcodeRef(m.group("slug"), m.groupdict().get("contest"), base)
    raise ConfigError(f"not a LeetCode problem URL: {url}", hint="use e.g. https://leetcode.com/problems/two-sum/")
