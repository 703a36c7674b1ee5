"""The Python driver: the solution's source, unchanged, inside a program that calls it LeetCode's way.

The generated program keeps the source verbatim in a string and compiles it as `solution.py`, so
tracebacks keep the solution's line numbers, a `__main__` block in it does not run, and the
driver's own names cannot clash with the solution's. A source that does not compile is returned
as it is: the run then fails exactly as the solution itself would.

Python compiles a script on every run, so the driver is kept small: sections the signature does
not need (node building, design calls) are left out and comments and docstrings are stripped.
"""

from __future__ import annotations
import __future__

import ast
import re
from functools import cache, lru_cache

from cpbot.core import pyast
from cpbot.judge.harness.signature import Call, Parsed
from cpbot.judge.harness.templates import fill, template
from cpbot.judge.harness.types import LcType

# Names that need the sortedcontainers stand-in (LeetCode's Python has the real package).
_SORTED_NAMES = re.compile(r"\bSorted(?:List|KeyList|Set|Dict)\b|\bsortedcontainers\b")
_SECTION = re.compile(r"^#@section (\w+)\n(.*?)^#@end \1\n", re.S | re.M)


@lru_cache(maxsize=256)
def build(source: str, parsed: Parsed) -> str:
    """A complete Python program that runs `source` on one LeetCode test case from stdin. Kept for the
    last programs built: a grading builds each one twice (its syntax checked ahead, then judged), and
    building compiles the source."""
    try:
        compile(source, "solution.py", "exec", __future__.annotations.compiler_flag, True)
    except (SyntaxError, ValueError):
        return source
    sections = {"design"} if parsed.kind == "design" else set()
    if any(t.base().kind in ("TreeNode", "ListNode") for t in _all_types(parsed)):
        sections.add("nodes")
    sorted_source = template("sortedcontainers.py.tmpl") if _SORTED_NAMES.search(source) else None
    return fill(
        _driver(frozenset(sections)),
        quoted=True,
        signature=repr(_spec(parsed)),
        source=repr(source),
        sorted_source=repr(sorted_source),
    )


@cache
def _driver(sections: frozenset[str]) -> str:
    """The driver template with only the wanted sections, comments and docstrings removed."""
    return "".join(_driver_parts(sections))


@cache
def _driver_parts(sections: frozenset[str]) -> tuple[str, str]:
    """The driver in two: all that is the same for every program, then the wanted sections, the assignments
    of the markers (the program's own values) and the call of `_main`. The first is the warm interpreter's
    prelude (`python_preludes`), which runs it once instead of every test compiling it (400 lines, 3-6 ms)."""
    header, body = template("python_driver.py.tmpl").split("#@end-header\n", 1)
    common = _stripped(_SECTION.sub("", body))
    wanted = _stripped("".join(m.group(2) for m in _SECTION.finditer(body) if m.group(1) in sections))
    *fixed, main = common.body
    marked = [node for node in fixed if "@@" in ast.unparse(node)]
    fixed = [node for node in fixed if node not in marked]
    tail = ast.Module(body=[*wanted.body, *marked, main], type_ignores=[])
    return header + ast.unparse(ast.Module(body=fixed, type_ignores=[])) + "\n", ast.unparse(tail) + "\n"


def _stripped(source: str) -> ast.Module:
    """The module without its docstrings (comments go with the parse)."""
    tree = pyast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and _has_docstring(node):
            node.body = node.body[1:] or [ast.Pass()]
    return tree


def python_preludes() -> list[str]:
    """The part of the driver that is the same for every program (WarmPython.preludes)."""
    return [_driver_parts(frozenset())[0]]


def _has_docstring(node: ast.Module | ast.ClassDef | ast.FunctionDef) -> bool:
    first = node.body[0] if node.body else None
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)


def _all_types(parsed: Parsed) -> list[LcType]:
    calls = [*parsed.methods, *([parsed.constructor] if parsed.constructor else [])]
    return [t for c in calls for t in (c.ret, *(t for _, t in c.params))]


def _spec(parsed: Parsed) -> dict:
    """The signature as plain literals the driver reads: types become nested tuples."""
    return {
        "kind": parsed.kind,
        "class": parsed.class_name,
        "methods": [_method(m) for m in parsed.methods],
        "constructor": _params(parsed.constructor) if parsed.constructor else [],
    }


def _method(call: Call) -> tuple:
    return (call.name, _params(call), _type(call.ret))


def _params(call: Call) -> list[tuple[str, tuple]]:
    return [(name, _type(t)) for name, t in call.params]


def _type(t: LcType) -> tuple:
    return ("array", _type(t.elem)) if t.elem is not None else (t.kind,)
