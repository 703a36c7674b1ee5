"""`ast.parse` safe to call from several threads.

CPython 3.11 keeps the AST constructor's recursion depth in state shared between threads, so two threads
parsing at once can fail with "SystemError: AST constructor recursion depth mismatch" (CPython issue
gh-106905). The bench and the contest loop solve problems on threads, and both build LeetCode harnesses
that parse Python, so every parse goes through one lock (parses are small: the lock costs nothing).
"""

from __future__ import annotations

import ast
import threading
from typing import Literal

_LOCK = threading.Lock()


def parse(source: str, mode: Literal["exec", "eval"] = "exec") -> ast.AST:
    """`ast.parse(source, mode=mode)`, one thread at a time."""
    with _LOCK:
        return ast.parse(source, mode=mode)
