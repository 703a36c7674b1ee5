"""What each configuration of the gate lets through, measured on labelled candidates (no model).

The configurations add one check each, in the order the `cpbot` strategy runs them, and call the same
functions (agents/verification.py):
- `samples`: AC on the samples;
- `generated`: + AC on generated tests (inputs from the problem's generator at small sizes, standing in
  for the ones a model writes, answered by the brute force once it passes the samples);
- `stress`: + no difference from the brute force on small inputs (sizes up to `stress_size`);
- `profile`: + a profile within the limits (the default gate before the size ladder);
- `ladder`: + no difference from the brute force at doubling sizes while it answers quickly (the
  default gate: the strategy's stress check runs the small sizes and then the ladder).
Passing is an AND over the checks, so the order only moves where time is spent: the ladder runs last
here so that one run measures the gate with and without it. A check that cannot run (no brute force,
no generator, no size bound) is skipped, as in the strategy.
Precision: of the programs a configuration lets through, the share right on the hidden tests; recall:
of the right programs, the share it lets through; seconds: the checks' time per candidate.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cpbot.agents import verification
from cpbot.agents.roles import testgen
from cpbot.agents.roles.stresser import StressError
from cpbot.agents.verification import GateParams
from cpbot.bot.lab.dataset import LabCandidate, LabProblem, hidden_tests
from cpbot.core.errors import ConfigError, CpbotError
from cpbot.judge.build import build_solution
from cpbot.judge.generator import generate
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import (
    SCHEMA_VERSION,
    JudgeReport,
    Problem,
    Solution,
    StressFailure,
    StressReport,
    TestCase,
    Verdict,
)
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import Sandbox, default_sandbox
from cpbot.judge.validator import InputGate

Config = Literal["samples", "generated", "stress", "profile", "ladder"]
CONFIGS: tuple[Config, ...] = ("samples", "generated", "stress", "profile", "ladder")
INPUT_SEED = 500  # the generated tests' seeds start here (stress seeds start at 1)


class CandidateResult(BaseModel):
    """One candidate: its label, the hidden tests' verdict, and which configurations let it through."""

    model_config = ConfigDict(extra="forbid")

    problem: str
    file: str
    label: str
    kind: str
    origin: str
    oracle: bool  # the problem has a brute force and a generator
    hidden_ok: bool  # right on the hidden tests (what precision counts)
    hidden_detail: str = ""
    passed: dict[str, bool]  # configuration -> let through
    seconds: dict[str, float]  # configuration -> the time of its checks on this candidate
    caught_by: str | None = None  # the first check that rejected it
    detail: str = ""  # why it was rejected, or what was skipped
    flaw: str = ""  # flaw mode (bot/lab/flawed.py): the flaw of the designer's reply ("right": none)
    # why passing every check is not a "solved" claim: the oracle it was checked against did not agree
    unverified: str = ""
    # the smallest input a check found it wrong on, with the oracle's answer (stress, the ladder, a generated test)
    breaking: StressFailure | None = None


class Figures(BaseModel):
    """One configuration's figures over a set of candidates."""

    model_config = ConfigDict(extra="forbid")

    config: str
    candidates: int
    let_through: int
    right_let_through: int
    right: int
    wrong_let_through: int
    wrong: int
    precision: float | None
    recall: float | None
    seconds_per_candidate: float


class LabReport(BaseModel):
    """`cpbot lab --json`."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    params: GateParams
    problems: int
    results: list[CandidateResult]
    overall: list[Figures]
    slices: dict[str, list[Figures]]  # "oracle", "no oracle", "origin:<o>", "kind:<k>"
    label_mismatches: list[str] = []  # candidates whose hidden verdict disagrees with their label


def gate_params(settings: Iterable[str]) -> GateParams:
    """`--set NAME=VALUE` items (`cpbot lab`, `cpbot verify --ai`) as the gate's parameters."""
    values: dict[str, str] = {}
    for item in settings:
        name, sep, value = item.partition("=")
        if not sep or name not in GateParams.model_fields:
            raise ConfigError(
                f"--set {item!r}: not NAME=VALUE of a gate parameter", hint=", ".join(GateParams.model_fields)
            )
        values[name] = value
    return GateParams.model_validate(values)


def share(part: int, whole: int) -> float | None:
    """`part / whole` to four places, the way precision and recall are reported; None when `whole` is 0."""
    return round(part / whole, 4) if whole else None


def figures(results: Iterable[CandidateResult], config: Config) -> Figures:
    """Precision, recall and seconds per candidate of `config` over `results`."""
    rows = list(results)
    through = [r for r in rows if r.passed[config]]
    right = [r for r in rows if r.hidden_ok]
    right_through = [r for r in through if r.hidden_ok]
    return Figures(
        config=config,
        candidates=len(rows),
        let_through=len(through),
        right_let_through=len(right_through),
        right=len(right),
        wrong_let_through=len(through) - len(right_through),
        wrong=len(rows) - len(right),
        precision=share(len(right_through), len(through)),
        recall=share(len(right_through), len(right)),
        seconds_per_candidate=round(sum(r.seconds[config] for r in rows) / len(rows), 3) if rows else 0.0,
    )


def summarize(results: list[CandidateResult], params: GateParams, problems: int) -> LabReport:
    """The report: figures overall and per slice (oracle or not, origin, kind)."""
    slices: dict[str, list[CandidateResult]] = {
        "oracle": [r for r in results if r.oracle],
        "no oracle": [r for r in results if not r.oracle],
    }
    for r in results:
        slices.setdefault(f"origin:{r.origin}", []).append(r)
        slices.setdefault(f"kind:{r.kind}", []).append(r)
    mismatches = [
        f"{r.problem}/{r.file}: labelled {r.label}, {'passes' if r.hidden_ok else 'fails'} the hidden tests"
        for r in results
        if r.hidden_ok != (r.label == "right")
    ]
    return LabReport(
        params=params,
        problems=problems,
        results=results,
        overall=[figures(results, c) for c in CONFIGS],
        slices={name: [figures(rows, c) for c in CONFIGS] for name, rows in slices.items() if rows},
        label_mismatches=mismatches,
    )


def lab_inputs(generator: Solution, count: int, sandbox: Sandbox) -> list[str]:
    """Stand-ins for the model's generated inputs: the generator at sizes 1..`count`."""
    build = build_solution(generator, sandbox)
    if build.program is None:
        return []
    return [generate(build.program, n, INPUT_SEED + n, sandbox).decode(errors="replace") for n in range(1, count + 1)]


class ProblemChecks:
    """The per-problem parts of the checks, made once: hidden tests, the generated suite (and in flaw mode the
    other brute forces of the panel, and why it has no agreeing oracle: `bot/lab/flawed.py`)."""

    def __init__(
        self,
        lab: LabProblem,
        params: GateParams,
        sandbox: Sandbox,
        *,
        suite: testgen.GeneratedSuite | None = None,
        panel: Sequence[Solution] = (),
        no_oracle: str = "",
        strict: bool = False,
        hidden: list[TestCase] | None = None,
        gate: InputGate | None = None,
        judged_as: Problem | None = None,
    ) -> None:
        self.lab, self.params, self.sandbox = lab, params, sandbox
        # hidden: the tests a program is judged right on, when not the lab problem's own (`cpbot verify --ai`)
        self.hidden = hidden_tests(lab, sandbox) if hidden is None else hidden
        # the problem as the gate judges it (its checker may differ from the true one: the flaw `no_checker`);
        # the hidden tests always judge with lab.problem
        self.problem = judged_as or lab.problem
        self.gate = gate  # the validator's door for the stress, ladder and profile inputs (None: shape only)
        # strict: a candidate not stressed against an agreeing oracle (none, or stress inconclusive) is unverified
        self.panel, self.no_oracle, self.strict = list(panel), no_oracle, strict
        started = time.monotonic()
        if suite is None:
            generator, brute = lab.generator, lab.brute
            inputs = lab_inputs(generator, params.tests, sandbox) if generator is not None else []
            suite = verification.generated_suite(inputs, lab.problem, brute=brute, generator=generator, sandbox=sandbox)
        self.suite = suite
        self.suite_seconds = time.monotonic() - started

    @property
    def oracle(self) -> bool:
        return self.suite.brute is not None and self.suite.generator is not None


def _starved(report: JudgeReport, time_ms: int) -> bool:
    """A TLE on wall time with little CPU: the machine was too busy to tell, so the hidden tests run again."""
    first = report.first_failure
    return first is not None and first.verdict == Verdict.TLE and first.cpu_ms < time_ms / 2


def run_candidate(checks: ProblemChecks, candidate: LabCandidate, solution: Solution | None = None) -> CandidateResult:
    """Every configuration on one candidate (its file's program, or `solution`: a model's); a check runs only if
    the ones before it passed."""
    lab, params, sandbox = checks.lab, checks.params, checks.sandbox
    solution = solution or lab.program(candidate.file)
    problem, gate = checks.problem, checks.gate
    hidden = judge_problem(solution, lab.problem, checks.hidden, sandbox=sandbox, stop_on_failure=True)
    if _starved(hidden, problem.limits.time_ms):
        hidden = judge_problem(solution, lab.problem, checks.hidden, sandbox=sandbox, stop_on_failure=True)
    passed: dict[str, bool] = {}
    seconds: dict[str, float] = {}
    caught: str | None = None
    breaking: StressFailure | None = None
    notes: list[str] = []
    spent = 0.0

    def step(config: Config, check: Callable[[], str | None]) -> None:
        nonlocal caught, spent
        if caught is None:
            started = time.monotonic()
            why = check()
            spent += time.monotonic() - started
            if why is not None:
                caught = config
                notes.append(why)
        passed[config] = caught is None
        seconds[config] = round(spent, 3)

    suite_share = checks.suite_seconds / max(1, len(lab.spec.candidates))
    unverified = [checks.no_oracle] if checks.no_oracle else []

    def unstressed(why: str) -> None:
        if checks.strict:
            unverified.append(why)

    def contested(report: StressReport) -> None:
        if report.contested:
            unverified.append(f"the brute forces disagreed on {report.contested} stress inputs")

    def samples() -> str | None:
        report = judge_problem(solution, problem, sandbox=sandbox)
        return None if report.verdict == Verdict.AC else f"samples: {report.verdict} {report.reason}".strip()

    def generated() -> str | None:
        nonlocal spent
        spent += suite_share
        tests = checks.suite.tests.tests
        if not tests:
            notes.append("no generated tests")
            return None
        report = judge_problem(solution, problem, [*problem.samples, *tests], sandbox=sandbox)
        if report.verdict == Verdict.AC:
            return None
        found(failed_test(report, [*problem.samples, *tests]))
        return f"generated: {report.verdict} {report.reason}".strip()

    def found(failure: StressFailure | None) -> None:
        nonlocal breaking
        breaking = breaking or failure

    def oracle() -> tuple[Solution, Solution] | None:
        brute, generator = checks.suite.brute, checks.suite.generator
        if brute is None or generator is None or not problem_kind(problem.kind).stress_applies:
            return None
        return brute, generator

    def stress() -> str | None:
        programs = oracle()
        if programs is None:
            notes.append("not stressed")
            unstressed("not stressed")
            return None
        try:
            report = verification.small_stress(
                solution, *programs, problem, params, seed=1, sandbox=sandbox, gate=gate, panel=checks.panel
            )
        except StressError as e:
            notes.append(f"stress inconclusive: {e.message}")
            unstressed(f"stress inconclusive: {e.message}")
            return None
        contested(report)
        if report.runs and report.invalid >= report.runs:  # nothing compared (as the strategy's input_gate says)
            notes.append("not stressed: every stress input breaks the constraints")
            unstressed("every stress input breaks the constraints (the validator rejects them)")
            return None
        if report.status == "clean":
            notes.append(f"stress clean after {report.runs} runs in {report.seconds:.1f} s")
            return None
        found(report.failure)
        return f"stress: {report.reason}"

    def ladder() -> str | None:
        programs = oracle()
        if programs is None:
            return None
        try:
            report = verification.ladder(
                solution, *programs, problem, params, seed=1, sandbox=sandbox, gate=gate, panel=checks.panel
            )
        except StressError as e:
            notes.append(f"ladder inconclusive: {e.message}")
            return None
        if report is None:
            notes.append("no size ladder")
            return None
        contested(report)
        if report.status == "clean":
            notes.append(f"ladder: {report.reason}")
            return None
        found(report.failure)
        return f"ladder: {report.reason}"

    def profile() -> str | None:
        generator = checks.suite.generator
        if not params.profile or generator is None or not verification.profile_size(problem, params):
            notes.append("not profiled")
            return None
        try:
            report = verification.profile(solution, generator, problem, params, sandbox=sandbox, gate=gate)
        except CpbotError as e:
            notes.append(f"not profiled: {e.message}")
            return None
        return None if verification.profile_accepts(report) else f"profile: {report.reason}"

    for config, check in zip(CONFIGS, (samples, generated, stress, profile, ladder), strict=True):
        step(config, check)
    return CandidateResult(
        problem=lab.name,
        file=candidate.file,
        label=candidate.label,
        kind=candidate.kind,
        origin=candidate.origin,
        oracle=checks.oracle,
        hidden_ok=hidden.verdict == Verdict.AC,
        hidden_detail="" if hidden.verdict == Verdict.AC else f"{hidden.verdict} {hidden.reason}".strip(),
        passed=passed,
        seconds=seconds,
        caught_by=caught,
        detail="; ".join(notes),
        unverified="; ".join(unverified),
        breaking=breaking,
    )


def failed_test(report: JudgeReport, tests: list[TestCase]) -> StressFailure | None:
    """The first test `report` failed, as a failure of its input (size and seed 0: a test, not a draw)."""
    first = report.first_failure
    if first is None or not 1 <= first.index <= len(tests) or first.verdict == Verdict.IE:
        return None
    test = tests[first.index - 1]
    return StressFailure(size=0, seed=0, input=test.input, expected=test.output or "", got=first.stdout,
                         verdict=first.verdict, message=first.checker_message)  # fmt: skip


def run_problem(lab: LabProblem, params: GateParams, sandbox: Sandbox | None = None) -> list[CandidateResult]:
    """Every configuration on every candidate of one problem."""
    checks = ProblemChecks(lab, params, sandbox or default_sandbox())
    return [run_candidate(checks, c) for c in lab.spec.candidates]


def _run_problem_in_worker(lab: LabProblem, params: GateParams) -> list[CandidateResult]:
    return run_problem(lab, params)


def run_lab(
    problems: list[LabProblem],
    params: GateParams | None = None,
    *,
    jobs: int = 1,
    progress: Callable[[CandidateResult], None] | None = None,
) -> LabReport:
    """Run every configuration on every candidate of `problems`, `jobs` problems at a time (each in its
    own process with its own sandbox)."""
    params = params or GateParams()
    results: list[CandidateResult] = []
    if jobs <= 1:
        batches: Iterable[list[CandidateResult]] = (run_problem(lab, params) for lab in problems)
        for batch in batches:
            results += batch
            for r in batch if progress else ():
                progress(r)  # type: ignore[misc]
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for batch in pool.map(_run_problem_in_worker, problems, [params] * len(problems)):
                results += batch
                for r in batch if progress else ():
                    progress(r)  # type: ignore[misc]
    return summarize(results, params, len(problems))


def merge(reports: Iterable[LabReport]) -> LabReport:
    """One report from several runs with the same parameters (say, one per problem, run in parallel)."""
    reports = list(reports)
    params = {r.params for r in reports}
    if len(params) != 1:
        raise ConfigError("the reports were made with different gate parameters", hint="merge runs of one setting")
    results = [row for r in reports for row in r.results]
    return summarize(results, params.pop(), sum(r.problems for r in reports))
