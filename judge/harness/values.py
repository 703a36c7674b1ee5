"""LeetCode values on the judge's side: parse their text, print Python values, compare two of them.

LeetCode writes values as JSON: `5`, `2.50000`, `true`, `"abc"`, `[1,null,2]`, `[[1,2],[3]]`. The
drivers print doubles at full precision and infinities as `Infinity`/`-Infinity`, which `json`
reads. Comparison is structural: integers, strings, booleans and null exactly, numbers that are
not both integers within a tolerance, lists element by element (or as multisets when the problem
accepts any order).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from cpbot.judge.harness.types import LcType

FLOAT_TOLERANCE = 1e-5


class BadValue(ValueError):
    """Text that is not one LeetCode value; the message says where it stops making sense."""


def parse_value(text: str) -> Any:
    """Parse one LeetCode value (JSON; `Infinity`, `-Infinity` and `NaN` allowed)."""
    stripped = text.strip()
    if not stripped:
        raise BadValue("empty text where a value was expected")
    try:
        return json.loads(stripped)
    except json.JSONDecodeError as e:
        snippet = stripped[max(0, e.pos - 20) : e.pos + 20]
        raise BadValue(f"{e.msg} at column {e.colno}: ...{snippet}...") from None


def format_value(value: Any, typ: LcType | None = None) -> str:
    """Print a Python value (lists, None, bool, int, float, str) in LeetCode's text form.

    With `typ`, strings of a `character` type are checked to be one character and integers of a
    `double` type stay integers (the comparison tolerates it); tree and list values are given as
    their array forms (level order with nulls; values in order).
    """
    if typ is not None and typ.base().kind == "character":
        _check_chars(value)
    return _dump(value)


def _check_chars(value: Any) -> None:
    if isinstance(value, list):
        for item in value:
            _check_chars(item)
    elif value is not None and not (isinstance(value, str) and len(value) == 1):
        raise BadValue(f"{value!r} is not a single character")


def _dump(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        if math.isnan(value):
            return "NaN"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ",".join(_dump(v) for v in value) + "]"
    raise BadValue(f"{type(value).__name__} {value!r} is not a LeetCode value")


@dataclass(frozen=True)
class Mismatch:
    """Where two values first differ: `path` like `[3][0]` (empty for the whole value) and why."""

    path: str
    expected: str
    got: str
    reason: str
    index: int | None = None  # the top-level list index, when the values are lists

    def describe(self) -> str:
        where = f"at {self.path}: " if self.path else ""
        return f"{where}{self.reason}: expected {self.expected}, got {self.got}"


def compare(expected: Any, got: Any, *, any_order: bool = False, tol: float = FLOAT_TOLERANCE) -> Mismatch | None:
    """The first difference between two parsed values, or None when they are equal.

    `any_order` compares two top-level lists as multisets (the order of the outer list is free,
    the order inside each element is not).
    """
    if any_order and isinstance(expected, list) and isinstance(got, list):
        return _compare_multiset(expected, got, tol)
    return _compare(expected, got, "", tol, None)


def _compare(expected: Any, got: Any, path: str, tol: float, index: int | None) -> Mismatch | None:
    if isinstance(expected, list) and isinstance(got, list):
        for i, (e, g) in enumerate(zip(expected, got, strict=False)):
            found = _compare(e, g, f"{path}[{i}]", tol, i if index is None else index)
            if found:
                return found
        if len(expected) != len(got):
            i = min(len(expected), len(got))
            return Mismatch(
                path,
                f"{len(expected)} elements",
                f"{len(got)} elements",
                "different length",
                i if index is None else index,
            )
        return None
    if _same_scalar(expected, got, tol):
        return None
    return Mismatch(path, _short(expected), _short(got), _reason(expected, got), index)


def _same_scalar(expected: Any, got: Any, tol: float) -> bool:
    if isinstance(expected, bool) or isinstance(got, bool) or expected is None or got is None:
        return expected is got
    if isinstance(expected, int) and isinstance(got, int):
        return expected == got
    if isinstance(expected, int | float) and isinstance(got, int | float):
        return _close(float(expected), float(got), tol)
    if isinstance(expected, str) and isinstance(got, str):
        return expected == got
    return False


def _close(expected: float, got: float, tol: float) -> bool:
    if math.isnan(expected) or math.isnan(got):
        return False
    if expected == got:  # also equal infinities
        return True
    diff = abs(expected - got)
    return diff <= tol or diff <= tol * abs(expected)


def _reason(expected: Any, got: Any) -> str:
    if _kind(expected) != _kind(got):
        return f"expected a {_kind(expected)}, got a {_kind(got)}"
    return "different value"


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    return type(value).__name__


def deep_sorted(value: Any) -> Any:
    """The value with every list, at every depth, in a canonical order (for order-free matching)."""
    if isinstance(value, list):
        return sorted((deep_sorted(v) for v in value), key=_order_key)
    return value


def _compare_multiset(expected: list, got: list, tol: float) -> Mismatch | None:
    if len(expected) != len(got):
        return Mismatch("", f"{len(expected)} elements", f"{len(got)} elements", "different length (any order)")
    ordered_expected = sorted(expected, key=_order_key)
    ordered_got = sorted(got, key=_order_key)
    for e, g in zip(ordered_expected, ordered_got, strict=True):
        if _compare(e, g, "", tol, None):
            missing = next((x for x in ordered_expected if not _contains(ordered_got, x, tol)), e)
            return Mismatch("", _short(missing), "no such element", "element missing (any order)")
    return None


def _contains(items: list, value: Any, tol: float) -> bool:
    return any(_compare(value, item, "", tol, None) is None for item in items)


def _order_key(value: Any) -> tuple:
    """A total order over LeetCode values, so two equal multisets sort alike."""
    if value is None:
        return (0,)
    if isinstance(value, bool):
        return (1, value)
    if isinstance(value, int | float):
        return (2, float(value))
    if isinstance(value, str):
        return (3, value)
    if isinstance(value, list):
        return (4, tuple(_order_key(v) for v in value))
    return (5, repr(value))


def _short(value: Any, limit: int = 80) -> str:
    text = _dump(value) if isinstance(value, list | int | float | str | type(None)) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
