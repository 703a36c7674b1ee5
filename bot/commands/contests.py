"""`cpbot contests`: upcoming (or recent) contests on Codeforces and LeetCode."""

from __future__ import annotations

from pathlib import Path

import click

from cpbot.bot.cli.browser import browser_option
from cpbot.bot.cli.options import cookies_option
from cpbot.bot.cli.site_option import ALL_SITES, chosen_sites, site_option


@click.command("contests")
@site_option(allow_all=True, default=ALL_SITES, show_default=True)
@click.option("--recent", is_flag=True, help="List contests that have ended instead.")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1), help="How many, with --recent.")
@click.option("--json", "as_json", is_flag=True, help="Print the contests as JSON.")
@cookies_option
@browser_option
def contests(
    site: str, recent: bool, limit: int, as_json: bool, cookies: Path | None, use_browser: bool | None
) -> None:
    """List upcoming contests (running ones included), soonest first."""
    import json
    from datetime import UTC, datetime

    from cpbot.bot.app.sources import open_client
    from cpbot.bot.cli.browser import browser_settings
    from cpbot.bot.report.render import format_contest
    from cpbot.core.errors import CpbotError
    from cpbot.scrapers.listing import Contest
    from cpbot.scrapers.sites import get_site

    now = datetime.now(UTC)
    sites = chosen_sites(site)
    found: list[Contest] = []
    errors: list[tuple[str, CpbotError]] = []
    with open_client(cookies, browser_settings(use_browser)) as client:
        for s in sites:
            listing = get_site(s)
            try:
                found += (
                    listing.recent_contests(client, now, limit) if recent else listing.upcoming_contests(client, now)
                )
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
