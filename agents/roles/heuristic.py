"""The writer of programs for score-based problems: a first greedy, an improvement of a version, a new method.

Every reply opens with an `Idea:` line, the method or change in one sentence, which the strategy keeps
in its tree of versions and shows to later requests as the ideas tried. The prompts carry the
knowledge notes on the methods that win these contests (`templates/knowledge/`: time management,
greedy with restarts, simulated annealing, beam search, chokudai search).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from cpbot.agents.chat import ChatModel
from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.prompts import render_prompt
from cpbot.agents.roles.common import ask_code, code_attempt, fence_tag, fenced, language_name, problem_text
from cpbot.agents.roles.knowledge import KnowledgeBase, Note, notes_text
from cpbot.judge.model import Language, Problem

ROLE = "heuristic_coder"
FIRST_NOTES = ("heuristic-time-management", "greedy-random-restarts")
SEARCH_NOTES = ("heuristic-time-management", "simulated-annealing", "beam-search", "chokudai-search")
_IDEA = re.compile(r"^\s*\**idea\**\s*:\s*(.+?)\s*$", re.I | re.M)
IDEA_CHARS = 200


@dataclass(frozen=True)
class Tried:
    """A version as later prompts see it: its idea and its mean score."""

    idea: str
    mean: float


@dataclass(frozen=True)
class Written:
    """A program from the model and the idea it says it follows."""

    attempt: CodeAttempt
    idea: str


@cache
def _notes(names: tuple[str, ...]) -> tuple[Note, ...]:
    base = KnowledgeBase.load()
    return tuple(note for name in names if (note := base.get(name)) is not None)


def idea_of(text: str) -> str:
    """The `Idea:` line of a reply (cut short), or "" when it has none."""
    found = _IDEA.search(text)
    return found.group(1)[:IDEA_CHARS] if found else ""


def history_text(tried: Sequence[Tried]) -> str:
    """The ideas tried, one a line with its mean score, best first as the caller orders them."""
    if not tried:
        return "(none yet)"
    return "\n".join(f"- {t.idea or '(no idea stated)'}: {t.mean:,.1f}" for t in tried)


def time_left_text(seconds: float | None) -> str:
    """What the prompt says of the time left: bold changes early, careful tuning near the end."""
    if seconds is None:
        return "There is no deadline: take the most promising direction."
    minutes = seconds / 60
    if minutes < 10:
        return f"About {minutes:.0f} minutes are left: prefer a small, safe change (a parameter, a faster loop)."
    return f"About {minutes:.0f} minutes are left: a bolder change is worth trying."


def _search_values(
    problem: Problem, language: Language, seeds: int, goal: str, tried: Sequence[Tried], seconds_left: float | None
) -> dict[str, str | int]:
    """What the prompts after the first share: the problem, the search so far, the time left, the notes."""
    return {
        "problem": problem_text(problem),
        "seeds": seeds,
        "goal": goal,
        "history": history_text(tried),
        "time_left": time_left_text(seconds_left),
        "knowledge": notes_text(_notes(SEARCH_NOTES)),
        "language": language_name(language),
        "fence": fence_tag(language),
    }


def _ask(model: ChatModel, messages: list[dict[str, str]], language: Language) -> Written:
    code, reply = ask_code(model, ROLE, messages, language)
    return Written(code_attempt(code, language, plan_iteration=None), idea_of(reply.text))


def first_program(model: ChatModel, problem: Problem, *, language: Language) -> Written:
    """A first, simple greedy program that always prints a valid output."""
    messages = render_prompt(
        "heuristic_first",
        problem=problem_text(problem),
        knowledge=notes_text(_notes(FIRST_NOTES)),
        language=language_name(language),
        fence=fence_tag(language),
    )
    return _ask(model, messages, language)


def improve_program(
    model: ChatModel,
    problem: Problem,
    parent: CodeAttempt,
    *,
    idea: str,
    scores: str,
    seeds: int,
    goal: str,
    tried: Sequence[Tried],
    seconds_left: float | None,
) -> Written:
    """`parent` with one focused change meant to raise its score."""
    messages = render_prompt(
        "heuristic_improve",
        idea=idea or "(not stated)",
        code=fenced(parent.source, parent.language),
        scores=scores,
        **_search_values(problem, parent.language, seeds, goal, tried, seconds_left),
    )
    return _ask(model, messages, parent.language)


def new_method(
    model: ChatModel,
    problem: Problem,
    *,
    language: Language,
    seeds: int,
    goal: str,
    tried: Sequence[Tried],
    seconds_left: float | None,
) -> Written:
    """A program built on a method different from every one tried."""
    messages = render_prompt("heuristic_new", **_search_values(problem, language, seeds, goal, tried, seconds_left))
    return _ask(model, messages, language)
