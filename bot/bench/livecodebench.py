"""LiveCodeBench's code-generation release files as bench problems.

A release file (`livecodebench/code_generation_lite`: `test.jsonl` ... `test6.jsonl`, or the older
`code_generation`) holds one problem a line: `question_title`, `question_content`, `platform`,
`question_id`, `contest_id`, `contest_date` (ISO datetime), `starter_code`, `difficulty`,
`public_test_cases` (a JSON string: a list of `{input, output, testtype}`), `private_test_cases` (the
same as a JSON string, or base64 of zlib of a pickle of that string, read by `pickled_text` without
unpickling) and `metadata` (a JSON string; `func_name` for functional problems).

- `stdin` problems (AtCoder, Codeforces) are stdio problems. LiveCodeBench compares lines and numbers
  as decimals (`decimal-lines`); a statement that allows an absolute or relative error gets the
  float checker with that error.
- `functional` problems (LeetCode) go through the LeetCode harness, so C++ works too: the signature
  comes from the starter code's type hints, each test's input has one JSON value per line (one per
  argument), and the expected output is one JSON value.

LiveCodeBench grades a program on the public and the private tests together; so does the bench: the
public tests are the samples the agents see, and public + private are the hidden tests judged after
the strategy returns. LiveCodeBench's own platform strings are data of this format: they live in
`Platform` here, apart from cpbot's site registry.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from cpbot.bot.bench.pickled_text import compressed_pickled_string
from cpbot.core import bounds
from cpbot.core.errors import ConfigError, CpbotError
from cpbot.core.registry import Family
from cpbot.judge.checkers.tolerance import statement_tolerance
from cpbot.judge.harness.checker import HarnessChecker, accepts_any_order, needs_special_judge
from cpbot.judge.harness.dataset import fits_type, starter_signature, widen_to_long
from cpbot.judge.harness.types import LcType
from cpbot.judge.harness.values import BadValue, format_value
from cpbot.judge.kinds import problem_kind
from cpbot.judge.languages import SNIPPET_KEYS
from cpbot.judge.languages.python import add_warm_prelude
from cpbot.judge.model import Limits, Method, Param, Problem, Signature, TestCase

# LiveCodeBench runs each test with a 6 s timeout (its `--timeout` default); no memory limit is recorded.
DEFAULT_TIME_LIMIT_MS = 6000
DEFAULT_MEMORY_MB = 1024
ID_PREFIX = "livecodebench"
_RELEASE_GLOB = "*.jsonl"


class Platform(StrEnum):
    """Where a LiveCodeBench problem comes from, spelled as the release files spell it."""

    ATCODER = "atcoder"
    LEETCODE = "leetcode"
    CODEFORCES = "codeforces"


class LcbTestType(StrEnum):
    """How a test is run: its input on stdin, or as the arguments of a function."""

    STDIN = "stdin"
    FUNCTIONAL = "functional"


Difficulty = Literal["easy", "medium", "hard"]


def naive_utc(moment: datetime) -> datetime:
    """Release dates are naive (UTC); an aware one is converted so the two always compare."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo is not None else moment


class LcbTest(BaseModel):
    """One test as the release files hold it (text in, text out)."""

    model_config = ConfigDict(extra="ignore")

    input: str
    output: str
    testtype: LcbTestType


class LcbHead(BaseModel):
    """The fields of a release line before its tests: what an evaluation file repeats of a problem."""

    model_config = ConfigDict(extra="ignore")

    question_title: str
    question_content: str
    platform: Platform
    question_id: str
    contest_id: str = ""
    contest_date: datetime
    starter_code: str = ""
    difficulty: Difficulty

    @field_validator("question_id", "contest_id", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) else value

    @field_validator("platform", "difficulty", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("contest_date")
    @classmethod
    def _naive(cls, value: datetime) -> datetime:
        return naive_utc(value)


class LcbProblem(LcbHead):
    """One release line, decoded."""

    public_test_cases: list[LcbTest]
    private_test_cases: list[LcbTest]
    metadata: dict[str, Any] = {}

    @property
    def functional(self) -> bool:
        """Whether the problem is called as a function (LeetCode) rather than fed stdin."""
        tests = [*self.public_test_cases, *self.private_test_cases]
        return bool(self.metadata.get("func_name")) or any(t.testtype is LcbTestType.FUNCTIONAL for t in tests)


class Summary(BaseModel):
    """What the filters look at, kept for every problem of a file without keeping its tests."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    question_id: str
    platform: Platform
    difficulty: Difficulty
    contest_date: datetime
    file: Path
    offset: int

    @field_validator("contest_date")
    @classmethod
    def _naive(cls, value: datetime) -> datetime:
        return naive_utc(value)


class Selection(BaseModel):
    """The problems a bench or a grading takes: a release window and some platforms and difficulties.

    `since` and `until` bound `contest_date` inclusively, as LiveCodeBench's `--start_date` and
    `--end_date` do (a bare date means its midnight). Empty lists take every platform or difficulty.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    since: datetime | None = None
    until: datetime | None = None
    platforms: tuple[Platform, ...] = ()
    difficulties: tuple[Difficulty, ...] = ()

    @property
    def empty(self) -> bool:
        """Whether it takes everything."""
        return self == Selection()

    def takes(self, summary: Summary) -> bool:
        """Whether the problem `summary` describes is selected."""
        if self.since is not None and summary.contest_date < self.since:
            return False
        if self.until is not None and summary.contest_date > self.until:
            return False
        if self.platforms and summary.platform not in self.platforms:
            return False
        return not self.difficulties or summary.difficulty in self.difficulties


def make_selection(
    since: str | None = None,
    until: str | None = None,
    platforms: tuple[str, ...] | list[str] = (),
    difficulties: tuple[str, ...] | list[str] = (),
) -> Selection:
    """A `Selection` from command-line text; a clear error for an unknown platform or difficulty."""
    try:
        return Selection(
            since=parse_day(since) if since else None,
            until=parse_day(until) if until else None,
            platforms=tuple(p.lower() for p in platforms),  # type: ignore[arg-type]
            difficulties=tuple(d.lower() for d in difficulties),  # type: ignore[arg-type]
        )
    except ValidationError as e:
        first = e.errors()[0]
        raise ConfigError(
            f"unknown {first['loc'][0]} {first['input']!r}",
            hint=f"platforms: {', '.join(Platform)}; difficulties: easy, medium, hard",
        ) from None


def parse_day(text: str) -> datetime:
    """`2024-08-01` or a full ISO datetime, as LiveCodeBench's window bounds are written."""
    try:
        return naive_utc(datetime.fromisoformat(text.strip()))
    except ValueError:
        raise ConfigError(f"bad date {text!r}", hint="write dates as YYYY-MM-DD (or an ISO datetime)") from None


def _json_field(row: dict[str, Any], name: str, where: str) -> Any:
    value = row.get(name)
    if not isinstance(value, str):
        return value
    try:
        return bounds.loads(value, f"{where}: {name}")
    except json.JSONDecodeError as e:
        raise ConfigError(f"{where}: {name} is not JSON ({e.msg})") from None


def _private_tests(row: dict[str, Any], where: str) -> Any:
    value = row.get("private_test_cases")
    if not isinstance(value, str):
        return value
    stripped = value.lstrip()
    if not stripped or stripped[0] in "[{":
        return _json_field(row, "private_test_cases", where)
    text = compressed_pickled_string(stripped, where=f"{where}: private_test_cases")
    try:
        return bounds.loads(text, f"{where}: private_test_cases")
    except json.JSONDecodeError as e:
        raise ConfigError(f"{where}: the decompressed private_test_cases are not JSON ({e.msg})") from None


def decode_row(row: dict[str, Any], where: str = "LiveCodeBench row") -> LcbProblem:
    """One release line (already read as JSON) with its nested JSON and compressed fields decoded."""
    where = f"{where} {row.get('question_id', '?')}"
    decoded = {
        **row,
        "public_test_cases": _json_field(row, "public_test_cases", where),
        "private_test_cases": _private_tests(row, where),
        "metadata": _json_field(row, "metadata", where) or {},
    }
    try:
        return LcbProblem.model_validate(decoded)
    except ValidationError as e:
        first = e.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"{where}: {field}: {first['msg']}", hint="is this a LiveCodeBench release file?") from None


def release_files(path: Path) -> list[Path]:
    """The release files at `path`: the file itself, or a folder's `*.jsonl` files in name order."""
    if path.is_dir():
        files = sorted(path.glob(_RELEASE_GLOB))
        if not files:
            raise ConfigError(f"no .jsonl release files in {path}", hint="put LiveCodeBench's test*.jsonl there")
        return files
    return [path]


def looks_like_release(path: Path) -> bool:
    """Whether the first line of a `.jsonl` file is a LiveCodeBench problem."""
    try:
        with path.open("rb") as f:
            head = f.read(1 << 16)
    except OSError:
        return False
    return b'"question_id"' in head and b'"public_test_cases"' in head


def _lines(file: Path) -> Iterator[tuple[int, bytes]]:
    offset = 0
    with file.open("rb") as f:
        for line in f:
            if line.strip():
                yield offset, line
            offset += len(line)


_SUMMARY_KEYS = ("question_id", "platform", "difficulty", "contest_date")
# Release lines put the small fields first; the index reads only them when it can (the tests run to
# hundreds of megabytes a file).
_TESTS_KEY = b', "public_test_cases":'


def _summary_fields(line: bytes) -> dict[str, Any]:
    cut = line.find(_TESTS_KEY)
    if cut > 0:
        try:
            head = bounds.loads(line[:cut] + b"}", "a LiveCodeBench release line")
        except json.JSONDecodeError:
            head = {}
        if all(k in head for k in _SUMMARY_KEYS):
            return head
    return bounds.loads(line, "a LiveCodeBench release line")


@lru_cache(maxsize=8)
def _index(files: tuple[Path, ...], stamp: tuple[float, ...]) -> dict[str, Summary]:
    del stamp  # only part of the cache key: a changed file is read again
    found: dict[str, Summary] = {}
    for file in files:
        for offset, line in _lines(file):
            try:
                row = _summary_fields(line)
                qid = str(row["question_id"])
                summary = Summary(
                    question_id=qid,
                    platform=str(row["platform"]).strip().lower(),
                    difficulty=str(row["difficulty"]).strip().lower(),
                    contest_date=row["contest_date"],
                    file=file,
                    offset=offset,
                )
            except (json.JSONDecodeError, KeyError, TypeError, ValidationError) as e:
                raise ConfigError(
                    f"{file} at byte {offset}: not a LiveCodeBench problem line ({type(e).__name__}: {e})"[:400],
                    hint="give LiveCodeBench's code_generation(_lite) test*.jsonl files",
                ) from None
            found.setdefault(qid, summary)  # a later release repeating a problem does not replace it
    return found


def index(path: Path) -> dict[str, Summary]:
    """Every problem of the release file(s) at `path`, by question_id, in file order (where each line is,
    by absolute path: a Ray worker reads it from another working directory)."""
    files = tuple(f.absolute() for f in release_files(path))
    return _index(files, tuple(f.stat().st_mtime for f in files))


def select(path: Path, selection: Selection | None = None) -> list[str]:
    """The question_ids at `path` that `selection` takes, in file order."""
    chosen = selection or Selection()
    return [qid for qid, summary in index(path).items() if chosen.takes(summary)]


def locate(path: Path, question_id: str) -> Summary:
    """Where problem `question_id` of the release file(s) at `path` is (and what the filters look at)."""
    summary = index(path).get(question_id)
    if summary is None:
        raise ConfigError(f"no problem {question_id!r} in {path}", hint="keys are LiveCodeBench question_ids")
    return summary


def read_problem(path: Path, question_id: str) -> LcbProblem:
    """Problem `question_id` of the release file(s) at `path`."""
    return read_at(locate(path, question_id))


def read_at(summary: Summary) -> LcbProblem:
    """The problem whose line `summary` locates: that line is read, not the file (see `index`)."""
    with summary.file.open("rb") as f:
        f.seek(summary.offset)
        row = bounds.loads(f.readline(), str(summary.file))
    return decode_row(row, where=str(summary.file))


def read_head_at(summary: Summary) -> LcbHead:
    """The problem's fields before its tests, read without its tests where the line puts them first
    (an evaluation file of a release whose tests run to gigabytes is then written in a moment)."""
    head: bytes = b""
    with summary.file.open("rb") as f:
        f.seek(summary.offset)
        while (cut := head.find(_TESTS_KEY)) < 0 and not head.endswith(b"\n"):
            block = f.readline(1 << 16)
            if not block:
                break
            head += block
        if cut > 0:
            try:
                return LcbHead.model_validate(bounds.loads(head[:cut] + b"}", str(summary.file)))
            except (json.JSONDecodeError, ValidationError):
                pass  # not the usual layout: read the whole line
    return read_at(summary)


# The modules LiveCodeBench's grader has imported (names and star-imports) before a Python stdin program
# runs, and the recursion limit it sets; `stdin_preamble` lets cpbot give a program the same start.
_PREAMBLE_MODULES = (
    "string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random", "statistics",
    "itertools", "functools", "operator", "io", "sys", "json",
)  # fmt: skip
PREAMBLE_RECURSION_LIMIT = 50000


def stdin_preamble() -> str:
    """Python lines that give a stdin program the names LiveCodeBench's grader provides: every
    module above imported and star-imported, the builtins star-imported again after them (so
    `math.pow` or `re.compile` do not hide `pow` and `compile`), `typing`'s names, and a recursion
    limit of 50000."""
    lines = [f"from {m} import *" for m in (*_PREAMBLE_MODULES, "builtins", "typing")]
    lines += [f"import {m}" for m in _PREAMBLE_MODULES]
    lines.append(f"sys.setrecursionlimit({PREAMBLE_RECURSION_LIMIT})")
    return "\n".join(lines) + "\n"


add_warm_prelude(stdin_preamble())  # run once by each warm interpreter, not by every test


# LiveCodeBench's grader runs a stdin program in its own process, as a function called while stdin and stdout are
# swapped for the test's: what a thread prints after that call returned (a thread the program starts and never
# joins) is not captured, and what it reads then is not the test's input
_THREAD_START = re.compile(r"\bThread\s*\(|\bstart_new_thread\b|\bThreadPoolExecutor\b")
THREAD_LOSS = (
    "it prints from a thread it never joins: LiveCodeBench's in-process grader stops capturing output when the "
    "program's main code ends"
)


def starts_threads(source: str) -> bool:
    """Whether a Python program starts threads (its output may outlive its main code)."""
    return _THREAD_START.search(source) is not None


def main_code_end() -> str:
    """Python lines that end a stdin program the way LiveCodeBench's in-process grader does: once its main code
    has run, what it prints later goes nowhere and what it reads later is empty (appended to a program that
    starts threads, under `grade --lcb-exact`)."""
    return (
        "\nimport os as _lcb_os, sys as _lcb_sys\n"
        "_lcb_sys.stdout.flush()\n"
        "_lcb_null = _lcb_os.open(_lcb_os.devnull, _lcb_os.O_RDWR)\n"
        "_lcb_os.dup2(_lcb_null, 0)\n"
        "_lcb_os.dup2(_lcb_null, 1)\n"
        "_lcb_sys.stdin = open(_lcb_os.devnull)\n"
    )


def statement_checker(statement: str) -> str:
    """The checker a stdin statement asks for: the float checker when it allows an error
    (`judge.checkers.tolerance`), else LiveCodeBench's line and decimal comparison (`decimal-lines`)."""
    return statement_tolerance(statement) or "decimal-lines"


def exact_checker(problem: Problem) -> str | HarnessChecker:
    """LiveCodeBench's own comparison, with no tolerance (`grade --lcb-exact`): stdin outputs line by
    line, equal as text or as decimals; function results equal as values (a tuple as a list), in order."""
    if not problem_kind(problem.kind).wrapped or problem.signature is None:
        return "decimal-lines"
    return HarnessChecker(problem.signature, tolerance=0.0)


def lenient_where(problem: Problem) -> str | None:
    """Why cpbot's default comparison of this problem accepts more than LiveCodeBench's, or None."""
    if not problem_kind(problem.kind).wrapped or problem.signature is None:
        checker = problem.checker or "decimal-lines"
        return None if checker == "decimal-lines" else f"the statement allows an error ({checker})"
    if accepts_any_order(problem.statement):
        return "the statement accepts the answer in any order"
    if needs_special_judge(problem):
        return "the statement accepts several answers"
    returns = [m.return_type or "" for m in problem.signature.methods]
    if any("float" in r.lower() or "double" in r.lower() for r in returns):
        return "floats equal within 1e-5"
    return None


def _stdin_test(test: LcbTest, origin: str, name: str) -> TestCase:
    return TestCase(input=test.input, output=test.output, origin=origin, name=name)  # type: ignore[arg-type]


def _function_signature(p: LcbProblem) -> tuple[str, list[tuple[str, LcType]], LcType]:
    try:
        name, params, ret = starter_signature(p.starter_code, p.question_id)
    except CpbotError as e:
        raise ConfigError(f"LiveCodeBench {p.question_id}: {e.message}", hint=e.hint) from None
    wanted = p.metadata.get("func_name")
    if wanted and wanted != name:
        raise ConfigError(f"LiveCodeBench {p.question_id}: metadata names {wanted}, the starter code {name}")
    return name, params, ret


def _arguments(test: LcbTest, count: int, where: str) -> list[Any]:
    lines = test.input.split("\n")
    while len(lines) > count and not lines[-1].strip():
        lines.pop()
    if len(lines) != count:
        raise ConfigError(f"{where}: {len(lines)} input lines for {count} parameters")
    try:
        return [bounds.loads(line, where) for line in lines]
    except json.JSONDecodeError as e:
        raise ConfigError(f"{where}: an input line is not JSON ({e.msg})") from None


def _functional_tests(p: LcbProblem, named: list[tuple[str, LcbTest]]) -> tuple[Signature, list[TestCase]]:
    name, params, ret = _function_signature(p)
    cases = []
    for test_name, test in named:
        where = f"LiveCodeBench {p.question_id} {test_name}"
        args = _arguments(test, len(params), where)
        for value, (param, typ) in zip(args, params, strict=True):
            if not fits_type(value, typ):
                raise ConfigError(f"{where}: argument {param} is not a {typ}: {json.dumps(value)[:80]}")
        try:
            expected = bounds.loads(test.output, where)
        except json.JSONDecodeError as e:
            raise ConfigError(f"{where}: the expected output is not JSON ({e.msg})") from None
        cases.append((test_name, args, expected))
    # Python's int is unbounded: C++ needs `long` where a value leaves the 32-bit range
    params = [(n, widen_to_long(t, [args[i] for _, args, _ in cases])) for i, (n, t) in enumerate(params)]
    ret = widen_to_long(ret, [expected for _, _, expected in cases])
    tests = []
    for test_name, args, expected in cases:
        try:
            lines = [format_value(a, t) for a, (_, t) in zip(args, params, strict=True)]
            output = format_value(expected, ret)
        except BadValue as e:
            raise ConfigError(f"LiveCodeBench {p.question_id} {test_name}: {e}") from None
        tests.append(TestCase(input="\n".join(lines) + "\n", output=output + "\n", origin="user", name=test_name))
    method = Method(name=name, params=[Param(name=n, type=str(t)) for n, t in params], return_type=str(ret))
    return Signature(kind="function", methods=[method]), tests


def to_problem(p: LcbProblem, *, time_limit_ms: int = DEFAULT_TIME_LIMIT_MS) -> tuple[Problem, list[TestCase]]:
    """The cpbot problem (statement, public tests as samples) and every test LiveCodeBench grades
    with (public, then private), named `public-i` / `private-i`."""
    named = [(f"public-{i}", t) for i, t in enumerate(p.public_test_cases, start=1)]
    named += [(f"private-{i}", t) for i, t in enumerate(p.private_test_cases, start=1)]
    if not named:
        raise ConfigError(f"LiveCodeBench {p.question_id} has no tests")
    common: dict[str, Any] = {
        "id": f"{ID_PREFIX}:{p.question_id}",
        "site": p.platform.value,
        "title": p.question_title,
        "statement": p.question_content,
        "limits": Limits(time_ms=time_limit_ms, memory_mb=DEFAULT_MEMORY_MB),
        "contest": p.contest_id or None,
        "difficulty": p.difficulty,
    }
    if p.functional:
        signature, tests = _functional_tests(p, named)
        problem = Problem(
            **common,
            kind="function",
            signature=signature,
            code_snippets={SNIPPET_KEYS[Family.PYTHON]: p.starter_code},
        )
    else:
        tests = [_stdin_test(t, "user", n) for n, t in named]
        problem = Problem(**common, checker=statement_checker(p.question_content))
    public = len(p.public_test_cases)
    samples = [t.model_copy(update={"origin": "sample"}) for t in tests[:public]]
    return problem.model_copy(update={"samples": samples}), tests
