"""The coder: a complete program from a plan (and a skeleton), or a changed program from a request.

Stdio and interactive problems start from the STD-IO picker's skeleton; function problems (LeetCode)
from the problem's own code snippet, since the judge's harness does their input and output. A reply
without usable code is answered once with what was wrong before the role gives up (`ExtractionError`).
"""

from __future__ import annotations

from collections.abc import Sequence

from cpbot.agents.chat import ChatModel
from cpbot.agents.envelopes import CodeAttempt, Payload, Plan
from cpbot.agents.prompts import render_prompt
from cpbot.agents.roles.common import (
    ask_code,
    code_attempt,
    contest_checklist,
    feedback_text,
    fence_tag,
    fenced,
    language_name,
    plan_text,
    problem_text,
)
from cpbot.agents.roles.knowledge import Note, notes_text
from cpbot.agents.roles.stdio import StdioTemplate, skeleton_for
from cpbot.core.registry import languages_of
from cpbot.judge.kinds import problem_kind
from cpbot.judge.languages import language_profile
from cpbot.judge.model import Language, Problem

ROLE = "coder"


def function_snippet(problem: Problem, language: Language) -> str | None:
    """The site's starting code for a function problem in `language`'s family, if it gave one."""
    profile = language_profile(language)
    # LeetCode's langSlug first, then other spellings a saved problem may use
    keys = (profile.snippet_key, *profile.snippet_aliases, *languages_of(profile.family))
    return next((problem.code_snippets[k] for k in keys if k in problem.code_snippets), None)


def skeleton_text(problem: Problem, language: Language, template: StdioTemplate | None) -> str:
    """The part of the coder's prompt that hands over the starting code."""
    if problem_kind(problem.kind).wrapped:
        snippet = function_snippet(problem, language)
        lead = "Complete this class. The judge calls the method itself: do not read input and do not print."
        return f"{lead}\n{fenced(snippet, language)}" if snippet else lead
    if template is None:
        return f"There is no skeleton: write the input and output handling yourself. {contest_checklist(language)}"
    notes = "".join(f"\n- {note}" for note in template.notes)
    return (
        f"Start from this skeleton. The input looks {template.shape.replace('_', '-')} "
        f"({template.reason}).{notes}\n{fenced(template.source, language)}"
    )


def write_code(
    model: ChatModel,
    problem: Problem,
    plan: Plan | None,
    *,
    language: Language,
    template: StdioTemplate | None = None,
    use_skeleton: bool = True,
    knowledge: Sequence[Note] = (),
    plan_iteration: int | None = None,
) -> CodeAttempt:
    """A program for `problem` following `plan`. Without a `template`, stdio and interactive problems get
    the picker's skeleton unless `use_skeleton` is False (a fast first attempt from the statement alone)."""
    if template is None and use_skeleton:
        template = skeleton_for(problem, language)
    messages = render_prompt(
        "coder",
        problem=problem_text(problem),
        plan=plan_text(plan),
        skeleton=skeleton_text(problem, language, template if use_skeleton else None),
        knowledge=notes_text(knowledge),
        language=language_name(language),
        fence=fence_tag(language),
    )
    code, _ = ask_code(model, ROLE, messages, language)
    note = f"skeleton {template.name}" if template is not None and use_skeleton else ""
    return code_attempt(code, language, plan_iteration=plan_iteration, notes=note)


def revise_code(
    model: ChatModel,
    problem: Problem,
    attempt: CodeAttempt,
    change: str | Payload,
    *,
    plan: Plan | None = None,
    plan_iteration: int | None = None,
) -> CodeAttempt:
    """`attempt` changed as `change` asks: text, or a `Patch` from the analyst, or any feedback payload."""
    messages = render_prompt(
        "coder_revise",
        problem=problem_text(problem),
        plan=plan_text(plan),
        code=fenced(attempt.source, attempt.language),
        instructions=feedback_text(change),
        language=language_name(attempt.language),
        fence=fence_tag(attempt.language),
    )
    code, _ = ask_code(model, ROLE, messages, attempt.language)
    iteration = plan_iteration if plan_iteration is not None else attempt.plan_iteration
    return code_attempt(code, attempt.language, plan_iteration=iteration, notes="revised")
