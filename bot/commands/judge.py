"""`cpbot judge`: judge a solution file on a tests directory or a problem's samples."""

from __future__ import annotations

from pathlib import Path

import click

from cpbot.bot.cli.habits import JudgeCommand
from cpbot.bot.cli.options import compiler_flags_options, include_option, language_option, python_option


@click.command(cls=JudgeCommand)
@python_option
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
    type=click.Path(exists=True, path_type=Path),
    help="A problem.json, or the folder holding one: its tests/ (else its samples), limits and checker.",
)
@language_option(default=None)
@click.option("--tl", type=click.FloatRange(min=0, min_open=True), help="Time limit in seconds (CPU time).")
@click.option("--ml", type=click.IntRange(min=1), help="Memory limit in MB (peak memory).")
@click.option("--checker", help="tokens (default), exact, lines, float:EPS, or a testlib checker's path.")
@click.option(
    "--interactor",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A testlib interactor (source or binary) for interactive problems.",
)
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Tests run at once (default: one per core).")
@include_option
@compiler_flags_options
@click.option(
    "--with",
    "with_sources",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Another source of the same program, e.g. a grader holding main (repeatable). C++: compiled in; "
    "Python: put beside it, importable by its name.",
)
@click.option(
    "--seeds",
    help="Score-based problems: the seeds scored, a count (50: 0..49), a range (100-199) or a list (1,5,9).",
)
@click.option("--repeat", type=click.IntRange(min=1), default=1, help="Score-based problems: runs per seed, averaged.")
@click.option(
    "--against",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Score-based problems: another solution scored on the same seeds and compared seed by seed.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the JudgeReport (score-based: the ScoreRun) as JSON.")
def judge(
    solution: Path,
    tests_dir: Path | None,
    problem_file: Path | None,
    language: str | None,
    tl: float | None,
    ml: int | None,
    checker: str | None,
    interactor: Path | None,
    jobs: int | None,
    include_dirs: tuple[Path, ...],
    compiler_flags: tuple[str, ...],
    with_sources: tuple[Path, ...],
    seeds: str | None,
    repeat: int,
    against: Path | None,
    as_json: bool,
) -> int:
    """Judge SOLUTION locally; exits 0 only when every checked test is AC and at least one was checked.

    Without --tests or --problem, the tests are found beside SOLUTION: a problem.json (what `cpbot fetch`
    writes), a tests/ or test/ folder (NAME.in/NAME.out, oj's sample-1.in/.out), or cf-tool's
    in1.txt/ans1.txt. Results are shown as each test ends; Ctrl-C stops at once and shows what finished.

    On a score-based problem (AtCoder Heuristic Contest) SOLUTION is scored on seeds by the problem's
    generator and scorer instead: each seed's score, the total, mean and spread; exits 0 when every seed
    was scored.
    """
    from cpbot.bot.app.interrupt import EXIT_INTERRUPTED, interrupted, stop_on_interrupt
    from cpbot.bot.app.judging import crash_hint, find_tests, first_build_note, judge_file
    from cpbot.bot.app.scoring import find_scored_problem, judge_scored
    from cpbot.bot.report.judge_view import JudgeView
    from cpbot.core.texts import count
    from cpbot.judge.languages import get_language, language_for
    from cpbot.judge.model import TestResult

    scored = find_scored_problem(solution, problem_file) if tests_dir is None else None
    if scored is not None:
        with stop_on_interrupt() as interrupt:
            try:
                return judge_scored(
                    solution, scored, seeds_text=seeds, against=against, language=language, time_s=tl,
                    repeats=repeat, jobs=jobs, as_json=as_json,
                )  # fmt: skip
            except BaseException:  # Ctrl-C, or the sandbox dying under a run after it
                if not interrupt.happened:
                    raise
            return interrupted("interrupted", as_json=as_json)
    found = find_tests(solution, tests_dir=tests_dir, problem_path=problem_file)
    language = get_language(language or language_for(solution)).name  # a user error before any output
    view = None if as_json else JudgeView(found.tests, crash_hint=crash_hint(language, compiler_flags))
    if view is not None:
        click.echo(f"judging {solution.name} on {count(len(found.tests), 'test')}: {found.where}", err=True)
        note = first_build_note(solution, language, compiler_flags)
        if note:
            click.echo(note, err=True)
        view.status(f"compiling {solution.name}...")
    with stop_on_interrupt() as interrupt:

        def on_result(result: TestResult) -> None:
            if view is not None and not interrupt.happened:
                view.result(result)

        try:
            report, limits = judge_file(
                solution, found, language=language, time_s=tl, memory_mb=ml, checker=checker,
                interactor=interactor, jobs=jobs, include_dirs=include_dirs, with_sources=with_sources,
                compiler_flags=compiler_flags, on_result=on_result,
            )  # fmt: skip
        except BaseException:  # Ctrl-C, or the sandbox dying under a run after it
            if not interrupt.happened:
                raise
        if interrupt.happened:  # what ended after the press (runs killed under it) is no result
            if view is not None:
                view.interrupted()
                return EXIT_INTERRUPTED
            return interrupted("interrupted", as_json=True)
    if view is not None:
        view.finish(report, limits)
    else:
        click.echo(report.model_dump_json(indent=2))
    return 0 if report.accepted else 1
