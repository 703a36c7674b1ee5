"""`cpbot verify`: check a problem package as problemtools and BAPCtools do, on cpbot's judge."""

from __future__ import annotations

from pathlib import Path

import click

from cpbot.bot.cli.options import python_option


@click.command("verify")
@python_option
@click.argument("package", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the report as one HTML page to this file.")  # fmt: skip
def verify(package: Path, as_json: bool, html_path: Path | None) -> int:
    """Verify the problem PACKAGE (Kattis: problem.yaml; Polygon: problem.xml; Library Checker: info.toml):
    generated tests come out the same twice, every test passes the input validators and near misses do not, some
    test reaches each bound, the output validator accepts the answers and rejects perturbed ones, each submission
    gets the verdict its folder or tag names at the time limit the format sets. Exit 0 when no check fails, 1
    when one does."""
    from cpbot.bot.verify.checks import verify_package
    from cpbot.bot.verify.report import text
    from cpbot.judge.packages import read_package
    from cpbot.judge.sandbox import default_sandbox

    read = read_package(package)
    say = (lambda _: None) if as_json else (lambda line: click.echo(line, err=True))
    report = verify_package(read, default_sandbox(), say=say)
    click.echo(
        report.model_dump_json(indent=2) if as_json else text(report),
    )
    if html_path is not None:
        from cpbot.bot.verify.html import render_verify_html

        html_path.write_text(render_verify_html(report), encoding="utf-8")
        click.echo(f"report page: {html_path}", err=True)
    return 0 if report.passed else 1
