"""cpbot never submits where a site's rules forbid AI-written code."""

from __future__ import annotations

import pytest

from cpbot.bot.watch.rules import Participation, decide, normalise_allowed
from cpbot.core.errors import ConfigError


def test_a_live_rated_codeforces_round_is_shadow_only_even_with_submit():
    decision = decide("codeforces", "2000", running=True, gym=False, submit=True)
    assert decision.participation is Participation.SHADOW
    text = " ".join(decision.reminders)
    assert "2024-09-14" in text and "registered for is itself forbidden" in text
    assert "practice after the round" in text


def test_a_gym_contest_is_submitted_to_live():
    decision = decide("cf", "104000", running=True, gym=True, submit=True)
    assert decision.participation is Participation.LIVE and decision.reminders == []


def test_a_codeforces_contest_listed_by_the_user_is_live_with_a_reminder():
    allowed = normalise_allowed(["cf:2000", "codeforces:1999"])
    decision = decide("codeforces", "2000", running=True, gym=False, submit=True, allowed=allowed)
    assert decision.participation is Participation.LIVE
    assert "codeforces:2000 is listed" in decision.reminders[0]


def test_a_live_leetcode_contest_is_shadow_only_whatever_the_user_lists():
    allowed = normalise_allowed(["lc:weekly-contest-400"])
    decision = decide("leetcode", "weekly-contest-400", running=True, gym=False, submit=True, allowed=allowed)
    assert decision.participation is Participation.SHADOW
    assert "allows no exception" in decision.reminders[0]
    assert any("deactivates" in r for r in decision.reminders)


@pytest.mark.parametrize("site", ["codeforces", "leetcode"])
def test_a_finished_contest_is_practice(site):
    assert decide(site, "1", running=False, gym=False, submit=True).participation is Participation.PRACTICE


def test_an_unknown_site_in_the_list_is_an_error():
    with pytest.raises(ConfigError, match="unknown site"):
        normalise_allowed(["yukicoder:1"])
