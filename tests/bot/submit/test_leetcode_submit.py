"""The LeetCode submitter against the fake site: cookies + x-csrftoken, check polling, verdict mapping."""

from __future__ import annotations

import pytest

from cpbot.bot.submit.base import CaptchaRequired, DuplicateSubmission, LoginRequired, SiteSubmitter
from cpbot.judge.model import Solution, Verdict
from cpbot.scrapers.cookies import cookies_from_header
from cpbot.scrapers.leetcode.submit import LeetcodeProtocol, map_check
from cpbot.scrapers.sites import fetch_url
from tests.bot.submit.conftest import LC_DECODE

PY = "class Solution:\n    def numDecodings(self, s: str) -> int:\n        return 1\n"


def test_submit_with_session_cookies_and_poll_to_accepted(fake_server, lc_client, ledger):
    site = fake_server.site
    problem = fetch_url(LC_DECODE, lc_client)[0]
    sub = SiteSubmitter(LeetcodeProtocol(lc_client), ledger)
    sid = sub.submit(problem, Solution(language="python3", source=PY))
    posted = site.submissions[-1]
    assert sid == str(posted.id) and posted.language == "python3" and posted.source == PY
    states = [sub.poll(problem, sid).status_text for _ in range(3)]
    assert states == ["PENDING", "STARTED", "Accepted"]
    final = sub.poll(problem, sid)
    assert final.final and final.verdict == Verdict.AC and final.passed_tests == final.total_tests == 60


def test_wrong_answer_keeps_failed_test_and_last_testcase(fake_server, lc_client, ledger):
    problem = fetch_url(LC_DECODE, lc_client)[0]
    sub = SiteSubmitter(LeetcodeProtocol(lc_client), ledger)
    sid = sub.submit(problem, Solution(language="cpp17", source="// FAKE:WA:7\nclass Solution {};\n"))
    final = sub.wait(problem, sid, timeout_s=5, interval_s=0.01)
    assert final.verdict == Verdict.WA and final.failed_test == 7 and final.passed_tests == 6
    assert final.raw["last_testcase"] and final.raw["expected_output"] == "7"
    assert fake_server.site.submissions[-1].language == "cpp"


def test_missing_cookie_is_refused_before_posting(fake_server, ledger):
    site = fake_server.site
    jar = cookies_from_header(f"csrftoken={site.lc_csrf}", "leetcode.com")
    with fake_server.client(jar) as client:
        problem = fetch_url(LC_DECODE, client)[0]
        with pytest.raises(LoginRequired) as err:
            SiteSubmitter(LeetcodeProtocol(client), ledger).submit(problem, Solution(language="python3", source=PY))
    assert "LEETCODE_SESSION" in err.value.message and site.posts("/submit") == 0


def test_stale_session_lands_on_the_login_page(fake_server, lc_client, ledger):
    problem = fetch_url(LC_DECODE, lc_client)[0]
    fake_server.site.logged_out = True
    with pytest.raises(LoginRequired) as err:
        SiteSubmitter(LeetcodeProtocol(lc_client), ledger).submit(problem, Solution(language="python3", source=PY))
    assert "--cookies" in err.value.hint
    assert fake_server.site.count("decode-ways") == 0
    assert [e.state for e in ledger.entries()] == ["abandoned"]  # a retry after a fresh login is allowed


def test_captcha_is_a_clear_error(fake_server, lc_client, ledger):
    problem = fetch_url(LC_DECODE, lc_client)[0]
    fake_server.site.block, fake_server.site.block_scope = "captcha", "submit"
    with pytest.raises(CaptchaRequired):
        SiteSubmitter(LeetcodeProtocol(lc_client), ledger).submit(problem, Solution(language="python3", source=PY))
    assert fake_server.site.count("decode-ways") == 0


def test_same_source_twice_and_crash_recovery(fake_server, lc_client, ledger):
    problem = fetch_url(LC_DECODE, lc_client)[0]
    sub = SiteSubmitter(LeetcodeProtocol(lc_client), ledger)
    sid = sub.submit(problem, Solution(language="python3", source=PY))
    with pytest.raises(DuplicateSubmission):
        sub.submit(problem, Solution(language="python3", source=PY))
    row = ledger.entries("leetcode")[0].row_id
    ledger.db.connection.execute(
        "UPDATE submissions SET state = 'intent', submission_id = NULL WHERE row_id = ?", (row,)
    )
    with pytest.raises(DuplicateSubmission):
        SiteSubmitter(LeetcodeProtocol(lc_client), ledger).submit(problem, Solution(language="python3", source=PY))
    assert fake_server.site.count("decode-ways") == 1
    assert ledger.entries("leetcode")[0].submission_id == sid


def test_map_check_on_recorded_and_error_answers():
    ce = map_check({"state": "SUCCESS", "status_code": 20, "status_msg": "Compile Error"}, "leetcode:x", "1")
    assert ce.verdict == Verdict.CE and ce.failed_test is None
    tle = map_check(
        {"state": "SUCCESS", "status_code": 14, "status_msg": "Time Limit Exceeded", "total_correct": 40,
         "total_testcases": 50, "status_runtime": "N/A"},
        "leetcode:x",
        "2",
    )  # fmt: skip
    assert tle.verdict == Verdict.TLE and tle.failed_test == 41 and tle.time_ms is None
    assert not map_check({"state": "STARTED"}, "leetcode:x", "3").final
