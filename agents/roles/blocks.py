"""Programs as chains of code blocks with unit tests (BlockChain Coder's representation). No model.

A chain is an ordered list of named blocks, each a function (or a few closely related lines). The block
named `main` (or, failing that, the last block) reads the input and prints the answer; for a function
problem it holds the class the judge calls. Any other block may carry a unit test: a small program that
calls the block on values worked out by hand and exits non-zero (a failed `assert`) when one is wrong.

The model marks each fenced code block with a first line `# block: NAME` or `# test: NAME` (`//` in
C++). The whole program is the blocks joined in order; the test program of a block is every block but
`main` (for function problems, every block) followed by the block's test, so one block can be swapped
and checked on its own.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.extract import ExtractionError, extract_code, family_of, find_blocks
from cpbot.agents.roles.common import RoleError, fence_tag
from cpbot.judge.kinds import problem_kind
from cpbot.judge.languages import language_profile
from cpbot.judge.model import JudgeReport, Language, Problem, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_solution
from cpbot.judge.sandbox import Sandbox

MAIN = "main"
# `# block: name`, `// Block 1: name`, `/* block: name */`, `// test: name`, `# Test for name`, `-- Block 2 - name`
_MARK = re.compile(
    r"^\s*(?:#+|//+|/\*+|--|\*\*)?\s*[*_]*\s*(block|test)\s*(?:\d+\s*)?(?:for\s+)?(?:block\s+)?[:.\-\u2013)]*\s*"
    r"[`'\"*_]*([A-Za-z_][\w-]*)[`'\"*_]*\s*(?:\*+/)?\s*$",
    re.IGNORECASE,
)
_STEP = re.compile(r"^\s*(\d+)[.)]\s+(.+)$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_UNMARKED = "no marked blocks"


class CodeBlock(BaseModel):
    """One block of a chain, and its unit test when it has one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    source: str
    test: str | None = None


class BlockChain(BaseModel):
    """A program as blocks, with the plan the blocks follow and what the reading noticed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    language: Language
    blocks: list[CodeBlock]
    plan: list[str] = []
    notes: list[str] = []

    @property
    def main(self) -> CodeBlock:
        """The block that does the input and output."""
        return next((b for b in self.blocks if b.name == MAIN), self.blocks[-1])

    def block(self, name: str) -> CodeBlock | None:
        """The block called `name`, if any."""
        return next((b for b in self.blocks if b.name == name), None)

    def program(self) -> str:
        """The whole program: the blocks in order, `main` last."""
        main = self.main
        ordered = [b for b in self.blocks if b is not main] + [main]
        return "\n\n".join(b.source.strip("\n") for b in ordered) + "\n"

    def test_program(self, name: str, kind: str = "stdio") -> str | None:
        """The program that runs the unit test of block `name`, or None when it has no test."""
        block = self.block(name)
        if block is None or block.test is None:
            return None
        main = self.main
        parts = [b.source.strip("\n") for b in self.blocks if b is not main or problem_kind(kind).wrapped]
        return "\n\n".join([*parts, block.test.strip("\n")]) + "\n"

    def replace(self, name: str, source: str) -> BlockChain:
        """The chain with block `name`'s code replaced (its unit test stays)."""
        blocks = [b.model_copy(update={"source": source}) if b.name == name else b for b in self.blocks]
        return self.model_copy(update={"blocks": blocks})

    def attempt(self, *, plan_iteration: int | None = None, notes: str = "") -> CodeAttempt:
        """The chain as a `CodeAttempt` of the whole program."""
        return CodeAttempt(language=self.language, source=self.program(), plan_iteration=plan_iteration, notes=notes)

    def text(self) -> str:
        """The blocks and their tests as marked fenced blocks, the way the model writes them."""
        comment = language_profile(self.language).comment
        fence = fence_tag(self.language)
        parts = []
        for b in self.blocks:
            parts.append(f"```{fence}\n{comment} block: {b.name}\n{b.source.strip(chr(10))}\n```")
            if b.test is not None:
                parts.append(f"```{fence}\n{comment} test: {b.name}\n{b.test.strip(chr(10))}\n```")
        return "\n".join(parts)


def format_rules(language: Language, kind: str) -> str:
    """How a reply must lay out blocks and unit tests, for the prompts."""
    comment = language_profile(language).comment
    fence = fence_tag(language)
    main = problem_kind(kind).main_block
    lines = [
        f"Write the program as a chain of blocks, each in its own ```{fence} fenced block whose first line is "
        f"`{comment} block: NAME` (NAME: letters, digits, underscores). Each block is one function (a step of "
        f"the plan). The last block is `{comment} block: main`: {main}.",
        f"For every block except main, write a unit test in its own ```{fence} block whose first line is "
        f"`{comment} test: NAME`. It calls that block on concrete values from your worked example and must "
        "fail (exit with a non-zero status) when a result is wrong.",
    ]
    if family_of(language) == "cpp":
        lines.append(
            "Put the #include lines and `using namespace std;` in the first block. A unit test is a complete "
            "`int main()` that returns 1 when a check fails and 0 when all pass; it must not read input."
        )
    else:
        lines.append("A unit test is top-level `assert` statements; it must not read input.")
    return "\n".join(lines)


def plan_steps(text: str) -> list[str]:
    """The numbered steps written outside code blocks."""
    steps: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        if m := _FENCE.match(line):
            fence = None if fence is not None and m.group(1).startswith(fence) else fence or m.group(1)
            continue
        if fence is None and (step := _STEP.match(line)):
            steps.append(step.group(2).strip())
    return steps


def _family(language: str) -> str | None:
    try:
        return family_of(language)
    except ValueError:
        return None  # java, rust, ...: not a language cpbot writes


def read_chain(text: str, language: Language) -> BlockChain:
    """The chain a reply holds. Without any marked block the whole program is one `main` block (no unit
    tests); a test for a block that does not exist is dropped with a note. Raises `ExtractionError` when
    there is no code at all."""
    family = family_of(language)
    blocks: list[CodeBlock] = []
    tests: dict[str, str] = {}
    notes: list[str] = []
    unmarked: list[int] = []
    found_blocks = find_blocks(text)
    for found in found_blocks:
        if found.language is not None and _family(found.language) != family:
            if found.code.strip():
                notes.append(f"code block {found.index + 1} is in {found.language}, not {language}: left out")
            continue
        lines = found.code.strip("\n").splitlines()
        mark = _MARK.match(lines[0]) if lines else None
        body_lines = lines[1:]
        if mark is None and found.lead:
            mark = _MARK.match(found.lead.splitlines()[-1].strip().rstrip(":"))  # the marker above the fence
            body_lines = lines
        if mark is None:
            if found.code.strip():
                unmarked.append(found.index + 1)
            continue
        body = "\n".join(body_lines).strip("\n") + "\n"
        kind, name = mark.group(1).lower(), mark.group(2).replace("-", "_")
        if kind == "test":
            tests[name] = body
        elif any(b.name == name for b in blocks):
            notes.append(f"block {name} given twice: the later one kept")
            blocks = [CodeBlock(name=name, source=body) if b.name == name else b for b in blocks]
        else:
            blocks.append(CodeBlock(name=name, source=body))
    if not blocks:
        code = extract_code(text, language)
        notes.append(f"{_UNMARKED}: the whole program is one block without a unit test")
        return BlockChain(language=language, blocks=[CodeBlock(name=MAIN, source=code.code)], notes=notes)
    if unmarked:
        notes.append(f"code block(s) {', '.join(map(str, unmarked))} had no block marker and were left out")
    names = {b.name for b in blocks}
    for name in sorted(set(tests) - names):
        notes.append(f"unit test for unknown block {name} dropped")
    blocks = [b.model_copy(update={"test": tests.get(b.name)}) for b in blocks]
    return BlockChain(language=language, blocks=blocks, plan=plan_steps(text), notes=notes)


def read_block(text: str, chain: BlockChain) -> CodeBlock | None:
    """The one marked block of a reply that names a block of `chain` (its new version), or None."""
    try:
        found = read_chain(text, chain.language)
    except ExtractionError:
        return None
    if any(note.startswith(_UNMARKED) for note in found.notes):
        return None  # a whole program is not a block
    return next((b for b in found.blocks if chain.block(b.name) is not None), None)


def run_unit_test(chain: BlockChain, name: str, problem: Problem, *, sandbox: Sandbox | None = None) -> JudgeReport:
    """Build and run the test program of block `name` once, with no input: AC when it exits normally."""
    source = chain.test_program(name, problem.kind)
    if source is None:
        raise RoleError(f"block {name} has no unit test", hint="check the block with the samples instead")
    test = TestCase(input="", output=None, origin="user", name=f"unit test of {name}")
    report = judge_solution(
        Solution(language=chain.language, source=source), [test], limits=problem.limits, sandbox=sandbox
    )
    if report.verdict == Verdict.RAN:  # a unit test has no expected output: its exit status is the check
        report.verdict, report.passed, report.unchecked = Verdict.AC, report.total, 0
        for result in report.results:
            result.verdict = Verdict.AC
    return report
