"""The site registry: one `Site` object per registered site, found by name, URL or content, and the one
client factory that routes each site to its base URL and transport."""

from __future__ import annotations

import json
from datetime import datetime

import httpx
import pytest

from cpbot.core.errors import ConfigError, FetchError
from cpbot.core.registry import SITE_SPECS, site_spec
from cpbot.judge.model import Problem
from cpbot.scrapers.companion import parse_companion, to_companion
from cpbot.scrapers.endpoints import Endpoints, RoutingTransport, site_client
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.listing import Contest, ContestProblem
from cpbot.scrapers.ranklist import Ranklist
from cpbot.scrapers.site import ProblemName, Site
from cpbot.scrapers.sites import all_sites, find_site, get_site, site_for_content, site_for_url
from tests.scrapers.scraper_support import fixture_path


def test_every_registered_site_has_its_object_under_its_name() -> None:
    sites = all_sites()
    assert [s.name for s in sites] == [spec.name for spec in SITE_SPECS]
    for site, spec in zip(sites, SITE_SPECS, strict=True):
        assert isinstance(site, Site) and site.spec is spec


@pytest.mark.parametrize("spelling", ["cf", "CF", "Codeforces", " codeforces "])
def test_a_site_is_found_by_any_alias_in_any_case(spelling: str) -> None:
    assert get_site(spelling) is get_site("codeforces")


def test_an_unknown_site_is_a_config_error_listing_the_known_ones_but_find_site_says_none() -> None:
    with pytest.raises(ConfigError, match="unknown site") as err:
        get_site("yukicoder")
    assert "cf" in (err.value.hint or "")
    assert find_site("local") is None


@pytest.mark.parametrize(
    ("url", "site"),
    [
        ("https://codeforces.com/contest/1873/problem/B", "codeforces"),
        ("https://mirror.codeforces.com/gym/102951/problem/A", "codeforces"),
        ("https://leetcode.com/problems/two-sum/", "leetcode"),
        ("https://leetcode.cn/problems/lru-cache", "leetcode"),
    ],
)
def test_a_url_belongs_to_the_site_of_its_host(url: str, site: str) -> None:
    assert site_for_url(url).name == site


def test_a_url_of_no_known_site_names_the_hosts_cpbot_knows() -> None:
    with pytest.raises(ConfigError, match=r"no scraper for yukicoder\.me") as err:
        site_for_url("https://yukicoder.me/problems/no/1")
    assert "codeforces.com" in (err.value.hint or "") and "leetcode.com" in (err.value.hint or "")


def test_saved_content_is_told_apart_by_site() -> None:
    page = fixture_path("codeforces", "cf_1702A_modern_single_line_cases.html").read_bytes()
    answer = fixture_path("leetcode", "lc_decode-ways_example_block.json").read_bytes()
    assert site_for_content(page).name == "codeforces"
    assert site_for_content(answer).name == "leetcode"
    with pytest.raises(ConfigError, match="cannot tell which site"):
        site_for_content(b"<html><body>a blog post</body></html>")
    with pytest.raises(ConfigError, match="not valid JSON"):
        site_for_content(b'{"data": ')


def test_competitive_companion_json_is_a_format_whose_problem_the_owning_site_names() -> None:
    payload = {
        "name": "B. Sum of Medians",
        "group": "Codeforces - Round",
        "url": "https://codeforces.com/contest/1440/problem/B",
        "memoryLimit": 256,
        "timeLimit": 2000,
        "tests": [{"input": "1\n", "output": "2\n"}],
    }
    problem = parse_companion(json.dumps(payload).encode())
    assert (problem.site, problem.id, problem.index, problem.title) == (
        "codeforces",
        "codeforces:1440B",
        "B",
        "Sum of Medians",
    )
    out = to_companion(problem)
    assert out["name"] == "B. Sum of Medians" and out["group"] == "Codeforces - Round"
    lc = parse_companion({**payload, "name": "Two Sum", "url": "https://leetcode.com/problems/two-sum/"})
    assert (lc.site, lc.id, lc.index) == ("leetcode", "leetcode:two-sum", None)
    other = parse_companion({**payload, "group": "yukicoder - No.1", "url": "https://yukicoder.me/problems/no/1"})
    assert other.site == "yukicoder" and other.index is None


def test_endpoints_come_from_each_sites_url_variable() -> None:
    env = {site_spec("cf").url_env: "http://127.0.0.1:8080/", "UNRELATED": "x"}
    endpoints = Endpoints.from_env(env)
    assert endpoints.base("codeforces") == "http://127.0.0.1:8080"
    assert endpoints.base("lc") == site_spec("lc").base_url
    assert endpoints.routes() == {"codeforces.com": "http://127.0.0.1:8080"} and endpoints.is_local()
    with pytest.raises(ConfigError, match="not an http"):
        Endpoints.from_env({site_spec("lc").url_env: "ftp://example.org"})


def test_the_routing_transport_rewrites_a_site_and_its_subdomains_only() -> None:
    transport = RoutingTransport({"codeforces.com": "http://127.0.0.1:9/base"})
    moved = transport.target(httpx.URL("https://mirror.codeforces.com/contest/1?locale=en"))
    assert str(moved) == "http://127.0.0.1:9/base/contest/1?locale=en"
    assert transport.target(httpx.URL("https://leetcode.com/graphql")) is None


class _SiteWithItsOwnTransport(Site):
    """A stand-in site whose requests must travel through a transport of its own (as a browser-backed
    one would, for a site behind a challenge page)."""

    spec = site_spec("leetcode")

    def __init__(self, transport: httpx.BaseTransport) -> None:
        self._transport = transport

    def transport(self) -> httpx.BaseTransport | None:
        return self._transport

    def owns_url(self, url: str) -> bool:
        return True

    def owns_content(self, data: bytes) -> bool:
        return False

    def name_problem(self, url: str, shown_name: str) -> ProblemName | None:
        return None

    def fetch_problems(self, url: str, client: HttpClient) -> list[Problem]:
        return []

    def parse_problems(self, data: bytes, url: str | None = None) -> list[Problem]:
        return []

    def upcoming_contests(self, client: HttpClient, now: datetime) -> list[Contest]:
        return []

    def recent_contests(self, client: HttpClient, now: datetime, limit: int = 10) -> list[Contest]:
        return []

    def find_contest(self, contest_id: str, client: HttpClient, now: datetime) -> Contest:
        raise self.unknown_contest(contest_id)

    def contest_problems(self, contest_id: str, client: HttpClient, now: datetime) -> list[ContestProblem]:
        return []

    def practice_open(self, contest_id: str, client: HttpClient, now: datetime) -> bool:
        raise self.unknown_contest(contest_id)

    def ranklist(self, contest_id: str, client: HttpClient, now: datetime) -> Ranklist:
        raise self.unknown_contest(contest_id)


def test_the_client_factory_sends_a_sites_requests_through_the_transport_the_site_chooses() -> None:
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, text="through the site's transport")

    site = _SiteWithItsOwnTransport(httpx.MockTransport(answer))
    endpoints = Endpoints.everywhere("http://127.0.0.1:1")  # strict: nothing may leave the machine
    with site_client(endpoints, sites=[site]) as client:
        response = client.get("https://leetcode.com/graphql")
        with pytest.raises(FetchError, match="not routed"):
            client.get("https://example.org/")
    assert response.text == "through the site's transport"
    assert seen == ["http://127.0.0.1:1/graphql"]
    assert all(s.transport() is None for s in all_sites())  # the registered sites use plain HTTP(S)
