"""The STD-IO template picker: classify a problem's input shape, hand the coder a matching skeleton.

Deterministic (no model). The shapes are `single` (one test per input), `multi_line` (a count, then one
line per test case), `multi_block` (a count, then several lines per case) and `matrix` (a header with
the dimensions, then one row per line). Evidence, strongest first: how the scraper split the samples
into cases, the sample text itself (the count on the first line, the lines that follow), and phrases
of the input section. Interactive problems get the interactive skeleton, whatever their shape.
The skeletons are files in `templates/stdio/`, one per shape and language family.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cpbot.agents.roles.common import RoleError
from cpbot.core.registry import Family
from cpbot.judge.kinds import problem_kind
from cpbot.judge.languages import language_profile
from cpbot.judge.model import Language, Problem, TestCase

ROLE = "stdio"

Shape = Literal["single", "multi_line", "multi_block", "matrix"]
SHAPES: tuple[Shape, ...] = ("single", "multi_line", "multi_block", "matrix")

_MULTI = re.compile(
    r"number of (?:the )?(?:test ?cases|tests|test sets|scenarios|queries to answer)|multiple test ?cases"
    r"|test cases follow|several test ?cases|\bthen \$?[tT]\$? (?:test ?cases|tests) follow",
    re.IGNORECASE,
)
_ONE_LINE = re.compile(
    r"(?:the )?only line of each test ?case|each test ?case (?:consists of|contains|is given (?:in|on)) "
    r"(?:exactly )?(?:one|a single) line|single line of each test ?case|each test ?case is (?:a|one) "
    r"(?:line|string)|each of the (?:next|following) \$?[tT]\$? lines|one (?:test ?case|scenario|test) per line",
    re.IGNORECASE,
)
_SEVERAL_LINES = re.compile(
    r"(?:first|second|next|following) lines? (?:of|in) each test ?case|each test ?case (?:consists of|contains) "
    r"(?:two|three|several|multiple) lines",
    re.IGNORECASE,
)
_GRID = re.compile(r"\b(?:grid|matrix|table|board|field|rows?\b.*\bcolumns?)\b", re.IGNORECASE)
_NOT_GRID = re.compile(r"\b(?:edges?|roads?|queries|pairs|segments|intervals)\b", re.IGNORECASE)
_INT = re.compile(r"^-?\d+$")


class ShapeGuess(BaseModel):
    """The input shape and what it was read from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    shape: Shape
    reason: str
    cells: Literal["chars", "numbers"] | None = None  # matrix rows: strings of characters, or numbers


class StdioTemplate(BaseModel):
    """A skeleton program for the coder to fill in, and why it was chosen."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    shape: Shape
    family: Family
    interactive: bool = False
    name: str  # the template file, e.g. "multi_line.cpp"
    source: str
    reason: str
    notes: list[str] = []  # what the coder must mind with this template


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


def _sample_test_count(sample: TestCase) -> tuple[int, int] | None:
    """(t, lines after the first) when a sample opens with a lone count."""
    lines = _lines(sample.input)
    if not lines or not _INT.match(lines[0].strip()):
        return None
    t = int(lines[0])
    return (t, len(lines) - 1) if 0 < t <= len(lines) - 1 else None


def _matrix_in(sample: TestCase) -> Literal["chars", "numbers"] | None:
    """How the rows look when a sample is a header of dimensions followed by exactly that many rows."""
    lines = _lines(sample.input)
    if len(lines) < 2:
        return None
    header = lines[0].split()
    if len(header) < 2 or not all(_INT.match(v) for v in header):
        return None
    values = [int(v) for v in header]
    rows = lines[1:]
    tokens = [row.split() for row in rows]
    if all(len(t) == 1 and not _INT.match(t[0]) for t in tokens):
        widths, cells = {len(t[0]) for t in tokens}, "chars"
    elif all(all(_INT.match(x) or re.match(r"^-?\d+\.\d+$", x) for x in t) for t in tokens):
        widths, cells = {len(t) for t in tokens}, "numbers"
    else:
        return None
    if len(widths) != 1:
        return None
    width = widths.pop()
    pairs = [(i, j) for i, r in enumerate(values) for j, w in enumerate(values) if i != j]
    if any(values[i] == len(rows) and values[j] == width for i, j in pairs):
        return cells  # type: ignore[return-value]
    return None


def classify_input(problem: Problem) -> ShapeGuess:
    """The input shape of `problem`, from its samples and its input section."""
    spec = problem.input_spec or problem.statement
    samples = [s for s in problem.samples if s.input.strip()]
    split = [s for s in samples if s.cases]
    counted = [c for c in (_sample_test_count(s) for s in samples) if c is not None]
    says_multi = bool(_MULTI.search(spec))
    if split or says_multi:
        if split:
            one_line = all(len(_lines(case)) == 1 for s in split for case in s.cases or [])
            where = (
                "the samples split into cases of one line each" if one_line else "the samples' cases span several lines"
            )
            return ShapeGuess(shape="multi_line" if one_line else "multi_block", reason=where)
        if counted and len(counted) == len(samples):
            if all(t == rest for t, rest in counted):
                return ShapeGuess(shape="multi_line", reason="each sample is a count t followed by exactly t lines")
            return ShapeGuess(shape="multi_block", reason="the samples hold more lines than test cases")
        if _ONE_LINE.search(spec) and not _SEVERAL_LINES.search(spec):
            return ShapeGuess(shape="multi_line", reason="the input section puts each test case on one line")
        return ShapeGuess(shape="multi_block", reason="the input section describes several test cases")
    grids = [_matrix_in(s) for s in samples]
    if samples and all(grids) and not (_NOT_GRID.search(spec) and not _GRID.search(spec)):
        return ShapeGuess(
            shape="matrix", reason="the samples are a header of dimensions followed by that many rows", cells=grids[0]
        )
    if not samples and _GRID.search(spec):
        return ShapeGuess(shape="matrix", reason="the input section describes a grid (no samples to check)")
    return ShapeGuess(shape="single", reason="one test per input: no test count, no grid")


@cache
def load_template(name: str) -> str:
    """The text of `templates/stdio/<name>`."""
    try:
        return resources.files("cpbot.templates").joinpath("stdio", name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RoleError(f"no STD-IO template {name!r}", hint="templates live in templates/stdio/") from None


def skeleton_for(problem: Problem, language: Language) -> StdioTemplate | None:
    """The skeleton for `problem` in `language`, or None when its kind (function problems) or its language
    family (one without `templates/stdio/` files) has none."""
    if not problem_kind(problem.kind).has_skeleton or not language_profile(language).skeleton_extension:
        return None
    return pick_template(problem, language)


def pick_template(problem: Problem, language: Language) -> StdioTemplate:
    """The skeleton for `problem` in `language`'s family (C++ or Python).

    Function problems (LeetCode) need no reading code: the judge's harness calls the method, so this
    raises `RoleError`; the coder starts from the problem's own code snippet instead."""
    kind = problem_kind(problem.kind)
    if not kind.has_skeleton:
        raise RoleError(
            f"{problem.id} is a {kind.name} problem: it has no standard input to template",
            hint="start from problem.code_snippets; the harness does the input and output",
        )
    profile = language_profile(language)
    if not profile.skeleton_extension:
        raise RoleError(f"no STD-IO skeletons for {profile.title}", hint="write the input and output code yourself")
    guess = classify_input(problem)
    name = kind.skeleton(guess.shape, profile.skeleton_extension) or ""
    notes: list[str] = []
    if guess.shape == "multi_block":
        notes.append("reset every per-case structure inside solve(); nothing may carry over between cases")
    if guess.cells is not None:
        notes.append(f"the sample rows are {'strings of characters' if guess.cells == 'chars' else 'numbers'}")
    interactive = kind.needs_interactor
    if interactive:
        notes.append(f"interactive: flush after every line; the cases look {guess.shape.replace('_', '-')}")
    return StdioTemplate(
        shape=guess.shape,
        family=profile.family,
        interactive=interactive,
        name=name,
        source=load_template(name),
        reason=guess.reason,
        notes=notes,
    )
