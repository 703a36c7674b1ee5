"""Library Checker's problem layout (yosupo06/library-checker-problems): `info.toml` (title, `timelimit` in seconds,
`[[tests]]` each a generator `gen/NAME.cpp` run with the seeds 0..number-1 or a hand-written `gen/NAME_SS.in`,
`[[solutions]]` with the verdict each expects, `[params]`), `sol/correct.cpp` (the reference, whose outputs are the
answers), `verifier.cpp` (a testlib validator) and `checker.cpp` (a testlib checker). The builds include
`params.h`, made from `[params]` as the repository's generate.py makes it, and the repository's `common/` headers
(testlib.h, random.h), found in the package's grandparent folder as in the repository."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from cpbot.core.errors import ConfigError
from cpbot.judge.packages.files import inside, package_submission, statement_text
from cpbot.judge.packages.model import (
    Expected,
    GeneratedTest,
    PackageSubmission,
    PackageTest,
    ProblemPackage,
    TimeRules,
    Validator,
)

MAX_TOML_BYTES = 1 << 20
MAX_SEEDS = 1000
SAFETY_FACTOR = 2.0  # a stated limit should be twice the slowest accepted run: else `time-limit` warns
EXPECT = {"AC": Expected.ACCEPTED, "WA": Expected.WRONG_ANSWER, "TLE": Expected.TIME_LIMIT_EXCEEDED,
          "RE": Expected.RUN_TIME_ERROR}  # fmt: skip


def is_library_checker(root: Path) -> bool:
    return (root / "info.toml").is_file()


def read_library_checker(root: Path) -> ProblemPackage:
    """The problem in folder `root`; a `ConfigError` naming the file when it cannot be read."""
    root = root.resolve()
    info = _toml(root / "info.toml")
    notes: list[str] = []
    tests, generated = _tests(info, root, notes)
    reference = root / "sol" / "correct.cpp"
    if not reference.is_file():
        raise ConfigError(f"{root}: no sol/correct.cpp", hint="Library Checker's answers come from sol/correct.cpp")
    common = [d for d in (root.parent.parent / "common", root / "common") if (d / "testlib.h").is_file()]
    if not common:
        notes.append("no common/ folder with testlib.h beside the package: its C++ helpers may not build")
    checker = root / "checker.cpp"
    verifier = root / "verifier.cpp"
    return ProblemPackage(
        root=root,
        format="library-checker",
        name=str(info.get("title") or root.name),
        statement=task_statement(statement_text(root, ["task.md"]), info.get("params") or {}),
        memory_mb=1024,
        time=TimeRules(
            ac_to_time_limit=SAFETY_FACTOR, time_limit_to_tle=1.0, fixed_s=float(info.get("timelimit", 2.0))
        ),
        output_checker=str(checker) if checker.is_file() else "tokens",
        input_validators=[Validator(path=verifier, source=verifier, protocol="testlib")] if verifier.is_file() else [],
        tests=tests,
        generated=generated,
        reference=reference,
        headers={"params.h": _params_h(info.get("params") or {}, root)},
        include_dirs=common[:1],
        submissions=_solutions(info, root, reference, notes),
        notes=notes,
    )


def task_statement(task: str, params: dict[str, Any]) -> str:
    """The English text of a task.md, its parameters and keywords filled in (`@{param.MAX_N}`, `@{keyword.input}`)
    and its Japanese part and example markers left out."""
    task = re.sub(r"@\{lang\.ja\}.*?(?=@\{lang\.(?:en|end)\}|\Z)", "", task, flags=re.S)
    task = re.sub(r"@\{lang\.(?:en|end)\}\n?", "", task)
    task = re.sub(r"@\{example\.\w+\}\n?", "", task)
    task = re.sub(r"@\{param\.(\w+)\}", lambda m: str(params.get(m.group(1), m.group(0))), task)
    return re.sub(r"@\{keyword\.(\w+)\}", lambda m: m.group(1).replace("_", " ").capitalize(), task).strip() + "\n"


def _toml(path: Path) -> dict[str, Any]:
    if path.stat().st_size > MAX_TOML_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_TOML_BYTES} bytes", hint="an info.toml is a few lines")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: not readable TOML ({e})") from None


def _params_h(params: dict[str, Any], root: Path) -> str:
    """`#define` per parameter, as generate.py writes them."""
    lines = []
    for key, value in params.items():
        if not str(key).isidentifier():
            raise ConfigError(f"{root / 'info.toml'}: parameter {key!r} is not a C identifier")
        if isinstance(value, bool) or not isinstance(value, int | float | str) or '"' in str(value):
            raise ConfigError(f"{root / 'info.toml'}: parameter {key} has a value cpbot cannot write into params.h")
        text = f"(long long){value}" if isinstance(value, int) else f'"{value}"' if isinstance(value, str) else value
        lines.append(f"#define {key} {text}\n")
    return "".join(lines)


def _tests(info: dict[str, Any], root: Path, notes: list[str]) -> tuple[list[PackageTest], list[GeneratedTest]]:
    tests, generated = [], []
    for entry in info.get("tests") or []:
        name, number = str(entry.get("name", "")), int(entry.get("number", 0))
        stem = Path(name).stem
        source = root / "gen" / name
        if not name or Path(name).name != name or number < 0 or number > MAX_SEEDS:
            raise ConfigError(f"{root / 'info.toml'}: a [[tests]] entry without a plain name or a sane number")
        for seed in range(number):
            case = f"{stem}_{seed:02d}"
            if source.suffix == ".in":
                path = root / "gen" / f"{case}.in"
                if path.is_file() and inside(path, root):
                    tests.append(PackageTest(name=case, input=path, answer=None, sample=stem.startswith("example")))
                else:
                    notes.append(f"test {case}: gen/{case}.in is not in the package")
            elif source.is_file() and inside(source, root):
                generated.append(GeneratedTest(name=case, generator=source, args=[str(seed)]))
            else:
                notes.append(f"test {case}: its generator gen/{name} is not in the package")
    if not tests and not generated:
        raise ConfigError(f"{root / 'info.toml'}: no tests")
    return tests, generated


def _solutions(info: dict[str, Any], root: Path, reference: Path, notes: list[str]) -> list[PackageSubmission]:
    found = [PackageSubmission(path=reference, expected=Expected.ACCEPTED, language="cpp17")]
    for entry in info.get("solutions") or []:
        name = str(entry.get("name", ""))
        path = root / "sol" / name
        if not name or Path(name).name != name or not path.is_file():
            notes.append(f"solution {name or '?'}: not in sol/")
            continue
        # older info.toml files say `wrong = true` instead of `expect`; `allow_tle` (may be slow) asks no verdict
        expect = entry.get("expect") or ("WA" if entry.get("wrong") else "may TLE" if entry.get("allow_tle") else "AC")
        expected = EXPECT.get(str(expect))
        if expected is None or entry.get("function"):
            what = "a function, with a grader" if entry.get("function") else f"expects {expect}"
            notes.append(f"solution {name}: {what}, which cpbot verify does not judge")
            continue
        found.append(package_submission(path, expected, f"sol/{name}", notes))
    return found
