"""The distinguisher and the arbiter: deciding between two candidate programs that disagree (S*).

`distinguishing_inputs` shows the model both programs and where they were seen to differ, and asks for
small inputs that tell them apart (a brute force can then answer those inputs). `pick_output` asks the
model which of two outputs is right for one input, for when there is no brute force to ask.
Neither trusts the reply further than its form: inputs are checked by the caller like any generated
input, and an answer that names neither output is None.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from cpbot.agents.chat import ChatModel
from cpbot.agents.extract import find_blocks
from cpbot.agents.prompts import render_prompt
from cpbot.agents.roles.common import fenced, problem_text
from cpbot.agents.selection import Disagreement, read_choice
from cpbot.judge.model import Problem, Solution

ROLE = "distinguisher"
ARBITER = "arbiter"


def _differences(shown: Sequence[Disagreement]) -> str:
    if not shown:
        return "No input found so far shows the difference; read the programs."
    parts = []
    for d in shown:
        size = f" (size {d.size})" if d.size is not None else ""
        parts.append(
            f"Input{size}:\n```text\n{d.input.rstrip()}\n```\nA printed: {d.outputs[0]!r}\nB printed: {d.outputs[1]!r}"
        )
    return "\n\n".join(parts)


def distinguishing_inputs(
    model: ChatModel, problem: Problem, a: Solution, b: Solution, shown: Sequence[Disagreement], *, count: int = 3
) -> list[str]:
    """Inputs the model wrote to tell `a` and `b` apart (unchecked; the caller validates them)."""
    messages = render_prompt(
        "distinguisher",
        problem=problem_text(problem),
        program_a=fenced(a.source, a.language),
        program_b=fenced(b.source, b.language),
        differences=_differences(shown),
        count=count,
    )
    reply = model.complete(ROLE, messages)
    return [block.code for block in find_blocks(reply.text) if block.language is None and block.code.strip()]


def pick_output(
    model: ChatModel, problem: Problem, input: str, output_a: str, output_b: str
) -> Literal["a", "b"] | None:
    """Which output the model says is right for `input`, or None when its answer names neither."""
    messages = render_prompt(
        "arbiter", problem=problem_text(problem), input=input.rstrip(), output_a=output_a, output_b=output_b
    )
    return read_choice(model.complete(ARBITER, messages).text)
