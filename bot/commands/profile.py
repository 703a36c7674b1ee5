"""`cpbot profile`: measure a solution on generated inputs of growing size and fit its complexity."""

from __future__ import annotations

from pathlib import Path

import click

from cpbot.bot.cli.options import cli_limits, compiler_flags_options, include_option, python_option


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
    "--max-n",
    type=click.IntRange(min=2),
    default=200_000,
    show_default=True,
    help="The problem's maximum n: sizes double up to it and the fit is extrapolated to it.",
)
@click.option(
    "--tl",
    type=click.FloatRange(min=0, min_open=True),
    default=2.0,
    show_default=True,
    help="Time limit in seconds: sizes stop after a run passes it.",
)
@click.option("--ml", type=click.IntRange(min=1), default=256, show_default=True, help="Memory limit in MB.")
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
    max_n: int,
    tl: float,
    ml: int,
    repeats: int,
    seed: int,
    count: bool,
    plot: Path | None,
    include_dirs: tuple[Path, ...],
    compiler_flags: tuple[str, ...],
    as_json: bool,
) -> int:
    """Profile SOLUTION; exits 0 when it is predicted to fit the limits at --max-n."""
    from cpbot.bot.app.interrupt import interrupted, stop_on_interrupt
    from cpbot.bot.app.judging import first_build_note
    from cpbot.bot.report.live import LiveLine
    from cpbot.bot.report.plots import save_profile_png
    from cpbot.bot.report.render import print_profile, profile_progress_text
    from cpbot.judge.build import build_program_file
    from cpbot.judge.languages import language_for
    from cpbot.judge.model import ProfilePoint
    from cpbot.judge.profile import profile_program
    from cpbot.judge.sandbox import default_sandbox

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
            limits = cli_limits(tl, ml)
            report = profile_program(
                program, gen, max_n=max_n, limits=limits, sandbox=sandbox, repeats=repeats, seed=seed, count=count,
                progress=keep,
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
