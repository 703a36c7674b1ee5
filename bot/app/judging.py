"""`cpbot judge`'s work: where a solution's tests are, and the solution file judged on them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cpbot.bot.app.problem_folder import PROBLEM_FILE, load_problem
from cpbot.core.errors import ConfigError
from cpbot.core.registry import Family, language_spec
from cpbot.judge.kinds import problem_kind
from cpbot.judge.languages import BuildOptions, get_language, language_for
from cpbot.judge.model import JudgeReport, Limits, Problem, Solution, TestCase
from cpbot.judge.runner import OnResult, judge_problem, judge_solution
from cpbot.judge.testdir import has_cf_tool_tests, load_cf_tool_tests, load_tests_dir, read_text_exact


def build_options(
    solution: Path, include_dirs: tuple[Path, ...], with_sources: tuple[Path, ...], flags: tuple[str, ...] = ()
) -> BuildOptions:
    """How to build the solution file: its own name in messages, the -I dirs, the --with sources, the flags."""
    names = [solution.name, *(p.name for p in with_sources)]
    if len(set(names)) != len(names):
        raise ConfigError(f"two sources share a file name: {', '.join(names)}", hint="rename one of them")
    return BuildOptions(
        include_dirs=tuple(p.resolve() for p in include_dirs),
        extra_sources=tuple((p.name, read_text_exact(p)) for p in with_sources),
        filename=solution.name,
        source_path=solution,
        flags=flags,
    )


def first_build_note(source: Path, language: str, flags: tuple[str, ...]) -> str:
    """What to say before a build that does more than compile the source (the first build with a set of
    C++ flags makes its precompiled header), else ""."""
    note = getattr(get_language(language), "first_build_note", None)
    return note(read_text_exact(source), BuildOptions(flags=flags)) if note is not None else ""


def crash_hint(language: str, flags: tuple[str, ...]) -> str:
    """What to say under a crash (a segfault): for C++ not built with the sanitizers, the debug build."""
    if language_spec(language).family is not Family.CPP or any(f.startswith("-fsanitize") for f in flags):
        return ""
    return (
        "hint: run again with --debug (AddressSanitizer, UBSan, _GLIBCXX_DEBUG) to see the line that reads or "
        "writes out of bounds"
    )


@dataclass(frozen=True)
class FoundTests:
    """What a solution is judged against: the tests, the problem file when there is one, and where they
    were found, said to the user."""

    tests: list[TestCase]
    problem: Problem | None
    where: str


def _tests_in(directory: Path) -> list[TestCase]:
    """A --tests folder: NAME.in/NAME.out, or cf-tool's inN.txt/ansN.txt when it has no .in file."""
    if not any(directory.glob("*.in")) and has_cf_tool_tests(directory):
        return load_cf_tool_tests(directory)
    return load_tests_dir(directory)


def _with_problem(problem_path: Path, tests_dir: Path | None) -> FoundTests:
    problem = load_problem(problem_path)
    if tests_dir is not None:
        return FoundTests(load_tests_dir(tests_dir), problem, f"tests from {tests_dir}, limits from {problem_path}")
    beside = problem_path.parent / "tests"
    if beside.is_dir() and any(beside.glob("*.in")):
        return FoundTests(load_tests_dir(beside), problem, f"tests from {beside}, limits from {problem_path}")
    if not problem.samples:
        raise ConfigError(f"{problem_path} has no samples", hint="pass --tests DIR")
    return FoundTests(list(problem.samples), problem, f"the samples of {problem_path}")


def problem_file(path: Path) -> Path:
    """`--problem`: a problem.json, or the folder holding one."""
    if not path.is_dir():
        return path
    if not (path / PROBLEM_FILE).is_file():
        raise ConfigError(f"{path} has no {PROBLEM_FILE}", hint="pass the folder `cpbot fetch` wrote, or --tests DIR")
    return path / PROBLEM_FILE


def find_tests(solution: Path, *, tests_dir: Path | None, problem_path: Path | None) -> FoundTests:
    """The tests for `solution`: `--tests DIR`, `--problem` (a problem.json, or the folder holding one),
    else what lies beside the solution, first found first: a problem.json (its tests/ folder, else its
    samples), a `tests/` or `test/` folder (NAME.in/NAME.out, oj's sample-1.in/.out), cf-tool's
    in1.txt/ans1.txt."""
    if problem_path is not None:
        return _with_problem(problem_file(problem_path), tests_dir)
    if tests_dir is not None:
        return FoundTests(_tests_in(tests_dir), None, f"tests from {tests_dir}")
    here = solution.parent
    if (here / PROBLEM_FILE).is_file():
        return _with_problem(here / PROBLEM_FILE, None)
    for name in ("tests", "test"):
        if (here / name).is_dir() and any((here / name).glob("*.in")):
            return FoundTests(load_tests_dir(here / name), None, f"tests from {here / name}")
    if has_cf_tool_tests(here):
        return FoundTests(load_cf_tool_tests(here), None, f"cf-tool's tests (inN.txt/ansN.txt) in {here}")
    raise ConfigError(
        f"nothing to judge {solution.name} against",
        hint=f"pass --tests DIR or --problem problem.json; looked beside it in {here} for {PROBLEM_FILE}, tests/, "
        "test/ (NAME.in/NAME.out) and in1.txt/ans1.txt",
    )


def judge_file(
    solution: Path,
    found: FoundTests,
    *,
    language: str | None = None,
    time_s: float | None = None,
    memory_mb: int | None = None,
    checker: str | None = None,
    interactor: Path | None = None,
    jobs: int | None = None,
    include_dirs: tuple[Path, ...] = (),
    with_sources: tuple[Path, ...] = (),
    compiler_flags: tuple[str, ...] = (),
    on_result: OnResult | None = None,
) -> tuple[JudgeReport, Limits]:
    """Judge `solution` (its language from its extension unless given) on the tests `found`; the limits
    are the problem's (or the defaults) with `time_s`/`memory_mb` over them. `on_result` gets each test's
    result as it ends, in order. Returns the report and the limits it was judged with."""
    problem, tests = found.problem, found.tests
    limits = problem.limits if problem else Limits()
    given = {"time_ms": round(time_s * 1000) if time_s else None, "memory_mb": memory_mb}
    limits = limits.model_copy(update={k: v for k, v in given.items() if v})
    if problem and problem_kind(problem.kind).needs_interactor and interactor is None and problem.interactor is None:
        raise ConfigError(
            "this problem is interactive",
            hint="pass --interactor PATH (a testlib interactor), or name one in problem.json",
        )
    name = get_language(language or language_for(solution)).name
    code = Solution(language=name, source=read_text_exact(solution))  # type: ignore[arg-type]
    options = build_options(solution, include_dirs, with_sources, compiler_flags)
    if problem is not None:
        problem = problem.model_copy(update={"limits": limits})
        report = judge_problem(
            code, problem, tests, checker=checker, interactor=interactor, jobs=jobs, build_options=options,
            on_result=on_result,
        )  # fmt: skip
    else:
        report = judge_solution(
            code, tests, limits=limits, checker=checker or "tokens", interactor=interactor, jobs=jobs,
            build_options=options, on_result=on_result,
        )  # fmt: skip
    return report, limits
