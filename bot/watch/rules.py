"""The sites' rules on AI-written code, applied before anything is posted.

A live submission is made only where a contest's rules allow AI-written code: Codeforces gym and mashup
contests, contests the user lists in config.toml (`ai_allowed_contests`) on a site whose rules leave room
for that (never one the site's rules close to AI whatever the list, such as an AtCoder ABC:
`Site.closed_to_ai`), and finished contests (practice). Live rated rounds and LeetCode contests are taken part in
only in the shadow: solved and gated as usual, each would-be submission recorded with its time, and
posted as practice once the site accepts practice submissions.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from cpbot.core.registry import LiveAiRule, site_spec
from cpbot.scrapers.sites import get_site

SCHEMA_VERSION = 1


class Participation(StrEnum):
    LIVE = "live"  # submissions are posted while the contest runs
    SHADOW = "shadow"  # nothing is posted while it runs; would-be submissions are recorded, posted after
    PRACTICE = "practice"  # the contest is over: submissions are practice


class RulesDecision(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    participation: Participation
    reason: str
    # What cpbot must tell the user at the start (the rule, what --submit will mean here).
    reminders: list[str] = []


def contest_key(site: str, contest_id: str) -> str:
    """How a contest is named in the watch state and in `ai_allowed_contests`: `codeforces:1900` (the site
    given by name or alias: `cf:1900` is the same key)."""
    return f"{site_spec(site).name}:{contest_id}"


def normalise_allowed(entries: Iterable[str]) -> frozenset[str]:
    """`ai_allowed_contests` entries with their site names made canonical (aliases accepted)."""
    keys = set()
    for entry in entries:
        site, _, contest_id = entry.partition(":")
        keys.add(contest_key(site, contest_id.strip()))
    return frozenset(keys)


def decide(
    site: str,
    contest_id: str,
    *,
    running: bool,
    gym: bool,
    submit: bool,
    allowed: frozenset[str] = frozenset(),
    name: str = "",
) -> RulesDecision:
    """How cpbot may take part in a contest (`name`: as the site lists it): live, in the shadow, or as
    practice once it is over."""
    spec = site_spec(site)
    key = contest_key(site, contest_id)
    if not running:
        return RulesDecision(participation=Participation.PRACTICE, reason="the contest is over: practice")
    listed = key in allowed
    closed = get_site(site).closed_to_ai(contest_id, name) if spec.live_ai is LiveAiRule.LISTED else None
    if spec.live_ai is LiveAiRule.LISTED and listed and closed is None:
        reminders = [f"{key} is listed as allowing AI-written code: make sure its rules say so"]
        return RulesDecision(
            participation=Participation.LIVE,
            reason="listed in ai_allowed_contests: submitting live",
            reminders=reminders,
        )
    if spec.live_ai is LiveAiRule.GYM_OR_LISTED and (gym or listed):
        why = "a gym contest" if gym else "listed in ai_allowed_contests"
        reminders = [] if gym else [f"{key} is listed as allowing AI-written code: make sure its rules say so"]
        return RulesDecision(participation=Participation.LIVE, reason=f"{why}: submitting live", reminders=reminders)
    reminders = [
        spec.ai_rule,
        "the rule binds your own participation: shadow-solving a round you are registered for is itself forbidden",
    ]
    if closed is not None:
        reminders.insert(0, closed + (": listing it in ai_allowed_contests changes nothing" if listed else ""))
    elif listed:
        reminders.insert(0, f"{key} is listed in ai_allowed_contests, but {spec.title} allows no exception")
    if submit:
        reminders.append("--submit here means: submit as practice after the round")
    return RulesDecision(
        participation=Participation.SHADOW,
        reason=f"a live {spec.title} contest: nothing is posted while it runs",
        reminders=reminders,
    )
