"""`cpbot judge`'s work: a solution file judged on a tests folder or a problem file's samples."""

from __future__ import annotations

from pathlib import Path

from cpbot.bot.app.problem_folder import load_problem
from cpbot.core.errors import ConfigError
from cpbot.judge.languages import BuildOptions, get_language, language_for
from cpbot.judge.model import JudgeReport, Limits, Solution
from cpbot.judge.runner import judge_problem, judge_solution
from cpbot.judge.testdir import load_tests_dir, read_text_exact


def build_options(solution: Path, include_dirs: tuple[Path, ...], with_sources: tuple[Path, ...]) -> BuildOptions:
    """How to build the solution file: its own name in messages, the -I dirs, the --with sources."""
    names = [solution.name, *(p.name for p in with_sources)]
    if len(set(names)) != len(names):
        raise ConfigError(f"two sources share a file name: {', '.join(names)}", hint="rename one of them")
    return BuildOptions(
        include_dirs=tuple(p.resolve() for p in include_dirs),
        extra_sources=tuple((p.name, read_text_exact(p)) for p in with_sources),
        filename=solution.name,
        source_path=solution,
    )


def judge_file(
    solution: Path,
    *,
    tests_dir: Path | None,
    problem_file: Path | None,
    language: str | None = None,
    time_s: float | None = None,
    memory_mb: int | None = None,
    checker: str | None = None,
    interactor: Path | None = None,
    jobs: int | None = None,
    include_dirs: tuple[Path, ...] = (),
    with_sources: tuple[Path, ...] = (),
) -> tuple[JudgeReport, Limits]:
    """Judge `solution` (its language from its extension unless given) on `tests_dir`, else on the samples
    of `problem_file`; the limits are the problem's (or the defaults) with `time_s`/`memory_mb` over them.
    Returns the report and the limits it was judged with."""
    if tests_dir is None and problem_file is None:
        raise ConfigError("nothing to judge against", hint="pass --tests DIR or --problem problem.json")
    problem = load_problem(problem_file) if problem_file else None
    tests = load_tests_dir(tests_dir) if tests_dir else list(problem.samples if problem else [])
    if not tests:
        raise ConfigError(f"{problem_file} has no samples", hint="pass --tests DIR")
    limits = problem.limits if problem else Limits()
    given = {"time_ms": round(time_s * 1000) if time_s else None, "memory_mb": memory_mb}
    limits = limits.model_copy(update={k: v for k, v in given.items() if v})
    if problem and problem.kind == "interactive" and interactor is None:
        raise ConfigError("this problem is interactive", hint="pass --interactor PATH (a testlib interactor)")
    name = get_language(language or language_for(solution)).name
    code = Solution(language=name, source=read_text_exact(solution))  # type: ignore[arg-type]
    options = build_options(solution, include_dirs, with_sources)
    if problem is not None:
        problem = problem.model_copy(update={"limits": limits})
        report = judge_problem(
            code, problem, tests, checker=checker, interactor=interactor, jobs=jobs, build_options=options
        )
    else:
        report = judge_solution(
            code, tests, limits=limits, checker=checker or "tokens", interactor=interactor, jobs=jobs,
            build_options=options,
        )  # fmt: skip
    return report, limits
