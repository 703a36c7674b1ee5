"""One model of a problem package, whatever format it came in (Kattis, Polygon, Library Checker): its tests, its
validators, its submissions with the verdicts they are meant to get, and the limits the format's rules set."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cpbot.judge.model import Language

SCHEMA_VERSION = 1


class Expected(StrEnum):
    """What a submission of the package is meant to get (Kattis's folder names)."""

    ACCEPTED = "accepted"
    WRONG_ANSWER = "wrong_answer"
    TIME_LIMIT_EXCEEDED = "time_limit_exceeded"
    RUN_TIME_ERROR = "run_time_error"
    PARTIALLY_ACCEPTED = "partially_accepted"
    REJECTED = "rejected"  # Polygon's tag: any verdict but AC


class PackageTest(BaseModel):
    """One test: input and answer files, its group (`sample`, `secret/group1`, ...)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str  # the path under data/ without extension: "secret/group1/03"
    input: Path
    answer: Path | None
    sample: bool


class GeneratedTest(BaseModel):
    """A test the package makes rather than holds: `generator args` prints its input (Library Checker, Polygon)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    generator: Path
    args: list[str]


class PackageSubmission(BaseModel):
    """A program of the package and the verdict it is meant to get; `language` None when cpbot cannot judge it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: Path
    expected: Expected
    language: Language | None


class Validator(BaseModel):
    """An input or output validator: a source file, a folder of sources and headers, or something cpbot cannot
    run (`unsupported` says why, e.g. a checktestdata script)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: Path
    source: Path | None  # the file to build and run
    unsupported: str = ""
    protocol: Literal["kattis", "testlib"] = "kattis"  # exit 42/43, or testlib's exit 0 for a valid input


class TimeRules(BaseModel):
    """How the format turns the slowest accepted run into a time limit, and how far past it a TLE must be."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ac_to_time_limit: float  # time limit = slowest accepted test x this (rounded up to `resolution_s`)
    time_limit_to_tle: float  # a TLE submission must fail at time limit x this too
    resolution_s: float = 1.0
    fixed_s: float | None = None  # the package's own time limit, when it states one


class ProblemPackage(BaseModel):
    """A problem package read into cpbot's terms."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int = SCHEMA_VERSION
    root: Path
    format: Literal["kattis-legacy", "kattis-2023-07", "polygon", "library-checker"]
    name: str
    statement: str = ""  # the statement's text as the package holds it (LaTeX or Markdown), "" when it has none
    interactive: bool = False
    memory_mb: int = 1024
    time: TimeRules
    output_checker: str = "tokens"  # a cpbot checker spec (`float:1e-6`, ..., or a testlib checker's path)
    output_validator: Validator | None = None  # a custom one, run with the Kattis protocol
    input_validators: list[Validator] = []
    tests: list[PackageTest]
    generated: list[GeneratedTest] = []  # made by `cpbot verify` before the checks, answers from `reference`
    reference: Path | None = None  # the solution whose outputs are the generated tests' answers
    headers: dict[str, str] = {}  # files a build needs that the package makes (Library Checker's params.h)
    include_dirs: list[Path] = []  # searched by builds after the source's own folder (its shared headers)
    submissions: list[PackageSubmission]
    notes: list[str] = []  # what the reader left out, and why
