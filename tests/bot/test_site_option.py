"""Every command takes a site the same way: a registered name or alias (`cf`, `lc`, ...), in any case."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from cpbot.bot.cli.main import cli
from cpbot.bot.cli.site_option import ALL_SITES, SiteChoice, chosen_sites
from cpbot.core.registry import SITE_ALIASES, SITE_NAMES
from tests.fakes import FakeSiteServer
from tests.fakes.fixtures import fake_server, fake_site  # noqa: F401 - pytest fixtures


def _site_options() -> dict[str, click.Parameter]:
    ctx = click.Context(cli)
    found = {}
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        for param in command.params if command is not None else []:
            if "--site" in getattr(param, "opts", []):
                found[name] = param
    return found


def test_every_command_with_a_site_option_takes_the_registrys_names_and_aliases() -> None:
    options = _site_options()
    assert {"fetch", "solve", "contests", "watch", "login"} <= set(options)
    for name, param in options.items():
        assert isinstance(param.type, SiteChoice), f"`cpbot {name} --site` does not use the shared site type"


@pytest.mark.parametrize("spelling", [*SITE_ALIASES, "CF", "LeetCode", "Lc"])
def test_any_alias_in_any_case_becomes_the_sites_name(spelling: str) -> None:
    converted = SiteChoice().convert(spelling, None, None)
    assert converted == SITE_ALIASES[spelling.lower()] and converted in SITE_NAMES


def test_all_stands_for_every_site_where_a_command_allows_it() -> None:
    assert chosen_sites(SiteChoice(allow_all=True).convert("ALL", None, None)) == SITE_NAMES
    with pytest.raises(click.BadParameter):
        SiteChoice().convert(ALL_SITES, None, None)
    with pytest.raises(click.BadParameter):
        SiteChoice(allow_all=True).convert("yukicoder", None, None)


@pytest.mark.parametrize(("spelling", "site"), [("CF", "codeforces"), ("lc", "leetcode")])
def test_contests_takes_an_alias_as_watch_and_login_do(
    fake_server: FakeSiteServer,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    spelling: str,
    site: str,
) -> None:
    for name, value in fake_server.env().items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(cli, ["contests", "--site", spelling, "--json"])
    assert result.exit_code == 0, result.output
    listed = json.loads(result.output)
    assert listed and {c["site"] for c in listed} == {site}
