"""`cpbot login --browser`: sign in once in a browser window on cpbot's profile for a site.

The window opens on the site's login page; the user passes the site's check if it shows one and signs
in; cpbot waits until the page leaves the login form. The session cookies and the challenge clearance
stay in the profile (`<data dir>/browser/<site>`), which later commands use through the browser
transport; a marker in the profile says the site's session lives there.
"""

from __future__ import annotations

import shutil

import click

from cpbot.bot.cli.browser import browser_settings, tell_user
from cpbot.core.errors import ConfigError
from cpbot.core.registry import site_spec
from cpbot.scrapers.browser import BrowserSession
from cpbot.scrapers.browser_settings import mark_signed_in
from cpbot.scrapers.endpoints import Endpoints


def browser_login(site: str, *, forget: bool = False) -> int:
    """Open the site's login page in a visible window and keep the sign-in in the site's profile (with
    `forget`: delete the profile instead)."""
    spec = site_spec(site)
    settings = browser_settings(True)
    assert settings is not None  # --browser forces it on
    profile = settings.profile_dir(spec.name)
    if forget:
        if profile.exists():
            shutil.rmtree(profile)
            click.echo(f"removed the {spec.title} browser profile {profile}")
        else:
            click.echo(f"no {spec.title} browser profile at {profile}")
        return 0
    url = Endpoints.from_env().base(spec.name) + spec.login_path
    click.echo(
        f"a browser window opens on {url}: sign in to {spec.title} there "
        f"(cpbot waits up to {settings.human_timeout_s:.0f} s, or until you close the window)"
    )
    session = BrowserSession(spec.name, settings, tell_user)
    try:
        done = session.sign_in(url)
    finally:
        session.close()
    if not done:
        raise ConfigError(
            f"the sign-in to {spec.title} did not finish",
            hint="run `cpbot login --browser` again and sign in in the window before closing it",
        )
    if settings.cdp_url:
        click.echo(f"signed in to {spec.title} in your browser ({settings.cdp_url})")
        return 0
    mark_signed_in(profile, spec.name)
    click.echo(
        f"signed in to {spec.title}: the session stays in the browser profile {profile}; "
        f"cpbot sends {spec.title} requests through it from now on (--no-browser: plain HTTP)"
    )
    return 0
