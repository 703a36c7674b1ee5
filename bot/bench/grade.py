"""Grading recorded generations with cpbot's judge, and writing LiveCodeBench's evaluation format.

Input: a generations file and the dataset it answers. Two forms are read, as a JSON list or as JSONL:

- LiveCodeBench's: one object per problem with `question_id` and `code_list` (the extracted programs)
  and/or `output_list` (the model's raw replies; code is taken from them with cpbot's own extraction,
  `agents.extract`). `code_list` wins where both are given, as in LiveCodeBench's custom evaluator.
- a simple one: one object per program, `{question_id, language, source}`.

Every generation is judged on the problem's public and private tests, stopping at the first failure
as LiveCodeBench does; generations run in parallel, one per judge slot, and a program repeated for a
problem is judged once. The result is LiveCodeBench's `_eval_all.json` form (per problem its fields
plus `graded_list`, `pass@1` and per generation `metadata`, a JSON string with the first failing
test's `inputs`, `expected`, `output`, `error`, `error_code` and `error_message`), and a `GradeReport`
with pass@1 overall and by difficulty and pass@k for the k every problem has samples for.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, ValidationError, computed_field

from cpbot.agents.tracing import TraceEvent
from cpbot.bot.bench import livecodebench
from cpbot.bot.bench.datasets import BenchProblem, Dataset, lcb_problem_at
from cpbot.bot.bench.executors import Executor, LocalExecutor
from cpbot.bot.bench.metrics import difficulty_order
from cpbot.bot.bench.passk import mean_pass_at_k, reportable_ks
from cpbot.bot.bench.pickled_text import UnsafePickle
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.core import bounds
from cpbot.core.errors import ConfigError, CpbotError
from cpbot.core.registry import Family, language_spec
from cpbot.judge.build import precheck_solutions
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import JudgeReport, Language, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import Sandbox, default_sandbox
from cpbot.judge.verdicts import missing_module

SCHEMA_VERSION = 1
TRUNCATE = 300  # LiveCodeBench cuts inputs and outputs in its metadata to this many characters

# LiveCodeBench's error codes: -2 wrong answer, -3 time limit, -4 runtime error, -5 the grader failed
_ERRORS: dict[Verdict, tuple[int, str]] = {
    Verdict.WA: (-2, "Wrong Answer"),
    Verdict.PE: (-2, "Wrong Answer"),
    Verdict.TLE: (-3, "Time Limit Exceeded"),
    Verdict.RE: (-4, "Runtime Error"),
    Verdict.MLE: (-4, "Runtime Error"),
    Verdict.OLE: (-4, "Runtime Error"),
    Verdict.CE: (-4, "Compilation Error"),
    Verdict.IE: (-5, "TestRunnerError"),
}


class Generation(BaseModel):
    """One program to grade: the n-th generation for a problem, or why there is no program."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    question_id: str
    index: int
    language: Language
    source: str | None  # None: no code could be taken from the reply
    output: str = ""  # the raw reply, when the file has one
    note: str = ""  # why there is no source


class GenerationGrade(BaseModel):
    """How one generation fared, with LiveCodeBench's metadata for it."""

    model_config = ConfigDict(extra="forbid")

    index: int
    language: Language
    passed: bool
    verdict: Verdict | None  # None: there was no program
    passed_tests: int = 0
    total_tests: int = 0
    metadata: dict[str, Any]


class ProblemGrade(BaseModel):
    """Every generation of one problem, graded."""

    model_config = ConfigDict(extra="forbid")

    question_id: str
    difficulty: str
    platform: str
    generations: list[GenerationGrade]

    @property
    def n(self) -> int:
        return len(self.generations)

    @property
    def correct(self) -> int:
        return sum(g.passed for g in self.generations)


class ExactDifference(BaseModel):
    """A generation whose verdict under LiveCodeBench's exact comparison (`--lcb-exact`) is not the one
    cpbot's default comparison gives, and why the default accepts more."""

    model_config = ConfigDict(extra="forbid")

    question_id: str
    index: int
    exact: Verdict
    default: Verdict
    why: str


class GradeResultEvent(GenerationGrade, TraceEvent):
    """How one generation fared, on the grade run: the problem, the program graded and its `GenerationGrade`,
    why the problem cannot be judged (if so) and, under `--lcb-exact`, the default comparison's other
    verdict. `--resume` rebuilds the run's results from these events."""

    kind: Literal["grade_result"] = "grade_result"
    question_id: str
    source: str = ""
    unjudged: str = ""
    difference: ExactDifference | None = None


RESULT_EVENT: str = GradeResultEvent.model_fields["kind"].default


class GroupScore(BaseModel):
    """pass@k of a group of problems (all, or one difficulty)."""

    model_config = ConfigDict(extra="forbid")

    problems: int
    generations: int
    pass_at: dict[str, float]  # "pass@1", "pass@5", ...


class GradeReport(BaseModel):
    """`cpbot grade --json`: scores, speed, verdict counts and every problem's grades."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    run_id: str = ""
    dataset: str
    generations_file: str
    overall: GroupScore
    by_difficulty: dict[str, GroupScore]
    verdicts: dict[str, int]
    missing: list[str]  # selected problems the file has no generation for (not graded)
    unjudged: dict[str, str] = {}  # problems cpbot cannot judge (e.g. a type the harness lacks): why
    seconds: float  # this run's grading (a resumed run: since it resumed)
    judged: int  # distinct programs judged (a repeated program is judged once per problem)
    resumed: int = 0  # generations graded before the run was resumed (recorded in its transcript)
    problems: list[ProblemGrade]
    lcb_exact: bool = False  # verdicts from LiveCodeBench's exact comparison, not cpbot's default
    all_tests: bool = False  # every test run, not only up to a generation's first failure
    exact_differences: list[ExactDifference] = []  # with lcb_exact: where the default would differ
    # RE generations that import a module the judged Python lacks: how many per module
    missing_modules: dict[str, int] = {}

    @computed_field  # type: ignore[prop-decorator]
    @property
    def per_minute(self) -> float:
        """Generations graded per minute of wall time (a resumed run: those graded since it resumed)."""
        total = sum(p.n for p in self.problems) - self.resumed
        return 60.0 * total / self.seconds if self.seconds > 0 else 0.0


def _load_items(path: Path) -> list[dict[str, Any]]:
    text = path.read_bytes()
    try:
        data = bounds.loads(text, str(path))
        items = data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        try:
            items = [bounds.loads(line, str(path)) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as e:
            raise ConfigError(
                f"{path}: neither a JSON list nor JSON lines ({e.msg}, line {e.lineno})",
                hint="give LiveCodeBench's generations file or JSONL of {question_id, language, source}",
            ) from None
    if not all(isinstance(item, dict) for item in items):
        raise ConfigError(f"{path}: every entry must be an object with a question_id")
    return items


def _extracted(reply: str, language: str) -> tuple[str | None, str]:
    from cpbot.agents.extract import ExtractionError, extract_code  # only for replies without a code_list

    try:
        return extract_code(reply, language).code, ""
    except ExtractionError as e:
        return None, e.message


def read_generations(path: Path, default_language: str, *, extract: bool = False) -> dict[str, list[Generation]]:
    """The generations of `path` by question_id, in file order (see the module's docstring). `extract`
    takes the code from `output_list` with cpbot's extraction even where a `code_list` is given."""
    found: dict[str, list[Generation]] = {}
    for n, item in enumerate(_load_items(path), start=1):
        if "question_id" not in item:
            raise ConfigError(f"{path}: entry {n} has no question_id")
        qid = str(item["question_id"])
        mine = found.setdefault(qid, [])
        language = item.get("language") or default_language
        try:
            if "source" in item:
                mine.append(Generation(question_id=qid, index=len(mine), language=language, source=item["source"]))
                continue
            codes, outputs = item.get("code_list"), item.get("output_list")
            if extract and outputs is not None:
                codes = None
            if codes is None and outputs is None:
                raise ConfigError(f"{path}: entry {n} ({qid}) has none of code_list, output_list, source")
            for i in range(len(codes if codes is not None else outputs)):
                output = outputs[i] if outputs is not None and i < len(outputs) else ""
                if codes is not None:
                    source, note = (codes[i] or None), ("" if codes[i] else "the code_list entry is empty")
                else:
                    source, note = _extracted(output, language)
                mine.append(
                    Generation(
                        question_id=qid, index=len(mine), language=language, source=source, output=output, note=note
                    )
                )
        except ValidationError as e:
            first = e.errors()[0]
            raise ConfigError(f"{path}: entry {n} ({qid}): {first['loc'][0]}: {first['msg']}") from None
    return found


def _cut(value: str) -> str:
    """Text cut like LiveCodeBench's metadata: head and tail around a marker."""
    if len(value) <= TRUNCATE:
        return value
    half = TRUNCATE // 2
    return value[:half] + "...(truncated) ..." + value[-half:]


def lcb_metadata(report: JudgeReport | None, tests: Sequence[TestCase], note: str = "") -> dict[str, Any]:
    """LiveCodeBench's metadata of one generation: the execution time when it passed, else the first
    failing test's input, expected and actual output and the error."""
    if report is None:
        return {"error": note or "no code", "error_code": -4, "error_message": "No code extracted"}
    if report.accepted:
        return {"execution time": round(sum(r.cpu_ms for r in report.results) / 1000, 6)}
    failure = report.first_failure
    code, message = _ERRORS.get(report.verdict, (-4, "Runtime Error"))
    if failure is None:  # nothing ran: compilation failed, or the judge did
        return {"error": _cut(report.compile_log or report.reason), "error_code": code, "error_message": message}
    code, message = _ERRORS.get(failure.verdict, (code, message))
    test = tests[failure.index - 1]
    last_error_line = next((line for line in reversed(failure.stderr.splitlines()) if line.strip()), "")
    data: dict[str, Any] = {
        "error": _cut(" / ".join(x for x in (failure.checker_message, last_error_line) if x)),
        "error_code": code,
        "error_message": message,
        "inputs": _cut(test.input),
        "expected": _cut(test.output or ""),
    }
    if code == -2:
        data["output"] = _cut(failure.stdout)
    return data


class GradeSettings(BaseModel):
    """What grading any program of a run needs besides the program: the dataset and how to compare.
    Small and picklable: it travels with every grading task (to a Ray worker too)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dataset: Dataset
    lcb_preamble: bool = False
    lcb_exact: bool = False
    all_tests: bool = False  # every test run, not only up to a generation's first failure


class Graded(BaseModel):
    """One generation graded, as a grading task hands it back; also the `grade_result` event's payload
    (with the generation's source), from which `--resume` takes the generations already graded."""

    model_config = ConfigDict(extra="forbid")

    question_id: str
    grade: GenerationGrade
    unjudged: str = ""  # why cpbot cannot judge the problem (the grade is then IE)
    difference: ExactDifference | None = None  # with lcb_exact: the default comparison's other verdict


class _ProblemCache:
    """The problems a process is grading, each read from its own release line (the file is never read
    whole here: the driver indexed it) by one thread while others asking for it wait; the last few are
    kept, since tasks come problem by problem. A problem cpbot cannot judge is its error."""

    SIZE = 4

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loading: dict[tuple[Any, ...], threading.Lock] = {}
        self._kept: OrderedDict[tuple[Any, ...], BenchProblem | CpbotError] = OrderedDict()

    def get(self, dataset: Dataset, summary: livecodebench.Summary) -> BenchProblem | CpbotError:
        key = (dataset, summary.file, summary.offset)
        with self._lock:
            loading = self._loading.setdefault(key, threading.Lock())
        with loading:
            with self._lock:
                if key in self._kept:
                    self._kept.move_to_end(key)
                    return self._kept[key]
            try:
                item: BenchProblem | CpbotError = lcb_problem_at(
                    summary, dataset.time_limit_ms or livecodebench.DEFAULT_TIME_LIMIT_MS
                )
            except UnsafePickle:
                raise  # a file that tries to run code is not graded at all
            except CpbotError as e:
                item = e
            with self._lock:
                self._kept[key] = item
                while len(self._kept) > self.SIZE:
                    self._kept.popitem(last=False)
                self._loading.pop(key, None)
            return item


_problems = _ProblemCache()  # one per process: the driver's threads, or a Ray worker's tasks


def grade_program(
    settings: GradeSettings,
    summary: livecodebench.Summary,
    generations: Sequence[Generation],
    sandbox: Sandbox | None = None,
    *,
    problem: BenchProblem | None = None,
) -> list[Graded]:
    """Generations of one problem that share one program (language and source, or none), judged once
    on the problem's public and private tests, stopping at the first failure (unless `all_tests`). A task
    of `grade`: it runs in a thread of the driver or in a Ray worker (then in that process's default
    sandbox). `problem`: the problem `summary` locates, read already (else it is read here)."""
    item: BenchProblem | CpbotError = problem if problem is not None else _problems.get(settings.dataset, summary)
    first = generations[0]

    def each(unjudged: str = "", difference: tuple[Verdict, str] | None = None, **fields: Any) -> list[Graded]:
        """The same grade for every generation of the program."""
        found = []
        for g in generations:
            other = None
            if difference is not None:
                default, why = difference
                other = ExactDifference(
                    question_id=g.question_id, index=g.index, exact=fields["verdict"], default=default, why=why
                )
            grade = GenerationGrade(index=g.index, language=g.language, **fields)
            found.append(Graded(question_id=g.question_id, grade=grade, unjudged=unjudged, difference=other))
        return found

    if isinstance(item, CpbotError):
        error = {"error": item.message, "error_code": -5, "error_message": "TestRunnerError"}
        return each(item.message, passed=False, verdict=Verdict.IE, metadata=error)
    if first.source is None:
        metadata = lcb_metadata(None, item.hidden, first.note)
        return each(passed=False, verdict=None, total_tests=len(item.hidden), metadata=metadata)
    sandbox = sandbox or default_sandbox()
    solution = _solution(first.language, first.source, settings.lcb_preamble, item.problem.kind)
    checker = livecodebench.exact_checker(item.problem) if settings.lcb_exact else None
    stop = not settings.all_tests
    judged = solution
    why = livecodebench.lenient_where(item.problem) if settings.lcb_exact else None
    if settings.lcb_exact and _loses_thread_output(solution, item.problem.kind):
        judged = solution.model_copy(update={"source": solution.source + livecodebench.main_code_end()})
        why = "; ".join(x for x in (why, livecodebench.THREAD_LOSS) if x)
    report = judge_problem(
        judged, item.problem, item.hidden, checker=checker, sandbox=sandbox, jobs=1, stop_on_failure=stop
    )
    difference = None
    if why is not None:
        default = judge_problem(solution, item.problem, item.hidden, sandbox=sandbox, jobs=1, stop_on_failure=stop)
        if default.accepted != report.accepted:
            difference = (default.verdict, why)
    return each(
        difference=difference, passed=report.accepted, verdict=report.verdict, passed_tests=report.passed,
        total_tests=report.total, metadata=lcb_metadata(report, item.hidden),
    )  # fmt: skip


def _solution(language: str, source: str, lcb_preamble: bool, kind: str) -> Solution:
    """The program judged for a generation: its source, with LiveCodeBench's preamble when asked."""
    python = language_spec(language).family is Family.PYTHON
    if lcb_preamble and python and problem_kind(kind).checks_output_text:
        source = livecodebench.stdin_preamble() + source
    return Solution(language=language, source=source)


def _loses_thread_output(solution: Solution, kind: str) -> bool:
    """Whether LiveCodeBench's in-process grader may lose this program's output: a Python stdin program that
    starts threads."""
    python = language_spec(solution.language).family is Family.PYTHON
    return python and problem_kind(kind).checks_output_text and livecodebench.starts_threads(solution.source)


PRECHECK_CHUNK = 50  # programs syntax-checked in one sandbox run
# the first chunks are smaller (4, 8, 16, ... up to PRECHECK_CHUNK): the first tests wait for the first check
PRECHECK_FIRST = 4
# the problems the prechecks read (LeetCode's, for their driver) are kept for their grading up to this many bytes
# of tests in all; a larger one is read again when it is graded
PRECHECK_KEEP_BYTES = 32 << 20

Task = tuple[GradeSettings, livecodebench.Summary, list[Generation]]


class _Prechecks:
    """Grading here (threads sharing one sandbox): the Python programs syntax-checked ahead, a chunk of tasks
    in one sandbox run instead of a run each (the first chunks small, so that the first tests need not wait
    for a large check). A grading thread first checks its own chunk or the next one,
    whichever no other thread is checking (so two threads check two chunks side by side instead of one
    after the other), then waits for its own chunk if another thread is still on it. A LeetCode program is
    checked as it runs, in the harness's driver: its problem is read for that (its line only; the cache of
    the grading threads is left alone) and kept until its grading takes it, unless the problems kept hold
    PRECHECK_KEEP_BYTES of tests already."""

    def __init__(self, tasks: Sequence[Task], sandbox: Sandbox) -> None:
        self._tasks = tasks
        self._sandbox = sandbox
        self._bounds = [0]  # chunk i is tasks[bounds[i] : bounds[i + 1]]
        self._chunk: dict[int, int] = {}  # id(group) -> its chunk
        size = PRECHECK_FIRST
        while self._bounds[-1] < len(tasks):
            start, end = self._bounds[-1], min(len(tasks), self._bounds[-1] + size)
            self._chunk.update((id(group), len(self._bounds) - 1) for _, _, group in tasks[start:end])
            self._bounds.append(end)
            size = min(2 * size, PRECHECK_CHUNK)
        chunks = len(self._bounds) - 1
        self._locks = [threading.Lock() for _ in range(chunks)]
        self._checked = [False] * chunks
        self._kept: dict[int, tuple[BenchProblem, int]] = {}  # id(group) -> its problem read, its tests' bytes
        self._kept_bytes = 0
        self._kept_lock = threading.Lock()

    def grade(
        self, settings: GradeSettings, summary: livecodebench.Summary, group: list[Generation], sandbox: Sandbox
    ) -> list[Graded]:
        """`grade_program`, once the chunk holding `group` is checked."""
        chunk = self._chunk[id(group)]
        self._check(chunk, wait=False)
        self._check(chunk + 1, wait=False)
        self._check(chunk, wait=True)
        with self._kept_lock:
            problem, size = self._kept.pop(id(group), (None, 0))
            self._kept_bytes -= size
        return grade_program(settings, summary, group, sandbox, problem=problem)

    def _check(self, chunk: int, *, wait: bool) -> None:
        """Check `chunk` unless it is checked; another thread checking it is waited for, or with `wait` False
        left to it."""
        if chunk >= len(self._locks) or self._checked[chunk]:
            return
        if not self._locks[chunk].acquire(blocking=wait):
            return
        try:
            if self._checked[chunk]:
                return
            solutions = []
            for settings, summary, group in self._tasks[self._bounds[chunk] : self._bounds[chunk + 1]]:
                solution, problem = _as_judged(settings, summary, group)
                if solution is not None:
                    solutions.append(solution)
                if problem is not None:
                    self._keep(id(group), problem)
            precheck_solutions(solutions, self._sandbox)
            self._checked[chunk] = True
        finally:
            self._locks[chunk].release()

    def _keep(self, group: int, problem: BenchProblem) -> None:
        size = sum(len(t.input) + len(t.output or "") for t in problem.hidden)
        with self._kept_lock:
            if self._kept_bytes + size <= PRECHECK_KEEP_BYTES:
                self._kept[group] = (problem, size)
                self._kept_bytes += size


def _as_judged(
    settings: GradeSettings, summary: livecodebench.Summary, group: list[Generation]
) -> tuple[Solution | None, BenchProblem | None]:
    """The program `grade_program` will build for `group` (None: none, or its problem cannot be read), and the
    problem when it had to be read for that (a LeetCode problem)."""
    first = group[0]
    if first.source is None:
        return None, None
    if summary.platform is not livecodebench.Platform.LEETCODE:
        return _solution(first.language, first.source, settings.lcb_preamble, "stdio"), None
    try:
        problem = lcb_problem_at(summary, settings.dataset.time_limit_ms or livecodebench.DEFAULT_TIME_LIMIT_MS)
        kind = problem_kind(problem.problem.kind)
        solution = _solution(first.language, first.source, settings.lcb_preamble, problem.problem.kind)
        return (kind.runnable(solution, problem.problem) if kind.wrapped else solution), problem
    except CpbotError:
        return None, None  # grading it says why


# How long a problem's programs run, by its difficulty: on LiveCodeBench's o1-mini generations a hard AtCoder
# problem's program took 0.24 s of CPU on average, a medium one's 0.05 s and an easy one's 0.02 s, and every
# program stopped at the time limit (7 s each) was a hard problem's.
_EXPECTED_LENGTH = {"hard": 0, "medium": 1, "easy": 2}


def longest_first(tasks: Sequence[Task]) -> list[Task]:
    """The tasks with the problems expected to run longest first (by difficulty; file order within one), so
    that no long program starts near the end and leaves the other slots with nothing to do while it runs.
    Only the dataset's fields decide, never a recorded verdict; the results and their file are the same in
    any order."""
    return sorted(tasks, key=lambda task: _EXPECTED_LENGTH.get(task[1].difficulty, 1))


class _Gate:
    """A sandbox whose slots are lent to at most `places` borrowers at once (the others wait their turn):
    the rest of it is the sandbox's own."""

    def __init__(self, sandbox: Sandbox, places: int) -> None:
        self._sandbox = sandbox
        self._places = threading.BoundedSemaphore(places)
        self._group = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sandbox, name)

    @contextlib.contextmanager
    def slot(self, read_only: Sequence[Path] = ()) -> Iterator[Any]:
        with self._places, self._sandbox.slot(read_only) as slot:
            yield slot

    @contextlib.contextmanager
    def slots(self, n: int) -> Iterator[list[Any]]:
        with self._group:  # taken together, as the sandbox takes its slots: two callers never deadlock
            for _ in range(n):
                self._places.acquire()
        try:
            with self._sandbox.slots(n) as taken:
                yield taken
        finally:
            for _ in range(n):
                self._places.release()


def _ready_ahead(jobs: int, sandbox: Sandbox) -> LocalExecutor:
    """Grading here with `jobs` programs at once: two tasks per slot used, so that while one runs its tests
    the next has read its problem, built its program and waits for the slot. A slot given back is taken at
    once, not after the driver has read, built and staged the next program."""
    places = min(jobs, sandbox.size)
    lent = sandbox if places >= sandbox.size else cast(Sandbox, _Gate(sandbox, places))
    return LocalExecutor(2 * places, sandbox=lent)


def programs(generations: Sequence[Generation]) -> list[list[Generation]]:
    """A problem's generations grouped by program (language and source; those without one by why), in
    the order each first appears: a program repeated for a problem is judged once."""
    groups: dict[tuple[str, str | None, str], list[Generation]] = {}
    for gen in generations:
        groups.setdefault((gen.language, gen.source, gen.note if gen.source is None else ""), []).append(gen)
    return list(groups.values())


Progress = Callable[[Generation, Graded], None]
Done = dict[tuple[str, int], Graded]  # by (question_id, generation index)


def grade(
    dataset: Dataset,
    generations: Mapping[str, list[Generation]],
    sandbox: Sandbox | None = None,
    *,
    selection: livecodebench.Selection | None = None,
    jobs: int | None = None,
    progress: Progress | None = None,
    generations_file: str = "",
    lcb_preamble: bool = False,
    lcb_exact: bool = False,
    all_tests: bool = False,
    executor: Executor | None = None,
    done: Done | None = None,
) -> GradeReport:
    """Judge every generation of every selected problem that has some; each distinct program of a
    problem is one task (`grade_program`), `jobs` at once in threads sharing `sandbox` (default: one per
    judge slot) or spread by `executor` (a Ray cluster). Generations in `done` (a resumed run's) are
    not graded again. A problem cpbot cannot judge fails each of its generations with the reason
    (LiveCodeBench's error code -5) and is listed in `unjudged`. `lcb_preamble` starts Python stdin
    programs with the imports and recursion limit LiveCodeBench's grader gives them. `lcb_exact` compares
    outputs as LiveCodeBench does, with no tolerance; where cpbot's default comparison is more lenient
    (a statement's allowed error, any order, float results), the program is judged both ways and the
    verdicts that differ are listed in `exact_differences`. A generation's tests stop at its first failure,
    as in LiveCodeBench's grader, unless `all_tests` (its `passed_tests` then count every test)."""
    if dataset.kind != "livecodebench":
        raise ConfigError(f"{dataset.name} is not a LiveCodeBench dataset", hint="grade against test*.jsonl")
    summaries = livecodebench.index(dataset.path)
    selected = dataset.problem_keys(selection)
    unknown = sorted(set(generations) - set(summaries))
    if unknown:
        raise ConfigError(
            f"{len(unknown)} question_ids of the generations are not in {dataset.path}: {', '.join(unknown[:5])}",
            hint="grade against the release file the generations were made from",
        )
    keys = [k for k in selected if generations.get(k)]
    settings = GradeSettings(dataset=dataset, lcb_preamble=lcb_preamble, lcb_exact=lcb_exact, all_tests=all_tests)
    graded: Done = {k: v for k, v in (done or {}).items() if k[0] in generations}
    resumed = len(graded)
    tasks: list[Task] = []
    for key in keys:
        for group in programs([g for g in generations[key] if (key, g.index) not in graded]):
            tasks.append((settings, summaries[key], group))
    tasks = longest_first(tasks)
    if executor is None:
        sandbox = sandbox or default_sandbox()
        executor = LocalExecutor(jobs or sandbox.size, sandbox=sandbox)
    task: Callable[..., list[Graded]] = grade_program
    if isinstance(executor, LocalExecutor):
        executor = _ready_ahead(executor.jobs, executor.sandbox or default_sandbox())
        task = _Prechecks(tasks, cast(Sandbox, executor.sandbox)).grade
    by_index = {(g.question_id, g.index): g for group in (t[2] for t in tasks) for g in group}
    started = time.monotonic()
    for results in executor.results(task, tasks):
        for result in results:
            graded[(result.question_id, result.grade.index)] = result
            if progress is not None:
                progress(by_index[(result.question_id, result.grade.index)], result)
    seconds = time.monotonic() - started
    problems = [
        ProblemGrade(
            question_id=key,
            difficulty=summaries[key].difficulty,
            platform=summaries[key].platform.value,
            generations=[graded[(key, g.index)].grade for g in generations[key]],
        )
        for key in keys
    ]
    every = [(g, graded[(key, g.index)]) for key in keys for g in generations[key]]
    unjudged = {g.question_id: r.unjudged for g, r in every if r.unjudged}
    judged = {(g.question_id, g.language, g.source) for g, r in every if g.source is not None and not r.unjudged}
    verdicts = Counter(str(r.grade.verdict or "no code") for _, r in every)
    return GradeReport(
        missing_modules=missing_modules(r.grade for _, r in every),
        dataset=dataset.name,
        generations_file=generations_file,
        overall=score(problems),
        by_difficulty={
            d: score([p for p in problems if p.difficulty == d])
            for d in difficulty_order(p.difficulty for p in problems)
        },
        verdicts=dict(sorted(verdicts.items())),
        missing=[k for k in selected if not generations.get(k)],
        unjudged=unjudged,
        seconds=round(seconds, 3),
        judged=len(judged),
        resumed=resumed,
        problems=problems,
        lcb_exact=lcb_exact,
        all_tests=all_tests,
        exact_differences=[r.difference for _, r in every if r.difference is not None],
    )


def missing_modules(grades: Iterable[GenerationGrade]) -> dict[str, int]:
    """How many RE generations failed to import each module the judged Python lacks, most first."""
    counts = Counter(
        module
        for g in grades
        if g.verdict == Verdict.RE and (module := missing_module(str(g.metadata.get("error", "")))) is not None
    )
    return dict(counts.most_common())


def score(problems: Sequence[ProblemGrade]) -> GroupScore:
    """pass@k of a group: k = 1 always, 5 and 10 when every problem has that many generations."""
    counts = [(p.n, p.correct) for p in problems]
    ks = reportable_ks([n for n, _ in counts]) or [1]
    return GroupScore(
        problems=len(problems),
        generations=sum(n for n, _ in counts),
        pass_at={f"pass@{k}": mean_pass_at_k(counts, k) for k in ks} if counts else {"pass@1": 0.0},
    )


def eval_all(
    dataset: Dataset, report: GradeReport, generations: Mapping[str, list[Generation]]
) -> list[dict[str, Any]]:
    """LiveCodeBench's `_eval_all.json` content: one entry per graded problem, by question_id."""
    entries = []
    for graded in sorted(report.problems, key=lambda p: p.question_id):
        p = livecodebench.read_head_at(livecodebench.locate(dataset.path, graded.question_id))
        gens = generations[graded.question_id]
        flags = [g.passed for g in graded.generations]
        entries.append(
            {
                "question_title": p.question_title,
                "question_content": p.question_content,
                "platform": p.platform.value,
                "question_id": p.question_id,
                "contest_id": p.contest_id,
                "contest_date": p.contest_date.isoformat(),
                "starter_code": p.starter_code,
                "difficulty": p.difficulty,
                "output_list": [g.output for g in gens],
                "code_list": [g.source or "" for g in gens],
                "graded_list": flags,
                "pass@1": flags.count(True) / len(flags),
                "metadata": [json.dumps(g.metadata) for g in graded.generations],
            }
        )
    return entries


def markdown(report: GradeReport) -> str:
    """The scores as Markdown: overall and by difficulty (pass@k in %), verdicts and speed."""
    ks = list(report.overall.pass_at)
    lines = [
        f"grade {report.run_id}: {report.generations_file} on {report.dataset}",
        "",
        "| difficulty | problems | generations | " + " | ".join(ks) + " |",
        "| --- | --- | --- | " + " | ".join("---" for _ in ks) + " |",
    ]
    groups = [*report.by_difficulty.items(), ("all", report.overall)]
    for name, group in groups:
        cells = [f"{100 * group.pass_at.get(k, 0.0):.1f}" if k in group.pass_at else "-" for k in ks]
        lines.append(f"| {name} | {group.problems} | {group.generations} | " + " | ".join(cells) + " |")
    total = sum(p.n for p in report.problems)
    lines += [
        "",
        "verdicts: " + (", ".join(f"{v} {n}" for v, n in report.verdicts.items()) or "none"),
        f"{total} generations ({report.judged} distinct programs) graded in {report.seconds:.1f} s: "
        f"{report.per_minute:.1f} per minute",
        "every test run for each generation"
        if report.all_tests
        else "each generation's tests stopped at its first failure, as in LiveCodeBench's grader (--all-tests: all)",
    ]
    if report.lcb_exact:
        lines.append(
            f"LiveCodeBench's exact comparison: {len(report.exact_differences)} verdicts differ from cpbot's default"
        )
        lines += [
            f"  {d.question_id} #{d.index}: {d.exact} (default {d.default}): {d.why}" for d in report.exact_differences
        ]
    if report.missing_modules:
        modules = ", ".join(f"{name} {n}" for name, n in report.missing_modules.items())
        lines.append(
            f"{sum(report.missing_modules.values())} of the RE import modules the judged Python lacks ({modules}): "
            "`cpbot setup-python` makes an environment with the usual contest libraries, or name an interpreter "
            "that has them with --python"
        )
    if report.missing:
        lines.append(f"{len(report.missing)} selected problems have no generations and were not graded")
    for key, why in report.unjudged.items():
        lines.append(f"{key}: cannot be judged, its generations count as failed: {why}")
    return "\n".join(lines) + "\n"


class GradePlan(BaseModel):
    """What a grading does, stored with its transcript run so `--resume` grades exactly the same."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    dataset: Dataset
    generations_file: str
    generations_sha256: str = ""  # the file a resumed run must find again
    selection: livecodebench.Selection
    default_language: Language
    extract: bool = False
    lcb_preamble: bool = False
    lcb_exact: bool = False
    all_tests: bool = False

    def generations(self) -> dict[str, list[Generation]]:
        """The generations the plan grades, read again from its file; a changed file is refused."""
        path = Path(self.generations_file)
        if self.generations_sha256 and file_sha256(path) != self.generations_sha256:
            raise ConfigError(
                f"{path} changed since the grading started", hint="resume with the generations file it started on"
            )
        return read_generations(path, self.default_language, extract=self.extract)


def file_sha256(path: Path) -> str:
    """The file's SHA-256, read a megabyte at a time."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


@contextlib.contextmanager
def ends_on_failure(store: TranscriptStore, run_id: str) -> Iterator[None]:
    """A failure inside the block ends run `run_id` (as an error, or interrupted on Ctrl-C) and goes on."""
    try:
        yield
    except BaseException as e:
        store.finish_run(run_id, "interrupted" if isinstance(e, KeyboardInterrupt) else "error", reason=str(e)[:500])
        raise


def start_grade(store: TranscriptStore, plan: GradePlan) -> str:
    """Open the grading's transcript run (kind `grade`, its plan in the config)."""
    return store.start_run("grade", config={"grade": plan.model_dump(mode="json")})


def stored_grade_plan(store: TranscriptStore, run: str) -> tuple[str, GradePlan]:
    """The id and plan of the grading run `run` (an id, a prefix, or "last")."""
    from cpbot.bot.bench.runner import stored_config  # the bench's runner brings the agents along

    run_id, config = stored_config(store, run, "grade")
    return run_id, GradePlan.model_validate(config)


def finished_grades(store: TranscriptStore, run_id: str) -> Done:
    """The generations a grading run recorded, by (question_id, index); the first record of one wins."""
    found: Done = {}
    for stored in store.events(run_id):
        if stored.kind == RESULT_EVENT:
            event = GradeResultEvent.model_validate(stored.fields())
            grade = GenerationGrade.model_validate(event.model_dump(include=set(GenerationGrade.model_fields)))
            graded = Graded(
                question_id=event.question_id, grade=grade, unjudged=event.unjudged, difference=event.difference
            )
            found.setdefault((graded.question_id, graded.grade.index), graded)
    return found


def run_grade(
    store: TranscriptStore,
    run_id: str,
    plan: GradePlan,
    generations: Mapping[str, list[Generation]],
    sandbox: Sandbox | None = None,
    *,
    jobs: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> GradeReport:
    """`grade` as the transcript run `run_id`: one `grade_result` event per generation (its program,
    verdict, metadata and, with lcb_exact, the default's other verdict), then the run's end with the
    scores. The generations the run recorded already (it was stopped, and is resumed) are not graded
    again; a generation recorded twice counts once."""
    done = finished_grades(store, run_id)

    def record(gen: Generation, result: Graded) -> None:
        event = GradeResultEvent(
            task_id=gen.question_id, question_id=gen.question_id, source=gen.source or "", **dict(result.grade),
            unjudged=result.unjudged, difference=result.difference,
        )  # fmt: skip
        store.record(run_id, event)
        if progress is not None:
            progress(gen, result)

    with ends_on_failure(store, run_id):
        report = grade(
            plan.dataset, generations, sandbox, selection=plan.selection, jobs=jobs, progress=record,
            generations_file=plan.generations_file, lcb_preamble=plan.lcb_preamble, lcb_exact=plan.lcb_exact,
            all_tests=plan.all_tests, executor=executor, done=done,
        )  # fmt: skip
    totals = {"problems": report.overall.problems, "generations": report.overall.generations, **report.overall.pass_at}
    store.finish_run(run_id, "done", totals=totals)
    return report.model_copy(update={"run_id": run_id})
