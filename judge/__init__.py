"""The judge: the domain model and everything that decides whether a solution is right and fast."""

from cpbot.core.errors import CpbotError, JudgeError
from cpbot.judge.model import (
    Diff,
    JudgeReport,
    Limits,
    Method,
    Param,
    Problem,
    ProfilePoint,
    ProfileReport,
    Signature,
    Solution,
    TestCase,
    TestResult,
    Verdict,
)

__all__ = [
    "CpbotError",
    "Diff",
    "JudgeError",
    "JudgeReport",
    "Limits",
    "Method",
    "Param",
    "Problem",
    "ProfilePoint",
    "ProfileReport",
    "Signature",
    "Solution",
    "TestCase",
    "TestResult",
    "Verdict",
]
