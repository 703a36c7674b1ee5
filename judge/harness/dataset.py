"""LeetCodeDataset rows as cpbot problems, tests and reference solutions.

A row (newfacade/LeetCodeDataset) has a Python `starter_code`, an `entry_point`
(`Solution().name`), a reference `completion`, and `input_output` cases whose inputs are keyword
lists of Python literals (`n = 7, queries = [[0,5]]`) and whose outputs are what the reference
returned: a Python repr, the bare text of a string result, `inf`, or the error the reference
raised (`Error: ...`, `Execution timed out`). Inputs become one LeetCode line per parameter and
outputs LeetCode values; cases that recorded an error or cannot be read are left out and counted.
"""

from __future__ import annotations

import ast
import gzip
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from cpbot.core import bounds, pyast
from cpbot.core.bounds import capped_lines
from cpbot.core.errors import ConfigError, JudgeError, first_problem
from cpbot.core.registry import Family
from cpbot.judge.harness.types import LcType, parse_type
from cpbot.judge.harness.values import BadValue, format_value
from cpbot.judge.languages import SNIPPET_KEYS
from cpbot.judge.model import Method, Param, Problem, Signature, Solution, TestCase

DATASET_FILE = "LeetCodeDataset-v0.3.1-test.jsonl.gz"
_INT32 = (-(2**31), 2**31 - 1)


class DatasetItem(BaseModel):
    """One dataset problem: the problem, its usable tests, the reference, and what was left out."""

    model_config = ConfigDict(extra="forbid")

    problem: Problem
    tests: list[TestCase]
    reference: Solution
    skipped: dict[str, int] = {}


def dataset_path(datasets: Path) -> Path:
    """Where the dataset file sits in a folder of datasets (`<datasets>/leetcode/<file>`).

    The repository keeps one such folder for its tests, `tests/fixtures/datasets/`."""
    return datasets / "leetcode" / DATASET_FILE


def iter_rows(path: Path) -> Iterator[dict[str, Any]]:
    """The raw rows of a `.jsonl` or `.jsonl.gz` file."""
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rb") as f:
            for line in capped_lines(f, str(path)):
                if line.strip():
                    yield bounds.loads(line, str(path))
    except (OSError, EOFError, json.JSONDecodeError, UnicodeDecodeError) as e:  # gzip.BadGzipFile is an OSError
        raise ConfigError(f"cannot read {path}: {e}", hint="a dataset file is JSON lines, maybe gzipped") from None


def load_dataset(path: Path) -> list[DatasetItem]:
    """Every row of the dataset as a `DatasetItem`."""
    return [item_from_row(row) for row in iter_rows(path)]


class DatasetCase(BaseModel):
    input: str
    output: str


class DatasetRow(BaseModel):
    """The fields of a row cpbot reads, checked once where the row enters (others are ignored)."""

    model_config = ConfigDict(extra="ignore")

    task_id: str
    starter_code: str
    completion: str
    input_output: list[DatasetCase]
    problem_description: str = ""
    tags: list[str] | None = None
    difficulty: str | None = None


def dataset_row(row: Any, where: str = "a LeetCodeDataset row") -> DatasetRow:
    """A row of the dataset checked for the fields cpbot reads; a ConfigError naming the first one wrong."""
    if isinstance(row, DatasetRow):
        return row
    try:
        return DatasetRow.model_validate(row)
    except ValidationError as e:
        task = row.get("task_id") if isinstance(row, dict) else None
        raise ConfigError(
            f"{where}{f' {task}' if isinstance(task, str) else ''}: {first_problem(e)}",
            hint="is this a LeetCodeDataset file (newfacade/LeetCodeDataset)?",
        ) from None


def item_from_row(raw: dict[str, Any] | DatasetRow) -> DatasetItem:
    """Turn one row into a function `Problem`, its tests in LeetCode format, and the reference."""
    row = dataset_row(raw)
    name, params, ret = starter_signature(row.starter_code, row.task_id)
    skipped: dict[str, int] = {}
    cases: list[tuple[list[Any], Any]] = []
    for case in row.input_output:
        reason = _recorded_failure(case.output, ret)
        args = None if reason else _read_input(case.input, [p for p, _ in params])
        if reason is None and args is None:
            reason = "unreadable input"
        if reason is None and not all(fits_type(a, t) for a, (_, t) in zip(args, params, strict=True)):
            reason = "input does not match the signature"
        expected = None if reason else _read_output(case.output, ret)
        if reason is None and expected is _UNREADABLE:
            reason = "unreadable output"
        if reason:
            skipped[reason] = skipped.get(reason, 0) + 1
        else:
            cases.append((args, expected))
    # Python's int is unbounded: a parameter whose values leave the 32-bit range is a `long`.
    params = [(p, widen_to_long(t, [args[i] for args, _ in cases])) for i, (p, t) in enumerate(params)]
    ret = widen_to_long(ret, [expected for _, expected in cases])
    tests = []
    for n, (args, expected) in enumerate(cases):
        try:
            lines = [format_value(a, t) for a, (_, t) in zip(args, params, strict=True)]
            output = format_value(expected, ret)
        except BadValue:
            skipped["unprintable value"] = skipped.get("unprintable value", 0) + 1
            continue
        tests.append(TestCase(input="\n".join(lines) + "\n", output=output + "\n", name=f"case {n + 1}"))
    signature = Signature(
        kind="function",
        methods=[Method(name=name, params=[Param(name=p, type=str(t)) for p, t in params], return_type=str(ret))],
    )
    problem = Problem(
        id=f"leetcode:{row.task_id}",
        site="leetcode",
        url=f"https://leetcode.com/problems/{row.task_id}/",
        title=row.task_id.replace("-", " ").title(),
        statement=row.problem_description,
        kind="function",
        signature=signature,
        tags=list(row.tags or []),
        difficulty=row.difficulty,
        code_snippets={SNIPPET_KEYS[Family.PYTHON]: row.starter_code},
    )
    reference = Solution(language="python3", source=row.completion)
    return DatasetItem(problem=problem, tests=tests, reference=reference, skipped=skipped)


def starter_signature(starter: str, task: str) -> tuple[str, list[tuple[str, LcType]], LcType]:
    """The method name, typed parameters and return type of `class Solution` in the starter code."""
    try:
        tree = pyast.parse(starter.rstrip() + "\n        pass\n")
    except SyntaxError as e:
        raise JudgeError(f"{task}: starter code does not parse: {e}") from None
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Solution"]
    methods = [n for c in classes for n in c.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]
    if len(methods) != 1:
        raise JudgeError(f"{task}: expected one method in class Solution, found {len(methods)}")
    fn = methods[0]
    params = []
    for a in fn.args.args[1:]:
        if a.annotation is None:
            raise JudgeError(f"{task}: parameter {a.arg} has no type annotation")
        params.append((a.arg, parse_type(ast.unparse(a.annotation))))
    ret = parse_type(ast.unparse(fn.returns)) if fn.returns is not None else LcType("void")
    return fn.name, params, ret


def _recorded_failure(output: str, ret: LcType) -> str | None:
    """Why a case's recorded output is not an answer (the reference failed on it), or None."""
    if output.startswith("Error: ") or output == "Error":
        return "reference raised an error"
    if output == "Execution timed out":
        return "reference timed out"
    return None


_UNREADABLE = object()


def _read_input(text: str, names: list[str]) -> list[Any] | None:
    """The arguments in parameter order from `a = 1, b = [2,3]`, or None when unreadable."""
    try:
        call = pyast.parse(f"f({text})", mode="eval").body
        assert isinstance(call, ast.Call)
        if call.args:
            return None
        values = {k.arg: _literal(k.value) for k in call.keywords}
    except (SyntaxError, ValueError, AssertionError, TypeError):
        return None
    if sorted(values) != sorted(names):
        return None
    return [values[n] for n in names]


def _read_output(text: str, ret: LcType) -> Any:
    """The expected value: a string result is recorded bare, everything else as a Python repr."""
    if ret.kind == "string":
        return text
    try:
        return _literal(pyast.parse(text.strip(), mode="eval").body)
    except (SyntaxError, ValueError, TypeError):
        return _UNREADABLE


# A reference may return float('inf'); some recorded inputs are written in JSON (`null`).
_NAMED = {"inf": math.inf, "nan": math.nan, "null": None, "true": True, "false": False}


def _literal(node: ast.AST) -> Any:
    """`ast.literal_eval` that also knows `inf`, `nan` and JSON's `null`, `true`, `false`."""
    if isinstance(node, ast.Name) and node.id in _NAMED:
        return _NAMED[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Name):
        return -_literal(node.operand)
    if isinstance(node, ast.List | ast.Tuple):
        return [_literal(e) for e in node.elts]
    return ast.literal_eval(node)


def fits_type(value: Any, t: LcType) -> bool:
    """Whether a Python value is a valid argument of type `t` (some recorded inputs are not)."""
    kind = t.kind
    if kind == "array":
        assert t.elem is not None
        return isinstance(value, list) and all(fits_type(v, t.elem) for v in value)
    if kind in ("TreeNode", "ListNode"):
        allowed = (int, type(None)) if kind == "TreeNode" else (int,)
        if not isinstance(value, list) or not all(isinstance(v, allowed) and not isinstance(v, bool) for v in value):
            return False
        return kind == "ListNode" or _level_order_ok(value)
    if isinstance(value, bool):
        return kind == "boolean"
    checks = {
        "integer": lambda v: isinstance(v, int),
        "long": lambda v: isinstance(v, int),
        "double": lambda v: isinstance(v, int | float),
        "string": lambda v: isinstance(v, str),
        "character": lambda v: isinstance(v, str) and len(v) == 1,
    }
    return kind in checks and checks[kind](value)


def _level_order_ok(values: list[int | None]) -> bool:
    """Whether every non-null value of a level-order tree has a parent (trailing nulls may not)."""
    if not values or values[0] is None:
        return all(v is None for v in values)
    nodes, parents_used, i = 1, 0, 1
    while i < len(values):
        if parents_used == nodes:
            return all(v is None for v in values[i:])
        parents_used += 1
        for v in values[i : i + 2]:
            nodes += v is not None
        i += 2
    return True


def widen_to_long(t: LcType, values: list[Any]) -> LcType:
    """`long` instead of `integer` when some value does not fit in 32 bits."""
    if t.base().kind != "integer":
        return t
    return t.with_base("long") if any(_too_big(v) for v in values) else t


def _too_big(value: Any) -> bool:
    if isinstance(value, list):
        return any(_too_big(v) for v in value)
    return isinstance(value, int) and not isinstance(value, bool) and not _INT32[0] <= value <= _INT32[1]
