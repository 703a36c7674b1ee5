"""Codeforces URLs: recognise every problem and contest URL form and build canonical ones."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from cpbot.core.errors import ConfigError

CANONICAL_HOST = "codeforces.com"
_HOSTS = re.compile(r"^(?:[\w-]+\.)*codeforces\.com$|^codeforces\.(?:ml|net)$|^codeforc\.es$", re.IGNORECASE)
_INDEX = r"(?P<index>[A-Za-z][0-9]{0,2}|0|[0-9]{1,3})"

# (kind, pattern over the path); a missing index means a contest dashboard or all-problems page.
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (kind, re.compile(p + r"/?$"))
    for kind, p in [
        ("contest", rf"^/contest/(?P<contest>\d+)/problem/{_INDEX}"),
        ("contest", r"^/contest/(?P<contest>\d+)(?P<all>/problems)?"),
        ("gym", rf"^/gym/(?P<contest>\d+)/problem/{_INDEX}"),
        ("gym", r"^/gym/(?P<contest>\d+)(?P<all>/problems)?"),
        ("contest", rf"^/problemset/problem/(?P<contest>\d+)/{_INDEX}"),
        ("gym", rf"^/problemset/gymProblem/(?P<contest>\d+)/{_INDEX}"),
        ("group", rf"^/group/(?P<group>[\w-]+)/contest/(?P<contest>\d+)/problem/{_INDEX}"),
        ("group", r"^/group/(?P<group>[\w-]+)/contest/(?P<contest>\d+)(?P<all>/problems)?"),
        ("acmsguru", r"^/problemsets/acmsguru/problem/(?P<contest>\d+)/(?P<index>\d+)"),
        (
            "edu",
            r"^/edu/course/(?P<course>\d+)/lesson/(?P<lesson>\d+)/(?P<step>\d+)/practice/contest/"
            rf"(?P<contest>\d+)/problem/{_INDEX}",
        ),
    ]
]


@dataclass(frozen=True)
class CodeforcesRef:
    """What a Codeforces URL points at: one problem (`index` set) or a whole contest."""

    kind: str  # contest | gym | group | acmsguru | edu
    contest_id: str
    index: str | None = None
    group: str | None = None
    edu: str | None = None  # "course/lesson/step" for EDU practice problems
    host: str = CANONICAL_HOST
    scheme: str = "https"

    def base(self, host: str | None = None) -> str:
        """The contest's base path on `host` (the canonical host by default)."""
        root = f"{self.scheme if host else 'https'}://{host or CANONICAL_HOST}"
        if self.kind == "gym":
            return f"{root}/gym/{self.contest_id}"
        if self.kind == "group":
            return f"{root}/group/{self.group}/contest/{self.contest_id}"
        if self.kind == "edu":
            course, lesson, step = (self.edu or "0/0/0").split("/")
            return f"{root}/edu/course/{course}/lesson/{lesson}/{step}/practice/contest/{self.contest_id}"
        if self.kind == "acmsguru":
            return f"{root}/problemsets/acmsguru"
        return f"{root}/contest/{self.contest_id}"

    def problem_url(self, index: str | None = None, host: str | None = None) -> str:
        """The URL of one problem of this contest (canonical host unless `host` is given)."""
        idx = index or self.index or ""
        if self.kind == "acmsguru":
            return f"{self.base(host)}/problem/{self.contest_id}/{idx}"
        return f"{self.base(host)}/problem/{idx}"

    def problems_url(self, host: str | None = None) -> str:
        """The page that shows every statement of the contest at once."""
        return f"{self.base(host)}/problems"

    def fetch_url(self) -> str:
        """What to download for this reference, on the host the user gave, in English."""
        url = self.problem_url(host=self.host) if self.index else self.problems_url(host=self.host)
        return url + "?locale=en"

    def problem_id(self, index: str | None = None) -> str:
        """The cpbot problem id, e.g. `codeforces:1873B`."""
        idx = index or self.index or ""
        if self.kind == "acmsguru":
            return f"codeforces:acmsguru{idx}"
        return f"codeforces:{self.contest_id}{idx}"


def is_codeforces_host(host: str) -> bool:
    """True for codeforces.com, its subdomains (mirror.) and the known alias domains."""
    return bool(_HOSTS.match(host or ""))


def parse_codeforces_url(url: str) -> CodeforcesRef:
    """Recognise a Codeforces problem or contest URL; raise `ConfigError` for anything else."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not is_codeforces_host(parts.hostname or ""):
        raise ConfigError(f"not a Codeforces URL: {url}", hint="use e.g. https://codeforces.com/contest/1873/problem/B")
    for kind, pattern in _PATTERNS:
        m = pattern.match(parts.path)
        if not m:
            continue
        groups = m.groupdict()
        index = groups.get("index")
        if index == "0":  # a legacy alias of A
            index = "A"
        edu = None
        if kind == "edu":
            edu = f"{groups['course']}/{groups['lesson']}/{groups['step']}"
        return CodeforcesRef(
            kind=kind,
            contest_id=groups["contest"],
            index=index.upper() if index else None,
            group=groups.get("group"),
            edu=edu,
            host=(parts.hostname or CANONICAL_HOST).lower(),
            scheme=parts.scheme,
        )
    raise ConfigError(
        f"unknown Codeforces URL form: {url}",
        hint="give a problem URL (/contest/N/problem/X, /problemset/problem/N/X, /gym/N/problem/X) "
        "or a contest URL (/contest/N, /contest/N/problems)",
    )
