"""The interactor writer: a testlib interactor for an interactive problem that gives none, with the hidden
data of its tests.

The test designer writes the interactor and the data it reads (`write_interactor`); the first tests are the
data behind the statement's sample dialogues. Nothing is trusted as written. Before use it is checked
against each sample dialogue (`vet_interactor`): a scripted program that says the program's side of the
dialogue (the sample's output) must be accepted, with the interactor saying the judge's side as the sample
does (its input), and the same dialogue with its last number changed (a wrong answer) rejected. A program
asking other questions than the sample's is judged by the interactor alone, so a right one passes; a program
that never flushes waits for an answer that never comes and fails.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from cpbot.agents.chat import ChatModel
from cpbot.agents.extract import ExtractionError, extract_code, find_blocks
from cpbot.agents.prompts import render_prompt
from cpbot.agents.roles.checker_writer import perturbations
from cpbot.agents.roles.common import RoleError, fence_tag, language_name, problem_text, samples_text
from cpbot.agents.roles.testgen import GENERATOR_SIZES, MAX_INPUT_BYTES
from cpbot.core.errors import CpbotError
from cpbot.judge.build import build_solution
from cpbot.judge.generator import check_uses_n, generate
from cpbot.judge.interactive import run_interactive
from cpbot.judge.kinds import problem_kind
from cpbot.judge.languages import Program
from cpbot.judge.model import Language, Limits, Problem, Solution, TestCase, Verdict
from cpbot.judge.sandbox import Sandbox

ROLE = "interactor_writer"
TESTS = 5  # hidden data asked for: the samples' and a few more
MAX_TESTS = 20
DIALOGUE_LIMITS = Limits(time_ms=2000, memory_mb=256)

# says the program's side of a sample dialogue at once and closes it, then reads what the interactor says until it
# stops, and repeats that on stderr (for the vetting to compare with the sample's judge side)
_REPLAY = (
    "import os, sys\nsys.stdout.write({lines!r})\nsys.stdout.flush()\nos.close(1)\nsys.stderr.write(sys.stdin.read())\n"
)


class WrittenInteractor(BaseModel):
    """The interactor and the hidden data of its tests, the samples' first (unchecked until vetted)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    interactor: Solution
    tests: list[str]
    generator: Solution | None = None  # `generator N SEED` prints the hidden data of one test (kept when it works)


def needs_interactor(problem: Problem) -> str:
    """Why the solve needs a written interactor ("" when it does not)."""
    if problem_kind(problem.kind).needs_interactor and problem.interactor is None:
        return "the problem is interactive and names no interactor"
    return ""


def dialogues(problem: Problem) -> list[TestCase]:
    """The samples that show a dialogue: the program's side (the sample's output) is there."""
    return [s for s in problem.samples if s.output is not None and s.output.strip()]


def write_interactor(model: ChatModel, problem: Problem, *, language: Language = "python3") -> WrittenInteractor:
    """The model's interactor and hidden test data for `problem` (unchecked: see `vet_interactor`)."""
    messages = render_prompt(
        "interactor_writer",
        problem=problem_text(problem),
        language=language_name(language),
        fence=fence_tag(language),
        count=max(TESTS, len(problem.samples)),
        samples=len(problem.samples),
    )
    reply = model.complete(ROLE, messages)
    head, _, tail = reply.text.partition("## Tests")
    tail, _, generator_part = tail.partition("## Generator")
    try:
        code = extract_code(head, language, finish_reason=reply.finish_reason)
    except ExtractionError as e:
        raise RoleError(f"no usable interactor: {e.message}") from None
    try:
        generator: Solution | None = Solution(language=language, source=extract_code(generator_part, language).code)
    except ExtractionError:
        generator = None  # the interactor is still of use: the designer's tests are judged through it
    tests = [b.code if b.code.endswith("\n") else b.code + "\n" for b in find_blocks(tail) if b.language is None]
    tests = [t for t in tests if t.strip() and len(t.encode()) <= MAX_INPUT_BYTES][:MAX_TESTS]
    if not tests:
        raise RoleError("the interactor's reply holds no test data under a '## Tests' heading")
    return WrittenInteractor(interactor=Solution(language=language, source=code.code), tests=tests, generator=generator)


def replay(lines: str) -> Solution:
    """A program that says `lines` (one side of a dialogue) and then listens until the other side stops."""
    return Solution(language="python3", source=_REPLAY.format(lines=lines if lines.endswith("\n") else lines + "\n"))


def _dialogue(program: Program, interactor: Program, data: str, sandbox: Sandbox) -> tuple[Verdict, str, str]:
    """The interactor's verdict on a scripted program's dialogue (IE when the interactor itself failed), its
    message, and what it said to the program."""
    run = run_interactive(program, interactor, data.encode(), None, DIALOGUE_LIMITS, sandbox)
    check = run.check
    if check is None:
        return Verdict.IE, "no verdict", run.stderr
    return check.verdict, check.message, run.stderr


def vet_interactor(written: WrittenInteractor, problem: Problem, sandbox: Sandbox) -> str:
    """Why `written` cannot judge `problem` ("" when it can): it does not build, there is no sample dialogue
    or no hidden data for one, or on a sample it rejects the dialogue or accepts it with a wrong answer."""
    build = build_solution(written.interactor, sandbox)
    if build.program is None:
        return f"it does not build: {build.log.strip()[:300]}"
    shown = dialogues(problem)
    if not shown:
        return "the statement shows no dialogue to check it against"
    if len(written.tests) < len(problem.samples):
        return f"it comes with {len(written.tests)} tests for {len(problem.samples)} samples"
    for number, sample in enumerate(problem.samples, start=1):
        if sample not in shown:
            continue
        data, said = written.tests[number - 1], sample.output or ""
        right = build_solution(replay(said), sandbox).program
        assert right is not None  # the replay is a fixed, valid program
        verdict, message, said_back = _dialogue(right, build.program, data, sandbox)
        if verdict != Verdict.AC:
            return f"it rejects sample {number}'s dialogue ({verdict}: {message[:200]})"
        if said_back.split() != sample.input.split():
            return f"its side of sample {number}'s dialogue differs from the statement's: {said_back[:200]!r}"
        changed = [out for what, out in perturbations(said) if what == "a changed number"]
        if changed:
            wrong = build_solution(replay(changed[0]), sandbox).program
            assert wrong is not None
            verdict, _, _ = _dialogue(wrong, build.program, data, sandbox)
            if verdict == Verdict.AC:
                return f"it accepts sample {number}'s dialogue with its last number changed"
    return ""


def vet_generator(generator: Solution, sandbox: Sandbox) -> str:
    """Why the hidden-data generator cannot be used ("" when it can): it does not build, fails, prints nothing,
    or ignores N (what the interactor makes of its data is seen when programs are judged on it)."""
    build = build_solution(generator, sandbox)
    if build.program is None:
        return f"it does not build: {build.log.strip()[:300]}"
    try:
        for n in GENERATOR_SIZES:
            if not generate(build.program, n, 1, sandbox).strip():
                return f"it prints nothing for N={n}"
        check_uses_n(build.program, GENERATOR_SIZES[0], GENERATOR_SIZES[-1], 1, sandbox)
    except CpbotError as e:
        return e.message
    return ""


def judged_through(problem: Problem, written: WrittenInteractor) -> Problem:
    """`problem` judged through the written interactor: its tests are the hidden data (the samples' first,
    keeping their names), and the sample dialogues, no longer tests, stay in its notes for the prompts."""
    tests = [
        TestCase(
            input=data,
            output=None,
            origin="sample",
            name=problem.samples[i].name if i < len(problem.samples) else f"hidden-{i + 1}",
        )
        for i, data in enumerate(written.tests)
    ]
    heading = "Example dialogues (the judge's lines as input, the program's lines as output):"
    shown = f"{heading}\n{samples_text(problem.samples)}"
    notes = "\n\n".join(p for p in (problem.notes.strip(), shown) if p)
    return problem.model_copy(update={"interactor": written.interactor, "samples": tests, "notes": notes})
