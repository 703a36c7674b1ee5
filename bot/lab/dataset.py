"""Reading the lab's dataset (format in tests/fixtures/lab/README.md) and making its hidden tests.

Hidden tests are stored files, or inputs made by the problem's generator and answered by its reference;
made ones are cached under cpbot's cache dir, keyed by the hash of the generator, the reference and
the list of sizes and seeds, so a second run judges at once.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cpbot.core.dirs import cache_dir
from cpbot.core.errors import ConfigError, JudgeError
from cpbot.core.registry import LANGUAGE_BY_EXTENSION
from cpbot.core.safe_paths import component
from cpbot.judge.build import build_solution
from cpbot.judge.execute import execute
from cpbot.judge.generator import generate
from cpbot.judge.model import Limits, Problem, Solution, TestCase
from cpbot.judge.sandbox import Sandbox, default_sandbox

FORMAT_VERSION = 1
GENERATOR_MS = 120_000  # hidden tests are made once: a slow generator may take its time
REFERENCE_LIMITS = Limits(time_ms=20_000, memory_mb=2048, output_mb=256)

Label = Literal["right", "wrong"]


class LabCandidate(BaseModel):
    """One candidate program with what it does on the hidden tests."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    file: str
    label: Label
    kind: str  # right, wa, edge, off_by_one, comparison, overflow, modulus, tle, re
    origin: str  # library-checker, mutant, livecodebench
    note: str = ""


class GeneratedTest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    n: int
    seed: int


class HiddenSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    generated: list[GeneratedTest] = []
    files: list[str] = []
    answers: dict[str, str] = {}  # a file's answer when it is not beside it as NAME.out (a package's .ans, .a)


class LabSpec(BaseModel):
    """lab.json."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int = FORMAT_VERSION
    origin: str
    source: str
    licence: str
    reference: str | None = None
    brute: str | None = None
    generator: str | None = None
    validator: str | None = None  # an input validator (judge/validator.py): the population model's designer sends it
    hidden: HiddenSpec = HiddenSpec()
    candidates: list[LabCandidate] = []
    # flawed test-designer replies for `cpbot lab --flaws` the problem's programs cannot make
    # (cpbot/testing/flaws.py): flaw -> {"brute": file} and/or {"generator": file}
    flaws: dict[str, dict[str, str]] = {}


@dataclass(frozen=True)
class LabProblem:
    """A problem folder: its Problem, its lab.json, and its programs."""

    folder: Path
    spec: LabSpec
    problem: Problem

    @property
    def name(self) -> str:
        return self.folder.name

    def program(self, file: str) -> Solution:
        """The program in `file` (language from its extension)."""
        path = self.folder / file
        language = LANGUAGE_BY_EXTENSION.get(path.suffix.lower())
        if language is None:
            raise ConfigError(f"{path}: no language for {path.suffix!r}", hint="use .cpp or .py")
        return Solution(language=language, source=path.read_text())

    def optional(self, file: str | None) -> Solution | None:
        return self.program(file) if file else None

    @property
    def brute(self) -> Solution | None:
        return self.optional(self.spec.brute)

    @property
    def generator(self) -> Solution | None:
        return self.optional(self.spec.generator)

    @property
    def reference(self) -> Solution | None:
        return self.optional(self.spec.reference)


def load_problem(folder: Path) -> LabProblem:
    """The lab problem in `folder` (problem.json + lab.json)."""
    try:
        spec = LabSpec.model_validate_json((folder / "lab.json").read_text())
        problem = Problem.model_validate_json((folder / "problem.json").read_text())
    except (OSError, ValueError) as e:
        raise ConfigError(f"{folder} is not a lab problem: {e}", hint="see tests/fixtures/lab/README.md") from None
    if spec.schema_version != FORMAT_VERSION:
        raise ConfigError(
            f"{folder}/lab.json has schema_version {spec.schema_version}; this cpbot reads {FORMAT_VERSION}"
        )
    checker = (folder / problem.checker).resolve()
    if checker.is_file() and checker.is_relative_to(folder.resolve()):  # a checker program beside problem.json
        problem = problem.model_copy(update={"checker": str(checker)})
    return LabProblem(folder=folder, spec=spec, problem=problem)


def load_dataset(root: Path, only: set[str] | None = None) -> list[LabProblem]:
    """Every problem folder under `root` (a folder with lab.json is itself one problem), by name."""
    if (root / "lab.json").exists():
        return [load_problem(root)]
    folders = sorted(p.parent for p in root.glob("*/lab.json"))
    if not folders:
        raise ConfigError(f"no lab problems in {root}", hint="each problem is a folder with lab.json and problem.json")
    return [load_problem(f) for f in folders if only is None or f.name in only]


def hidden_tests(lab: LabProblem, sandbox: Sandbox | None = None) -> list[TestCase]:
    """The hidden tests of `lab`: stored ones, then generated ones (made once and cached)."""
    tests = []
    for i, file in enumerate(lab.spec.hidden.files, start=1):
        path = lab.folder / file
        answer = lab.folder / lab.spec.hidden.answers[file] if file in lab.spec.hidden.answers else None
        tests.append(
            TestCase(
                input=path.read_text(),
                output=(answer or path.with_suffix(".out")).read_text(),
                origin="user",
                name=f"hidden {path.stem}" if path.stem else f"hidden {i}",
            )
        )
    if lab.spec.hidden.generated:
        tests.extend(_generated(lab, sandbox or default_sandbox()))
    return tests


def _generated(lab: LabProblem, sandbox: Sandbox) -> list[TestCase]:
    generator, reference = lab.generator, lab.reference
    if generator is None or reference is None:
        raise ConfigError(f"{lab.name}: generated hidden tests need a generator and a reference")
    plan = [t.model_dump() for t in lab.spec.hidden.generated]
    key = hashlib.sha256(
        json.dumps([generator.source, reference.source, reference.language, plan]).encode()
    ).hexdigest()[:16]
    where = cache_dir() / "lab" / component(lab.name, "lab") / key
    if not (where / "done").exists():
        _make(lab, generator, reference, where, sandbox)
    return [
        TestCase(
            input=(where / f"{i}.in").read_text(),
            output=(where / f"{i}.out").read_text(),
            origin="generated",
            name=f"hidden n={t.n} seed={t.seed}",
        )
        for i, t in enumerate(lab.spec.hidden.generated)
    ]


def _make(lab: LabProblem, generator: Solution, reference: Solution, where: Path, sandbox: Sandbox) -> None:
    programs = []
    for what, source in (("generator", generator), ("reference", reference)):
        build = build_solution(source, sandbox)
        if build.program is None:
            raise JudgeError(f"{lab.name}: the {what} does not build: {build.log.strip()[:300]}")
        programs.append(build.program)
    gen, ref = programs
    where.mkdir(parents=True, exist_ok=True)
    for i, t in enumerate(lab.spec.hidden.generated):
        data = generate(gen, t.n, t.seed, sandbox, time_ms=GENERATOR_MS)
        run = execute(ref, data, sandbox, limits=REFERENCE_LIMITS)
        if run.verdict is not None:
            raise JudgeError(f"{lab.name}: the reference fails on n={t.n} seed={t.seed}: {run.verdict} {run.message}")
        (where / f"{i}.in").write_bytes(data)
        (where / f"{i}.out").write_bytes(run.stdout)
    (where / "done").write_text("")
