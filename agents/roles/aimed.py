"""Inputs aimed at one program (HardTests, TestCase-Eval): "here is a program; find an input where it is
wrong or slow".

One request per solve, for the leading candidate once it passes the generated tests and a stress run: the
test designer's model reads the program and writes a few small inputs where it expects a wrong answer, and
a generator (`GENERATOR N SEED`) of the input shape that makes it slowest. Nothing is trusted as written:
the small inputs go through the shape check and the solve's input gate (the validator) and are answered by
the brute force, like any generated input; the slow input is made at the statement's largest size, must
pass the gate too, and becomes a test only when the program fails on it (time, memory, crash), since no
brute force answers an input that large.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from cpbot.agents.chat import ChatModel
from cpbot.agents.extract import ExtractionError, extract_code, find_blocks
from cpbot.agents.prompts import render_prompt
from cpbot.agents.roles.common import fence_tag, fenced, language_name, problem_text
from cpbot.agents.roles.stresser import runnable
from cpbot.agents.roles.testgen import MAX_INPUT_BYTES, validate_inputs
from cpbot.core.errors import CpbotError
from cpbot.judge.build import build_solution
from cpbot.judge.execute import execute
from cpbot.judge.generator import generate
from cpbot.judge.model import Language, Problem, Solution, TestCase
from cpbot.judge.sandbox import Sandbox, default_sandbox
from cpbot.judge.validator import InputGate

ROLE = "testgen"  # the test designer's model writes them
ORIGIN = "aimed"


class AimedDraft(BaseModel):
    """What the reply held, unchecked."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    inputs: list[str] = []
    slow_generator: str | None = None


class AimedTests(BaseModel):
    """The checked result: tests to judge the program on, and what happened to everything else."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tests: list[TestCase] = []
    summary: str = ""
    dropped: list[str] = []


def read_aimed(text: str, language: Language) -> AimedDraft:
    """The data blocks before the slow generator's heading as inputs; the program under it as the generator."""
    marker = text.lower().find("slow input generator")
    head, tail = (text, "") if marker < 0 else (text[:marker], text[marker:])
    inputs = [b.code for b in find_blocks(head) if b.language is None and b.code.strip()]
    try:
        generator = extract_code(tail, language).code if tail else None
    except ExtractionError:
        generator = None
    return AimedDraft(inputs=inputs, slow_generator=generator)


def ask(
    model: ChatModel, problem: Problem, program: Solution, *, language: Language = "python3", count: int = 4
) -> AimedDraft:
    """The one request: inputs where `program` is wrong, and a generator of its slowest input (in `language`)."""
    messages = render_prompt(
        "aimed",
        problem=problem_text(problem),
        program=fenced(program.source, program.language),
        count=count,
        language=language_name(language),
        fence=fence_tag(language),
    )
    return read_aimed(model.complete(ROLE, messages).text, language)


def check(
    draft: AimedDraft,
    problem: Problem,
    program: Solution,
    *,
    brute: Solution | None,
    gate: InputGate | None,
    size: int | None,
    language: Language = "python3",
    sandbox: Sandbox | None = None,
) -> AimedTests:
    """The draft's inputs as tests (see the module's docstring)."""
    sandbox = sandbox or default_sandbox()
    tests, _, dropped = validate_inputs(draft.inputs, problem, brute=brute, sandbox=sandbox, gate=gate, origin=ORIGIN)
    tests = [t.model_copy(update={"name": f"aimed-{i}"}) for i, t in enumerate(tests, start=1)]
    slow = "no slow input asked" if size is None else "no slow input generator"
    if draft.slow_generator and size:
        slow, test = _slow_test(draft.slow_generator, problem, program, gate, size, language, sandbox)
        tests += [test] if test is not None else []
    kept = len(tests) - (1 if tests and tests[-1].name == "aimed-slow" else 0)
    summary = f"{kept} of {len(draft.inputs)} aimed inputs kept; {slow}"
    return AimedTests(tests=tests, summary=summary, dropped=dropped)


def _slow_test(
    source: str,
    problem: Problem,
    program: Solution,
    gate: InputGate | None,
    size: int,
    language: Language,
    sandbox: Sandbox,
) -> tuple[str, TestCase | None]:
    built = build_solution(Solution(language=language, source=source), sandbox)
    if built.program is None:
        return "slow input generator discarded: it does not build", None
    try:
        data = generate(built.program, size, 1, sandbox)
    except CpbotError as e:
        return f"slow input generator discarded: {e.message}", None
    if len(data) > 64 * MAX_INPUT_BYTES:
        return "slow input dropped: it is too large", None
    if gate is not None and (why := gate.admit(data, ORIGIN)) is not None:
        return f"slow input dropped: the validator rejects it ({why})", None
    target = build_solution(runnable(program, problem), sandbox).program
    if target is None:
        return "the program does not build", None
    run = execute(target, data, sandbox, limits=problem.limits)
    if run.verdict is None:
        return f"slow input at N={size}: {run.run.cpu_ms:.0f} ms of CPU", None
    test = TestCase(input=data.decode(errors="replace"), output=None, origin="generated", name="aimed-slow")
    return f"slow input at N={size}: {run.verdict}", test
