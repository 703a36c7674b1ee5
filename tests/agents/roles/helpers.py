"""Helpers of the role tests: real problems from the recorded fixtures, small hand-made ones, replies."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from cpbot.judge.model import Limits, Problem, TestCase
from tests.paths import FIXTURES

GYM = "cf_gym245042_complete_problems_page.html"


@cache
def _codeforces_page(name: str) -> tuple[Problem, ...]:
    from cpbot.scrapers.codeforces.parse import parse_problems

    return tuple(parse_problems((FIXTURES / "codeforces" / name).read_bytes()))


def codeforces(name: str, title: str | None = None) -> Problem:
    """A problem parsed from a recorded Codeforces page (by title when the page holds several)."""
    problems = _codeforces_page(name if name.endswith(".html") else f"{name}.html")
    if title is None:
        assert len(problems) == 1, f"{name} holds {len(problems)} problems: pass a title"
        return problems[0]
    return next(p for p in problems if p.title == title)


def leetcode(name: str) -> Problem:
    """A problem parsed from a recorded LeetCode answer."""
    from cpbot.scrapers.leetcode.parse import parse_question

    return parse_question((FIXTURES / "leetcode" / f"{name}.json").read_bytes())


def sum_problem(**changes: Any) -> Problem:
    """A tiny stdio problem: print a + b."""
    fields: dict[str, Any] = {
        "id": "local:sum",
        "title": "Sum",
        "statement": "Print the sum of two integers.",
        "input_spec": "One line with two integers $a$ and $b$ ($1 \\le a, b \\le 10^9$).",
        "output_spec": "Print $a + b$.",
        "limits": Limits(time_ms=1000, memory_mb=256),
        "samples": [TestCase(input="1 2\n", output="3\n"), TestCase(input="10 20\n", output="30\n")],
    }
    fields.update(changes)
    return Problem(**fields)


def as_json(value: Any) -> str:
    return json.dumps(value)


def sent_text(request: Any) -> str:
    """Everything a recorded request sent in its messages, as one string."""
    return "\n".join(str(m.get("content") or "") for m in request.body["messages"])
