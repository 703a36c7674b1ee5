"""`cpbot fetch`: download (or parse a saved copy of) a problem and lay it out for the judge."""

from __future__ import annotations

from pathlib import Path

import click

from cpbot.bot.cli.browser import browser_option
from cpbot.bot.cli.options import cookies_option
from cpbot.bot.cli.site_option import site_option


@click.command("fetch")
@click.argument("source", metavar="URL|FILE")
@site_option(help="The site, when it cannot be told from URL|FILE.")
@click.option("--url", "page_url", metavar="URL", help="The address of a saved page (gives the problem id).")
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where to write (default: ./<problem> for one problem, ./ with a folder per problem for many).",
)
@click.option("--force", is_flag=True, help="Overwrite files of an existing folder that differ.")
@click.option("--json", "as_json", is_flag=True, help="Print the parsed Problem as JSON.")
@cookies_option
@browser_option
def fetch(
    source: str,
    site: str | None,
    page_url: str | None,
    out_dir: Path | None,
    force: bool,
    as_json: bool,
    cookies: Path | None,
    use_browser: bool | None,
) -> None:
    """Fetch a problem from Codeforces or LeetCode, or parse one saved from the browser.

    URL|FILE is a problem URL (a Codeforces contest URL fetches all its problems), a Codeforces page
    saved from the browser (one problem or the all-problems page), a LeetCode GraphQL answer, or a
    Competitive Companion JSON. Writes problem.json and tests/sample-N.in|.out. A folder whose files
    would change (an edited sample, another problem) is kept: the problem goes beside it (NAME-2, ...)
    unless --force is given.
    """
    import json

    from cpbot.bot.app.problem_folder import place, problem_dirname, save_problem
    from cpbot.bot.app.sources import load_problems
    from cpbot.bot.cli.browser import browser_settings
    from cpbot.bot.report.render import describe_problem

    problems = load_problems(
        source, site=site, cookies=cookies, page_url=page_url, browser=browser_settings(use_browser)
    )
    if len(problems) == 1:
        targets = [(problems[0], out_dir or Path(problem_dirname(problems[0])))]
    else:
        root = out_dir or Path(".")
        targets = [(p, root / problem_dirname(p)) for p in problems]
    for problem, wanted in targets:
        directory, kept = place(problem, wanted, force=force)
        if kept:
            click.echo(
                f"{wanted} kept ({', '.join(kept)} would change); wrote to {directory} (--force overwrites)", err=True
            )
        save_problem(problem, directory)
        if not as_json:
            click.echo(f"{describe_problem(problem)} -> {directory}")
    if as_json:
        dumped = [json.loads(p.model_dump_json()) for p in problems]
        click.echo(json.dumps(dumped[0] if len(dumped) == 1 else dumped, indent=2, ensure_ascii=False))
