"""AtCoder's submit protocol against the fake site (the served form, the current judge's language ids, the
submission list until the label is final, the human check and the login wall), and AtCoder's rules as
`cpbot watch` applies them."""

from __future__ import annotations

from collections.abc import Iterator
from http.cookiejar import Cookie, CookieJar
from pathlib import Path

import pytest

from cpbot.bot.submit.base import DuplicateSubmission, SiteSubmitter
from cpbot.bot.submit.ledger import SubmissionLedger
from cpbot.bot.watch.rules import Participation, decide, normalise_allowed
from cpbot.judge.model import Problem, Solution, Verdict
from cpbot.scrapers.atcoder.submit import AtCoderProtocol
from cpbot.scrapers.endpoints import Endpoints, site_client
from cpbot.scrapers.sites import get_site
from cpbot.scrapers.submission import CaptchaRequired, LoginRequired
from tests.fakes import FakeSiteServer
from tests.fakes.atcoder import FakeAtCoder
from tests.scrapers.atcoder import round as abc_round
from tests.scrapers.atcoder.round import RIGHT_A, abc_site

URL = "https://atcoder.jp/contests/abc300/tasks/abc300_a"


def _jar(session: str | None) -> CookieJar:
    jar = CookieJar()
    if session:
        jar.set_cookie(
            Cookie(0, "REVEL_SESSION", session, None, False, ".atcoder.jp", True, True, "/", True, True, None,
                   False, None, None, {})
        )  # fmt: skip
    return jar


_OPEN: list[AtCoderProtocol] = []


@pytest.fixture
def served() -> Iterator[tuple[FakeAtCoder, FakeSiteServer]]:
    site = abc_site(start_in_s=-7200, duration_s=6000)  # over: submissions are practice
    site.judging_polls = 1
    with abc_round.served(site) as server:
        yield site, server
        while _OPEN:
            _OPEN.pop().close()


def _protocol(server: FakeSiteServer, session: str | None) -> AtCoderProtocol:
    client = site_client(Endpoints.everywhere(server.url), cookies=_jar(session), strict=True)
    _OPEN.append(AtCoderProtocol(client))
    return _OPEN[-1]


def _problem() -> Problem:
    return Problem(id="atcoder:abc300_a", site="atcoder", url=URL, index="A")


@pytest.mark.parametrize(("language", "language_id"), [("cpp20", "6017"), ("python3", "6082"), ("pypy3", "6083")])
def test_a_post_uses_the_served_form_and_the_current_judge_ids(
    served: tuple[FakeAtCoder, FakeSiteServer], language: str, language_id: str
) -> None:
    site, server = served
    protocol = _protocol(server, site.session)
    post = protocol.prepare(_problem(), Solution(language=language, source=RIGHT_A))
    submission_id = post(set())
    (sub,) = site.submissions
    assert (str(sub.id), sub.task, sub.language_id, sub.source, sub.practice) == (
        submission_id,
        "abc300_a",
        language_id,
        RIGHT_A,
        True,
    )
    first = protocol.poll(_problem(), submission_id)
    assert first is not None and not first.final and first.status_text in ("WJ", "1/3")
    while not (verdict := protocol.poll(_problem(), submission_id)).final:  # type: ignore[union-attr]
        pass
    assert verdict.verdict is Verdict.AC and verdict.time_ms == 21
    assert protocol.submission_url(_problem(), submission_id).endswith(f"/contests/abc300/submissions/{submission_id}")
    (listed,) = protocol.listed({"atcoder:abc300_a"})
    assert listed.submission_id == submission_id and protocol.source_of(listed) == RIGHT_A


def test_a_rejected_answer_is_reported_with_its_label(served: tuple[FakeAtCoder, FakeSiteServer]) -> None:
    site, server = served
    site.judging_polls = 0
    protocol = _protocol(server, site.session)
    submission_id = protocol.prepare(_problem(), Solution(language="python3", source="# FAKE:WA\n" + RIGHT_A))(set())
    verdict = protocol.poll(_problem(), submission_id)
    assert verdict is not None and verdict.final and verdict.verdict is Verdict.WA and verdict.status_text == "WA"


def test_a_human_check_on_the_form_is_never_bypassed(served: tuple[FakeAtCoder, FakeSiteServer]) -> None:
    site, server = served
    site.human_check = True
    with pytest.raises(CaptchaRequired):
        _protocol(server, site.session).prepare(_problem(), Solution(language="python3", source=RIGHT_A))
    assert site.submissions == []


def test_without_a_session_the_login_wall_is_named(served: tuple[FakeAtCoder, FakeSiteServer]) -> None:
    site, server = served
    with pytest.raises((LoginRequired, CaptchaRequired)):  # the login page carries Turnstile: a challenge page
        _protocol(server, None).prepare(_problem(), Solution(language="python3", source=RIGHT_A))
    assert site.submissions == []


@pytest.mark.parametrize(
    ("contest", "name"),
    [("abc400", "AtCoder Beginner Contest 400"), ("arc190", "AtCoder Regular Contest 190 (Div. 2)")],
)
def test_a_live_abc_or_arc_div2_is_shadowed_even_when_listed(contest: str, name: str) -> None:
    allowed = normalise_allowed([f"atcoder:{contest}"])
    decision = decide("ac", contest, running=True, gym=False, submit=True, allowed=allowed, name=name)
    assert decision.participation is Participation.SHADOW
    text = " ".join(decision.reminders)
    assert "2024-12-06" in text and "changes nothing" in text and "practice after the round" in text


def test_a_listed_agc_is_live_and_an_unlisted_one_shadowed() -> None:
    name = "AtCoder Grand Contest 070"
    listed = decide(
        "atcoder", "agc070", running=True, gym=False, submit=True, allowed=normalise_allowed(["ac:agc070"]), name=name
    )
    assert listed.participation is Participation.LIVE and "make sure its rules say so" in listed.reminders[0]
    unlisted = decide("atcoder", "agc070", running=True, gym=False, submit=True, name=name)
    assert unlisted.participation is Participation.SHADOW


def test_an_ended_abc_is_practice() -> None:
    assert decide("atcoder", "abc400", running=False, gym=False, submit=True).participation is Participation.PRACTICE


def test_an_ahc_is_shadowed_unless_listed_and_watched_as_a_scored_contest() -> None:
    site = get_site("atcoder")
    name = "AtCoder Heuristic Contest 045"
    assert site.scored_contest("ahc045", name) and not site.scored_contest("abc300")
    assert site.closed_to_ai("ahc045", name) is None  # restricted, not closed: a contest listed may be submitted
    unlisted = decide("atcoder", "ahc045", running=True, gym=False, submit=True, name=name)
    assert unlisted.participation is Participation.SHADOW and "2025-06-16" in " ".join(unlisted.reminders)
    listed = decide(
        "atcoder", "ahc045", running=True, gym=False, submit=True, allowed=normalise_allowed(["atcoder:ahc045"]),
        name=name,
    )  # fmt: skip
    assert listed.participation is Participation.LIVE


def test_the_ledger_refuses_the_same_source_twice_and_reconciles_a_crash(
    served: tuple[FakeAtCoder, FakeSiteServer], tmp_path: Path
) -> None:
    site, server = served
    with SubmissionLedger(tmp_path / "ledger.sqlite3", min_interval_s=0) as ledger:
        submitter = SiteSubmitter(_protocol(server, site.session), ledger)
        solution = Solution(language="python3", source=RIGHT_A)
        sid = submitter.submit(_problem(), solution)
        with pytest.raises(DuplicateSubmission):
            submitter.submit(_problem(), solution)
        # a crash after the POST: the id never reached the ledger
        row = ledger.entries("atcoder")[0].row_id
        ledger.db.connection.execute(
            "UPDATE submissions SET state = 'intent', submission_id = NULL WHERE row_id = ?", (row,)
        )
        restarted = SiteSubmitter(_protocol(server, site.session), ledger)
        assert restarted.reconcile() == 1
        entry = ledger.entries("atcoder")[0]
        assert entry.state == "posted" and entry.submission_id == sid and "reconciled" in entry.note
    assert len(site.submissions) == 1, "posted once"
