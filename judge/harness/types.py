"""The type grammar of LeetCode signatures.

A signature names its types the way LeetCode's metaData does (`integer`, `integer[]`,
`list<list<integer>>`, `TreeNode`, `void`...). Python starter code spells the same types as
annotations (`int`, `List[List[int]]`, `Optional[TreeNode]`), so both spellings are accepted and
parsed into one small tree, `LcType`, that the drivers and the dataset loader work from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from cpbot.core.errors import JudgeError

Kind = Literal["integer", "long", "double", "boolean", "string", "character", "void", "TreeNode", "ListNode", "array"]

SCALAR_KINDS: tuple[Kind, ...] = ("integer", "long", "double", "boolean", "string", "character")

# Every accepted spelling of a non-composite type, lower-cased (node names keep their case below).
_NAMES: dict[str, Kind] = {
    "integer": "integer",
    "int": "integer",
    "long": "long",
    "double": "double",
    "float": "double",
    "boolean": "boolean",
    "bool": "boolean",
    "string": "string",
    "str": "string",
    "character": "character",
    "char": "character",
    "void": "void",
    "none": "void",
    "treenode": "TreeNode",
    "listnode": "ListNode",
}

SUPPORTED = (
    "integer, long, double, boolean, string, character, void, TreeNode, ListNode, "
    "X[] and list<X> of these (Python spellings int, float, bool, str, List[X], Optional[X] too)"
)


@dataclass(frozen=True)
class LcType:
    """One parsed type: a scalar, a node type, `void`, or an array of `elem`."""

    kind: Kind
    elem: LcType | None = None

    def __str__(self) -> str:
        if self.kind == "array":
            return f"{self.elem}[]"
        return self.kind

    @property
    def is_void(self) -> bool:
        return self.kind == "void"

    def base(self) -> LcType:
        """The innermost element type (the type itself when it is not an array)."""
        t = self
        while t.elem is not None:
            t = t.elem
        return t

    def with_base(self, kind: Kind) -> LcType:
        """The same shape of arrays around a different innermost type."""
        if self.elem is None:
            return LcType(kind)
        return LcType("array", self.elem.with_base(kind))


_TOKEN = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_.]*|\[\]|[\[\]<>,])")


@lru_cache(maxsize=1024)
def parse_type(text: str) -> LcType:
    """Parse a LeetCode or Python type name; raise `JudgeError` naming the type when unsupported. Kept: a
    problem's few types are parsed again for every program and test of it (an `LcType` never changes)."""
    tokens = _tokenize(text)
    try:
        parsed, rest = _parse(tokens, text)
    except IndexError:
        raise _unsupported(text, "it ends too early") from None
    if rest:
        raise _unsupported(text, f"unexpected {''.join(rest)!r} after the type")
    if parsed.kind == "array" and parsed.base().is_void:
        raise _unsupported(text, "an array of void")
    return parsed


def _tokenize(text: str) -> list[str]:
    tokens: list[str] = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        m = _TOKEN.match(stripped, pos)
        if not m:
            raise _unsupported(text, f"unexpected character {stripped[pos:].strip()[:1]!r}")
        tokens.append(m.group(1))
        pos = m.end()
    if not tokens:
        raise _unsupported(text, "it is empty")
    return tokens


def _parse(tokens: list[str], text: str) -> tuple[LcType, list[str]]:
    head, rest = tokens[0], tokens[1:]
    name = head.rsplit(".", 1)[-1]  # typing.List, collections.abc.Sequence...
    lower = name.lower()
    if lower in ("list", "sequence", "optional") and rest and rest[0] in ("<", "["):
        close = ">" if rest[0] == "<" else "]"
        inner, rest = _parse(rest[1:], text)
        if not rest or rest[0] != close:
            raise _unsupported(text, f"missing {close!r}")
        rest = rest[1:]
        parsed = inner if lower == "optional" else LcType("array", inner)
    elif lower in _NAMES:
        parsed = LcType(_NAMES[lower])
    else:
        raise _unsupported(text, f"unknown type name {name!r}")
    while rest and rest[0] == "[]":
        parsed, rest = LcType("array", parsed), rest[1:]
    return parsed, rest


def _unsupported(text: str, why: str) -> JudgeError:
    return JudgeError(
        f"unsupported type {text!r} in the signature: {why}",
        hint=f"the LeetCode harness supports {SUPPORTED}",
    )
