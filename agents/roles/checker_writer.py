"""The checker writer: a testlib checker for a problem that accepts several answers and gives no checker.

The test designer writes it (`write_checker`) from the statement; nothing is trusted as written. Before use
it is checked on the samples (`vet_checker`): it must accept each sample's expected output (with that output
as the jury's answer too), and reject outputs that cannot be right (`perturbations`: a number changed far
out of range, the last line missing, an empty output). A checker failing any of this, crashing or not
building, is discarded with the reason; the solve then compares outputs as before (and calls nothing solved
on a choice between different answers, `selection.unjudged_answers`).
"""

from __future__ import annotations

import re

from cpbot.agents.chat import ChatModel
from cpbot.agents.extract import extract_code
from cpbot.agents.prompts import render_prompt
from cpbot.agents.roles.common import fence_tag, language_name, problem_text
from cpbot.agents.selection import unjudged_answers
from cpbot.judge.build import build_solution
from cpbot.judge.checkers.base import CheckInput
from cpbot.judge.checkers.testlib import TestlibChecker
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import Language, Problem, Solution, Verdict
from cpbot.judge.sandbox import Sandbox

ROLE = "checker_writer"
OUT_OF_RANGE = 1_000_003  # added to a number of a right output: no statement's valid answer survives it

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def needs_checker(problem: Problem) -> str:
    """Why the solve needs a written checker ("" when it does not): the statement accepts several answers and
    the problem's checker compares an output with one answer, on a problem judged by its output text (a
    function problem's harness has its own special-judge rules)."""
    kind = problem_kind(problem.kind)
    if kind.wrapped or not kind.checks_output_text:
        return ""
    return unjudged_answers(problem)


def write_checker(model: ChatModel, problem: Problem, *, language: Language = "python3") -> Solution:
    """The model's checker for `problem` in `language` (unchecked: see `vet_checker`)."""
    messages = render_prompt(
        "checker_writer", problem=problem_text(problem), language=language_name(language), fence=fence_tag(language)
    )
    reply = model.complete(ROLE, messages)
    code = extract_code(reply.text, language, finish_reason=reply.finish_reason, reasoning=reply.reasoning)
    return Solution(language=language, source=code.code)


def perturbations(output: str) -> list[tuple[str, str]]:
    """Wrong outputs made from a right one, each with what was changed: its last number moved far out of
    range, its last line left out (when it has more than one), nothing at all."""
    wrong: list[tuple[str, str]] = []
    numbers = list(_NUMBER.finditer(output))
    if numbers:
        last = numbers[-1]
        value = float(last.group()) if "." in last.group() else int(last.group())
        changed = f"{value + OUT_OF_RANGE}"
        wrong.append(("a changed number", output[: last.start()] + changed + output[last.end() :]))
    lines = [ln for ln in output.splitlines() if ln.strip()]
    if len(lines) > 1:
        wrong.append(("a missing line", "\n".join(lines[:-1]) + "\n"))
    wrong.append(("an empty output", ""))
    return wrong


def vet_checker(checker: Solution, problem: Problem, sandbox: Sandbox) -> str:
    """Why `checker` cannot judge `problem` ("" when it can): it does not build, or on some sample it rejects
    the expected output or accepts a perturbed one, or fails (a crash, a time-out, testlib's FAIL)."""
    build = build_solution(checker, sandbox)
    if build.program is None:
        return f"it does not build: {build.log.strip()[:300]}"
    program = TestlibChecker(build.program, sandbox, name="written checker")
    samples = [s for s in problem.samples if s.output is not None and s.output.strip()]
    if not samples:
        return "no sample has an expected output to check it on"
    for number, sample in enumerate(samples, start=1):
        expected = sample.output or ""
        data, answer = sample.input.encode(), expected.encode()
        right = program.check(CheckInput(data, answer, answer))
        if right.verdict != Verdict.AC:
            return f"it rejects the expected output of sample {number} ({right.verdict}: {right.message[:200]})"
        for what, output in perturbations(expected):
            result = program.check(CheckInput(data, output.encode(), answer))
            if result.verdict == Verdict.IE:
                return f"it fails on sample {number} with {what}: {result.message[:200]}"
            if result.verdict == Verdict.AC:
                return f"it accepts sample {number}'s output with {what}"
    return ""
