"""A shadowed contest's page: the standing at the top, "would have submitted at" times, practice submissions
with the site's verdicts; and the parts every page has once (the stage table, a fitted time axis)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from cpbot.bot.report.export import gather, render_html
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.scrapers.ranklist import Scoring
from tests.bot.export.shadow_contest import ShadowContest, record_shadow_contest, standing


@pytest.fixture
def store(tmp_path) -> TranscriptStore:
    with TranscriptStore(tmp_path / "t.sqlite3") as s:
        yield s


@pytest.fixture
def shadow(store) -> ShadowContest:
    return record_shadow_contest(store)


def _soup(store: TranscriptStore, run: str) -> BeautifulSoup:
    return BeautifulSoup(render_html(gather(store, run)), "lxml")


def test_the_last_standing_is_shown_first_with_rank_percentile_performance_problems_and_assumptions(store, shadow):
    soup = _soup(store, shadow.contest)
    sections = [s["id"] for s in soup.select("main > section")]
    assert sections[:2] == ["standing", "timeline"]
    assert soup.select_one("nav.toc a")["href"] == "#standing"
    top = soup.select_one("#standing")
    headline = top.select_one(".headline").get_text(" ", strip=True)
    assert "Rank 5,123 of 20,411" in headline and "at or ahead of 74.9% of the participants" in headline
    assert "437 points (1 solved)" in headline
    assert top.select_one(".performance").get_text(" ", strip=True) == (
        "Performance rating 1412 : from the 18,902 rated participants' ratings before the round"
    )
    rows = [[td.get_text(" ", strip=True) for td in tr.find_all("td")] for tr in top.select("table tr")[1:]]
    assert rows == [
        ["A", "solved", "00:42:13", "0", "437", ""],
        ["B", "unsolved", "-", "1", "0", "every shadow submission was rejected"],
    ]
    assert [li.get_text() for li in top.select("ul.assumptions li")] == standing().assumptions
    assert "9,999" not in top.get_text() and "superseded" not in soup.get_text()  # only the last standing
    assert not soup.select('details.generic[data-kind="standing"]')  # not repeated among the events


def test_shadow_times_and_practice_submissions_are_told_apart(store, shadow):
    soup = _soup(store, shadow.contest)
    a = soup.select_one('section[data-problem="codeforces:2001A"]')
    b = soup.select_one('section[data-problem="codeforces:2001B"]')
    assert "would have submitted at 00:42:13" in a.select_one("table.shadow-submissions").get_text(" ", strip=True)
    assert "would have submitted at 01:05:07" in b.select_one("table.shadow-submissions").get_text(" ", strip=True)
    assert "nothing was posted" in a.select_one("table.shadow-submissions").get_text()
    (practice,) = a.select("table.submissions tr.practice")
    cells = [td.get_text(" ", strip=True) for td in practice.find_all("td")]
    assert cells[1] == "#300001" and cells[2].startswith("practice") and cells[-1] == "AC"
    (practice_b,) = b.select("table.submissions tr.practice")
    assert practice_b.find_all("td")[-1].get_text(strip=True) == "TLE"
    assert not soup.select("details.polls")  # one final poll per submission: its verdict is in the row
    labels = [td.get_text(" ", strip=True) for td in soup.select("#timeline tr.moment td:last-child")]
    assert "shadow codeforces:2001A: would have submitted at 00:42:13" in labels
    assert "submission codeforces:2001A: practice submitted #300001" in labels


def test_a_failed_attempt_is_open_and_says_why_and_the_fix_is_named_in_words(store, shadow):
    soup = _soup(store, shadow.contest)
    first, fix = soup.select('section[data-problem="codeforces:2001A"] details.attempt')
    assert first.has_attr("open") and first.select_one("p.why").get_text(" ", strip=True) == (
        "Why it failed: Wrong answer on sample-1 (0/1 tests passed): line 1, expected '3', got '-1'"
    )
    assert fix.summary.strong.get_text() == "Attempt 2, a fix by the debugger after attempt 1's wrong answer"
    code = fix.select_one("pre.code.hl")
    assert "#include <cstdio>" in code.get_text() and code.select("span.cp")  # C++ preprocessor, highlighted


def test_other_scorings_say_what_the_rank_was_decided_by(store, shadow):
    for scoring, expected in (
        (Scoring.ICPC, "1 solved, penalty 52 min (ICPC rules)"),
        (Scoring.SCORE_TIME, "score 437, finish time 00:00:52 (1 solved)"),
    ):
        other = standing().model_copy(update={"scoring": scoring, "penalty": 52.0})
        store.append(shadow.contest, "standing", other.model_dump(mode="json"))
        headline = _soup(store, shadow.contest).select_one("#standing .headline").get_text(" ", strip=True)
        assert expected in headline


def test_an_unreadable_standing_is_kept_as_an_event_and_no_standing_is_claimed(tmp_path):
    with TranscriptStore(tmp_path / "t.sqlite3") as store:
        shadow = record_shadow_contest(store, with_standing=False)
        store.append(shadow.contest, "standing", {"rank": "first", "of": "everyone"})
        soup = _soup(store, shadow.contest)
    assert soup.select_one("#standing") is None
    (event,) = soup.select('details.generic[data-kind="standing"]')
    assert "not readable as a standing" in event.summary.get_text()


def test_a_single_problem_run_shows_its_stage_table_once(tmp_path):
    with TranscriptStore(tmp_path / "t.sqlite3") as store:
        shadow = record_shadow_contest(store, with_standing=False)
        soup = _soup(store, shadow.a_run)
    assert len(soup.select("table.stages")) == 1
    assert len(BeautifulSoup(render_html(gather_contest(tmp_path, shadow)), "lxml").select("table.stages")) == 3


def gather_contest(tmp_path, shadow: ShadowContest):
    with TranscriptStore(tmp_path / "t.sqlite3") as store:
        return gather(store, shadow.contest)
