"""Every Codeforces and LeetCode URL form the notes list is recognised; others are refused."""

from __future__ import annotations

import pytest

from cpbot.core.errors import ConfigError
from cpbot.scrapers.codeforces.urls import parse_codeforces_url
from cpbot.scrapers.leetcode.urls import parse_leetcode_url
from cpbot.scrapers.sites import site_for_url


@pytest.mark.parametrize(
    ("url", "problem_id", "fetch_url"),
    [
        (
            "https://codeforces.com/contest/1873/problem/B",
            "codeforces:1873B",
            "https://codeforces.com/contest/1873/problem/B?locale=en",
        ),
        (
            "http://codeforces.com/problemset/problem/1873/b?locale=ru",
            "codeforces:1873B",
            "http://codeforces.com/contest/1873/problem/B?locale=en",
        ),
        (
            "https://codeforces.com/gym/101991/problem/E",
            "codeforces:101991E",
            "https://codeforces.com/gym/101991/problem/E?locale=en",
        ),
        (
            "https://codeforces.com/problemset/gymProblem/101991/E",
            "codeforces:101991E",
            "https://codeforces.com/gym/101991/problem/E?locale=en",
        ),
        (
            "https://codeforces.com/group/MWSDmqGsZm/contest/219158/problem/D2",
            "codeforces:219158D2",
            "https://codeforces.com/group/MWSDmqGsZm/contest/219158/problem/D2?locale=en",
        ),
        (
            "https://mirror.codeforces.com/contest/2220/problem/D2",
            "codeforces:2220D2",
            "https://mirror.codeforces.com/contest/2220/problem/D2?locale=en",
        ),
        (
            "https://codeforces.net/contest/1/problem/A",
            "codeforces:1A",
            "https://codeforces.net/contest/1/problem/A?locale=en",
        ),
        (
            "https://codeforc.es/contest/1/problem/0",
            "codeforces:1A",
            "https://codeforc.es/contest/1/problem/A?locale=en",
        ),
        (
            "https://codeforces.com/problemsets/acmsguru/problem/99999/100",
            "codeforces:acmsguru100",
            "https://codeforces.com/problemsets/acmsguru/problem/99999/100?locale=en",
        ),
        (
            "https://codeforces.com/edu/course/2/lesson/4/1/practice/contest/273169/problem/A",
            "codeforces:273169A",
            "https://codeforces.com/edu/course/2/lesson/4/1/practice/contest/273169/problem/A?locale=en",
        ),
    ],
)
def test_codeforces_problem_urls_give_id_and_an_english_fetch_url(url: str, problem_id: str, fetch_url: str) -> None:
    ref = parse_codeforces_url(url)
    assert ref.problem_id() == problem_id
    assert ref.fetch_url() == fetch_url
    assert site_for_url(url).name == "codeforces"


@pytest.mark.parametrize(
    ("url", "fetch_url"),
    [
        ("https://codeforces.com/contest/1873", "https://codeforces.com/contest/1873/problems?locale=en"),
        ("https://codeforces.com/contest/1873/problems", "https://codeforces.com/contest/1873/problems?locale=en"),
        ("https://codeforces.com/gym/245042/problems", "https://codeforces.com/gym/245042/problems?locale=en"),
    ],
)
def test_codeforces_contest_urls_fetch_the_all_problems_page(url: str, fetch_url: str) -> None:
    ref = parse_codeforces_url(url)
    assert ref.index is None
    assert ref.fetch_url() == fetch_url


@pytest.mark.parametrize(
    "url", ["https://codeforces.com/blog/entry/1", "https://example.com/contest/1/problem/A", "ftp://codeforces.com/x"]
)
def test_other_urls_are_refused_with_a_config_error(url: str) -> None:
    with pytest.raises(ConfigError):
        parse_codeforces_url(url)


@pytest.mark.parametrize(
    ("url", "slug", "contest", "canonical"),
    [
        ("https://leetcode.com/problems/two-sum/", "two-sum", None, "https://leetcode.com/problems/two-sum/"),
        (
            "https://leetcode.com/problems/two-sum/description/?envType=daily",
            "two-sum",
            None,
            "https://leetcode.com/problems/two-sum/",
        ),
        (
            "https://leetcode.com/contest/weekly-contest-300/problems/decode-the-message/",
            "decode-the-message",
            "weekly-contest-300",
            "https://leetcode.com/contest/weekly-contest-300/problems/decode-the-message/",
        ),
        ("https://leetcode.cn/problems/lru-cache", "lru-cache", None, "https://leetcode.cn/problems/lru-cache/"),
    ],
)
def test_leetcode_urls_give_slug_and_contest(url: str, slug: str, contest: str | None, canonical: str) -> None:
    ref = parse_leetcode_url(url)
    assert (ref.slug, ref.contest, ref.url) == (slug, contest, canonical)
    assert site_for_url(url).name == "leetcode"
