"""A problem package (Kattis, Polygon, Library Checker: `judge/packages/`) as a lab problem, so the lab measures the
gate on the programs a setter's tools also read: accepted submissions are right candidates, the others wrong
ones, the first accepted is the reference, the package's tests (its samples aside) are the hidden tests. Tests a
package makes (Library Checker's generators) and custom output validators are not taken yet."""

from __future__ import annotations

from pathlib import Path

from cpbot.bot.lab.dataset import HiddenSpec, LabCandidate, LabProblem, LabSpec, load_dataset
from cpbot.core.errors import ConfigError
from cpbot.judge.packages import is_package, read_package
from cpbot.judge.packages.model import Expected, ProblemPackage
from cpbot.judge.packages.problem import package_problem


def load_lab(root: Path, only: set[str] | None = None) -> list[LabProblem]:
    """The lab problems at `root`: a problem package is one, else the lab's own dataset (`load_dataset`)."""
    return [lab_problem(root)] if is_package(root) else load_dataset(root, only)


def lab_problem(root: Path) -> LabProblem:
    """The package in `root` as a lab problem; a `ConfigError` when the lab cannot judge it."""
    package = read_package(root)
    if package.output_validator is not None or package.interactive:
        raise ConfigError(f"{root}: a custom output validator or an interactive package; the lab judges neither yet")
    judged = [s for s in package.submissions if s.language is not None]
    accepted = [s for s in judged if s.expected is Expected.ACCEPTED]
    if not accepted:
        raise ConfigError(f"{root}: no accepted submission cpbot can judge to be the reference")
    candidates = [
        LabCandidate(
            file=_relative(s.path, package),
            label="right" if s.expected is Expected.ACCEPTED else "wrong",
            kind=s.expected.value,
            origin=package.format,
        )
        for s in judged
        if s.expected is not Expected.PARTIALLY_ACCEPTED
    ]
    hidden = [t for t in package.tests if not t.sample and t.answer is not None]
    spec = LabSpec(
        origin=package.format,
        source=str(package.root),
        licence="the package's own",
        reference=_relative(accepted[0].path, package),
        hidden=HiddenSpec(
            files=[_relative(t.input, package) for t in hidden],
            answers={_relative(t.input, package): _relative(t.answer, package) for t in hidden},  # type: ignore[arg-type]
        ),
        candidates=candidates,
    )
    return LabProblem(folder=package.root, spec=spec, problem=package_problem(package))


def _relative(path: Path, package: ProblemPackage) -> str:
    return path.relative_to(package.root).as_posix()
