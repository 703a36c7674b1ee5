"""The domain model shared by every layer: problems, tests, solutions, verdicts and reports.

Models are data (pydantic v2); behaviour lives in the modules beside them. Field names are the ones
in DESIGN.md, so `--json` output and files on disk can be relied on by scripts.
"""

from __future__ import annotations

import logging
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from cpbot.core.bounds import MEMORY_LIMIT, TIME_LIMIT
from cpbot.core.registry import LOCAL_SITE, LanguageName
from cpbot.core.terminal import printable

SCHEMA_VERSION = 2  # 2: Problem.interactor
NEWER_SCHEMA = "newer_schema"  # the error type of a file written by a newer cpbot
_log = logging.getLogger("cpbot.judge")


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _not_from_a_newer_cpbot(cls, data: Any) -> Any:
        """A file of a newer layout is refused, not read as if it were this one (its new fields lost)."""
        version = data.get("schema_version") if isinstance(data, dict) else None
        if isinstance(version, int) and version > SCHEMA_VERSION:
            raise PydanticCustomError(
                NEWER_SCHEMA,
                "written by a newer cpbot (schema_version {version}; this one reads up to {known})",
                {"version": version, "known": SCHEMA_VERSION},
            )
        return data


# What a program, a checker or a compiler wrote, kept in a report: escaped on the way in.
ProgramText = Annotated[str, AfterValidator(printable)]


class Verdict(StrEnum):
    AC = "AC"
    WA = "WA"
    PE = "PE"
    TLE = "TLE"
    MLE = "MLE"
    OLE = "OLE"
    RE = "RE"
    CE = "CE"
    IE = "IE"
    RAN = "RAN"  # ran without error, but the test has no expected output: nothing was checked

    @property
    def severity(self) -> int:
        """Higher is worse; the overall verdict of several is the most severe one."""
        return _SEVERITY[self]


# The fixed priority, most severe first: a judge failure outranks everything, then compile errors,
# then the limits (as DMOJ and Codeforces rank them), then crashes, then wrong output.
VERDICT_PRIORITY: tuple[Verdict, ...] = (
    Verdict.IE,
    Verdict.CE,
    Verdict.TLE,
    Verdict.MLE,
    Verdict.OLE,
    Verdict.RE,
    Verdict.WA,
    Verdict.PE,
    Verdict.AC,
    # the least severe: an unchecked test never turns checked ones into a failure, nor into AC
    Verdict.RAN,
)
_SEVERITY = {v: len(VERDICT_PRIORITY) - i for i, v in enumerate(VERDICT_PRIORITY)}


def is_accepted(verdict: Verdict, passed: int, total: int) -> bool:
    """The one meaning of "accepted": at least one test was judged, and every test passed."""
    return verdict == Verdict.AC and total > 0 and passed == total


def worst(verdicts: list[Verdict]) -> Verdict:
    """The overall verdict of several: the most severe, AC when there are none."""
    return max(verdicts, key=lambda v: v.severity, default=Verdict.AC)


Language = LanguageName


def _within_time_bound(ms: int) -> int:
    """A time limit from outside (a page, Competitive Companion, a file) is refused past `max_time_limit_s`."""
    if ms > TIME_LIMIT.value() * 1000:
        raise PydanticCustomError(
            "time_limit_too_long",
            "{ms} ms is past {bound} ({hint})",
            {
                "ms": ms if ms < 10**12 else f"about 1e{len(str(ms)) - 1}",
                "bound": TIME_LIMIT.describe(),
                "hint": TIME_LIMIT.hint(),
            },
        )
    return ms


def _within_memory_bound(mb: int) -> int:
    """A memory limit past `max_memory_limit_mb` (by default the machine's RAM, which no run can use more
    of anyway) is judged as that bound, with a warning."""
    bound = MEMORY_LIMIT.value()
    if mb > bound:
        shown = mb if mb < 10**12 else f"about 1e{len(str(mb)) - 1}"
        _log.warning(
            "a memory limit of %s MB is judged as %s (%s)", shown, MEMORY_LIMIT.describe(), MEMORY_LIMIT.hint()
        )
        return bound
    return mb


class Limits(Model):
    time_ms: Annotated[int, Field(gt=0), AfterValidator(_within_time_bound)] = 2000
    memory_mb: Annotated[int, Field(gt=0), AfterValidator(_within_memory_bound)] = 256
    output_mb: int = Field(64, gt=0, le=1 << 20)


class TestCase(Model):
    __test__ = False  # not a pytest class

    input: str
    output: str | None = None
    origin: Literal["sample", "generated", "stress", "user"] = "sample"
    name: str = ""
    # How a multi-test input splits into single cases (each the text of one case), when known.
    cases: list[str] | None = None


class Param(Model):
    name: str
    type: str


class Method(Model):
    name: str
    params: list[Param] = []
    return_type: str | None = None


class Signature(Model):
    """How a function problem is called: one method of `class_name`, or a design class."""

    kind: Literal["function", "design"] = "function"
    class_name: str = "Solution"
    # function problems: exactly one method; design problems: the methods that operations may name
    methods: list[Method] = []
    # design problems only: the constructor's parameters
    constructor: Method | None = None


class Solution(Model):
    language: Language
    source: str


class HeuristicSpec(Model):
    """How a score-based problem (AtCoder Heuristic Contest) is scored locally: the contest's tools, or ours.

    `generator` and `scorer` are paths relative to the problem's folder (or absolute): sources
    (`.py`, `.cpp`) or executables. The generator prints one input for a seed: `GENERATOR SEED` on stdout
    (`generator_style="seed"`), or AHC's `gen seeds.txt` writing `in/0000.txt` (`"ahc"`). The scorer is
    run as `SCORER INPUT OUTPUT` and prints `Score = N` as AHC's `vis` does; an output it rejects scores 0.
    `tools` names AHC's Rust tools folder (a cargo package): when cargo is present it is built and its
    `gen` and `vis` binaries stand in for missing `generator`/`scorer`."""

    schema_version: int = SCHEMA_VERSION
    objective: Literal["maximize", "minimize"] = "maximize"
    # absolute: each input's score summed; relative: each input's score against the best known for it
    scoring: Literal["absolute", "relative"] = "absolute"
    generator: str | None = None
    generator_style: Literal["seed", "ahc"] = "seed"
    scorer: str | None = None
    # interactive problems: AHC's tester, run as `TESTER PROGRAM...` with the input on stdin; it talks to
    # the program and prints `Score = N` on stderr (no scorer then)
    interactive: bool = False
    tester: str | None = None
    tools: str | None = None
    seeds: int = Field(50, ge=1, le=100_000)  # seeds 0..seeds-1 are the local inputs by default
    # relative scoring: the best known raw score per seed (the contest's, or the best of cpbot's own runs)
    best_known: dict[int, float] = {}
    # what one input's score is worth at most under relative scoring (AHC: 10^9, rounded)
    relative_unit: float = Field(1e9, gt=0)
    # what an input scores when the output is invalid, the run crashes or times out: 0 where larger is
    # better; a problem where smaller is better states its own (worse than any valid output)
    failure_score: float = 0.0
    # how many inputs the contest's system test has (the contest's total is about the mean times this);
    # None: as many as `seeds`
    system_inputs: int | None = Field(None, ge=1)
    # where the contest's own tools can be downloaded (an AHC task page links a zip of them)
    tools_url: str | None = None

    @model_validator(mode="after")
    def _failure_is_worst(self) -> HeuristicSpec:
        if self.objective == "minimize" and self.failure_score <= 0:
            raise ValueError("a problem where smaller is better needs a positive failure_score (worse than any output)")
        return self


class Problem(Model):
    schema_version: int = SCHEMA_VERSION
    id: str
    site: str = LOCAL_SITE
    url: str | None = None
    title: str = ""
    index: str | None = None
    statement: str = ""
    input_spec: str = ""
    output_spec: str = ""
    notes: str = ""
    limits: Limits = Limits()
    samples: list[TestCase] = []
    kind: Literal["stdio", "function", "interactive", "heuristic"] = "stdio"
    signature: Signature | None = None
    heuristic: HeuristicSpec | None = None  # score-based problems: their local tools and scoring rules
    # `tokens`, `exact`, `lines`, `decimal-lines`, `float:EPS`, `special`, or the path of a testlib checker
    # (relative to the problem's folder in problem.json)
    checker: str = "tokens"
    # interactive problems: the testlib interactor, a path (relative to the problem's folder in problem.json)
    # or its source
    interactor: str | Solution | None = None
    input_file: str | None = None
    output_file: str | None = None
    contest: str | None = None
    tags: list[str] = []
    difficulty: str | None = None
    code_snippets: dict[str, str] = {}
    raw: Any = None


class Diff(Model):
    """The first difference between the expected answer and the output."""

    line: int
    token: int | None = None
    expected: ProgramText
    got: ProgramText


class TestResult(Model):
    __test__ = False
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    index: int
    name: str = ""
    verdict: Verdict
    cpu_ms: float = 0.0
    wall_ms: float = 0.0
    peak_kb: int = 0
    exit_code: int | None = None
    signal: int | None = None
    checker_message: ProgramText = ""
    diff: Diff | None = None
    points: float | None = None
    stdout: ProgramText = ""
    stderr: ProgramText = ""
    reruns: int = 0


class JudgeReport(Model):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    schema_version: int = SCHEMA_VERSION
    verdict: Verdict
    results: list[TestResult] = []
    passed: int = 0
    total: int = 0
    compile_log: ProgramText = ""
    language: str = ""
    isolation: dict[str, str] = {}
    reason: ProgramText = ""  # why the judge failed (IE) or stopped early
    unchecked: int = 0  # tests without an expected output: run for crashes and limits, never counted as passed

    @property
    def first_failure(self) -> TestResult | None:
        return next((r for r in self.results if r.verdict != Verdict.AC), None)

    @property
    def accepted(self) -> bool:
        return is_accepted(self.verdict, self.passed, self.total - self.unchecked)


class ProfilePoint(Model):
    size: int
    cpu_ms: float
    peak_kb: int
    status: Literal["ok", "tle", "mle", "crash", "wrong"] = "ok"
    instructions: int | None = None  # executed instructions, where counted (judge/counting.py)


class ProfileReport(Model):
    schema_version: int = SCHEMA_VERSION
    points: list[ProfilePoint] = []
    complexity: Literal["O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2)", "O(n^3)", "O(2^n)"] | None = None
    metric: Literal["instructions", "cpu_time"] = "cpu_time"  # what the class was read from
    slope: float | None = None
    r2: float | None = None
    ambiguous: bool = False
    predicted_ms_at_max: float | None = None
    predicted_kb_at_max: int | None = None
    efficient: bool | None = None
    reason: str = ""


class StressFailure(Model):
    """The smallest input found on which the solution and the brute force disagree (or the solution fails)."""

    size: int
    seed: int
    input: ProgramText  # the generator's output
    expected: ProgramText  # the brute force's output
    got: ProgramText  # the solution's output
    verdict: Verdict
    message: ProgramText = ""


class StressReport(Model):
    schema_version: int = SCHEMA_VERSION
    status: Literal["found", "clean"]
    runs: int = 0
    seconds: float = 0.0
    failure: StressFailure | None = None
    first_failure_size: int | None = None  # where it was first seen, before shrinking
    reason: str = ""
    time_limited: bool = False  # the wall-clock safety net stopped the search before its count of runs
    starved: int = 0  # inputs skipped because a program was starved of CPU on every try
    invalid: int = 0  # generated inputs dropped because the input validator rejects them
    contested: int = 0  # inputs skipped because the brute forces disagreed with no majority (no agreeing oracle)
