"""`cpbot profile`: measure a solution on generated inputs of growing size and fit its complexity. An interactive
problem's solution runs through its interactor (`--interactor`, or the one its `--problem` names), the generator
printing the hidden data the interactor reads."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from cpbot.bot.cli.options import cli_limits, compiler_flags_options, include_option, python_option

if TYPE_CHECKING:
    from cpbot.judge.model import Problem
    from cpbot.judge.runners import InputRunner
    from cpbot.judge.sandbox import Sandbox

DEFAULT_MAX_N = 200_000
DEFAULT_TL_S = 2.0
DEFAULT_ML_MB = 256


@click.command()
@python_option
@click.argument("solution", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--gen",
    "generator",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Generator run as `GEN N SEED` (C++ or Python, by extension).",
)
@click.option(
    "--problem",
    "problem_path",
    type=click.Path(exists=True, path_type=Path),
    help="A problem.json, or the folder holding one: its limits, its largest size bound as --max-n, and its kind "
    "(an interactive problem's solution runs through the interactor it names).",
)
@click.option(
    "--interactor",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A testlib interactor (source or binary): SOLUTION runs through it, and GEN prints the hidden data it reads.",
)
@click.option(
    "--max-n",
    type=click.IntRange(min=2),
    help="The problem's maximum n: sizes double up to it and the fit is extrapolated to it "
    f"(default: the --problem's largest bound, else {DEFAULT_MAX_N:,}).",
)
@click.option(
    "--tl",
    type=click.FloatRange(min=0, min_open=True),
    help=f"Time limit in seconds: sizes stop after a run passes it (default: the --problem's, else {DEFAULT_TL_S:g}).",
)
@click.option(
    "--ml", type=click.IntRange(min=1), help=f"Memory limit in MB (default: the --problem's, else {DEFAULT_ML_MB})."
)
@click.option("--repeats", type=click.IntRange(min=1), default=3, show_default=True, help="Runs per size (min kept).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option(
    "--count/--no-count",
    default=True,
    show_default=True,
    help="Read the class from instruction counts (valgrind) rather than CPU time.",
)
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), help="Also write a PNG of time against n.")
@include_option
@compiler_flags_options
@click.option("--json", "as_json", is_flag=True, help="Print the ProfileReport as JSON.")
def profile(
    solution: Path,
    generator: Path,
    problem_path: Path | None,
    interactor: Path | None,
    max_n: int | None,
    tl: float | None,
    ml: int | None,
    repeats: int,
    seed: int,
    count: bool,
    plot: Path | None,
    include_dirs: tuple[Path, ...],
    compiler_flags: tuple[str, ...],
    as_json: bool,
) -> int:
    """Profile SOLUTION; exits 0 when it is predicted to fit the limits at --max-n.

    On an interactive problem (--interactor, or a --problem naming one) SOLUTION talks to the interactor on each
    input GEN prints, which is the interactor's hidden data; its own CPU time is measured, and a dialogue the
    interactor rejects is a failed size."""
    from cpbot.agents.roles.constraints import problem_bounds
    from cpbot.bot.app.interrupt import interrupted, stop_on_interrupt
    from cpbot.bot.app.judging import first_build_note, problem_file
    from cpbot.bot.app.problem_folder import load_problem
    from cpbot.bot.report.live import LiveLine
    from cpbot.bot.report.plots import save_profile_png
    from cpbot.bot.report.render import print_profile, profile_progress_text
    from cpbot.judge.build import build_program_file
    from cpbot.judge.languages import language_for
    from cpbot.judge.model import ProfilePoint
    from cpbot.judge.profile import profile_program
    from cpbot.judge.sandbox import default_sandbox

    problem = load_problem(problem_file(problem_path)) if problem_path is not None else None
    if problem is not None:
        tl = tl or problem.limits.time_ms / 1000
        ml = ml or problem.limits.memory_mb
        max_n = max_n or problem_bounds(problem).max_size()
    limits = cli_limits(tl or DEFAULT_TL_S, ml or DEFAULT_ML_MB)
    max_n = max_n or DEFAULT_MAX_N
    measured: list[ProfilePoint] = []  # what an interruption reports
    live = LiveLine(enabled=False if as_json else None)
    note = "" if as_json else first_build_note(solution, language_for(solution), compiler_flags)
    if note:
        click.echo(note, err=True)

    with stop_on_interrupt() as interrupt:

        def keep(point: ProfilePoint) -> None:
            if not interrupt.happened:  # a run killed by Ctrl-C measured nothing
                measured.append(point)
                live.show(profile_progress_text(measured, max_n))

        try:
            sandbox = default_sandbox()
            program = build_program_file(
                solution, sandbox, role="solution", include_dirs=include_dirs, flags=compiler_flags
            )
            gen = build_program_file(generator, sandbox, role="generator", include_dirs=include_dirs)
            runner = input_runner(problem, interactor, sandbox, include_dirs)
            report = profile_program(
                program, gen, max_n=max_n, limits=limits, sandbox=sandbox, repeats=repeats, seed=seed, count=count,
                progress=keep, runner=runner,
            )  # fmt: skip
        except BaseException:  # Ctrl-C, or the sandbox dying under a run after it
            if not interrupt.happened:
                raise
        finally:
            live.clear()
        if interrupt.happened:
            for p in [] if as_json else sorted(measured, key=lambda p: p.size):
                mark = "" if p.status == "ok" else f"  {p.status.upper()}"
                click.echo(f"{p.size:>12} {p.cpu_ms:>10.1f} ms {p.peak_kb / 1024:>8.1f} MB{mark}")
            return interrupted(f"interrupted: {len(measured)} sizes measured, no fit made", as_json=as_json)
    if plot is not None:
        save_profile_png(report, plot, time_limit_ms=limits.time_ms, title=f"{solution.name}: {report.complexity}")
    if as_json:
        click.echo(report.model_dump_json(indent=2))
    else:
        print_profile(report)
    return 0 if report.efficient else 1


def input_runner(
    problem: Problem | None, interactor: Path | None, sandbox: Sandbox, include_dirs: tuple[Path, ...]
) -> InputRunner | None:
    """How SOLUTION runs on each input: through `--interactor` when given, else as the `--problem`'s kind says
    (an interactive one through the interactor it names), else alone (None)."""
    from cpbot.judge.build import build_program_file
    from cpbot.judge.kinds import problem_kind
    from cpbot.judge.runners import ThroughInteractor

    if interactor is not None:
        return ThroughInteractor(
            build_program_file(interactor, sandbox, role="interactor", include_dirs=include_dirs), sandbox
        )
    if problem is not None:
        return problem_kind(problem.kind).input_runner(problem, sandbox)
    return None
