"""AtCoder's rules on generative AI in its contests, as cpbot applies them.

- Since 2024-12-06 AtCoder forbids generative AI (writing code or reading the statement for you) while an
  ABC or an ARC Division 2 runs, for every participant, rated or not ("AtCoder生成AI対策ルール", the rule
  page of each contest links it). No list of allowed contests can lift that: `closed_to_ai` names it.
- Since 2025-06-16 AtCoder Heuristic Contests restrict highly automated use (an AI system that submits by
  itself): cpbot watches an AHC in the shadow (it searches, keeps its best program on disk for a person to
  submit by hand, and ranks it against the final standings); only a contest the user lists as allowing it
  (`ai_allowed_contests`, having read its rules) is submitted to, one submission per the contest's interval.
- Other contests (AGC, ARC Div. 1, sponsored ones) are taken part in the shadow like every live contest,
  unless the user lists one as allowing AI (`ai_allowed_contests`), having read its rules.
"""

from __future__ import annotations

from cpbot.scrapers.atcoder.contests import ContestKind, contest_kind

RULE = (
    "AtCoder forbids generative AI while an ABC or ARC Div. 2 runs (rule of 2024-12-06), for rated and unrated "
    "participants alike, and restricts highly automated use in AHC (2025-06-16); other contests follow their "
    "own rules page"
)
CLOSED_KINDS = (ContestKind.ABC, ContestKind.ARC_DIV2)


def closed_to_ai(contest_id: str, name: str = "") -> str | None:
    """Why no list can open this contest to AI while it runs (an ABC, an ARC Div. 2), or None."""
    kind = contest_kind(contest_id, name)
    if kind in CLOSED_KINDS:
        return f"{contest_id} is an {kind}: AtCoder's rule of 2024-12-06 forbids generative AI in it for everyone"
    return None


def heuristic(contest_id: str, name: str = "") -> bool:
    """AHC and other heuristic contests: score-based problems, watched by `bot/watch/heuristic.py`."""
    return contest_kind(contest_id, name) == ContestKind.AHC
