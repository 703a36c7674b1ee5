"""BlockChain Coder's agents over block chains: two planners, two optimizers and a tracing debugger.

- `plan_from_example`: the unit-test approach's planner. It reflects on the statement, walks one sample
  through by hand, plans a block per step and writes each block with a unit test taken from that
  walk-through.
- `plan_from_question`: the question-based planner. Keywords, then hints and insights, then the task
  restated, then a plan, then the blocks.
- `propose_block_change`: the unit-test approach's optimizer. One block at a time, behind a state token
  (`OPTIMIZE: yes|no`); the caller keeps the change only if the block's unit test still passes.
- `simplify`: the question approach's optimizer. A simpler whole chain behind the same state token.
- `debug_chain`: the debugger. Given the traces of an instrumented run (`debugger.instrument` and
  `debugger.run_traced`) and the lessons of earlier debugging, it corrects the plan and rewrites the blocks.
"""

from __future__ import annotations

import re

from cpbot.agents.chat import ChatModel
from cpbot.agents.extract import ExtractionError
from cpbot.agents.prompts import clip, render_prompt
from cpbot.agents.roles.blocks import BlockChain, CodeBlock, format_rules, read_block, read_chain
from cpbot.agents.roles.common import CASE_CHARS, RoleError, fence_tag, language_name, problem_text
from cpbot.agents.roles.debugger import TraceRun, strip_traces
from cpbot.agents.roles.optimizer import wants_change
from cpbot.judge.languages import language_profile
from cpbot.judge.model import Language, Problem, TestCase

PLANNER = "planner"
OPTIMIZER = "optimizer"
DEBUGGER = "debugger"
DIAGNOSIS_CHARS = 400

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*(.+?)\s*#*\s*$")


def _text_block(text: str) -> str:
    return f"```text\n{clip(text.rstrip(), CASE_CHARS)}\n```" if text.strip() else "(empty)"


def example_text(problem: Problem, index: int) -> str:
    """Sample `index` (1-based) with the statement's notes, which often explain the samples."""
    if not problem.samples:
        return "(the statement gives no example: make up a small one and work it out)"
    sample = problem.samples[index - 1]
    parts = [f"Input:\n{_text_block(sample.input)}"]
    if sample.output is not None:
        parts.append(f"Output:\n{_text_block(sample.output)}")
    if problem.notes.strip():
        parts.append("The statement's notes on the examples:\n" + problem.notes.strip())
    return "\n".join(parts)


def _ask_chain(model: ChatModel, role: str, messages: list[dict[str, str]], language: Language) -> BlockChain:
    reply = model.complete(role, messages)
    try:
        return read_chain(reply.text, language)
    except ExtractionError as e:
        raise RoleError(f"the {role}'s reply holds no program: {e.message}", hint=e.hint) from None


def plan_from_example(model: ChatModel, problem: Problem, index: int, *, language: Language) -> BlockChain:
    """The unit-test approach: a chain with unit tests, planned from sample `index` (1-based)."""
    messages = render_prompt(
        "bc_test_planner",
        problem=problem_text(problem),
        example=example_text(problem, index),
        format=format_rules(language, problem.kind),
        language=language_name(language),
    )
    return _ask_chain(model, PLANNER, messages, language)


def plan_from_question(model: ChatModel, problem: Problem, *, language: Language) -> BlockChain:
    """The question-based approach: a chain planned from keywords, hints and insights."""
    messages = render_prompt(
        "bc_question_planner",
        problem=problem_text(problem),
        format=format_rules(language, problem.kind),
        language=language_name(language),
    )
    return _ask_chain(model, PLANNER, messages, language)


def propose_block_change(
    model: ChatModel, problem: Problem, chain: BlockChain, *, tried: list[str] | None = None
) -> CodeBlock | None:
    """A faster version of one block (the unit test it must pass is the original block's), or None when
    the model wants no change, proposes an unchanged block, or names no block of the chain."""
    messages = render_prompt(
        "bc_block_optimizer",
        problem=problem_text(problem),
        chain=chain.text(),
        tried=", ".join(tried or []) or "(none)",
        comment=language_profile(chain.language).comment,
        language=language_name(chain.language),
        fence=fence_tag(chain.language),
    )
    reply = model.complete(OPTIMIZER, messages)
    if not wants_change(reply.text):
        return None
    block = read_block(reply.text, chain)
    if block is None:
        return None
    original = chain.block(block.name)
    if original is None or original.source.strip() == block.source.strip():
        return None
    return block


def simplify(model: ChatModel, problem: Problem, chain: BlockChain, *, template: str) -> BlockChain | None:
    """A simpler, more efficient chain, or None when the model finds nothing to change."""
    messages = render_prompt(
        "bc_simplifier",
        problem=problem_text(problem),
        template=template,
        chain=chain.text(),
        format=format_rules(chain.language, problem.kind),
        language=language_name(chain.language),
    )
    reply = model.complete(OPTIMIZER, messages)
    if not wants_change(reply.text):
        return None
    try:
        simpler = read_chain(reply.text, chain.language)
    except ExtractionError:
        return None
    if simpler.program().strip() == chain.program().strip():
        return None
    return simpler.model_copy(update={"plan": simpler.plan or chain.plan})


def diagnosis(text: str) -> str:
    """The text under the reply's Diagnosis heading (else before its first code block), clipped."""
    lines = text.splitlines()
    start = next(
        (i + 1 for i, ln in enumerate(lines) if (m := _HEADING.match(ln)) and "diagnos" in m.group(1).lower()), 0
    )
    body: list[str] = []
    for line in lines[start:]:
        if _HEADING.match(line) or line.lstrip().startswith(("```", "~~~")):
            break
        body.append(line)
    return clip(" ".join(" ".join(body).split()), DIAGNOSIS_CHARS)


def debug_chain(
    model: ChatModel,
    problem: Problem,
    chain: BlockChain,
    test: TestCase,
    run: TraceRun,
    *,
    lessons: str = "",
) -> tuple[BlockChain, str]:
    """A corrected plan and chain from the traces of the failing `test`; also the model's diagnosis."""
    plan = "\n".join(f"{i}. {step}" for i, step in enumerate(chain.plan, start=1)) or "(no plan was written)"
    messages = render_prompt(
        "bc_debugger",
        problem=problem_text(problem, with_samples=False),
        plan=plan,
        chain=chain.text(),
        input=_text_block(test.input),
        expected=_text_block(test.output or "") if test.output is not None else "(unknown)",
        got=_text_block(run.output),
        traces=f"```text\n{run.text()}\n```",
        lessons=lessons or "(none yet)",
        format=format_rules(chain.language, problem.kind),
        language=language_name(chain.language),
    )
    reply = model.complete(DEBUGGER, messages)
    try:
        fixed = read_chain(reply.text, chain.language)
    except ExtractionError as e:
        raise RoleError(f"the debugger's reply holds no program: {e.message}", hint=e.hint) from None
    blocks = [b.model_copy(update={"source": strip_traces(b.source, chain.language)}) for b in fixed.blocks]
    fixed = fixed.model_copy(update={"blocks": blocks, "plan": fixed.plan or chain.plan})
    return fixed, diagnosis(reply.text)
