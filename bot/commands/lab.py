"""`cpbot lab`: what each configuration of the gate lets through, on labelled candidate programs."""

from __future__ import annotations

from pathlib import Path

import click

from cpbot.bot.cli.options import python_option

_DIR = click.Path(exists=True, file_okay=False, path_type=Path)


@click.command()
@python_option
@click.argument("directory", type=_DIR)
@click.option("--problem", "only", multiple=True, help="Only this problem folder (repeatable).")
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="NAME=VALUE",
    help="A gate parameter (agents/verification.py GateParams), e.g. stress_size=8 (repeatable).",
)
@click.option(
    "--merge",
    "merged",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Instead of running: one report from these `--json` reports, on the candidates DIRECTORY lists.",
)
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Problems run at once.")
@click.option(
    "--flaws",
    "flawed",
    is_flag=True,
    help="Flaw mode: the test designer's replies drawn from flawed variants as well as right ones; precision and "
    "recall of 'solved' per flaw, with one reply trusted whole and with a panel of two (bot/lab/flawed.py).",
)
@click.option(
    "--flaw", "flaws", multiple=True, help="With --flaws: only this flaw (repeatable; 'right' is always run)."
)
@click.option(
    "--designer",
    type=click.Choice(["right", "flawed", "mixed"]),
    default="right",
    show_default=True,
    help="With --flaws: how the panel's third reply is drawn, as the population model's --designer: a right one "
    "(the panel is the flawed reply and a right one), a flawed one, or either, half the time.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the LabReport as JSON.")
def lab(
    directory: Path,
    only: tuple[str, ...],
    settings: tuple[str, ...],
    merged: tuple[Path, ...],
    jobs: int,
    flawed: bool,
    flaws: tuple[str, ...],
    designer: str,
    as_json: bool,
) -> int:
    """Run the gate's configurations on the lab dataset in DIRECTORY (format: tests/fixtures/lab/README.md).

    Prints per configuration (samples; + generated tests; + stress; + profile; + size ladder) the precision (share of
    the programs let through that are right on the hidden tests), the recall and seconds per candidate.
    """
    from cpbot.bot.lab.measure import CandidateResult, LabReport, gate_params, merge, run_lab, summarize
    from cpbot.bot.lab.packages import load_lab
    from cpbot.bot.lab.table import report_text
    from cpbot.bot.report.live import LiveLine

    params = gate_params(settings)
    problems = load_lab(directory, set(only) or None)

    live = LiveLine(enabled=False if as_json else None)
    total = sum(len(lab.spec.candidates) for lab in problems)
    seen = {"done": 0, "caught": 0, "wrong through": 0}

    def progress(result: CandidateResult) -> None:
        """A line per candidate in a log; on a terminal, one line rewritten in place."""
        seen["done"] += 1
        seen["caught"] += result.caught_by is not None
        seen["wrong through"] += not result.hidden_ok and result.caught_by is None
        if live.enabled:
            live.show(
                f"lab: {seen['done']}/{total} candidates, {seen['caught']} caught, "
                f"{seen['wrong through']} wrong let through; last {result.problem}/{result.file}",
                force=seen["done"] == total,  # the last count is always shown
            )
        elif not as_json:
            click.echo(f"  {result.problem}/{result.file}: caught by {result.caught_by or '-'}", err=True)

    if flawed:
        from cpbot.bot.lab.flawed import FlawReport, flaw_table, merge_flaw_reports, run_flawed_lab

        def flaw_progress(row: object) -> None:
            if not as_json:
                r = row.result  # type: ignore[attr-defined]
                click.echo(f"  {r.flaw} / {row.mode}: {r.problem}/{r.file}: caught by {r.caught_by or '-'}", err=True)  # type: ignore[attr-defined]

        if merged:
            listed = {(lab.name, c.file) for lab in problems for c in lab.spec.candidates}
            reports = [FlawReport.model_validate_json(path.read_text()) for path in merged]
            flaw_report = merge_flaw_reports(reports, listed)
        else:
            flaw_report = run_flawed_lab(
                problems,
                params,
                flaws=flaws,
                designer=designer,
                jobs=jobs,
                progress=flaw_progress,  # type: ignore[arg-type]
            )
        click.echo(flaw_report.model_dump_json(indent=2) if as_json else flaw_table(flaw_report))
        return 0
    if merged:
        # only the candidates the dataset still lists (a label check may have dropped some since)
        listed = {(lab.name, c.file) for lab in problems for c in lab.spec.candidates}
        report = merge(LabReport.model_validate_json(path.read_text()) for path in merged)
        report = summarize([r for r in report.results if (r.problem, r.file) in listed], report.params, report.problems)
    else:
        try:
            report = run_lab(problems, params, jobs=jobs, progress=progress)
        finally:
            live.clear()
    if as_json:
        click.echo(report.model_dump_json(indent=2))
    else:
        click.echo(report_text(report))
    return 0
