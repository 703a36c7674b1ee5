"""The tests a package makes rather than holds (Library Checker's `gen/*.cpp SEED`, Polygon's `cmd`s): each
generator is run twice and must give the same bytes (check `generators`), and the reference solution's output is
the answer."""

from __future__ import annotations

from pathlib import Path

from cpbot.bot.verify.report import Finding, Status
from cpbot.core.errors import ConfigError
from cpbot.core.safe_paths import component
from cpbot.judge.build import build_program_file
from cpbot.judge.execute import execute
from cpbot.judge.languages import Program
from cpbot.judge.model import Limits
from cpbot.judge.packages.model import PackageTest, ProblemPackage
from cpbot.judge.sandbox import Sandbox

GENERATOR_LIMITS = Limits(time_ms=30_000, memory_mb=2048)
CHECK = "generators"


def build_dirs(package: ProblemPackage, work: Path) -> list[Path]:
    """Include dirs for the package's builds: its made headers, found as `"params.h"` and as `"../params.h"`
    (a generator in gen/ includes it so), then its shared headers."""
    if not package.headers:
        return list(package.include_dirs)
    nested = work / "headers" / "here"
    nested.mkdir(parents=True)
    for name, text in package.headers.items():
        for folder in (nested, nested.parent):
            (folder / name).write_text(text, encoding="utf-8")
    for folder in (work, work / "headers", nested):
        folder.chmod(0o755)  # the compiler in the sandbox reads them
    return [nested, nested.parent, *package.include_dirs]


def generate_tests(
    package: ProblemPackage, sandbox: Sandbox, work: Path, include_dirs: list[Path]
) -> tuple[list[PackageTest], list[Finding]]:
    """The package's tests with the generated ones, written under `work` (a held test without an answer gets the
    reference's), and what the generators check found."""
    if not package.generated and (package.reference is None or all(t.answer for t in package.tests)):
        return package.tests, []
    folder = work / "generated"
    folder.mkdir()
    folder.chmod(0o755)
    programs: dict[Path, Program | None] = {}
    findings: list[Finding] = []
    reference = _program(package.reference, sandbox, include_dirs, "reference", findings) if package.reference else None
    tests, differing = [], 0
    for held in package.tests:
        answer = held.answer or _answer(reference, held.input, sandbox, held.name, findings, folder)
        tests.append(held.model_copy(update={"answer": answer}))
    for test in package.generated:
        if test.generator not in programs:
            programs[test.generator] = _program(test.generator, sandbox, include_dirs, "generator", findings)
        program = programs[test.generator]
        if program is None:
            continue
        command = f"{test.generator.name} {' '.join(test.args)}"
        first = execute(program, b"", sandbox, limits=GENERATOR_LIMITS, args=test.args)
        if first.verdict is not None:
            findings.append(Finding(check=CHECK, subject=test.name, status=Status.ERROR,
                                    evidence=f"{command}: {first.verdict} {first.message}".strip()))  # fmt: skip
            continue
        again = execute(program, b"", sandbox, limits=GENERATOR_LIMITS, args=test.args)
        if again.stdout != first.stdout:
            differing += 1
            why = f"{command} gives different bytes on two runs: not deterministic"
            findings.append(Finding(check=CHECK, subject=test.name, status=Status.ERROR, evidence=why))
        given = folder / f"{component(test.name, 'test')}.in"  # Polygon's names hold a folder: tests/02
        given.write_bytes(first.stdout)
        answer = _answer(reference, given, sandbox, test.name, findings, folder)
        tests.append(PackageTest(name=test.name, input=given, answer=answer, sample=False))
    if package.generated and not differing:
        same = f"the same bytes twice for all {len(package.generated)} tests they make"
        findings.append(Finding(check=CHECK, subject=f"{len(programs)} generators", status=Status.OK, evidence=same))
    return tests, findings


def _program(
    source: Path, sandbox: Sandbox, include_dirs: list[Path], role: str, findings: list[Finding]
) -> Program | None:
    try:
        return build_program_file(source, sandbox, role=role, include_dirs=include_dirs)
    except ConfigError as e:
        findings.append(Finding(check=CHECK, subject=source.name, status=Status.ERROR,
                                evidence=e.message.splitlines()[0]))  # fmt: skip
        return None


def _answer(
    reference: Program | None, given: Path, sandbox: Sandbox, name: str, findings: list[Finding], folder: Path
) -> Path | None:
    if reference is None:
        return None
    run = execute(reference, given, sandbox, limits=GENERATOR_LIMITS)
    if run.verdict is not None:
        why = f"the reference solution fails on it: {run.verdict} {run.message}"
        findings.append(Finding(check=CHECK, subject=name, status=Status.ERROR, evidence=why))
        return None
    answer = folder / f"{component(name, 'test')}.ans"
    answer.write_bytes(run.stdout)
    return answer
