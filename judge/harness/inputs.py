"""Test inputs checked against a signature in the judge's own process, before any program runs.

The drivers read the same text and stop on a malformed test, but what a program prints is the
program's: a solution can print the drivers' "bad input" line itself (C++ static initialisers run
before `main`), so the judge never takes a malformed test from a program's output. It checks each
input here instead, in the drivers' words ("line 2 (parameter b: integer): expected an integer, got
[2]"), as strictly as the driver of the solution's language: C++ integers must fit their type and a
C++ character is one byte.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from cpbot.judge.harness.signature import Call, Parsed
from cpbot.judge.harness.types import LcType

_RANGES = {"integer": (-(2**31), 2**31 - 1, "an integer"), "long": (-(2**63), 2**63 - 1, "a long")}
_SCALARS: dict[str, tuple[Callable[[Any, bool], bool], str]] = {
    "double": (lambda v, fixed_width: _is_int(v) or isinstance(v, float), "a number"),
    "boolean": (lambda v, fixed_width: isinstance(v, bool), "true or false"),
    "string": (lambda v, fixed_width: isinstance(v, str), "a string"),
    # a fixed-width driver (C++) reads a character as one byte of UTF-8
    "character": (
        lambda v, fixed_width: (
            isinstance(v, str) and len(v.encode("utf-8", "surrogatepass") if fixed_width else v) == 1
        ),
        "one character",
    ),
}
_DECODER = json.JSONDecoder(strict=False)  # the drivers take control characters inside strings as they are


class _Bad(ValueError):
    """Why a value does not fit; `path` is where inside it ([3][0])."""

    def __init__(self, message: str, path: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.path = path


def input_problem(text: str, parsed: Parsed, *, fixed_width: bool) -> str | None:
    """Why `text` is not one test of this signature for a driver (C++ when `fixed_width`), or None when it is."""
    try:
        if parsed.kind == "design":
            _check_design(text, parsed, fixed_width)
        else:
            _check_function(text, parsed.method, fixed_width)
    except _Bad as e:
        return str(e)
    return None


def _lines(text: str, count: int, what: str) -> list[str]:
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) != count:
        raise _Bad(f"input: expected {count} line{'s' if count != 1 else ''} ({what}), got {len(lines)}")
    return lines


def _check_function(text: str, method: Call, fixed_width: bool) -> None:
    names = ", ".join(name for name, _ in method.params)
    lines = _lines(text, len(method.params), f"one per parameter: {names}" if method.params else "no parameters")
    for i, (name, t) in enumerate(method.params):
        where = f"line {i + 1} (parameter {name}: {t})"
        _located(where, lambda line=lines[i], t=t: _fits(t, _parse(line), fixed_width))


def _check_design(text: str, parsed: Parsed, fixed_width: bool) -> None:
    ops_line, args_line = _lines(text, 2, "the operations, then their arguments")
    ops = _located("line 1 (operations)", lambda: _parse(ops_line))
    _located("line 1 (operations)", lambda: _fits(LcType("array", LcType("string")), ops, fixed_width))
    args = _located("line 2 (arguments)", lambda: _parse(args_line))
    if not isinstance(args, list):
        raise _Bad(f"line 2 (arguments): expected an array, got {_brief(args)}")
    for i, item in enumerate(args):
        if not isinstance(item, list):
            raise _Bad(f"line 2 (arguments), element [{i}]: expected an array of arguments")
    if len(ops) != len(args):
        raise _Bad(f"line 2 (arguments): has {len(args)} argument lists for {len(ops)} operations")
    if not ops or ops[0] != parsed.class_name:
        raise _Bad(
            f"line 1 (operations): the first operation must be {parsed.class_name}, got {ops[0] if ops else 'nothing'}"
        )
    methods = {m.name: m for m in parsed.methods}
    for i, (op, values) in enumerate(zip(ops, args, strict=True)):
        call = parsed.constructor if i == 0 else methods.get(op)
        if call is None:
            known = ", ".join(methods) or "none"
            raise _Bad(f"line 1 (operations), element [{i}]: unknown method {op} (the class has: {known})")
        if len(values) != len(call.params):
            raise _Bad(
                f"line 2 (arguments), operation {i} ({op}): takes {len(call.params)} arguments, got {len(values)}"
            )
        for j, ((name, t), value) in enumerate(zip(call.params, values, strict=True)):
            where = f"line 2 (argument {name} of {op}: {t})"
            _located(where, lambda t=t, value=value: _fits(t, value, fixed_width), prefix=(i, j))


def _located(where: str, check: Any, prefix: tuple[int, ...] = ()) -> Any:
    """Run `check`; a `_Bad` it raises is re-raised with `where` and the element path in front."""
    try:
        return check()
    except _Bad as e:
        path = prefix + e.path
        at = ", element " + "".join(f"[{i}]" for i in path) if path else ""
        raise _Bad(f"{where}{at}: {e}") from None


def _parse(line: str) -> Any:
    """One value from one line: JSON, with Infinity, -Infinity and NaN."""
    s = line.strip()
    if not s:
        raise _Bad("the line is empty")
    try:
        value, end = _DECODER.raw_decode(s)
    except json.JSONDecodeError as e:
        raise _Bad(f"{e.msg} (column {e.colno}): ...{s[max(0, e.pos - 20) : e.pos + 20]}...") from None
    if end != len(s):
        raise _Bad(f"unexpected {_clip(s[end:].strip())!r} after the value")
    return value


def _fits(t: LcType, v: Any, fixed_width: bool) -> None:
    """Raise `_Bad` (with the path inside `v`) unless `v` is a value of type `t` for the driver."""
    kind = t.kind
    if kind == "array" or kind in ("ListNode", "TreeNode"):
        if not isinstance(v, list):
            raise _Bad(f"expected an array, got {_brief(v)}")
        if kind == "array":
            assert t.elem is not None
            for i, x in enumerate(v):
                _at(i, lambda x=x: _fits(t.elem, x, fixed_width))
            return
        for i, x in enumerate(v):
            if not (x is None and kind == "TreeNode"):
                _at(i, lambda x=x: _fits(LcType("integer"), x, fixed_width))
        if kind == "TreeNode":
            _level_order(v)
        return
    if kind in _RANGES:
        lo, hi, what = _RANGES[kind]
        if not _is_int(v):
            raise _Bad(f"expected {what if fixed_width else 'an integer'}, got {_brief(v)}")
        if fixed_width and not lo <= v <= hi:
            raise _Bad(f"{v} does not fit in {what}")
    elif kind in _SCALARS:
        fits, what = _SCALARS[kind]
        if not fits(v, fixed_width):
            raise _Bad(f"expected {what}, got {_brief(v)}")


def _at(i: int, check: Any) -> None:
    try:
        check()
    except _Bad as e:
        raise _Bad(str(e), (i, *e.path)) from None


def _level_order(values: list) -> None:
    """A tree in level order: no value after the last node that could be its parent."""
    if not values or values[0] is None:
        return
    open_slots, i = 2, 1  # children the nodes so far can still take
    while i < len(values):
        if open_slots == 0:
            orphan = next((j for j in range(i, len(values)) if values[j] is not None), None)
            if orphan is None:
                return
            raise _Bad(f"value {values[orphan]} at position {orphan} has no parent in level order")
        open_slots -= 1
        if values[i] is not None:
            open_slots += 2
        i += 1


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _brief(v: Any) -> str:
    if isinstance(v, float) and not math.isfinite(v):
        text = "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    else:
        text = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    return _clip(text)


def _clip(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."
