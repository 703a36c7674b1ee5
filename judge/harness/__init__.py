"""The LeetCode harness: function and design-class problems judged like stdio programs.

`build_program` wraps a solution (Python or C++) in a driver that reads one test case in
LeetCode's text format from stdin and prints the judged value; `HarnessChecker` (or
`checker_for(problem)`) compares that value with the expected answer the way LeetCode does.
"""

from __future__ import annotations

import importlib

from cpbot.core.errors import JudgeError
from cpbot.judge.harness.checker import (
    SPECIAL_JUDGE_PREFIX,
    HarnessChecker,
    HarnessCheckResult,
    accepts_any_order,
    checker_for,
    needs_special_judge,
)
from cpbot.judge.harness.signature import parse_signature
from cpbot.judge.harness.types import LcType, parse_type
from cpbot.judge.languages import language_profile
from cpbot.judge.model import Signature, Solution

__all__ = [
    "SPECIAL_JUDGE_PREFIX",
    "HarnessCheckResult",
    "HarnessChecker",
    "LcType",
    "accepts_any_order",
    "build_program",
    "checker_for",
    "needs_special_judge",
    "parse_type",
]


def build_program(solution: Solution, signature: Signature) -> Solution:
    """A complete program in the solution's language that runs it on one LeetCode test case.

    The program reads the test from stdin (one line per parameter; design problems: the
    operations line, then the arguments line) and prints the judged value on stdout. Raises
    `JudgeError` naming the type for an unsupported type in the signature.
    """
    parsed = parse_signature(signature)
    driver = language_profile(solution.language).harness_driver
    if not driver:
        raise JudgeError(f"the LeetCode harness does not support {solution.language}")
    source = importlib.import_module(driver).build(solution.source, parsed)
    return Solution(language=solution.language, source=source)
