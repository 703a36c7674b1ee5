"""The browser transport's httpx side and its settings, without a browser: a recording stand-in plays
the page, so these run everywhere (tests/bot/test_browser_e2e.py drives the real Chromium)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cpbot.core.errors import ConfigError, FetchError
from cpbot.scrapers.blocking import BlockedError
from cpbot.scrapers.browser import BrowserRequestError, BrowserSession, PageResponse
from cpbot.scrapers.browser_settings import BrowserSettings, mark_signed_in, signed_in
from cpbot.scrapers.browser_transport import BrowserTransport, ChallengeTransport
from cpbot.scrapers.endpoints import Endpoints, site_client
from cpbot.scrapers.http import HttpClient
from tests.fakes import FakeSite, FakeSiteServer
from tests.fakes.fixtures import populate
from tests.fakes.wall import COOKIE, BotWall, clearance_for

ORIGIN = "https://leetcode.com"


class RecordingPage:
    """Stands in for a `BrowserSession`: answers from a table and records what it was asked."""

    def __init__(self, answers: dict[str, PageResponse], cookies: list[dict[str, Any]] | None = None) -> None:
        self.answers = answers
        self.jar = cookies or []
        self.calls: list[dict[str, Any]] = []

    def fetch(self, method, url, headers, body, *, referrer=None, seed_cookies=None) -> PageResponse:
        self.calls.append(
            {"method": method, "url": url, "headers": headers, "body": body, "referrer": referrer, "seed": seed_cookies}
        )
        answer = self.answers.get(url)
        if answer is None:
            raise BrowserRequestError(f"{method} {url} failed in the browser: TypeError: Failed to fetch")
        return answer

    def cookies(self, url: str) -> list[dict[str, Any]]:
        return self.jar


def page(status: int, url: str, body: bytes = b"", headers=(), redirected: bool = False) -> PageResponse:
    return PageResponse(status=status, url=url, redirected=redirected, headers=list(headers), body=body)


def client_over(session: RecordingPage, **kw: Any) -> HttpClient:
    return HttpClient(transport=BrowserTransport(session), max_retries=kw.pop("max_retries", 0), **kw)  # type: ignore[arg-type]


def test_a_redirect_the_browser_followed_reaches_httpx_without_a_second_request() -> None:
    submit = f"{ORIGIN}/problems/two-sum/submit/"
    landed = f"{ORIGIN}/submissions/detail/7/"
    session = RecordingPage({submit: page(200, landed, b"<p>queued</p>", redirected=True)})
    with client_over(session) as client:
        response = client.post(submit, content=b'{"lang": "cpp"}', headers={"Content-Type": "application/json"})
    assert str(response.url) == landed and response.text == "<p>queued</p>"
    assert [c["method"] for c in session.calls] == ["POST"]  # the follow-up GET came from what the browser had


def test_headers_the_page_cannot_set_are_left_to_the_browser_and_the_referer_becomes_the_referrer() -> None:
    url = "http://127.0.0.1:9/graphql"
    session = RecordingPage({url: page(200, url, b"{}")})
    with client_over(session) as client:
        client.post(
            url,
            content=b"{}",
            headers={
                "Content-Type": "application/json",
                "x-csrftoken": "tok",
                "Referer": f"{ORIGIN}/problems/two-sum/",
                "Cookie": "csrftoken=tok; LEETCODE_SESSION=s1",
            },
        )
    (call,) = session.calls
    sent = {k.lower() for k in call["headers"]}
    assert {"content-type", "x-csrftoken", "accept"} <= sent
    assert not sent & {"user-agent", "cookie", "host", "referer", "accept-encoding", "content-length", "connection"}
    # fetch() only sends a referrer of the page's own origin: a routed site keeps the path
    assert call["referrer"] == "http://127.0.0.1:9/problems/two-sum/"
    assert call["seed"] == {"csrftoken": "tok", "LEETCODE_SESSION": "s1"} and call["body"] == b"{}"


def test_the_browsers_cookies_reach_the_client_and_a_decoded_body_loses_its_encoding_header() -> None:
    url = f"{ORIGIN}/"
    gz = page(200, url, b"plain text", headers=[("content-encoding", "gzip"), ("content-length", "3")])
    jar = [{"name": "csrftoken", "value": "from-browser", "path": "/", "expires": 4102444800}]
    with client_over(RecordingPage({url: gz}, jar)) as client:
        response = client.get(url)
        assert response.text == "plain text"
        assert client.cookie("csrftoken", "leetcode.com") == "from-browser"


def test_a_request_that_fails_in_the_browser_is_a_network_error_retried_then_reported() -> None:
    session = RecordingPage({})
    client = client_over(session, max_retries=1, backoff_s=0.0, sleep=lambda s: None)
    with client, pytest.raises(FetchError, match=r"could not reach leetcode\.com") as info:
        client.get(f"{ORIGIN}/api/x")
    assert "Failed to fetch" in str(info.value) and len(session.calls) == 2


@pytest.fixture
def walled() -> FakeSite:
    site = populate(FakeSite())
    site.wall = BotWall()
    return site


def test_without_a_browser_the_wall_is_the_clear_blocked_error_naming_the_browser_transport(walled) -> None:
    with FakeSiteServer(walled) as server, server.client() as client, pytest.raises(BlockedError) as info:
        client.get("https://codeforces.com/api/contest.list")
    assert "challenge" in info.value.message and "--browser" in info.value.hint
    assert walled.wall is not None and walled.wall.challenges == 1


def test_a_clearance_copied_out_of_the_browser_does_not_pass_with_another_user_agent(walled) -> None:
    wall = walled.wall
    assert wall is not None
    wall.challenge_page()
    (nonce,) = wall.nonces
    browser_ua = "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36"
    cookie = {COOKIE: clearance_for(nonce, browser_ua)}
    assert wall.admits(cookie, browser_ua)
    assert not wall.admits(cookie, "cpbot/0.1 (competitive-programming assistant; rate-limited, read-only)")


def test_a_disabled_browser_leaves_the_challenge_to_the_blocked_error(walled, tmp_path: Path) -> None:
    with FakeSiteServer(walled) as server:
        endpoints = Endpoints.everywhere(server.url)
        client = site_client(endpoints, browser=BrowserSettings(enabled=False, profiles=tmp_path))
        with client, pytest.raises(BlockedError):
            client.get("https://codeforces.com/api/contest.list")
    assert not (tmp_path / "codeforces").exists()  # no browser was started


def test_a_profile_signed_in_with_login_browser_starts_its_site_in_the_browser(tmp_path: Path) -> None:
    settings = BrowserSettings(profiles=tmp_path)
    assert signed_in(settings.profile_dir("cf")) is None
    mark_signed_in(settings.profile_dir("cf"), "codeforces", now=1.0)
    marker = signed_in(settings.profile_dir("codeforces"))
    assert marker is not None and marker.site == "codeforces" and marker.version == 1
    cf, lc = ChallengeTransport("codeforces", settings), ChallengeTransport("leetcode", settings)
    try:
        assert cf.in_browser and not lc.in_browser  # nothing starts until a request is made
    finally:
        cf.close()
        lc.close()


def test_browser_settings_come_from_the_config_table_and_name_a_bad_entry() -> None:
    settings = BrowserSettings.from_table({"executable": "/usr/bin/chromium", "headless": False}, "c.toml")
    assert settings.executable == Path("/usr/bin/chromium") and settings.headless is False and settings.enabled
    with pytest.raises(ConfigError, match=r"c.toml: \[browser\] headles"):
        BrowserSettings.from_table({"headles": True}, "c.toml")
    with pytest.raises(ConfigError, match="must be a table"):
        BrowserSettings.from_table("chromium", "c.toml")


def test_a_missing_browser_is_a_config_error_naming_how_to_install_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(ConfigError) as info:
        BrowserSettings().browser_path()
    assert "apt-get install chromium" in info.value.hint
    with pytest.raises(ConfigError, match="does not exist"):
        BrowserSettings(executable=Path("/nonexistent/chrome")).browser_path()


def test_config_toml_browser_table_and_the_browser_flag_decide_the_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cpbot.bot.cli.browser import browser_settings
    from cpbot.bot.cli.config import load_settings

    monkeypatch.setenv("CPBOT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    assert browser_settings(None) is None  # nothing configured: plain HTTP only
    assert browser_settings(True) == BrowserSettings()
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text("[browser]\nheadless = false\nenabled = false\n")
    assert load_settings().browser == BrowserSettings(headless=False, enabled=False)
    assert browser_settings(None) is None  # disabled in the file
    forced = browser_settings(True)
    assert forced is not None and forced.enabled and forced.headless is False
    (tmp_path / "config" / "config.toml").write_text("")
    mark_signed_in(BrowserSettings().profile_dir("lc"), "leetcode")
    assert browser_settings(None) == BrowserSettings()  # a `cpbot login --browser` sign-in turns it on
    assert browser_settings(False) is None


def test_challenge_transport_hands_back_a_normal_answer_untouched(walled, tmp_path: Path) -> None:
    walled.wall = None
    with FakeSiteServer(walled) as server:
        endpoints = Endpoints.everywhere(server.url)
        with site_client(endpoints, browser=BrowserSettings(profiles=tmp_path)) as client:
            assert client.get("https://codeforces.com/api/contest.list").json()["status"] == "OK"
    assert not (tmp_path / "codeforces").exists()  # plain HTTP answered: no browser was started


def test_playwright_is_imported_only_when_a_browser_starts_and_its_absence_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess
    import sys

    probe = "import sys, cpbot.bot.cli.main, cpbot.scrapers.browser_transport; print('playwright' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout == "False\n"
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)  # as if it were not installed
    session = BrowserSession("codeforces", BrowserSettings(profiles=tmp_path))
    try:
        with pytest.raises(ConfigError) as info:
            session.fetch("GET", "https://codeforces.com/", {}, None)
    finally:
        session.close()
    assert "cpbot[browser]" in info.value.hint


def test_login_browser_forget_deletes_the_sites_profile_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cpbot.bot.cli.main import main

    monkeypatch.setenv("CPBOT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    for site in ("codeforces", "leetcode"):
        mark_signed_in(BrowserSettings().profile_dir(site), site)
    assert main(["login", "--site", "cf", "--browser", "--forget"]) == 0
    assert "removed the Codeforces browser profile" in capsys.readouterr().out
    assert not BrowserSettings().profile_dir("codeforces").exists()
    assert signed_in(BrowserSettings().profile_dir("leetcode")) is not None
