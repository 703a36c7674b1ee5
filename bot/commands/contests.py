"""`cpbot contests`: upcoming (or recent) contests on Codeforces and LeetCode."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import click

from cpbot.bot.browser import browser_option, browser_settings
from cpbot.bot.commands.fetch import open_client
from cpbot.core.errors import CpbotError
from cpbot.scrapers.contests import SITES, recent_contests, upcoming_contests
from cpbot.scrapers.listing import Contest


def format_contest(c: Contest) -> str:
    """One terminal line: start (UTC), length, site, phase, name, URL."""
    start = c.start.strftime("%Y-%m-%d %H:%M") if c.start else "????-??-?? ??:??"
    hours, minutes = divmod(c.duration_s // 60, 60)
    return f"{start} UTC  {hours}h{minutes:02d}  {c.site:<10}  {c.phase:<8}  {c.name}  {c.url}"


@click.command("contests")
@click.option("--site", type=click.Choice((*SITES, "all")), default="all", show_default=True)
@click.option("--recent", is_flag=True, help="List contests that have ended instead.")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1), help="How many, with --recent.")
@click.option("--json", "as_json", is_flag=True, help="Print the contests as JSON.")
@click.option(
    "--cookies",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="CPBOT_COOKIES",
    help="A Netscape cookies.txt exported from your browser (env CPBOT_COOKIES).",
)
@browser_option
def contests(
    site: str, recent: bool, limit: int, as_json: bool, cookies: Path | None, use_browser: bool | None
) -> None:
    """List upcoming contests (running ones included), soonest first."""
    now = datetime.now(UTC)
    sites = SITES if site == "all" else (site,)
    found: list[Contest] = []
    errors: list[tuple[str, CpbotError]] = []
    browser = browser_settings(use_browser)
    with open_client(cookies, browser) as client:
        for s in sites:
            try:
                found += recent_contests(s, client, now, limit) if recent else upcoming_contests(s, client, now)
            except CpbotError as e:
                if len(sites) == 1:
                    raise
                errors.append((s, e))
    if errors and len(errors) == len(sites):
        # every site failed: one error naming each, not a warning per site and the first again
        message = "; ".join(f"{s}: {e.message}" for s, e in errors)
        raise CpbotError(f"no contest list could be read ({message})", hint=errors[0][1].hint)
    for s, e in errors:
        click.echo(f"warning: {s}: {e.message}", err=True)
    found.sort(key=lambda c: c.start or now, reverse=recent)
    if as_json:
        click.echo(json.dumps([json.loads(c.model_dump_json()) for c in found], indent=2, ensure_ascii=False))
        return
    if not found:
        click.echo("no contests found")
    for c in found:
        click.echo(format_contest(c))
