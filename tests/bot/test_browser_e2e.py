"""The browser transport end to end: Debian's Chromium (headless, or a window on Xvfb) against the fake
sites behind their bot wall, through the real commands.

The wall (tests/fakes/wall.py) answers every request without a clearance with a 403 "Just a
moment..." page whose script earns the clearance in a real browser, bound to that browser's user agent.
These tests need `chromium` (apt-get install chromium) and Playwright (the `test` extra); the window
tests need Xvfb (apt-get install xvfb). Without them they are skipped, saying so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from cpbot.bot.cli.main import main
from cpbot.bot.submit.base import SiteSubmitter
from cpbot.bot.submit.ledger import SubmissionLedger
from cpbot.judge.model import Limits, Problem, Solution, TestCase, Verdict
from cpbot.scrapers import browser
from cpbot.scrapers.browser_settings import EXECUTABLE_NAMES, BrowserSettings, signed_in
from cpbot.scrapers.cookies import cookies_from_header
from cpbot.scrapers.endpoints import Endpoints, site_client
from cpbot.scrapers.leetcode.submit import LeetcodeProtocol
from cpbot.scrapers.sites import fetch_url
from tests.agents.support.scripted_server import ScriptedServer
from tests.bot.watch import lc_round
from tests.bot.watch.support import API_KEY
from tests.fakes import FakeSite, FakeSiteServer
from tests.fakes.fixtures import populate
from tests.fakes.wall import BotWall

pytest.importorskip(
    "playwright.sync_api", reason="Playwright is missing: pip install -e '.[test]' (or 'cpbot[browser]')"
)
CHROMIUM = next((path for name in EXECUTABLE_NAMES if (path := shutil.which(name))), None)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium for the browser transport tests: apt-get install chromium"
)

CF_CONTEST = "https://codeforces.com/contest/1873"
CF_B = "https://codeforces.com/contest/1873/problem/B"
LC_DECODE = "https://leetcode.com/problems/decode-ways/"
SOLUTION = "a, b = map(int, input().split())\nprint(a + b)\n"
HEADLESS = "HeadlessChrome"


def submit_args(problem: Path) -> list[str]:
    """`cpbot submit` of sol.py with only the samples judged locally."""
    return ["submit", "sol.py", "--problem", str(problem), "--yes", "--skip", "generated", "--skip", "stress",
            "--skip", "profile", "--interval", "0.05", "--timeout", "20", "--json"]  # fmt: skip


def walled_site(kind: str = "script") -> FakeSite:
    """The default fake sites behind the wall, their rounds over (submissions go in as practice)."""
    site = populate(FakeSite())
    site.wall = BotWall(kind)  # type: ignore[arg-type]
    for contest in site.cf_contests.values():
        contest.start -= 10_000
    for lc_contest in site.lc_contests.values():
        lc_contest.start -= 10_000
    return site


@pytest.fixture
def xvfb(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A virtual display for the tests of a visible window; DISPLAY points at it."""
    if shutil.which("Xvfb") is None:
        pytest.skip("no Xvfb for the visible-window tests: apt-get install xvfb")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    monkeypatch.setenv("DISPLAY", f":{number}")
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


class Workspace:
    """A user (config, data dir) and the walled fake sites they talk to."""

    def __init__(self, root: Path, server: FakeSiteServer) -> None:
        self.root = root
        self.server = server
        self.site = server.site
        self.wall = server.site.wall
        self.config = root / "config" / "config.toml"

    def configure(self, **browser: object) -> None:
        """Write the `[browser]` table of config.toml."""
        lines = ["[browser]", f'executable = "{CHROMIUM}"']
        lines += [f"{k} = {json.dumps(v)}" for k, v in browser.items()]
        self.config.write_text("\n".join(lines) + "\n")

    def settings(self) -> BrowserSettings:
        return BrowserSettings(executable=Path(str(CHROMIUM)), profiles=self.root / "data" / "browser")

    def problem_json(self) -> Path:
        """Codeforces 1873B with A+B samples, so that the gate's local judging is quick and sure."""
        problem = Problem(
            id="codeforces:1873B", site="codeforces", url=CF_B, title="A+B", index="B",
            limits=Limits(time_ms=1000, memory_mb=256), samples=[TestCase(input="1 2\n", output="3\n")],
        )  # fmt: skip
        path = self.root / "problem.json"
        path.write_text(problem.model_dump_json())
        (self.root / "sol.py").write_text(SOLUTION)
        return path

    def cookies_txt(self) -> Path:
        path = self.root / "cookies.txt"
        path.write_text(
            f"# Netscape HTTP Cookie File\n.codeforces.com\tTRUE\t/\tFALSE\t0\tJSESSIONID\t{self.site.cf_session}\n"
        )
        path.chmod(0o600)  # a session file others can read is refused
        return path


@contextmanager
def workspace_for(site: FakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Workspace]:
    with FakeSiteServer(site) as server:
        env = {**server.env(), "CPBOT_DATA_DIR": str(tmp_path / "data"), "CPBOT_CONFIG_DIR": str(tmp_path / "config")}
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("CPBOT_COOKIES", raising=False)
        (tmp_path / "config").mkdir()
        monkeypatch.chdir(tmp_path)
        yield Workspace(tmp_path, server)


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Workspace]:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with workspace_for(walled_site(), tmp_path, monkeypatch) as w:
        yield w


def test_plain_http_stops_at_the_wall_with_the_clear_error(ws: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fetch", CF_B, "-o", "out"]) == 2
    err = capsys.readouterr().err
    assert "Cloudflare challenge page" in err and "--browser" in err
    assert not Path("out").exists() and ws.wall is not None and ws.wall.challenges_to(HEADLESS) == 0


def test_fetch_and_contests_pass_the_challenge_headless_and_the_profile_keeps_the_clearance(
    ws: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    ws.configure(check_timeout_s=15)
    assert main(["fetch", "--browser", CF_CONTEST, "-o", "out"]) == 0
    err = capsys.readouterr().err
    assert sorted(p.name for p in Path("out").iterdir()) == ["1873A", "1873B", "1873C"]
    assert json.loads((Path("out") / "1873B" / "problem.json").read_text())["title"] == "Candies"
    assert "answered with a Cloudflare challenge page: going on through Chromium" in err
    assert ws.wall is not None and ws.wall.challenges_to(HEADLESS) == 1  # passed by the page's own script
    # a second run: plain HTTP meets the wall again, the browser's profile still has its clearance
    assert main(["contests", "--browser", "--site", "all", "--json"]) == 0
    out, err = capsys.readouterr()
    assert "warning" not in err  # both sites answered
    assert {(c["site"], c["id"]) for c in json.loads(out)} == {("codeforces", "1900")}  # the one round not over
    # Codeforces' profile still had its clearance; LeetCode's and AtCoder's (profiles of their own) earned one each
    assert ws.wall.challenges_to(HEADLESS) == 3 and ws.wall.challenges_to("cpbot/") == 4
    assert main(["fetch", "--browser", LC_DECODE, "-o", "lc"]) == 0
    assert ws.wall.challenges_to(HEADLESS) == 3
    assert json.loads((Path("lc") / "problem.json").read_text())["id"] == "leetcode:decode-ways"


def test_submit_goes_in_as_practice_through_the_browser_and_its_verdict_is_followed(
    ws: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    ws.configure()
    code = main([*submit_args(ws.problem_json()), "--cookies", str(ws.cookies_txt()), "--browser"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert result["verdict"]["verdict"] == "AC" and result["verdict"]["final"]
    (sub,) = ws.site.submissions
    assert sub.practice and sub.problem_key == "1873B" and sub.handle == ws.site.cf_handle and sub.source == SOLUTION
    assert ws.wall is not None and ws.wall.challenges_to("cpbot/") == 1 and ws.wall.challenges_to(HEADLESS) == 1


def test_leetcode_submit_and_verdict_over_the_browser_use_the_browsers_csrf_cookie(ws: Workspace) -> None:
    site = ws.site
    jar = cookies_from_header(f"LEETCODE_SESSION={site.lc_session}; csrftoken={site.lc_csrf}", "leetcode.com")
    endpoints = Endpoints.everywhere(ws.server.url)
    with (
        site_client(endpoints, cookies=jar, browser=ws.settings(), notify=lambda m: None) as client,
        SubmissionLedger(ws.root / "ledger.sqlite3", min_interval_s=0) as ledger,
    ):
        problem = fetch_url(LC_DECODE, client)[0]
        submitter = SiteSubmitter(LeetcodeProtocol(client), ledger)
        source = "class Solution:\n    def numDecodings(self, s: str) -> int:\n        return 0\n"
        sub_id = submitter.submit(problem, Solution(language="python3", source=source))
        verdict = submitter.wait(problem, sub_id, timeout_s=20, interval_s=0.05)
    assert verdict.final and verdict.verdict == Verdict.AC and verdict.status_text == "Accepted"
    (sub,) = site.submissions
    assert sub.practice and sub.problem_key == "decode-ways" and str(sub.id) == sub_id


def test_watch_solves_and_submits_a_finished_round_as_practice_through_the_browser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    site = lc_round.lc_site(start_in_s=-9000, duration_s=5400)
    site.wall = BotWall()
    with workspace_for(site, tmp_path, monkeypatch) as w:
        w.configure()
        with ScriptedServer(default=lc_round.model_answer) as model:
            args = [
                "watch", "--site", "lc", "--contest", lc_round.CONTEST, "--strategy", "direct", "--lang", "python3",
                "--gate", "samples", "--allow-unverified",
                "--model", "m", "--base-url", model.base_url, "--api-key", API_KEY,
                "--cookies", str(lc_round.lc_cookies_txt(tmp_path / "cookies.txt", site)), "--submit", "--browser",
                "--fetch-retry", "0.2", "--verdict-poll", "0.05", "--submit-interval", "0", "--once", "--json",
            ]  # fmt: skip
            assert main(args) == 0
    (contest,) = json.loads(capsys.readouterr().out)["contests"]
    assert contest["contest"]["mode"] == "virtual" and contest["contest"]["detail"] == "2/2 solved"
    assert len(site.submissions) == 3 and all(s.practice for s in site.submissions)
    assert site.wall is not None and site.wall.challenges_to(HEADLESS) == 1  # one browser for the whole watch


def test_login_in_a_visible_window_keeps_the_session_and_clearance_for_the_next_runs(
    xvfb: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = walled_site()
    site.autofill_login = True  # the login page signs in as a person (or their password manager) would
    with workspace_for(site, tmp_path, monkeypatch) as w:
        w.configure(headless=False)
        assert main(["login", "--browser", "--site", "cf"]) == 0
        out = capsys.readouterr().out
        assert "a browser window opens on" in out and "signed in to Codeforces" in out
        assert signed_in(w.settings().profile_dir("codeforces")) is not None
        assert w.wall is not None and w.wall.challenges == 1 and len(site.cf_sessions) == 2  # one new sign-in
        # the next run needs no --browser, no cookies and no new check: the profile has the session and clearance
        code = main(submit_args(w.problem_json()))
        out, err = capsys.readouterr()
        assert code == 0, err
        assert json.loads(out)["verdict"]["verdict"] == "AC"
        assert w.wall.challenges == 1  # the site goes through the signed-in browser from the start
        (sub,) = site.submissions
        assert sub.handle == site.cf_handle and sub.practice


def test_a_check_a_headless_browser_cannot_pass_opens_a_window_and_the_user_is_told(
    xvfb: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with workspace_for(walled_site("visible"), tmp_path, monkeypatch) as w:
        w.configure(check_timeout_s=2)
        assert main(["fetch", "--browser", CF_B, "-o", "out"]) == 0
        err = capsys.readouterr().err
        assert "a headless browser does not pass: a browser window opened; pass the check there" in err
        assert json.loads((Path("out") / "problem.json").read_text())["id"] == "codeforces:1873B"
        assert w.wall is not None and w.wall.challenges_to(HEADLESS) >= 1


def test_without_a_display_a_check_only_a_window_passes_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with workspace_for(walled_site("visible"), tmp_path, monkeypatch) as w:
        w.configure(check_timeout_s=1)
        assert main(["fetch", "--browser", CF_B, "-o", "out"]) == 2
        err = capsys.readouterr().err
        assert "does not pass in a headless browser" in err and "cpbot login --browser --site cf" in err
        assert not Path("out").exists()


def test_a_browser_that_went_away_is_started_again_on_the_next_request(ws: Workspace) -> None:
    endpoints = Endpoints.everywhere(ws.server.url)
    contests = "https://codeforces.com/api/contest.list"
    with site_client(endpoints, browser=ws.settings(), notify=lambda m: None) as client:
        assert client.get(contests).json()["status"] == "OK"
        session = browser.acquire("codeforces", ws.settings())
        try:
            session._run(lambda: session._context.close())  # as when the user closes the window
            assert client.get(contests).json()["status"] == "OK"  # a retry, in a browser started again
            assert session.launches == 2
        finally:
            browser.release(session)
    assert ws.wall is not None and ws.wall.challenges_to(HEADLESS) == 1  # the profile kept the clearance


def test_leetcode_login_in_a_window_then_submits_with_the_session_the_profile_keeps(
    xvfb: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = walled_site()
    site.autofill_login = True
    with workspace_for(site, tmp_path, monkeypatch) as w:
        w.configure()
        assert main(["login", "--browser", "--site", "lc"]) == 0
        assert "signed in to LeetCode" in capsys.readouterr().out
        endpoints = Endpoints.everywhere(w.server.url)
        # no cookies given: the session (and the csrf token the submitter echoes) come from the profile
        with (
            site_client(endpoints, browser=w.settings(), notify=lambda m: None) as client,
            SubmissionLedger(w.root / "ledger.sqlite3", min_interval_s=0) as ledger,
        ):
            problem = fetch_url(LC_DECODE, client)[0]
            submitter = SiteSubmitter(LeetcodeProtocol(client), ledger)
            source = "class Solution:\n    def numDecodings(self, s: str) -> int:\n        return 1\n"
            sub_id = submitter.submit(problem, Solution(language="python3", source=source))
            verdict = submitter.wait(problem, sub_id, timeout_s=20, interval_s=0.05)
        assert verdict.final and verdict.verdict == Verdict.AC
        assert [s.problem_key for s in site.submissions] == ["decode-ways"]


def test_a_browser_the_user_runs_with_remote_debugging_is_used_and_left_running(
    ws: Workspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    own = subprocess.Popen(
        [str(CHROMIUM), "--headless", "--remote-debugging-port=0", f"--user-data-dir={tmp_path / 'own'}",
         "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
         *(["--no-sandbox"] if os.geteuid() == 0 else []), "about:blank"],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert own.stderr is not None
        line = next(line for line in own.stderr if "DevTools listening on" in line)
        port = line.rsplit(":", 1)[1].split("/", 1)[0]
        ws.configure(cdp_url=f"http://127.0.0.1:{port}")
        assert main(["fetch", "--browser", CF_B, "-o", "out"]) == 0
        assert "going on through your browser over CDP" in capsys.readouterr().err
        assert json.loads((Path("out") / "problem.json").read_text())["id"] == "codeforces:1873B"
        assert own.poll() is None  # cpbot disconnected; the user's browser keeps running
        assert not (ws.root / "data" / "browser").exists()  # and cpbot made no profile of its own
    finally:
        own.terminate()
        own.wait(timeout=10)
        if own.stderr is not None:
            own.stderr.close()


def test_a_clearance_that_runs_out_mid_session_is_earned_again_and_the_request_sent_once_more(
    ws: Workspace,
) -> None:
    endpoints = Endpoints.everywhere(ws.server.url)
    standings = "https://codeforces.com/api/contest.standings?contestId=1873&from=1&count=1"
    assert ws.wall is not None
    with site_client(endpoints, browser=ws.settings(), notify=lambda m: None) as client:
        assert client.get(standings).json()["status"] == "OK"
        ws.wall.nonces.clear()  # every clearance given so far expires
        problems = client.get(standings).json()["result"]["problems"]
    assert [p["index"] for p in problems] == ["A", "B", "C"]
    # the fetch() met the wall, the page opened the address and passed the check, the request went again
    assert ws.wall.challenges_to(HEADLESS) == 3
