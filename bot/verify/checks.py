"""`cpbot verify PACKAGE`: the checks problemtools and BAPCtools make before a round, on cpbot's judge.

- generators: a package's generated tests (Library Checker) give the same bytes on two runs.
- input-validators: every test passes every input validator (Kattis protocol: exit 42; testlib: exit 0).
- validator-mutations: each input validator rejects near misses of a few tests (bot/verify/mutations.py).
- bounds: some test reaches each bound a testlib validator reports (bot/verify/bounds.py).
- output-validator: a custom validator accepts each test's own answer and rejects perturbed ones (empty, a
  number changed, a line dropped); one that accepts them all accepts anything.
- time-limit: the limit from the slowest accepted test and the format's multipliers (or the one stated).
- submissions: each submission gets the verdict its folder names, at the time limit (Kattis's first failing
  test decides); "OK with extra time" when only the limit with the TLE margin gives it, and "sensitive to the
  time limit" when the two limits give different verdicts. A `partially_accepted` one is judged on every test and
  must pass some groups of data/secret and not all ("PAC": `group_verdict`).
"""

from __future__ import annotations

import math
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cpbot.bot.verify.bounds import bounds_findings
from cpbot.bot.verify.generate import build_dirs, generate_tests
from cpbot.bot.verify.mutations import mutation_findings
from cpbot.bot.verify.report import AiReport, Finding, Status, SubmissionVerdict, VerifyReport
from cpbot.core.errors import ConfigError
from cpbot.judge.build import build_program_file
from cpbot.judge.checkers.base import CheckInput
from cpbot.judge.checkers.kattis import KattisValidator, run_validator
from cpbot.judge.interactive import KATTIS as KATTIS_PROTOCOL
from cpbot.judge.languages import BuildOptions, Program
from cpbot.judge.model import JudgeReport, Limits, Solution, TestCase, Verdict
from cpbot.judge.packages.model import Expected, PackageSubmission, ProblemPackage, Validator
from cpbot.judge.runner import judge_solution
from cpbot.judge.sandbox import Sandbox

MAX_TEST_BYTES = 256 << 20  # a test file larger than this is not read into memory
CEILING_S = 10.0  # the limit the accepted submissions run under when the package states none
PERTURBED_ANSWERS = 3  # tests whose answers the output validator sees perturbed
SAME_FAILURE_ROWS = 3  # more tests than this failing a validator alike make one row

# Kattis's verdicts from cpbot's (a memory or output limit is a run-time error there)
KATTIS = {
    Verdict.AC: "AC", Verdict.WA: "WA", Verdict.PE: "WA", Verdict.TLE: "TLE", Verdict.RE: "RTE",
    Verdict.MLE: "RTE", Verdict.OLE: "RTE", Verdict.CE: "CE", Verdict.IE: "JE",
}  # fmt: skip
REQUIRED = {
    Expected.ACCEPTED: "AC",
    Expected.WRONG_ANSWER: "WA",
    Expected.TIME_LIMIT_EXCEEDED: "TLE",
    Expected.RUN_TIME_ERROR: "RTE",
    Expected.REJECTED: "not AC",
    Expected.PARTIALLY_ACCEPTED: "PAC",  # some test groups of data/secret accepted, not all
}
REJECTED = REQUIRED[Expected.REJECTED]
Say = Callable[[str], None]


def _read(path: Path) -> str:
    if path.stat().st_size > MAX_TEST_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_TEST_BYTES >> 20} MB", hint="cpbot verify reads tests whole")
    return path.read_text(encoding="utf-8", errors="replace")


@dataclass(frozen=True)
class Verified:
    """What the checks settled, for a part run after them (`--ai`: bot/verify/ai.py): the package with its generated
    tests, every test read, the time limit, the submissions' verdicts, and how a program is judged."""

    package: ProblemPackage
    tests: list[TestCase]
    limit_s: float | None
    submissions: list[SubmissionVerdict]
    judging: Judging


After = Callable[[Verified], tuple[AiReport, list[Finding]]]


def verify_package(
    package: ProblemPackage, sandbox: Sandbox, say: Say = lambda _: None, after: After | None = None
) -> VerifyReport:
    """Every check on `package`, then `after` (its report and findings join the report); `say` gets a line as each
    part starts."""
    with tempfile.TemporaryDirectory(prefix="cpbot-verify-") as work:
        report, verified = _verify(package, sandbox, say, Path(work))
        if after is None or verified is None:
            return report
        ai, findings = after(verified)
        return report.model_copy(update={"findings": [*report.findings, *findings], "ai": ai})


def _verify(package: ProblemPackage, sandbox: Sandbox, say: Say, work: Path) -> tuple[VerifyReport, Verified | None]:
    findings: list[Finding] = []
    include_dirs = build_dirs(package, work)
    if package.generated:
        say(f"generating {len(package.generated)} tests, each twice")
    complete, found = generate_tests(package, sandbox, work, include_dirs)
    findings += found
    package = package.model_copy(update={"tests": complete})
    tests = [
        TestCase(input=_read(t.input), output=_read(t.answer) if t.answer else None, name=t.name, origin="user")
        for t in package.tests
    ]
    say(f"input validators on {len(tests)} tests")
    findings += _input_validators(package, sandbox, include_dirs)
    checker: object = package.output_checker
    interactor: Program | None = None
    if package.interactive and package.output_validator is not None:
        say("interactor")
        interactor, failed = _build(package.output_validator, sandbox, "interactor", include_dirs)
        if interactor is None:
            return _report(package, [*findings, failed], [], None), None  # type: ignore[list-item]
    elif package.output_validator is not None:
        say("output validator")
        validator, found = _output_validator(package, package.output_validator, sandbox)
        findings += found
        checker = validator if validator is not None else checker
    say("submissions")
    judging = Judging(checker, interactor, sandbox, include_dirs)
    verdicts, limit_s, found = _submissions(package, tests, judging, say)
    findings += found
    return _report(package, findings, verdicts, limit_s), Verified(package, tests, limit_s, verdicts, judging)


def _report(
    package: ProblemPackage, findings: list[Finding], verdicts: list[SubmissionVerdict], limit_s: float | None
) -> VerifyReport:
    return VerifyReport(
        package=str(package.root),
        format=package.format,
        name=package.name,
        time_limit_s=limit_s,
        tle_margin_s=limit_s * package.time.time_limit_to_tle if limit_s else None,
        findings=findings,
        submissions=verdicts,
        notes=package.notes,
    )


def _build(
    validator: Validator,
    sandbox: Sandbox,
    role: str,
    include_dirs: list[Path] = (),  # type: ignore[assignment]
) -> tuple[Program | None, Finding | None]:
    name = validator.path.name
    if validator.source is None:
        return None, Finding(check=role, subject=name, status=Status.SKIPPED, evidence=validator.unsupported)
    try:
        return build_program_file(validator.source, sandbox, role=role.rstrip("s"), include_dirs=include_dirs), None
    except ConfigError as e:
        return None, Finding(check=role, subject=name, status=Status.ERROR, evidence=e.message.splitlines()[0])


def _input_validators(package: ProblemPackage, sandbox: Sandbox, include_dirs: list[Path]) -> list[Finding]:
    check = "input-validators"
    if not package.input_validators:
        return [Finding(check=check, subject="(none)", status=Status.WARNING,
                        evidence="no input validator: nothing checks the tests against the constraints")]  # fmt: skip
    findings = []
    for validator in package.input_validators:
        program, failed = _build(validator, sandbox, check, include_dirs)
        if program is None:
            findings.append(failed)  # type: ignore[arg-type]
            continue
        failures: dict[str, list[str]] = {}  # the validator's message -> the tests it said it on
        for test in package.tests:
            result = run_validator(program, sandbox, test.input, who=f"input validator {validator.path.name}",
                                   protocol=validator.protocol)  # fmt: skip
            if result.verdict is not Verdict.AC:
                what = "rejects" if result.verdict is Verdict.WA else "fails on"
                failures.setdefault(f"{what} the test: {result.message}", []).append(test.name)
        for evidence, names in failures.items():
            # one row per test, or one for many tests failing alike (a package's line ends, say)
            subject = names[0] if len(names) <= SAME_FAILURE_ROWS else f"{len(names)} tests ({names[0]}, ...)"
            rows = names if len(names) <= SAME_FAILURE_ROWS else [subject]
            findings += [Finding(check=check, subject=f"{validator.path.name} on {row}", status=Status.ERROR,
                                 evidence=evidence) for row in rows]  # fmt: skip
        if not failures:
            findings.append(Finding(check=check, subject=validator.path.name, status=Status.OK,
                                    evidence=f"accepts all {len(package.tests)} tests"))  # fmt: skip
        findings += mutation_findings(program, validator, package.tests, sandbox)
        findings += bounds_findings(program, validator, package.tests, sandbox)
    return findings


def perturbed(answer: str) -> list[tuple[str, str]]:
    """Outputs a validator of this answer should reject: (how it was changed, the output)."""
    found = [("empty output", "")]
    number = re.search(r"-?\d+", answer)
    if number is not None:
        changed = str(int(number.group()) + 1)
        found.append(("a number changed", answer[: number.start()] + changed + answer[number.end() :]))
    lines = answer.rstrip("\n").split("\n")
    if len(lines) > 1:
        found.append(("the last line dropped", "\n".join(lines[:-1]) + "\n"))
    else:
        found.append(("a token added", answer.rstrip("\n") + " 0\n"))
    return found


def _output_validator(
    package: ProblemPackage, validator: Validator, sandbox: Sandbox
) -> tuple[KattisValidator | None, list[Finding]]:
    check = "output-validator"
    program, failed = _build(validator, sandbox, check)
    if program is None:
        return None, [failed]  # type: ignore[list-item]
    checker = KattisValidator(program, sandbox, name=validator.path.name)
    findings = []
    tried = accepted_wrong = 0
    for test in [t for t in package.tests if t.answer is not None][:PERTURBED_ANSWERS]:
        answer = _read(test.answer)  # type: ignore[arg-type]
        own = checker.check(CheckInput(test.input, answer.encode(), test.answer))
        if own.verdict is not Verdict.AC:
            findings.append(Finding(check=check, subject=test.name, status=Status.ERROR,
                                    evidence=f"rejects the test's own answer: {own.message}"))  # fmt: skip
        for how, output in perturbed(answer):
            tried += 1
            if checker.check(CheckInput(test.input, output.encode(), test.answer)).verdict is Verdict.AC:
                accepted_wrong += 1
                findings.append(Finding(check=check, subject=test.name, status=Status.WARNING,
                                        evidence=f"accepts the answer with {how}"))  # fmt: skip
    if tried and accepted_wrong == tried:
        findings.append(Finding(check=check, subject=validator.path.name, status=Status.ERROR,
                                evidence=f"accepts all {tried} perturbed answers: it may accept anything"))  # fmt: skip
    elif tried and not accepted_wrong:
        findings.append(Finding(check=check, subject=validator.path.name, status=Status.OK,
                                evidence=f"accepts the answers and rejects all {tried} perturbed ones"))  # fmt: skip
    return checker, findings


@dataclass(frozen=True)
class Judging:
    """How the package's submissions are judged: its checker, or its interactor (Kattis protocol)."""

    checker: object
    interactor: Program | None
    sandbox: Sandbox
    include_dirs: list[Path]


def _judge(
    sub: PackageSubmission, tests: list[TestCase], limit_s: float, package: ProblemPackage, how: Judging
) -> JudgeReport:
    solution = Solution(language=sub.language, source=sub.path.read_text(encoding="utf-8", errors="replace"))  # type: ignore[arg-type]
    partial = sub.expected is Expected.PARTIALLY_ACCEPTED  # every group judged, not only up to the first failure
    return judge_program(solution, tests, limit_s, package, how, source_path=sub.path, stop_on_failure=not partial)


def judge_program(
    solution: Solution,
    tests: list[TestCase],
    limit_s: float,
    package: ProblemPackage,
    how: Judging,
    source_path: Path | None = None,
    stop_on_failure: bool = True,
) -> JudgeReport:
    """`solution` on the package's `tests` as its submissions are judged (by default up to the first failure)."""
    return judge_solution(
        solution,
        tests,
        limits=Limits(time_ms=max(1, math.ceil(limit_s * 1000)), memory_mb=package.memory_mb),
        checker=how.checker,  # type: ignore[arg-type]
        interactor=how.interactor,
        interactor_protocol=KATTIS_PROTOCOL,
        sandbox=how.sandbox,
        stop_on_failure=stop_on_failure,
        build_options=BuildOptions(include_dirs=tuple(how.include_dirs), source_path=source_path),
    )


def group_verdict(report: JudgeReport, limit_ms: float) -> str:
    """The verdict of a run judged group by group (Kattis's `partially_accepted`): each folder of data/secret is a
    group (data/secret itself for its loose tests), accepted when every test in it is AC within the limit; "PAC"
    when some groups are accepted and some not, else as `verdict_at`. Scores are not weighed (every group counts
    alike)."""
    groups: dict[str, bool] = {}
    for r in report.results:
        group = r.name.rpartition("/")[0]
        if group and not r.name.startswith("sample/"):
            groups[group] = groups.get(group, True) and r.verdict is Verdict.AC and r.cpu_ms <= limit_ms
    accepted = sum(groups.values())
    if groups and 0 < accepted < len(groups):
        return "PAC"
    return verdict_at(report, limit_ms)


def verdict_at(report: JudgeReport, limit_ms: float) -> str:
    """Kattis's verdict of a run at a time limit of `limit_ms`: its first failing test's, a test slower than the
    limit counting as TLE."""
    if report.verdict in (Verdict.CE, Verdict.IE) and not report.results:
        return KATTIS[report.verdict]
    for r in report.results:
        if r.verdict is Verdict.AC and r.cpu_ms > limit_ms:
            return "TLE"
        if r.verdict is not Verdict.AC:
            return KATTIS[r.verdict]
    return "AC"


def limit_finding(slowest_ms: float, limit_s: float, package: ProblemPackage) -> Finding:
    """The time limit and where it comes from; a stated limit the slowest accepted test does not fit into with
    the format's safety factor (Kattis: 2.0 in 2023-07, 5 legacy; Polygon and Library Checker: 2) is a warning."""
    rules = package.time
    margin = f"TLE submissions must fail at {limit_s * rules.time_limit_to_tle:g} s too"
    subject = f"{limit_s:g} s"
    if rules.fixed_s is None:
        how = f"slowest accepted test {slowest_ms:.0f} ms x {rules.ac_to_time_limit:g}"
        how += f", rounded up to {rules.resolution_s:g} s"
        return Finding(check="time-limit", subject=subject, status=Status.OK, evidence=f"{how}; {margin}")
    if slowest_ms * rules.ac_to_time_limit > limit_s * 1000:
        why = (f"stated {limit_s:g} s without margin: the slowest accepted test takes {slowest_ms:.0f} ms, more than "
               f"1/{rules.ac_to_time_limit:g} of the limit; {margin}")  # fmt: skip
        return Finding(check="time-limit", subject=subject, status=Status.WARNING, evidence=why)
    return Finding(check="time-limit", subject=subject, status=Status.OK, evidence=f"stated {limit_s:g} s; {margin}")


def time_limit(slowest_s: float, package: ProblemPackage) -> float:
    """The format's time limit from the slowest accepted test: times the multiplier, up to the resolution."""
    rules = package.time
    if rules.fixed_s is not None:
        return rules.fixed_s
    steps = max(1, math.ceil(slowest_s * rules.ac_to_time_limit / rules.resolution_s - 1e-9))
    return steps * rules.resolution_s


def _submissions(
    package: ProblemPackage, tests: list[TestCase], how: Judging, say: Say
) -> tuple[list[SubmissionVerdict], float | None, list[Finding]]:
    findings: list[Finding] = []
    verdicts: list[SubmissionVerdict] = []
    judged = [s for s in package.submissions if s.language is not None]
    for sub in package.submissions:
        if sub.language is None:
            verdicts.append(SubmissionVerdict(path=submission_name(sub, package), expected=sub.expected.value,
                                              at_limit=None, at_margin=None))  # fmt: skip
    accepted = [s for s in judged if s.expected is Expected.ACCEPTED]
    rules = package.time
    first_limit = rules.fixed_s * rules.time_limit_to_tle if rules.fixed_s else CEILING_S
    reports: dict[Path, JudgeReport] = {}
    for sub in accepted:
        say(f"  {submission_name(sub, package)}")
        reports[sub.path] = _judge(sub, tests, first_limit, package, how)
    slowest = [max((r.cpu_ms for r in rep.results), default=0.0) for rep in reports.values() if rep.accepted]
    if not accepted:
        why = "no accepted submission cpbot can judge: nothing sets the time limit"
        findings.append(Finding(check="time-limit", subject="(none)", status=Status.ERROR, evidence=why))
        if rules.fixed_s is None:
            return verdicts, None, findings
    limit_s = time_limit(max(slowest, default=0.0) / 1000, package)
    margin_s = limit_s * rules.time_limit_to_tle
    findings.append(limit_finding(max(slowest, default=0.0), limit_s, package))
    for sub in judged:
        report = reports.get(sub.path)
        if report is None or sub.expected is not Expected.ACCEPTED:
            say(f"  {submission_name(sub, package)}")
            report = _judge(sub, tests, margin_s, package, how)
        verdicts.append(_verdict(sub, report, limit_s, margin_s, package))
        findings.append(_finding(verdicts[-1]))
    return verdicts, limit_s, findings


def submission_name(sub: PackageSubmission, package: ProblemPackage) -> str:
    """Its path in the package (Kattis's without the `submissions/` every one has)."""
    folder = package.root / "submissions"
    return sub.path.relative_to(folder if sub.path.is_relative_to(folder) else package.root).as_posix()


def _verdict(
    sub: PackageSubmission, report: JudgeReport, limit_s: float, margin_s: float, package: ProblemPackage
) -> SubmissionVerdict:
    verdict = group_verdict if sub.expected is Expected.PARTIALLY_ACCEPTED else verdict_at
    return SubmissionVerdict(
        path=submission_name(sub, package),
        expected=sub.expected.value,
        at_limit=verdict(report, limit_s * 1000),
        at_margin=verdict(report, margin_s * 1000),
        slowest_ms=max((r.cpu_ms for r in report.results), default=None),
    )


def meets(verdict: str | None, required: str) -> bool:
    """Whether a verdict is the one a submission's folder or tag asks for."""
    return verdict != "AC" if required == REJECTED else verdict == required


def _finding(v: SubmissionVerdict) -> Finding:
    required = REQUIRED[Expected(v.expected)]
    sensitive = "" if v.at_limit == v.at_margin else f"; sensitive to the time limit ({v.at_margin} with the margin)"
    if meets(v.at_limit, required):
        status = Status.WARNING if sensitive else Status.OK
        return Finding(check="submissions", subject=v.path, status=status, evidence=f"{v.at_limit}{sensitive}")
    if meets(v.at_margin, required):
        return Finding(check="submissions", subject=v.path, status=Status.WARNING,
                       evidence=f"{required} only with extra time (at the limit: {v.at_limit})")  # fmt: skip
    return Finding(check="submissions", subject=v.path, status=Status.ERROR,
                   evidence=f"got {v.at_limit}, expected {required}")  # fmt: skip
