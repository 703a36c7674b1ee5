"""The test generator: extra inputs, an input generator and a brute force, all checked before use.

The model writes a few small inputs, a generator (`GENERATOR N SEED`, as the judge's profiler and
stress tester run it) and a brute force. Nothing is trusted as written:
- every input must have the samples' shape (the same number of values on the first line, numbers
  where the samples have only numbers, a valid test count in multi-test problems, one JSON value per
  line for function problems), or it is dropped;
- the brute force must pass every sample, or it is discarded; when it passes, it runs on each input
  and its output becomes the expected answer, and an input it cannot handle is dropped as invalid; but a
  brute force out of time on the first inputs, answering none of them, is what is wrong (a too-slow brute
  force): it is discarded and the inputs are kept without answers;
- the generator must build, print well-shaped inputs for small N and change with N, or it is discarded.
Without a trusted brute force, the inputs that survive keep no expected output: they can still catch
crashes and time-outs. Everything dropped is listed with the reason.

The same reply holds an input validator (`agents/roles/validator.py`): once it passes its self-check, every
input must also pass it (an input it rejects is dropped and counted in `GeneratedSuite.invalid`), and so
must the generator's first inputs (a generator none of whose first inputs is valid is discarded).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from cpbot.agents.chat import ChatModel
from cpbot.agents.envelopes import GeneratedTests
from cpbot.agents.extract import ExtractionError, extract_code, family_of, find_blocks, guess_language
from cpbot.agents.prompts import render_prompt
from cpbot.agents.roles.common import RoleError, fence_tag, language_name, problem_text
from cpbot.agents.roles.constraints import problem_bounds
from cpbot.agents.roles.stdio import classify_input
from cpbot.agents.roles.validator import check_validator, quantities
from cpbot.core.errors import CpbotError
from cpbot.core.registry import LANGUAGE_SPECS
from cpbot.judge.build import build_solution
from cpbot.judge.execute import execute
from cpbot.judge.generator import check_uses_n, generate
from cpbot.judge.kinds import problem_kind
from cpbot.judge.languages import Program
from cpbot.judge.model import Language, Limits, Problem, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import Sandbox, default_sandbox
from cpbot.judge.validator import InputGate

ROLE = "testgen"

MAX_INPUT_BYTES = 1 << 20
BRUTE_TIME_MS = 5000
SLOW_BRUTE_TIMEOUTS = 2  # a brute force out of time on this many first inputs, answering none, is discarded
GENERATOR_SIZES = (1, 3, 10)
GENERATOR_SEEDS = (1, 2)  # seeds of the generator's first inputs the validator sees

_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$|^\s*\*\*(.+?)\*\*:?\s*$")


class InputShape(BaseModel):
    """What every valid input shares with the samples."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str = "stdio"
    first_line_tokens: int | None = None  # when every sample agrees
    numeric: bool = False  # every token of every sample is a number
    multi_test: bool = False
    max_tests: int | None = None
    lines: int | None = None  # function problems: one line per parameter


class GeneratedSuite(BaseModel):
    """The checked result: tests, the generator and brute force if they passed, and what was dropped."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tests: GeneratedTests
    generator: Solution | None = None
    brute: Solution | None = None
    small_generator: Solution | None = None  # exhaustive small inputs (stress runs on them first)
    slow_generator: Solution | None = None  # worst-case shapes (the profiler runs on them)
    validator: Solution | None = None  # only when it passed its self-check
    validator_note: str = ""  # how the validator was checked, or why there is none
    invalid: int = 0  # inputs the validator rejected
    dropped: list[str] = []


class TestgenDraft(BaseModel):
    """What the model's reply held, before any checking."""

    __test__ = False
    model_config = ConfigDict(extra="forbid", frozen=True)

    inputs: list[str] = []
    generator: str | None = None
    brute: str | None = None
    validator: str | None = None
    small_generator: str | None = None  # exhaustive: the SEED-th small input of size N
    slow_generator: str | None = None  # worst cases: the input shape that slows a program down
    problems: list[str] = []  # what could not be read
    # the language each program was written in, when not the one asked for (a C++ brute force runs as well)
    languages: dict[str, Language] = {}


def _other_language(language: Language) -> Language | None:
    """The first registered language of another family: a program asked for in one may come in another,
    and either runs."""
    family = family_of(language)
    return next((spec.name for spec in LANGUAGE_SPECS if spec.family is not family), None)  # type: ignore[return-value]


# ---- shape ---------------------------------------------------------------------------------------


def sample_shape(problem: Problem) -> InputShape:
    """The shape the samples of `problem` share."""
    samples = [s.input for s in problem.samples if s.input.strip()]
    if problem_kind(problem.kind).wrapped:
        counts = {len([ln for ln in s.splitlines() if ln.strip()]) for s in samples}
        return InputShape(kind="function", lines=counts.pop() if len(counts) == 1 else None)
    firsts = {len(s.strip().splitlines()[0].split()) for s in samples}
    tokens = [t for s in samples for t in s.split()]
    multi = classify_input(problem).shape in ("multi_line", "multi_block")
    bounds = problem_bounds(problem)
    return InputShape(
        first_line_tokens=firsts.pop() if len(firsts) == 1 else None,
        numeric=bool(tokens) and all(_NUMBER.match(t) for t in tokens),
        multi_test=multi,
        max_tests=bounds.upper.get(bounds.tests_var) if multi and bounds.tests_var else None,
    )


def format_issue(text: str, shape: InputShape) -> str | None:
    """Why `text` is not a valid input of `shape`, or None when it looks valid."""
    if not text.strip():
        return "it is empty"
    if len(text.encode()) > MAX_INPUT_BYTES:
        return f"it is larger than {MAX_INPUT_BYTES >> 20} MB"
    if problem_kind(shape.kind).wrapped:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if shape.lines is not None and len(lines) != shape.lines:
            return f"it has {len(lines)} lines, the samples have {shape.lines}"
        for ln in lines:
            try:
                json.loads(ln)
            except ValueError:
                return f"line {ln[:40]!r} is not a JSON value"
        return None
    first = text.strip().splitlines()[0].split()
    if shape.first_line_tokens is not None and len(first) != shape.first_line_tokens:
        return f"its first line has {len(first)} values, the samples' have {shape.first_line_tokens}"
    if shape.numeric:
        odd = next((t for t in text.split() if not _NUMBER.match(t)), None)
        if odd is not None:
            return f"it holds {odd[:20]!r} where the samples have only numbers"
    if shape.multi_test:
        if not re.fullmatch(r"\d+", first[0]) or int(first[0]) < 1:
            return "it does not start with a test count"
        if shape.max_tests is not None and int(first[0]) > shape.max_tests:
            return f"its test count {first[0]} exceeds the bound {shape.max_tests}"
    return None


# ---- reading the reply ---------------------------------------------------------------------------


def _sections(text: str) -> dict[str, str]:
    """The text under the Inputs, Generator and Brute force headings (headings inside code blocks,
    such as Python comments, do not count)."""
    lines = text.splitlines(keepends=True)
    marks: list[tuple[int, str]] = []
    fence: str | None = None
    for i, line in enumerate(lines):
        stripped = line.strip()
        if fence is None and (m := re.match(r"(`{3,}|~{3,})", stripped)):
            fence = m.group(1)
        elif fence is not None and stripped.startswith(fence) and not stripped.strip(fence[0]):
            fence = None
        elif fence is None and (m := _HEADING.match(line.rstrip("\n"))):
            marks.append((i, (m.group(1) or m.group(2) or "").lower()))
    found: dict[str, str] = {}
    for k, (start, title) in enumerate(marks):
        end = marks[k + 1][0] if k + 1 < len(marks) else len(lines)
        key = "brute" if "brute" in title else "generator" if "generator" in title else None
        if key == "generator" and ("small" in title or "exhaustive" in title):
            key = "small_generator"
        elif key == "generator" and ("slow" in title or "worst" in title):
            key = "slow_generator"
        key = key or ("validator" if "validator" in title else None)
        key = key or ("inputs" if "input" in title or "test" in title else None)
        if key and key not in found:
            found[key] = "".join(lines[start:end])
    return found


def read_draft(text: str, language: Language) -> TestgenDraft:
    """Inputs, generator and brute force from a reply with the three headings (or, without them, by
    what each block holds: data blocks are inputs, a program reading argv is the generator)."""
    sections = _sections(text)
    problems: list[str] = []
    if sections:
        inputs = [b.code for b in find_blocks(sections.get("inputs", "")) if b.language is None]
        programs: dict[str, str | None] = {}
        languages: dict[str, Language] = {}
        for key in ("generator", "brute"):
            try:
                programs[key] = extract_code(sections.get(key, ""), language).code
            except ExtractionError as e:
                programs[key] = None
                other = _other_language(language)
                try:
                    programs[key] = extract_code(sections.get(key, ""), other).code if other else None
                    languages[key] = other  # type: ignore[assignment]
                except ExtractionError:
                    pass
                if programs[key] is None:
                    label = "brute force" if key == "brute" else key
                    problems.append(f"no usable {label} ({e.message})")
        optional: dict[str, str | None] = {}
        for key in ("validator", "small_generator", "slow_generator"):
            # optional: without a validator inputs are checked for shape only, without the other generators
            # the random one serves
            optional[key] = None
            if key in sections:
                try:
                    optional[key] = extract_code(sections[key], language).code
                except ExtractionError as e:
                    problems.append(f"no usable {key.replace('_', ' ')} ({e.message})")
        return TestgenDraft(
            inputs=inputs,
            generator=programs["generator"],
            brute=programs["brute"],
            validator=optional["validator"],
            small_generator=optional["small_generator"],
            slow_generator=optional["slow_generator"],
            problems=problems,
            languages=languages,
        )
    blocks = find_blocks(text)
    inputs = [b.code for b in blocks if b.language is None and guess_language(b.code) is None]
    code = [b.code for b in blocks if b.language is not None and b.complete]
    generator = next((c for c in code if "argv" in c), None)
    brute = next((c for c in code if c is not generator), None)
    if generator is None:
        problems.append("no usable generator (no program reads its arguments)")
    if brute is None:
        problems.append("no usable brute force")
    return TestgenDraft(inputs=inputs, generator=generator, brute=brute, problems=problems)


# ---- checking ------------------------------------------------------------------------------------


def _brute_program(brute: Solution, problem: Problem, sandbox: Sandbox) -> tuple[Program | None, str]:
    report = judge_problem(brute, problem, sandbox=sandbox)
    if report.verdict != Verdict.AC:
        return (
            None,
            f"brute force discarded: {report.verdict} on the samples ({report.reason or report.compile_log[:200]})",
        )
    build = build_solution(problem_kind(problem.kind).runnable(brute, problem), sandbox)
    return build.program, "" if build.program is not None else "brute force discarded: it does not build"


def validate_inputs(
    inputs: Sequence[str],
    problem: Problem,
    *,
    brute: Solution | None = None,
    sandbox: Sandbox | None = None,
    gate: InputGate | None = None,
    origin: str = "generated",
) -> tuple[list[TestCase], Solution | None, list[str]]:
    """The inputs that pass the shape check and the `gate` (counted there under `origin`; and the brute force,
    when it passes the samples), as tests; the brute force if it was trusted; the reasons for everything dropped."""
    shape = sample_shape(problem)
    dropped: list[str] = []
    kept: list[str] = []
    seen = {s.input for s in problem.samples}
    for i, text in enumerate(inputs, start=1):
        text = text if text.endswith("\n") else text + "\n"
        issue = "it repeats a sample or an earlier input" if text in seen else format_issue(text, shape)
        if issue is None and gate is not None and (why := gate.admit(text.encode(), origin)) is not None:
            issue = f"the validator rejects it ({why})"
        if issue:
            dropped.append(f"input {i} dropped: {issue}")
        else:
            kept.append(text)
            seen.add(text)
    program = None
    if brute is not None:
        sandbox = sandbox or default_sandbox()
        program, why = _brute_program(brute, problem, sandbox)
        if program is None:
            dropped.append(why)
            brute = None
    limits = Limits(time_ms=max(problem.limits.time_ms, BRUTE_TIME_MS), memory_mb=max(problem.limits.memory_mb, 512))
    answers: list[str | None] = [None] * len(kept)
    failed: dict[int, str] = {}  # input index -> the brute force's verdict on it
    for i, text in enumerate(kept):
        if program is None or sandbox is None:
            break
        run = execute(program, text.encode(), sandbox, limits=limits)
        if run.verdict is None:
            answers[i] = run.stdout.decode(errors="replace")
            continue
        failed[i] = str(run.verdict)
        timed_out = sum(verdict == Verdict.TLE for verdict in failed.values())
        if timed_out >= SLOW_BRUTE_TIMEOUTS and all(a is None for a in answers):
            # out of time on the first small inputs and none answered: the brute force is slow, not the inputs invalid
            dropped.append(
                f"brute force discarded: out of time ({limits.time_ms} ms) on {timed_out} of the first inputs, "
                "it answered none; the inputs are kept without answers"
            )
            program, brute, answers = None, None, [None] * len(kept)
            break
    tests: list[TestCase] = []
    for i, text in enumerate(kept):
        if program is not None and answers[i] is None:
            dropped.append(
                f"generated input {i + 1} dropped: the brute force fails on it ({failed[i]}), so it is probably invalid"
            )
            continue
        tests.append(TestCase(input=text, output=answers[i], origin="generated", name=f"generated-{len(tests) + 1}"))
    return tests, brute, dropped


def validate_generator(
    generator: Solution, problem: Problem, *, sandbox: Sandbox | None = None, gate: InputGate | None = None
) -> str | None:
    """Why `generator` cannot be used (it does not build, fails, ignores N, prints malformed inputs, or none
    of its first inputs passes the validator of `gate`), or None when it can."""
    sandbox = sandbox or default_sandbox()
    build = build_solution(generator, sandbox)
    if build.program is None:
        return f"generator discarded: it does not build ({build.log.strip()[:200]})"
    shape = sample_shape(problem)
    rejected: list[str] = []
    try:
        for n in GENERATOR_SIZES:
            for seed in GENERATOR_SEEDS:
                raw = generate(build.program, n, seed, sandbox, time_ms=BRUTE_TIME_MS)
                issue = format_issue(raw.decode(errors="replace"), shape)
                if issue:
                    return f"generator discarded: its input for N={n} is malformed: {issue}"
                if gate is not None and (why := gate.check(raw)) and not why.valid:
                    rejected.append(f"N={n}, seed {seed}: {why.message}")
        check_uses_n(build.program, GENERATOR_SIZES[0], GENERATOR_SIZES[-1], 1, sandbox, time_ms=BRUTE_TIME_MS)
    except CpbotError as e:
        return f"generator discarded: {e.message}"
    if len(rejected) == len(GENERATOR_SIZES) * len(GENERATOR_SEEDS):
        return f"generator discarded: none of its first inputs passes the validator ({rejected[0]})"
    return None


def generate_tests(
    model: ChatModel,
    problem: Problem,
    *,
    language: Language = "python3",
    count: int = 5,
    sandbox: Sandbox | None = None,
) -> GeneratedSuite:
    """Ask for `count` inputs, a generator and a brute force in `language`; check them all; keep what passes."""
    if not problem_kind(problem.kind).stress_applies:
        raise RoleError(
            f"{problem.id} is interactive: generated inputs need an interactor, not a test file",
            hint="test interactive problems with an interactor program",
        )
    messages = render_prompt(
        "testgen",
        problem=problem_text(problem),
        count=count,
        language=language_name(language),
        fence=fence_tag(language),
        quantities=quantities(problem),
    )
    reply = model.complete(ROLE, messages)
    return check_draft(read_draft(reply.text, language), problem, language=language, sandbox=sandbox)


def check_draft(
    draft: TestgenDraft, problem: Problem, *, language: Language = "python3", sandbox: Sandbox | None = None
) -> GeneratedSuite:
    """Check what a reply held (inputs, generator, brute force in `language`); keep what passes (no model)."""
    suite = check_suite(
        draft.inputs,
        problem,
        brute=Solution(language=draft.languages.get("brute", language), source=draft.brute) if draft.brute else None,
        generator=(
            Solution(language=draft.languages.get("generator", language), source=draft.generator)
            if draft.generator
            else None
        ),
        validator=Solution(language=language, source=draft.validator) if draft.validator else None,
        kinds={
            "small": Solution(language=language, source=draft.small_generator) if draft.small_generator else None,
            "slow": Solution(language=language, source=draft.slow_generator) if draft.slow_generator else None,
        },
        sandbox=sandbox,
    )
    return suite.model_copy(update={"dropped": [*draft.problems, *suite.dropped]})


def check_suite(
    inputs: Sequence[str],
    problem: Problem,
    *,
    brute: Solution | None,
    generator: Solution | None,
    validator: Solution | None = None,
    kinds: dict[str, Solution | None] | None = None,
    sandbox: Sandbox | None = None,
) -> GeneratedSuite:
    """Check the validator, then validate inputs, a brute force and the generators (the random one, and the
    `small` and `slow` ones of `kinds`) through it (see the module's docstring); keep what passes."""
    sandbox = sandbox or default_sandbox()
    checked = check_validator(validator, problem, sandbox)
    program = build_solution(checked.validator, sandbox).program if checked.validator else None
    gate = InputGate(program, sandbox) if program is not None else None
    dropped = [checked.note] if checked.validator is None and validator is not None else []
    tests, brute, more = validate_inputs(inputs, problem, brute=brute, sandbox=sandbox, gate=gate)
    dropped += more
    if generator is not None and (why := validate_generator(generator, problem, sandbox=sandbox, gate=gate)):
        dropped.append(why)
        generator = None
    others: dict[str, Solution | None] = {}
    for kind, program in (kinds or {}).items():
        why = validate_generator(program, problem, sandbox=sandbox, gate=gate) if program is not None else None
        if why:
            dropped.append(f"{kind} {why}")
        others[kind] = program if program is not None and not why else None
    reason = f"{len(tests)} of {len(inputs)} generated inputs kept" + (
        ", answers from the brute force" if brute is not None else ", without answers (no trusted brute force)"
    )
    return GeneratedSuite(
        tests=GeneratedTests(tests=tests, reason=reason),
        generator=generator,
        small_generator=others.get("small"),
        slow_generator=others.get("slow"),
        brute=brute,
        validator=checked.validator,
        validator_note=checked.note,
        invalid=sum(gate.dropped.values()) if gate is not None else 0,
        dropped=dropped,
    )
