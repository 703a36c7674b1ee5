"""`cpbot judge`: judge a solution file on a tests directory or a problem's samples."""

from __future__ import annotations

from pathlib import Path

import click
from pydantic import ValidationError

from cpbot.bot.render import print_report
from cpbot.core.errors import ConfigError
from cpbot.judge.languages import BuildOptions, get_language, language_for
from cpbot.judge.model import Limits, Problem, Solution
from cpbot.judge.runner import judge_problem, judge_solution
from cpbot.judge.testdir import load_tests_dir, read_text_exact


def load_problem(path: Path) -> Problem:
    try:
        return Problem.model_validate_json(path.read_bytes())
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(
            f"{path} is not a cpbot problem file: {where}: {first['msg']}",
            hint="make one with `cpbot fetch URL -o DIR`",
        ) from None


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


@click.command()
@click.argument("solution", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--tests",
    "tests_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Directory of NAME.in / NAME.out pairs.",
)
@click.option(
    "--problem",
    "problem_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A problem.json: its samples, limits and checker.",
)
@click.option("--lang", help="cpp17, cpp20, python3 or pypy3 (default: from the file extension).")
@click.option("--tl", type=click.FloatRange(min=0, min_open=True), help="Time limit in seconds (CPU time).")
@click.option("--ml", type=click.IntRange(min=1), help="Memory limit in MB (peak memory).")
@click.option("--checker", help="tokens (default), exact, lines, float:EPS, or a testlib checker's path.")
@click.option(
    "--interactor",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A testlib interactor (source or binary) for interactive problems.",
)
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Tests run at once (default: one per core).")
@click.option(
    "-I",
    "--include",
    "include_dirs",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="An include dir for the solution and a checker/interactor source (repeatable; shown read-only).",
)
@click.option(
    "--with",
    "with_sources",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Another source compiled into the same program, e.g. a grader holding main (repeatable; C++).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the JudgeReport as JSON.")
def judge(
    solution: Path,
    tests_dir: Path | None,
    problem_file: Path | None,
    lang: str | None,
    tl: float | None,
    ml: int | None,
    checker: str | None,
    interactor: Path | None,
    jobs: int | None,
    include_dirs: tuple[Path, ...],
    with_sources: tuple[Path, ...],
    as_json: bool,
) -> int:
    """Judge SOLUTION locally; exits 0 only on AC."""
    if tests_dir is None and problem_file is None:
        raise ConfigError("nothing to judge against", hint="pass --tests DIR or --problem problem.json")
    problem = load_problem(problem_file) if problem_file else None
    tests = load_tests_dir(tests_dir) if tests_dir else list(problem.samples if problem else [])
    if not tests:
        raise ConfigError(f"{problem_file} has no samples", hint="pass --tests DIR")
    limits = problem.limits if problem else Limits()
    limits = limits.model_copy(
        update={k: v for k, v in {"time_ms": round(tl * 1000) if tl else None, "memory_mb": ml}.items() if v}
    )
    if problem and problem.kind == "interactive" and interactor is None:
        raise ConfigError("this problem is interactive", hint="pass --interactor PATH (a testlib interactor)")
    language = get_language(lang or language_for(solution)).name
    code = Solution(language=language, source=read_text_exact(solution))  # type: ignore[arg-type]
    options = build_options(solution, include_dirs, with_sources)
    if problem is not None:
        problem = problem.model_copy(update={"limits": limits})
        report = judge_problem(
            code, problem, tests, checker=checker, interactor=interactor, jobs=jobs, build_options=options
        )
    else:
        report = judge_solution(
            code,
            tests,
            limits=limits,
            checker=checker or "tokens",
            interactor=interactor,
            jobs=jobs,
            build_options=options,
        )
    if as_json:
        click.echo(report.model_dump_json(indent=2))
    else:
        print_report(report, limits)
    # AC only counts when every checked test passed and at least one test had an expected output
    return 0 if report.accepted else 1
