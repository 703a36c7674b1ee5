"""The `--browser` option the site commands share, and the browser settings a command runs with.

A site reaches cpbot over plain HTTP; the browser transport (`cpbot.scrapers.browser_transport`) takes
over for a site that answers with a challenge page, when it is configured: by `--browser`, by a
`[browser]` table in config.toml, or by a sign-in made with `cpbot login --browser` (the session lives
in the browser profile, so that site goes through the browser from the start).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from cpbot.bot.cli.config import current_settings
from cpbot.core.registry import SITE_SPECS

if TYPE_CHECKING:  # pydantic models: loaded when a command runs, not when `--help` lists the options
    from cpbot.scrapers.browser_settings import BrowserSettings


def browser_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """`--browser/--no-browser` on a command that talks to the sites (its value: `use_browser`)."""
    return click.option(
        "--browser/--no-browser",
        "use_browser",
        default=None,
        help="Let a real browser (your Chromium or Chrome) take over a site that answers with a challenge "
        "page; --no-browser never does. Default: [browser] in config.toml, or a `cpbot login --browser` sign-in.",
    )(command)


def browser_settings(use_browser: bool | None) -> BrowserSettings | None:
    """The browser a command may use, or None: `--browser` forces it on, `--no-browser` off; otherwise the
    `[browser]` table decides, and without one a profile signed in with `cpbot login --browser` turns it on."""
    from cpbot.scrapers.browser_settings import BrowserSettings, signed_in

    if use_browser is False:
        return None
    table = current_settings().browser
    if use_browser:
        return (table or BrowserSettings()).model_copy(update={"enabled": True})
    if table is not None:
        return table if table.enabled else None
    default = BrowserSettings()
    if any(signed_in(default.profile_dir(spec.name)) for spec in SITE_SPECS):
        return default
    return None


def tell_user(message: str) -> None:
    """How the browser transport speaks to the person at the terminal (a window opened, a check to pass)."""
    click.echo(f"cpbot: {message}", err=True)
