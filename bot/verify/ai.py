"""`cpbot verify PACKAGE --ai`: what the configured model makes of the package's problem, and which of its programs
get past the package's tests while wrong.

Each strategy solves the problem (statement and samples from the package: `judge/packages/problem.py`) k times
through `agents.solve`; the command hands the solves in (recorded in the transcript store as `cpbot solve`'s are).
Each program is judged on the package's tests as the package's submissions are (`checks.judge_program`). One that
passes them all goes through the gate's checks as `cpbot lab` runs them on a candidate (`bot/lab/measure.py`
`run_candidate`: generated tests, stress and its size ladder, profile), with the package's accepted submissions as
the oracle (the fastest one the brute force, the next ones its panel) and the input generators the solves' test
designers wrote. A program the gate shows wrong is a hole in the package's tests; its smallest breaking input
(shrunk as stress does), checked against the package's input validators, is the test to add.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cpbot.agents import seeding, verification
from cpbot.agents.solve import SolveResult
from cpbot.agents.verification import GateParams
from cpbot.bot.lab.dataset import LabCandidate, LabProblem, LabSpec
from cpbot.bot.lab.measure import ProblemChecks, lab_inputs, run_candidate
from cpbot.bot.verify.checks import Say, Verified, judge_program, submission_name, verdict_at
from cpbot.bot.verify.report import AiReport, Finding, ModelProgram, Status, StrategyRate
from cpbot.core.errors import ConfigError, CpbotError
from cpbot.judge.build import build_program_file
from cpbot.judge.checkers.kattis import run_validator
from cpbot.judge.model import Problem, Solution, StressFailure, Verdict
from cpbot.judge.packages.model import Expected, PackageSubmission, ProblemPackage
from cpbot.judge.packages.problem import package_problem
from cpbot.judge.testdir import save_next_test

CHECK = "ai"
ORACLE_PANEL = 3  # accepted submissions the gate compares with: the brute force and two more that must agree
MAX_GENERATORS = 2  # distinct generators written by the solves that the gate tries on a program
HACK_PREFIX = "ai-hack"  # --save-hacks writes ai-hack-000.in/.ans, ...

Oracle = list[tuple[PackageSubmission, Solution]]  # accepted submissions and their programs, fastest first
# (problem, strategy, run) -> the solve and its transcript's id
Solve = Callable[[Problem, str, int], tuple[SolveResult, str]]


def ai_refusal(package: ProblemPackage) -> str:
    """Why `--ai` cannot run on `package` ("" when it can): the solves judge with cpbot's checkers only."""
    if package.interactive:
        return "an interactive package: the model's programs would need its interactor in the solves"
    if package.output_validator is not None:
        return "a custom output validator (Kattis protocol): the solves judge with cpbot's checkers"
    return ""


@dataclass(frozen=True)
class AiCheck:
    """`--ai` as the part `verify_package` runs after its checks (`after=`)."""

    strategies: list[str]
    k: int
    model: str
    solve: Solve
    params: GateParams
    save_hacks: Path | None = None
    say: Say = lambda _: None

    def __call__(self, verified: Verified) -> tuple[AiReport, list[Finding]]:
        package = verified.package
        problem = package_problem(package, verified.limit_s)
        programs: list[ModelProgram] = []
        solutions: dict[int, Solution] = {}  # program index -> its program, for those passing the package's tests
        generators: list[Solution] = []
        for strategy in self.strategies:
            for run in range(1, self.k + 1):
                self.say(f"{strategy} #{run}: solving")
                row, solve = self._solve(problem, strategy, run, len(programs))
                if solve is not None and solve.solution is not None:
                    self._judge(row, solve.solution, verified, problem)
                    if row.on_tests == "AC":
                        solutions[len(programs)] = solve.solution
                    if solve.generator is not None and solve.generator not in generators:
                        generators.append(solve.generator)
                programs.append(row)
        oracle = _oracle(verified)
        saved: dict[str, str] = {}  # a breaking input -> the test it was saved as (programs alike break alike)
        gates = self._gates(verified, problem, oracle, generators[:MAX_GENERATORS]) if solutions and oracle else []
        for index, solution in solutions.items():
            row = programs[index]
            self.say(f"{row.strategy} #{row.run}: the gate")
            _gate(row, solution, gates, oracle)
            if row.breaking is not None:
                row.breaking_valid = _valid(row.breaking, verified)
                row.wrong = row.breaking_valid is not False
                if row.wrong and self.save_hacks is not None:
                    row.saved = saved.get(row.breaking.input) or _save(row.breaking, self.save_hacks)
                    saved[row.breaking.input] = row.saved
        report = AiReport(
            model=self.model,
            k=self.k,
            oracle=[submission_name(sub, package) for sub, _ in oracle[:ORACLE_PANEL]],
            generators=len(gates),
            rates=[_rate(strategy, [p for p in programs if p.strategy == strategy]) for strategy in self.strategies],
            programs=programs,
        )
        return report, _findings(report, len(verified.tests))

    def _solve(self, problem: Problem, strategy: str, run: int, index: int) -> tuple[ModelProgram, SolveResult | None]:
        try:
            with seeding.at(index):  # each run draws with seeds of its own, as a bench's samples do
                solve, transcript = self.solve(problem, strategy, run)
        except CpbotError as e:
            self.say(f"{strategy} #{run}: {e.message}")
            return ModelProgram(strategy=strategy, run=run, status="error", reason=e.message), None
        row = ModelProgram(strategy=strategy, run=run, status=solve.status, reason=solve.reason, transcript=transcript)
        return row, solve

    def _judge(self, row: ModelProgram, solution: Solution, verified: Verified, problem: Problem) -> None:
        limit_s = verified.limit_s or problem.limits.time_ms / 1000
        report = judge_program(solution, verified.tests, limit_s, verified.package, verified.judging)
        row.on_tests = verdict_at(report, limit_s * 1000)
        first = report.first_failure
        failed = first if first is not None else next((r for r in report.results if r.cpu_ms > limit_s * 1000), None)
        row.failed_test = failed.name if failed is not None and row.on_tests != "AC" else ""

    def _gates(
        self,
        verified: Verified,
        problem: Problem,
        oracle: Oracle,
        generators: list[Solution],
    ) -> list[ProblemChecks]:
        """The lab's per-problem checks, one per generator, against the oracle, judging on the package's tests."""
        package = verified.package
        sandbox = verified.judging.sandbox
        lab = LabProblem(
            folder=package.root,
            spec=LabSpec(origin=package.format, source=str(package.root), licence="the package's own"),
            problem=problem,
        )
        brute, panel = oracle[0][1], [s for _, s in oracle[1:ORACLE_PANEL]]
        gates = []
        for generator in generators:
            inputs = lab_inputs(generator, self.params.tests, sandbox)
            suite = verification.generated_suite(inputs, problem, brute=brute, generator=generator, sandbox=sandbox)
            if suite.generator is None:
                continue  # the solve's generator does not build or print inputs of the samples' shape
            gates.append(ProblemChecks(lab, self.params, sandbox, suite=suite, panel=panel, hidden=verified.tests))
        return gates


def _oracle(verified: Verified) -> Oracle:
    """The accepted submissions cpbot judged AC on every test, fastest first, with their programs."""
    package = verified.package
    passed = {v.path: v.slowest_ms or 0.0 for v in verified.submissions if v.at_limit == "AC"}
    found = []
    for sub in package.submissions:
        name = submission_name(sub, package)
        if sub.expected is Expected.ACCEPTED and sub.language is not None and name in passed:
            source = sub.path.read_text(encoding="utf-8", errors="replace")
            found.append((passed[name], sub, Solution(language=sub.language, source=source)))
    found.sort(key=lambda item: item[0])
    return [(sub, solution) for _, sub, solution in found]


def _gate(row: ModelProgram, solution: Solution, gates: list[ProblemChecks], oracle: Oracle) -> None:
    """The gate's checks on one program that passed the package's tests, generator after generator until one
    catches it."""
    if not oracle:
        row.gate, row.gate_detail = "unchecked", "no accepted submission passes the package's tests to be the oracle"
        return
    if not gates:
        row.gate, row.gate_detail = "unchecked", "no solve wrote an input generator the gate could run"
        return
    # a lab label says what a program does on the hidden tests: this one passed them all
    candidate = LabCandidate(file=f"{row.strategy}#{row.run}", label="right", kind="model", origin=row.strategy)
    details = []
    for checks in gates:
        result = run_candidate(checks, candidate, solution)
        if result.caught_by is not None:
            row.gate, row.gate_detail, row.breaking = f"caught by {result.caught_by}", result.detail, result.breaking
            row.wrong = row.breaking is None  # caught without an input (a profile too slow at the bound)
            return
        details.append(result.detail)
    row.gate, row.gate_detail = "clean", "; ".join(details)


def _valid(breaking: StressFailure, verified: Verified) -> bool | None:
    """Whether every input validator of the package accepts the breaking input (None: it has none cpbot runs)."""
    sandbox = verified.judging.sandbox
    asked = False
    for validator in verified.package.input_validators:
        if validator.source is None:
            continue
        try:
            program = build_program_file(
                validator.source, sandbox, role="input validator", include_dirs=verified.judging.include_dirs
            )
        except ConfigError:
            continue  # the checks' table already says it does not build
        asked = True
        result = run_validator(program, sandbox, breaking.input.encode(), protocol=validator.protocol)
        if result.verdict is not Verdict.AC:
            return False
    return True if asked else None


def _save(breaking: StressFailure, folder: Path) -> str:
    path = save_next_test(folder, HACK_PREFIX, breaking.input, breaking.expected, answer_suffix=".ans")
    return path.stem


def _rate(strategy: str, rows: list[ModelProgram]) -> StrategyRate:
    passed = [p for p in rows if p.on_tests == "AC"]
    wrong = [p for p in passed if p.wrong]
    return StrategyRate(
        strategy=strategy,
        runs=len(rows),
        passed_tests=len(passed),
        wrong_past_tests=len(wrong),
        solved=sum(p.gate == "clean" for p in passed),
    )


def _findings(report: AiReport, tests: int) -> list[Finding]:
    """An error per program that passes every test but is wrong (the tests miss its mistake), a warning per one
    caught only on an input the package's validators reject, and one summary row."""
    findings = []
    for p in report.programs:
        subject = f"{p.strategy}#{p.run}"
        why = p.gate_detail.split("; ")[-1] if p.gate_detail else p.gate
        if p.wrong:
            saved = f"; the breaking test is {p.saved}.in/.ans" if p.saved else ""
            evidence = f"passes all {tests} tests but is wrong: {why}{saved}"
            findings.append(Finding(check=CHECK, subject=subject, status=Status.ERROR, evidence=evidence))
        elif p.breaking_valid is False:
            evidence = f"{p.gate} only on an input the package's input validators reject ({why})"
            findings.append(Finding(check=CHECK, subject=subject, status=Status.WARNING, evidence=evidence))
    runs = len(report.programs)
    errors = sum(p.status == "error" for p in report.programs)
    passed = sum(p.on_tests == "AC" for p in report.programs)
    unchecked = sum(p.gate == "unchecked" for p in report.programs)
    if errors == runs:
        failed = next((p.reason for p in report.programs), "")
        findings.append(
            Finding(check=CHECK, subject="model", status=Status.ERROR, evidence=f"every solve failed: {failed}")
        )
    elif unchecked:
        why = next(p.gate_detail for p in report.programs if p.gate == "unchecked")
        evidence = f"{unchecked} programs passing the tests were not checked further: {why}"
        findings.append(Finding(check=CHECK, subject="gate", status=Status.WARNING, evidence=evidence))
    if not any(f.status is Status.ERROR for f in findings):
        evidence = f"{passed} of {runs} model programs pass the tests; none of them is shown wrong"
        findings.append(Finding(check=CHECK, subject=f"{runs} programs", status=Status.OK, evidence=evidence))
    return findings
