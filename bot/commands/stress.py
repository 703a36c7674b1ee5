"""`cpbot stress`: a solution against a brute force on small generated inputs until they disagree."""

from __future__ import annotations

from pathlib import Path

import click

from cpbot.bot.cli.options import cli_limits, compiler_flags_options, include_option, python_option

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


@click.command()
@python_option
@click.argument("solution", type=_FILE)
@click.option("--brute", required=True, type=_FILE, help="A slow but surely right solution.")
@click.option("--gen", "generator", required=True, type=_FILE, help="Generator run as `GEN N SEED`.")
@click.option("--budget", type=click.IntRange(min=1), default=500, show_default=True, help="Runs to try.")
@click.option(
    "--seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="A wall-clock safety net: stop after this long even with runs left (reported). Default: none.",
)
@click.option("--max-size", type=click.IntRange(min=1), default=10, show_default=True, help="Largest n tried.")
@click.option("--seed", type=int, default=1, show_default=True, help="First seed; the same seed, the same run.")
@click.option("--checker", default="tokens", show_default=True, help="tokens, exact, lines, float:EPS or a path.")
@click.option("--tl", type=click.FloatRange(min=0, min_open=True), default=2.0, show_default=True)
@click.option("--ml", type=click.IntRange(min=1), default=256, show_default=True)
@click.option(
    "--save",
    "save_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Save the smallest failing input and the brute force's answer there as the next free "
    "stress-NNN.in/.out (a tests/ folder beside the solution: `cpbot judge` then finds it).",
)
@include_option
@compiler_flags_options
@click.option("--json", "as_json", is_flag=True, help="Print the StressReport as JSON.")
def stress(
    solution: Path,
    brute: Path,
    generator: Path,
    budget: int,
    seconds: float | None,
    max_size: int,
    seed: int,
    checker: str,
    tl: float,
    ml: int,
    save_dir: Path | None,
    include_dirs: tuple[Path, ...],
    compiler_flags: tuple[str, ...],
    as_json: bool,
) -> int:
    """Stress SOLUTION against BRUTE; exits 1 with the smallest failing input when they disagree."""
    from cpbot.bot.app.interrupt import interrupted, stop_on_interrupt
    from cpbot.bot.app.judging import first_build_note
    from cpbot.bot.report.live import LiveLine
    from cpbot.bot.report.render import print_stress, stress_progress_text
    from cpbot.judge.build import build_program_file
    from cpbot.judge.checkers import make_checker
    from cpbot.judge.languages import language_for
    from cpbot.judge.sandbox import default_sandbox
    from cpbot.judge.stress import StressProgress, stress_programs
    from cpbot.judge.testdir import save_next_test

    tried = {"inputs": 0, "size": 0}  # what an interruption reports
    live = LiveLine(enabled=False if as_json else None)
    note = "" if as_json else first_build_note(solution, language_for(solution), compiler_flags)
    if note:
        click.echo(note, err=True)

    with stop_on_interrupt() as interrupt:

        def progress(now: StressProgress) -> None:
            if not interrupt.happened and now.found_size is None:  # a run killed by Ctrl-C compared nothing
                tried.update(inputs=now.runs, size=now.largest)
            live.show(stress_progress_text(now, budget))

        try:
            sandbox = default_sandbox()
            built = ((solution, "solution", compiler_flags), (brute, "brute force", ()), (generator, "generator", ()))
            # the flags are the solution's: the brute force and the generator are built plainly
            programs = [build_program_file(p, sandbox, role=r, include_dirs=include_dirs, flags=f) for p, r, f in built]
            report = stress_programs(
                *programs,
                checker=make_checker(checker, sandbox, include_dirs=include_dirs),
                limits=cli_limits(tl, ml),
                sandbox=sandbox,
                max_runs=budget,
                max_seconds=seconds,
                max_size=max_size,
                seed=seed,
                progress=progress,
            )
        except BaseException:  # Ctrl-C, or the sandbox dying under a run after it
            if not interrupt.happened:
                raise
        finally:
            live.clear()
        if interrupt.happened:
            done = f"{tried['inputs']} inputs (sizes up to {tried['size']})" if tried["inputs"] else "no input"
            return interrupted(f"interrupted: no difference in the {done} compared so far", as_json=as_json)
    saved = None
    if save_dir is not None and report.failure is not None:
        saved = save_next_test(save_dir, "stress", report.failure.input, report.failure.expected)
    if as_json:
        click.echo(report.model_dump_json(indent=2))
    else:
        print_stress(report)
        if saved is not None:
            click.echo(f"saved as {saved} and {saved.with_suffix('.out')} (the brute force's answer)")
    return 0 if report.status == "clean" else 1
