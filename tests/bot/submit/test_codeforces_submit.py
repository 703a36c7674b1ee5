"""The Codeforces submitter against the fake site: form, csrf, language ids, verdicts, refusals."""

from __future__ import annotations

import pytest

from cpbot.bot.submit.base import CaptchaRequired, DuplicateSubmission, LoginRequired, SiteSubmitter, SubmitTooSoon
from cpbot.bot.submit.ledger import SubmissionLedger
from cpbot.judge.model import Solution, Verdict
from cpbot.scrapers.codeforces.submit import CodeforcesProtocol, choose_language, read_login_form, read_submit_form
from cpbot.scrapers.cookies import cookies_from_header
from cpbot.scrapers.sites import fetch_url
from tests.bot.submit.conftest import CF_B
from tests.fakes import FakeSiteServer
from tests.fakes.codeforces import SUBMIT_FORM_FIXTURE

CPP = '#include <bits/stdc++.h>\nint main() { std::puts("1"); }\n'


def _submit(server: FakeSiteServer, client, ledger, source: str = CPP, language: str = "cpp17"):
    problem = fetch_url(CF_B, client)[0]
    sub = SiteSubmitter(CodeforcesProtocol(client), ledger)
    return problem, sub, sub.submit(problem, Solution(language=language, source=source))


def test_language_ids_come_from_the_served_form_not_a_table():
    form = read_submit_form(SUBMIT_FORM_FIXTURE.read_bytes(), "https://codeforces.com/problemset/submit")
    assert form.hidden["csrf_token"] == "aed84904bdfbdfffc9fd857ea451dfe4"
    assert form.problem_field == "submittedProblemCode"
    assert choose_language(form.languages, "cpp17") == ("54", "GNU G++17 7.3.0")
    assert choose_language(form.languages, "cpp20") == ("89", "GNU G++20 13.2 (64 bit, winlibs)")
    assert choose_language(form.languages, "python3") == ("31", "Python 3.13.2")
    assert choose_language(form.languages, "pypy3") == ("70", "PyPy 3.10 (7.3.15, 64bit)")
    # the same names under other ids: the ids follow the form
    renumbered = [(str(int(v) + 1000), t) for v, t in form.languages]
    assert choose_language(renumbered, "pypy3") == ("1070", "PyPy 3.10 (7.3.15, 64bit)")


def test_submit_with_cookies_posts_the_form_and_polls_to_accepted(fake_server, cf_client, ledger):
    site = fake_server.site
    problem, sub, sid = _submit(fake_server, cf_client, ledger)
    posted = site.submissions[-1]
    assert sid == str(posted.id) and posted.problem_key == "1873B"
    assert posted.language == "GNU G++17 7.3.0" and posted.source == CPP
    assert site.rejected == {}  # the csrf token was read from the page and accepted
    first = sub.poll(problem, sid)
    assert not first.final and first.verdict is None
    final = sub.wait(problem, sid, timeout_s=5, interval_s=0.01)
    assert final.final and final.verdict == Verdict.AC and final.passed_tests == 12
    assert final.time_ms == 46 and final.memory_kb == 3400
    assert ledger.entries("codeforces")[0].verdict == "OK"


def test_wrong_answer_reports_the_failing_test(fake_server, cf_client, ledger):
    problem, sub, sid = _submit(fake_server, cf_client, ledger, source=CPP + "// FAKE:WA:3\n")
    final = sub.wait(problem, sid, timeout_s=5, interval_s=0.01)
    assert final.verdict == Verdict.WA and final.failed_test == 3 and final.passed_tests == 2
    assert final.status_text == "WRONG_ANSWER"


def test_python_goes_to_the_python_option(fake_server, cf_client, ledger):
    _submit(fake_server, cf_client, ledger, source="print(1)\n", language="pypy3")
    assert fake_server.site.submissions[-1].language == "PyPy 3.10 (7.3.15, 64bit)"


def test_same_source_twice_is_refused_locally(fake_server, cf_client, ledger):
    problem, sub, _ = _submit(fake_server, cf_client, ledger)
    with pytest.raises(DuplicateSubmission):
        sub.submit(problem, Solution(language="cpp17", source=CPP + "\n\n"))  # trailing blank lines: same code
    assert fake_server.site.count("1873B") == 1
    assert fake_server.site.posts("/submit") == 1


def test_minimum_interval_between_submissions(fake_server, cf_client, tmp_path):
    now = [1000.0]
    with SubmissionLedger(tmp_path / "l.sqlite3", min_interval_s=30, clock=lambda: now[0]) as led:
        problem, sub, _ = _submit(fake_server, cf_client, led)
        with pytest.raises(SubmitTooSoon) as err:
            sub.submit(problem, Solution(language="cpp17", source=CPP + "// v2\n"))
        assert err.value.wait_s == pytest.approx(30)
        assert fake_server.site.posts("/submit") == 1
        now[0] += 31
        sub.submit(problem, Solution(language="cpp17", source=CPP + "// v2\n"))
        assert fake_server.site.count("1873B") == 2


def test_login_page_without_credentials_is_a_clear_error(fake_server, ledger):
    with fake_server.client() as client:  # no cookies
        problem = fetch_url(CF_B, client)[0]
        with pytest.raises(LoginRequired) as err:
            SiteSubmitter(CodeforcesProtocol(client), ledger).submit(problem, Solution(language="cpp17", source=CPP))
    assert "cookies" in err.value.hint
    assert fake_server.site.count("1873B") == 0 and ledger.entries() == []


def test_login_with_handle_and_password(fake_server, ledger):
    site = fake_server.site
    with fake_server.client() as client:
        problem = fetch_url(CF_B, client)[0]
        sub = SiteSubmitter(CodeforcesProtocol(client, handle=site.cf_handle, password=site.cf_password), ledger)
        sub.submit(problem, Solution(language="cpp17", source=CPP))
    assert site.count("1873B") == 1 and len(site.cf_sessions) == 2


def test_expired_session_is_a_login_error(fake_server, cf_client, ledger):
    problem = fetch_url(CF_B, cf_client)[0]
    fake_server.site.logged_out = True
    with pytest.raises(LoginRequired):
        SiteSubmitter(CodeforcesProtocol(cf_client), ledger).submit(problem, Solution(language="cpp17", source=CPP))


@pytest.mark.parametrize("block", ["captcha", "cloudflare"])
def test_captcha_or_challenge_is_a_clear_error(fake_server, cf_client, ledger, block):
    problem = fetch_url(CF_B, cf_client)[0]
    fake_server.site.block, fake_server.site.block_scope = block, "submit"
    with pytest.raises(CaptchaRequired) as err:
        SiteSubmitter(CodeforcesProtocol(cf_client), ledger).submit(problem, Solution(language="cpp17", source=CPP))
    assert "cpbot listen" in err.value.hint and "cookies" in err.value.hint
    assert fake_server.site.count("1873B") == 0


def test_crash_between_intent_and_id_is_reconciled_without_a_second_post(fake_server, cf_client, ledger):
    problem, _, sid = _submit(fake_server, cf_client, ledger)
    # simulate the crash: the POST landed, but the id never reached the ledger
    row = ledger.entries("codeforces")[0].row_id
    ledger.db.connection.execute(
        "UPDATE submissions SET state = 'intent', submission_id = NULL WHERE row_id = ?", (row,)
    )
    assert ledger.pending("codeforces")
    restarted = SiteSubmitter(CodeforcesProtocol(cf_client), ledger)
    with pytest.raises(DuplicateSubmission):
        restarted.submit(problem, Solution(language="cpp17", source=CPP))
    assert fake_server.site.count("1873B") == 1 and fake_server.site.posts("/submit") == 1
    entry = ledger.entries("codeforces")[0]
    assert entry.state == "posted" and entry.submission_id == sid and "reconciled" in entry.note


def test_intent_whose_post_never_landed_is_dropped_and_posted_once(fake_server, cf_client, ledger):
    problem = fetch_url(CF_B, cf_client)[0]
    from cpbot.bot.submit.base import source_sha256

    ledger.reserve("codeforces", problem.id, source_sha256(CPP), "cpp17")  # died before the POST
    sid = SiteSubmitter(CodeforcesProtocol(cf_client), ledger).submit(problem, Solution(language="cpp17", source=CPP))
    states = [(e.state, e.submission_id) for e in ledger.entries("codeforces")]
    assert states == [("abandoned", None), ("posted", sid)]
    assert fake_server.site.count("1873B") == 1


def test_fake_site_refuses_a_wrong_csrf_token(fake_server):
    jar = cookies_from_header(f"JSESSIONID={fake_server.site.cf_session}", "codeforces.com")
    with fake_server.client(jar) as client:
        r = client.post(
            "https://codeforces.com/contest/1873/submit?csrf_token=bad",
            data={"csrf_token": "bad", "source": CPP},
            accept=(403,),
        )
    assert r.status_code == 403 and fake_server.site.rejected["csrf"] == 1


def test_the_login_posts_the_hidden_fields_the_served_form_holds():
    page = (
        b'<html><body><form method="post" action="" id="enterForm">'
        b'<input type="hidden" name="csrf_token" value="c5rf"><input type="hidden" name="action" value="enter">'
        b'<input type="hidden" name="ftaa" value="abc"><input type="hidden" name="bfaa" value="def">'
        b'<input name="handleOrEmail"><input name="password" type="password">'
        b'<input type="hidden" name="_tta" value="412"></form></body></html>'
    )
    form = read_login_form(page, "https://codeforces.com/enter?back=%2F")
    assert form.action == "https://codeforces.com/enter?back=%2F"
    assert form.hidden == {"csrf_token": "c5rf", "action": "enter", "ftaa": "abc", "bfaa": "def", "_tta": "412"}


def test_a_login_error_offers_a_password_login_only_where_the_site_has_one():
    assert "--handle" in (LoginRequired("codeforces").hint or "")
    assert "--handle" not in (LoginRequired("leetcode").hint or "")
    assert "cookies" in (LoginRequired("leetcode").hint or "")
