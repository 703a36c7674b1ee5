"""The shared HTTP layer: rate limits, retries, block detection and cookies (replayed, no network)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from pytest_httpx import HTTPXMock

from cpbot.core.errors import FetchError
from cpbot.scrapers.blocking import BlockedError
from cpbot.scrapers.cookies import load_cookies_txt
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.ratelimit import RateLimiter
from cpbot.scrapers.sites import all_sites
from tests.scrapers.scraper_support import FakeClock, fixture_path

CF = "https://codeforces.com/contest/1873/problem/B?locale=en"
CHALLENGE = (
    "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>"
    "<script>window._cf_chl_opt={cType: 'managed'};</script></body></html>"
)


def make_client(clock: FakeClock, **kwargs: object) -> HttpClient:
    limiter = RateLimiter(clock=clock, sleep=clock.sleep, sites=all_sites())
    return HttpClient(limiter=limiter, sleep=clock.sleep, jitter=0.0, **kwargs)  # type: ignore[arg-type]


def test_requests_to_one_site_are_spaced_two_seconds_apart(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(url=CF, text="ok", is_reusable=True)
    with make_client(clock) as client:
        for _ in range(3):
            client.get(CF)
    assert clock.sleeps == [2.0, 2.0]


def test_mirror_hosts_share_the_codeforces_bucket_but_other_sites_do_not_wait(
    httpx_mock: HTTPXMock, clock: FakeClock
) -> None:
    httpx_mock.add_response(text="ok", is_reusable=True)
    with make_client(clock) as client:
        client.get("https://codeforces.com/api/contest.list")
        client.get("https://leetcode.com/graphql")
        client.get("https://mirror.codeforces.com/contest/1/problem/A")
    assert clock.sleeps == [2.0]


def test_rate_limiter_does_not_wait_when_the_interval_has_already_passed(clock: FakeClock) -> None:
    limiter = RateLimiter({"example.org": 5.0}, clock=clock, sleep=clock.sleep)
    assert limiter.wait("example.org") == 0
    clock.now += 7
    assert limiter.wait("example.org") == 0
    clock.now += 1
    assert limiter.wait("example.org") == pytest.approx(4.0)


def test_503_is_retried_after_the_seconds_in_retry_after(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(url=CF, status_code=503, headers={"Retry-After": "7"})
    httpx_mock.add_response(url=CF, text="<html>fine</html>")
    with make_client(clock) as client:
        response = client.get(CF)
    assert response.text == "<html>fine</html>"
    assert 7.0 in clock.sleeps
    assert len(httpx_mock.get_requests()) == 2


def test_retry_after_given_as_an_http_date_is_honoured(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(url=CF, status_code=429, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:30 GMT"})
    httpx_mock.add_response(url=CF, text="ok")
    with make_client(clock, wall_clock=lambda: 1445412500.0) as client:  # 10 s before that date
        client.get(CF)
    assert 10.0 in clock.sleeps


def test_429_without_retry_after_backs_off_exponentially(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    url = "https://leetcode.com/graphql"
    for _ in range(2):
        httpx_mock.add_response(url=url, status_code=429)
    httpx_mock.add_response(url=url, json={"data": {}})
    with make_client(clock, backoff_s=1.0) as client:
        client.post(url, json={})
    # The backoff sleeps (1 s, then 2 s) already cover LeetCode's 1 s spacing, so nothing else waits.
    assert clock.sleeps == [1.0, 2.0]


def test_gives_up_with_fetch_error_when_5xx_persists(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(url=CF, status_code=502, is_reusable=True)
    with make_client(clock, max_retries=2) as client, pytest.raises(FetchError, match="HTTP 502 after 3 attempts"):
        client.get(CF)
    assert len(httpx_mock.get_requests()) == 3


def test_timeouts_are_retried_then_reported(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_exception(httpx.ReadTimeout("timed out"), url=CF, is_reusable=True)
    with make_client(clock, max_retries=1) as client, pytest.raises(FetchError, match="could not reach"):
        client.get(CF)
    assert len(httpx_mock.get_requests()) == 2


def test_cloudflare_challenge_raises_blocked_error_telling_to_use_the_browser_or_listen(
    httpx_mock: HTTPXMock, clock: FakeClock
) -> None:
    httpx_mock.add_response(
        url=CF, status_code=403, html=CHALLENGE, headers={"Server": "cloudflare", "cf-mitigated": "challenge"}
    )
    with make_client(clock) as client, pytest.raises(BlockedError) as info:
        client.get(CF)
    assert "Cloudflare" in info.value.message
    assert "--browser" in info.value.hint and "cpbot listen" in info.value.hint


def test_a_challenge_served_as_503_is_not_retried(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(url=CF, status_code=503, html=CHALLENGE)
    with make_client(clock) as client, pytest.raises(BlockedError):
        client.get(CF)
    assert len(httpx_mock.get_requests()) == 1


def test_captcha_page_is_reported_as_a_captcha(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    page = '<html><body><form><div class="g-recaptcha" data-sitekey="x"></div></form></body></html>'
    httpx_mock.add_response(url=CF, html=page)
    with make_client(clock) as client, pytest.raises(BlockedError, match="captcha"):
        client.get(CF)


def test_a_real_problem_page_behind_cloudflare_is_not_mistaken_for_a_block(
    httpx_mock: HTTPXMock, clock: FakeClock
) -> None:
    page = fixture_path("codeforces", "cf_1081E_old_br_3samples_prettified.html").read_bytes()
    httpx_mock.add_response(url=CF, content=page, headers={"Server": "cloudflare", "Content-Type": "text/html"})
    with make_client(clock) as client:
        assert client.get(CF).content == page


def test_requests_name_cpbot_in_the_user_agent(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(url=CF, text="ok")
    with make_client(clock) as client:
        client.get(CF)
    assert httpx_mock.get_requests()[0].headers["User-Agent"].startswith("cpbot/")


def test_404_is_a_fetch_error_naming_the_url(httpx_mock: HTTPXMock, clock: FakeClock) -> None:
    httpx_mock.add_response(url=CF, status_code=404)
    with make_client(clock) as client, pytest.raises(FetchError, match="problem/B"):
        client.get(CF)


def test_cookies_imported_from_cookies_txt_are_sent_only_to_their_site(
    httpx_mock: HTTPXMock, clock: FakeClock, tmp_path: Path
) -> None:
    cookies = tmp_path / "cookies.txt"
    cookies.write_text(
        "# Netscape HTTP Cookie File\n"
        ".codeforces.com\tTRUE\t/\tTRUE\t4102444800\tcf_clearance\tabc123\n"
        "#HttpOnly_codeforces.com\tFALSE\t/\tFALSE\t0\tJSESSIONID\tSESSION42\n"
        ".leetcode.com\tTRUE\t/\tTRUE\t4102444800\tcsrftoken\ttok\n",
        encoding="utf-8",
    )
    cookies.chmod(0o600)
    httpx_mock.add_response(text="ok", is_reusable=True)
    with make_client(clock, cookies=load_cookies_txt(cookies)) as client:
        client.get(CF)
        client.get("https://example.org/")
        assert client.cookie("csrftoken", "leetcode.com") == "tok"
    cf_request, other = httpx_mock.get_requests()
    assert "cf_clearance=abc123" in cf_request.headers["Cookie"]
    assert "JSESSIONID=SESSION42" in cf_request.headers["Cookie"]
    assert "Cookie" not in other.headers
