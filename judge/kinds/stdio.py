"""A standard input/output problem (Codeforces, AtCoder): the program reads a test and prints the answer."""

from cpbot.judge.kinds.base import ProblemKind

KIND = ProblemKind(name="stdio")
