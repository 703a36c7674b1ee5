"""The planner: an algorithm and implementation steps for a problem, and a new plan after feedback.

It asks for a JSON plan (structured output); a model that answers in prose still gets read: the
algorithm line, the numbered steps and the first `O(...)`. The plan carries the statement's size
bounds (parsed, not guessed by the model), so the pruner and the analyst work from the same numbers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from cpbot.agents.chat import ChatModel, LLMReply
from cpbot.agents.envelopes import Payload, Plan
from cpbot.agents.prompts import render_prompt
from cpbot.agents.roles.common import RoleError, ask_structured, feedback_text, language_name, plan_text, problem_text
from cpbot.agents.roles.constraints import problem_bounds
from cpbot.agents.roles.knowledge import Note, notes_text
from cpbot.agents.roles.pruner import find_big_o
from cpbot.judge.model import Language, Problem

ROLE = "planner"


class PlanDraft(BaseModel):
    """The plan as the model is asked to write it."""

    model_config = ConfigDict(extra="ignore")

    algorithm: str
    steps: list[str] = []
    complexity: str = ""
    rationale: str = ""
    tags: list[str] = []
    confidence: int | float | None = None


def plan(
    model: ChatModel,
    problem: Problem,
    *,
    language: Language,
    tags: Sequence[str] = (),
    knowledge: Sequence[Note] = (),
) -> Plan:
    """A first plan for `problem`, informed by the selector's `tags` and retrieved `knowledge`."""
    messages = render_prompt(
        "planner",
        problem=problem_text(problem),
        tags=", ".join(tags) or "(none)",
        knowledge=notes_text(knowledge),
        language=language_name(language),
    )
    return _ask(model, messages, problem, tags)


def replan(
    model: ChatModel,
    problem: Problem,
    previous: Plan,
    feedback: str | Payload | Sequence[str | Payload],
    *,
    language: Language,
    tags: Sequence[str] = (),
    knowledge: Sequence[Note] = (),
) -> Plan:
    """A new plan after `previous` failed; `feedback` is text or the checker's, pruner's, analyst's or
    judge's messages (several are joined)."""
    items = [feedback] if isinstance(feedback, str | Payload) else list(feedback)
    messages = render_prompt(
        "replanner",
        problem=problem_text(problem),
        previous_plan=plan_text(previous),
        feedback="\n\n".join(feedback_text(f) for f in items) or "(no details)",
        tags=", ".join(tags) or "(none)",
        knowledge=notes_text(knowledge),
        language=language_name(language),
    )
    return _ask(model, messages, problem, tags)


def fallback_plan(problem: Problem, tags: Sequence[str]) -> Plan:
    """A plan to code from when the planner's reply holds none: the statement itself and the chosen tags."""
    using = f" using {', '.join(tags)}" if tags else ""
    return Plan(
        algorithm=f"implement what the statement asks directly{using}",
        rationale="the planner's reply held no plan, so the coder works from the statement",
        tags=list(tags),
        input_bounds=problem_bounds(problem).sizes(),
    )


def _ask(model: ChatModel, messages: list[dict[str, str]], problem: Problem, tags: Sequence[str]) -> Plan:
    draft, reply = ask_structured(model, ROLE, messages, PlanDraft)
    if draft is None:
        draft = read_plan_prose(reply)
    if not draft.algorithm.strip() and not draft.steps:
        raise RoleError("the planner's reply holds no plan", hint="retry, or use a model that follows the format")
    confidence = None if draft.confidence is None else max(0, min(100, round(draft.confidence)))
    complexity = draft.complexity.strip()
    if complexity and not find_big_o(complexity) and re.match(r"^[\w\s^*+/()·⋅log]+$", complexity):
        complexity = f"O({complexity})"  # "n log n" written without the O
    return Plan(
        algorithm=draft.algorithm.strip() or draft.steps[0],
        steps=[s.strip() for s in draft.steps if s.strip()],
        complexity=complexity,
        rationale=draft.rationale.strip(),
        tags=list(dict.fromkeys([*draft.tags, *tags])),
        input_bounds=problem_bounds(problem).sizes(),
        confidence=confidence,
    )


_FIELD = re.compile(r"^\W*(algorithm|approach|idea|complexity|time complexity|confidence)\W*[:\-]\s*(.+)$", re.I)
_STEP = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+(.+)$")


def read_plan_prose(reply: LLMReply) -> PlanDraft:
    """A plan read from a prose reply: labelled lines (Algorithm:, Complexity:, Confidence:), numbered or
    bulleted steps, else the first line as the algorithm and the first `O(...)` as the complexity."""
    text = reply.text
    fields: dict[str, str] = {}
    steps: list[str] = []
    for line in text.splitlines():
        if m := _FIELD.match(line.strip()):
            key = m.group(1).lower().split()[-1]
            fields.setdefault({"approach": "algorithm", "idea": "algorithm"}.get(key, key), m.group(2).strip())
        elif m := _STEP.match(line):
            steps.append(m.group(1).strip())
    algorithm = fields.get("algorithm") or next(
        (ln.strip("# *").strip() for ln in text.splitlines() if ln.strip() and not _STEP.match(ln)), ""
    )
    complexity = fields.get("complexity", "")
    found = find_big_o(complexity or text)
    if found:
        complexity = f"O({found[0]})"
    confidence = None
    if m := re.search(r"\d+", fields.get("confidence", "")):
        confidence = int(m.group(0))
    return PlanDraft(algorithm=algorithm, steps=steps, complexity=complexity, confidence=confidence)
