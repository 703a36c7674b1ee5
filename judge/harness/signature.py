"""A `Signature` checked and with its types parsed, as both drivers need it."""

from __future__ import annotations

import keyword
from dataclasses import dataclass

from cpbot.core.errors import JudgeError
from cpbot.judge.harness.types import LcType, parse_type
from cpbot.judge.model import Method, Signature


@dataclass(frozen=True)
class Call:
    """One method (or the constructor) with parsed parameter and return types."""

    name: str
    params: tuple[tuple[str, LcType], ...]
    ret: LcType


@dataclass(frozen=True)
class Parsed:
    """A checked signature: function problems have one method; design problems a constructor too."""

    kind: str
    class_name: str
    methods: tuple[Call, ...]
    constructor: Call | None

    @property
    def method(self) -> Call:
        """The one method of a function problem."""
        return self.methods[0]


def parse_signature(signature: Signature) -> Parsed:
    """Check names and parse every type; raise `JudgeError` naming the first problem found."""
    _identifier(signature.class_name, "class name")
    if not signature.methods:
        raise JudgeError(f"signature of {signature.class_name} has no methods")
    if signature.kind == "function" and len(signature.methods) != 1:
        names = ", ".join(m.name for m in signature.methods)
        raise JudgeError(f"a function problem has exactly one method, this signature has {names}")
    methods = tuple(_call(m, signature.class_name) for m in signature.methods)
    seen: set[str] = set()
    for m in methods:
        if m.name in seen:
            raise JudgeError(f"method {m.name} appears twice in the signature of {signature.class_name}")
        seen.add(m.name)
    constructor = None
    if signature.kind == "design":
        constructor = _call(signature.constructor or Method(name=signature.class_name), signature.class_name)
    return Parsed(signature.kind, signature.class_name, methods, constructor)


def _call(method: Method, class_name: str) -> Call:
    _identifier(method.name, f"method name in {class_name}")
    params = []
    for p in method.params:
        _identifier(p.name, f"parameter name of {method.name}")
        t = parse_type(p.type)
        if t.is_void:
            raise JudgeError(f"parameter {p.name} of {method.name} has type void")
        params.append((p.name, t))
    ret = parse_type(method.return_type) if method.return_type else LcType("void")
    return Call(method.name, tuple(params), ret)


def _identifier(name: str, what: str) -> None:
    if not name.isidentifier() or keyword.iskeyword(name) or not name.isascii():
        raise JudgeError(f"invalid {what} {name!r} in the signature")
