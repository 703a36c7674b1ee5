"""Judging a solution on a set of tests: build, run in parallel in the sandbox, check, re-run near misses."""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from cpbot.core.errors import ConfigError, CpbotError, JudgeError
from cpbot.judge.build import build_program_file, build_solution
from cpbot.judge.checkers import Checker, CheckInput, make_checker
from cpbot.judge.checkers.base import CheckResult, uses_sandbox
from cpbot.judge.checkers.text import excerpt
from cpbot.judge.execute import Captured, captured_run
from cpbot.judge.interactive import TESTLIB, InteractorProtocol, run_interactive
from cpbot.judge.kinds import problem_kind
from cpbot.judge.languages import BuildOptions, Program
from cpbot.judge.model import JudgeReport, Limits, Problem, Solution, TestCase, TestResult, Verdict, worst
from cpbot.judge.sandbox import RunResult, Sandbox, default_sandbox
from cpbot.judge.sandbox.pool import describe_workdir
from cpbot.judge.verdicts import classify, is_borderline_tle, run_limits, workdir_mb

EXCERPT_BYTES = 2048
MAX_RERUNS = 2
STREAM_DEPTH = 3  # runs a worker keeps in its slot: one running, two queued ready to start
# stopping at the first failure: a run queued behind one that fails would still run (a slot cannot take a
# run back), so the next test is queued only once the last one passed
STOP_DEPTH = 1


@dataclass(frozen=True)
class PreparedTest:
    index: int
    name: str
    input: bytes
    answer: bytes | None


def encode(text: str) -> bytes:
    """Test text back to the exact bytes it was read from (see `load_tests_dir`)."""
    return text.encode("utf-8", "surrogateescape")


class _Judging:
    """One judging session: the program, the limits, the checker."""

    def __init__(
        self,
        program: Program,
        limits: Limits,
        checker: Checker,
        interactor: Program | None,
        sandbox: Sandbox,
        protocol: InteractorProtocol = TESTLIB,
    ) -> None:
        self.program = program
        self.limits = limits
        self.checker = checker
        self.interactor = interactor
        self.protocol = protocol
        self.sandbox = sandbox
        self.limits_for_run = run_limits(limits, sanitized=program.sanitized)

    def run_test(self, test: PreparedTest) -> tuple[TestResult, RunResult]:
        """Run one test alone (in a slot borrowed for it) and judge it."""
        if self.interactor is not None:
            return self._run_interactive(test)
        with captured_run(self.program.argv, test.input, self.sandbox, self.limits_for_run) as cap:
            return self._result(test, cap), cap.run

    def run_stream(
        self, next_test: Callable[[], PreparedTest | None], done: Callable[[Outcome], None], depth: int = STREAM_DEPTH
    ) -> None:
        """Run tests from `next_test` on one slot until it gives None, each outcome to `done`. Up to `depth`
        runs are in the slot at once: with more than one, the next test waits queued while the last one's
        output is checked, so it starts at once."""
        queued: collections.deque[tuple[PreparedTest, int, int]] = collections.deque()
        argv, limits = self.program.argv, self.limits_for_run
        # with a run queued, the checking thread keeps off the slot's CPU, where that run starts; with none (one
        # at a time), the slot's CPU is idle while the output is checked, and the other slot's program is not
        keep_off = depth > 1
        with self.sandbox.slot() as slot, slot.caller_elsewhere() if keep_off else contextlib.nullcontext():
            try:
                while True:
                    while len(queued) < depth and (test := next_test()) is not None:
                        out_fd = os.memfd_create("stdout", os.MFD_CLOEXEC)
                        err_fd = os.memfd_create("stderr", os.MFD_CLOEXEC)
                        queued.append((test, out_fd, err_fd))
                        slot.start(argv, stdin=test.input, stdout=out_fd, stderr=err_fd, limits=limits)
                    if not queued:
                        return
                    run = slot.wait()
                    test, out_fd, err_fd = queued.popleft()
                    try:
                        done((test, (self._result(test, Captured(run, out_fd, err_fd)), run)))
                    finally:
                        os.close(out_fd)
                        os.close(err_fd)
            finally:
                # stopped by an error: the slot waits out the runs still queued when it is given back
                for _, out_fd, err_fd in queued:
                    os.close(out_fd)
                    os.close(err_fd)

    def _result(self, test: PreparedTest, cap: Captured) -> TestResult:
        run = cap.run
        stderr = self.program.shown(cap.read_stderr(EXCERPT_BYTES))
        size = cap.stdout_size()
        stdout = cap.read_stdout(EXCERPT_BYTES)
        verdict, message = classify(run, self.limits, stderr, size)
        check = CheckResult(verdict or Verdict.AC, message)
        if verdict is None and test.answer is None:
            check = CheckResult(Verdict.RAN, "no expected output: ran without error, not checked")
        elif verdict is None:
            # an output that fits the excerpt is in memory already: the checker needs no file for it
            output = stdout if size <= len(stdout) else Path(f"/proc/self/fd/{cap.stdout_fd}")
            check = self.checker.check(CheckInput(test.input, output, test.answer, test_index=test.index))
        return TestResult(
            index=test.index,
            name=test.name,
            verdict=check.verdict,
            cpu_ms=round(run.cpu_ms, 3),
            wall_ms=round(run.wall_ms, 3),
            peak_kb=run.peak_kb,
            exit_code=run.exit_code,
            signal=run.signal,
            checker_message=check.message,
            diff=check.diff,
            points=check.points,
            stdout=stdout.decode(errors="replace"),
            stderr=stderr,
        )

    def _run_interactive(self, test: PreparedTest) -> tuple[TestResult, RunResult]:
        assert self.interactor is not None
        ir = run_interactive(
            self.program, self.interactor, test.input, test.answer, self.limits, self.sandbox, self.protocol
        )
        verdict, message = ir.outcome()
        return (
            TestResult(
                index=test.index,
                name=test.name,
                verdict=verdict,
                cpu_ms=round(ir.run.cpu_ms, 3),
                wall_ms=round(ir.run.wall_ms, 3),
                peak_kb=ir.run.peak_kb,
                exit_code=ir.run.exit_code,
                signal=ir.run.signal,
                checker_message=message,
                stdout=excerpt(ir.transcript, EXCERPT_BYTES),
                stderr=self.program.shown(ir.stderr[:EXCERPT_BYTES]),
            ),
            ir.run,
        )


Outcome = tuple[PreparedTest, tuple[TestResult, RunResult]]


def isolation_for(sandbox: Sandbox, limits: Limits) -> dict[str, str]:
    """What the sandbox achieved, with the work dir cap these limits gave the solution's runs."""
    isolation = dict(sandbox.isolation)
    if isolation.get("workdir", "").startswith("tmpfs"):
        isolation["workdir"] = describe_workdir("tmpfs-per-run", workdir_mb(limits))
    return isolation


def prepare_tests(tests: list[TestCase]) -> list[PreparedTest]:
    """Each test's input and answer as the bytes the program and the checker get."""
    return [
        PreparedTest(
            i, test.name or f"test-{i}", encode(test.input), encode(test.output) if test.output is not None else None
        )
        for i, test in enumerate(tests, start=1)
    ]


OnResult = Callable[[TestResult], None]


class _InOrder:
    """Hands finished tests to `on_result` in test order, as soon as every test before them is final. A
    near-limit TLE is not final (it is re-run alone at the end), so it holds back the tests after it."""

    def __init__(self, prepared: list[PreparedTest], limits: Limits, on_result: OnResult | None) -> None:
        self._order = [t.index for t in prepared]
        self._next = 0
        self._limits = limits
        self._on_result = on_result
        self._lock = threading.Lock()

    def finished(self, outcomes: dict[int, tuple[TestResult, RunResult]]) -> None:
        """Pass on what became final; called with each new outcome (from any worker)."""
        with self._lock:
            while self._next < len(self._order) and self._order[self._next] in outcomes:
                result, run = outcomes[self._order[self._next]]
                if is_borderline_tle(result.verdict, run, self._limits):
                    return
                self._emit(result)

    def rest(self, results: dict[int, TestResult]) -> None:
        """Pass on the final results of the tests held back (re-run ones and those after them)."""
        with self._lock:
            for index in self._order[self._next :]:
                if index in results:
                    self._emit(results[index])
            self._next = len(self._order)

    def _emit(self, result: TestResult) -> None:
        self._next += 1
        if self._on_result is not None:
            self._on_result(result)


def _run_all(
    session: _Judging,
    prepared: list[PreparedTest],
    workers: int,
    stop_on_failure: bool,
    in_order: _InOrder,
) -> dict[int, tuple[TestResult, RunResult]]:
    """Every test's outcome by index (tests not run after a failure, with `stop_on_failure`, are missing).

    Plain tests stream through `workers` slots at once; an interactive test takes two slots of its own."""
    outcomes: dict[int, tuple[TestResult, RunResult]] = {}
    failed = threading.Event()
    pending = iter(prepared)
    lock = threading.Lock()

    def next_test() -> PreparedTest | None:
        if stop_on_failure and failed.is_set():
            return None
        with lock:
            return next(pending, None)

    def done(outcome: Outcome) -> None:
        test, (result, run) = outcome
        outcomes[test.index] = (result, run)
        # a near-limit TLE is re-run alone at the end and may pass: the tests after it must run too
        if result.verdict != Verdict.AC and not is_borderline_tle(result.verdict, run, session.limits):
            failed.set()
        in_order.finished(outcomes)

    def stream() -> None:
        session.run_stream(next_test, done, STOP_DEPTH if stop_on_failure else STREAM_DEPTH)

    def one_at_a_time() -> None:  # an interactive test borrows its two slots itself
        while (test := next_test()) is not None:
            done((test, session.run_test(test)))

    worker = one_at_a_time if session.interactor is not None else stream
    if workers == 1:
        worker()
        return outcomes
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for future in [pool.submit(worker) for _ in range(workers)]:
            future.result()
    return outcomes


def judge_program(
    program: Program,
    tests: list[TestCase],
    *,
    limits: Limits,
    checker: Checker,
    interactor: Program | None = None,
    sandbox: Sandbox | None = None,
    jobs: int | None = None,
    stop_on_failure: bool = False,
    on_result: OnResult | None = None,
    interactor_protocol: InteractorProtocol = TESTLIB,
) -> JudgeReport:
    """Judge an already built program. Tests run in parallel; near-limit TLEs are re-run alone.

    `on_result` gets each test's final result as soon as it and every test before it are done, in test
    order (a test re-run for a near-limit TLE holds back those after it until its re-runs end)."""
    sandbox = sandbox or default_sandbox()
    # an interactive test runs two programs at once; a checker that runs a program (in a judge slot of its own,
    # `Sandbox.judge_slot`) is left a core for its runs
    per_test = 2 if interactor is not None else 1
    usable = sandbox.size - (1 if uses_sandbox(checker) else 0)
    workers = max(1, min(jobs or sandbox.size, usable // per_test, len(tests) or 1))
    session = _Judging(program, limits, checker, interactor, sandbox, interactor_protocol)
    prepared = prepare_tests(tests)
    in_order = _InOrder(prepared, limits, on_result)
    outcomes = _run_all(session, prepared, workers, stop_on_failure, in_order)
    results: list[TestResult] = []
    for test in prepared:
        if test.index not in outcomes:
            continue
        result, run = outcomes[test.index]
        reruns = 0
        # alone now: nothing else competes for the cores
        while reruns < MAX_RERUNS and is_borderline_tle(result.verdict, run, limits):
            reruns += 1
            result, run = session.run_test(test)
        result.reruns = reruns
        results.append(result)
    in_order.rest({r.index: r for r in results})
    verdict = worst([r.verdict for r in results])
    first = next((r for r in results if r.verdict == verdict), None)
    unchecked = sum(t.answer is None for t in prepared) if interactor is None else 0
    if verdict == Verdict.RAN:
        reason = f"none of the {len(tests)} tests has an expected output: they ran without error, nothing was checked"
    elif first and verdict != Verdict.AC:
        reason = f"{verdict} on test {first.index} ({first.name}): {first.checker_message}"
    else:
        reason = ""
    return JudgeReport(
        verdict=verdict,
        results=results,
        passed=sum(r.verdict == Verdict.AC for r in results),
        total=len(tests),
        unchecked=unchecked,
        language=program.language,
        isolation=isolation_for(sandbox, limits),
        reason=reason,
    )


def judge_solution(
    solution: Solution,
    tests: list[TestCase],
    *,
    limits: Limits,
    checker: str | Checker = "tokens",
    interactor: Path | Program | None = None,
    sandbox: Sandbox | None = None,
    jobs: int | None = None,
    stop_on_failure: bool = False,
    build_options: BuildOptions | None = None,
    on_result: OnResult | None = None,
    interactor_protocol: InteractorProtocol = TESTLIB,
) -> JudgeReport:
    """Build and judge a solution. CE when it does not build; IE (with the reason) when the judge fails.

    `build_options` (include dirs, extra sources) apply to the solution; its include dirs also to a
    checker or interactor given as source."""
    sandbox = sandbox or default_sandbox()
    include_dirs = build_options.include_dirs if build_options else ()
    try:
        build = build_solution(solution, sandbox, build_options)
        if build.program is None:
            return JudgeReport(
                verdict=Verdict.CE,
                total=len(tests),
                compile_log=build.log,
                language=solution.language,
                isolation=sandbox.isolation,
                reason="compilation failed",
            )
        if isinstance(checker, str):
            checker = make_checker(checker, sandbox, include_dirs=include_dirs)
        if isinstance(interactor, Path):
            interactor = build_program_file(interactor, sandbox, role="interactor", include_dirs=include_dirs)
        report = judge_program(
            build.program,
            tests,
            limits=limits,
            checker=checker,
            interactor=interactor,
            sandbox=sandbox,
            jobs=jobs,
            stop_on_failure=stop_on_failure,
            on_result=on_result,
            interactor_protocol=interactor_protocol,
        )
    except JudgeError as e:
        return JudgeReport(
            verdict=Verdict.IE,
            total=len(tests),
            language=solution.language,
            isolation=sandbox.isolation,
            reason=e.message,
        )
    report.compile_log = build.log
    return report


def judge_problem(
    solution: Solution,
    problem: Problem,
    tests: list[TestCase] | None = None,
    *,
    checker: str | Checker | None = None,
    interactor: Path | Program | None = None,
    sandbox: Sandbox | None = None,
    jobs: int | None = None,
    stop_on_failure: bool = False,
    build_options: BuildOptions | None = None,
    on_result: OnResult | None = None,
) -> JudgeReport:
    """Judge a solution to a problem (its samples unless `tests` are given), whatever its kind.

    Function problems (LeetCode) are wrapped in the harness's driver and compared the way LeetCode
    compares; stdio and interactive problems are judged as they are.
    """
    tests = problem.samples if tests is None else tests
    kind = problem_kind(problem.kind)
    if kind.wrapped:
        if problem.signature is None:
            raise ConfigError(
                f"{problem.id} is a function problem without a signature",
                hint="fetch it again, or add the signature to problem.json",
            )
        try:
            wrapped = kind.runnable(solution, problem)
            malformed = kind.malformed_tests(tests, problem, solution.language)
        except JudgeError as e:
            return JudgeReport(verdict=Verdict.IE, total=len(tests), language=solution.language, reason=e.message)
        if malformed:
            return _malformed_report(tests, malformed, solution.language)
        return judge_solution(
            wrapped,
            tests,
            limits=problem.limits,
            checker=checker or kind.checker_spec(problem),
            sandbox=sandbox,
            jobs=jobs,
            stop_on_failure=stop_on_failure,
            # the wrapped program is not the file on disk: it cannot be compiled in place
            build_options=dataclasses.replace(build_options, source_path=None) if build_options else None,
            on_result=on_result,
        )
    if interactor is None and kind.needs_interactor:
        # an interactive test is a dialogue: without an interactor there is nothing to judge it with (its
        # sample, compared as a file, would reject a right program asking other questions)
        try:
            interactor = kind.interactor(problem, sandbox or default_sandbox())
        except CpbotError as e:
            return JudgeReport(verdict=Verdict.IE, total=len(tests), language=solution.language, reason=e.message)
        if interactor is None:
            return JudgeReport(
                verdict=Verdict.IE,
                total=len(tests),
                language=solution.language,
                reason=f"{problem.id} is interactive and has no interactor to judge it with",
            )
    return judge_solution(
        solution,
        tests,
        limits=problem.limits,
        checker=checker or kind.checker_spec(problem),
        interactor=interactor,
        sandbox=sandbox,
        jobs=jobs,
        stop_on_failure=stop_on_failure,
        build_options=build_options,
        on_result=on_result,
    )


def _malformed_report(tests: list[TestCase], malformed: list[tuple[int, str]], language: str) -> JudgeReport:
    """IE before any run: tests whose input does not fit the function's signature (the tests' fault)."""
    results = [
        TestResult(
            index=i,
            name=tests[i - 1].name or f"test-{i}",
            verdict=Verdict.IE,
            checker_message=f"the test input is malformed: {why}",
        )
        for i, why in malformed
    ]
    first = results[0]
    more = f" ({len(results) - 1} more malformed)" if len(results) > 1 else ""
    return JudgeReport(
        verdict=Verdict.IE,
        results=results,
        total=len(tests),
        language=language,
        reason=f"IE on test {first.index} ({first.name}): {first.checker_message}{more}; no test was run",
    )
