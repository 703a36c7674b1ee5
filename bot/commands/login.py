"""`cpbot login`: store the session cpbot submits with (keyring if installed, else a 0600 file)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from cpbot.bot.cli.site_option import site_option
from cpbot.core.errors import ConfigError
from cpbot.core.registry import site_spec

if TYPE_CHECKING:
    from cpbot.bot.submit.credentials import SiteCredentials


def _check_cookies(path: Path, site: str) -> None:
    """The file must parse and hold cookies of the site: a wrong export fails here, not at submit time."""
    from cpbot.scrapers.cookies import load_cookies_txt

    domain = site_spec(site).domain
    jar = load_cookies_txt(path)
    if not any(c.domain.lstrip(".").endswith(domain) for c in jar):
        raise ConfigError(
            f"{path} holds no {domain} cookies",
            hint=f"export cookies.txt from your browser while logged in on {domain}",
        )


def _describe(creds: SiteCredentials) -> list[str]:
    lines = [f"site           {creds.site}"]
    if creds.cookies_file:
        lines.append(f"cookies file   {creds.cookies_file}")
    if creds.handle:
        lines.append(f"handle         {creds.handle}")
    if creds.password is not None:
        lines.append(f"{'password':<14} set (hidden)")
    for name in creds.session_cookies:
        lines.append(f"{name:<14} set (hidden)")
    return lines


@click.command("login")
@site_option(required=True)
@click.option(
    "--cookies",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A Netscape cookies.txt exported from your browser (cpbot keeps its path and reads it when it submits).",
)
@click.option("--handle", help="Codeforces: log in with this handle; the password is asked for.")
@click.option("--show", is_flag=True, help="Show what is stored (secrets hidden).")
@click.option("--forget", is_flag=True, help="Remove what is stored for the site.")
@click.option(
    "--browser",
    "in_browser",
    is_flag=True,
    help="Sign in in a browser window on cpbot's browser profile for the site; the session and the site's "
    "challenge clearance stay there (with --forget: delete that profile).",
)
def login(site: str, cookies: Path | None, handle: str | None, show: bool, forget: bool, in_browser: bool) -> int:
    """Store the session `cpbot submit` and `cpbot watch --submit` use for a site.

    Codeforces: --cookies (your browser's session) or --handle (the password is asked for). LeetCode:
    --cookies, or the LEETCODE_SESSION and csrftoken cookie values (asked for, not echoed).
    """
    from pydantic import SecretStr

    from cpbot.bot.submit.credentials import SiteCredentials, forget_credentials, load_credentials, save_credentials
    from cpbot.scrapers.sites import get_site

    name = site
    if in_browser:
        from cpbot.bot.cli.browser_login import browser_login

        return browser_login(name, forget=forget)
    if forget:
        where = forget_credentials(name)
        click.echo(f"removed {name} credentials from {', '.join(where)}" if where else f"nothing stored for {name}")
        return 0
    if show:
        stored = load_credentials(name)
        if stored is None:
            click.echo(f"nothing stored for {name}")
            return 1
        click.echo("\n".join(_describe(stored)))
        return 0
    if cookies is not None:
        _check_cookies(cookies, name)
    creds = SiteCredentials(site=name, cookies_file=cookies.resolve() if cookies else None)
    chosen = get_site(name)
    if handle:
        if not chosen.password_login:
            raise click.UsageError(f"{chosen.title} takes no password login: give --cookies")
        creds.handle = handle
        creds.password = SecretStr(click.prompt(f"{chosen.title} password for {handle}", hide_input=True))
    elif cookies is None:
        if not chosen.session_cookies:
            raise click.UsageError("give --cookies (a cookies.txt from your browser) or --handle")
        creds.session_cookies = {
            cookie: SecretStr(click.prompt(f"{cookie} cookie", hide_input=True)) for cookie in chosen.session_cookies
        }
    where = save_credentials(creds)
    click.echo(f"stored {name} credentials in {where}")
    return 0
