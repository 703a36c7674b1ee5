"""The shared options (model endpoint, strategy, language, cookies) read the same on every command that
takes them, because each is declared once in bot/cli/options.py."""

from __future__ import annotations

import click
import pytest

from cpbot.bot.cli.main import cli
from cpbot.core.registry import LANGUAGE_NAMES, STRATEGY_NAMES


def option(command_name: str, flag: str) -> click.Option:
    ctx = cli.make_context("cpbot", [command_name, "--help"], resilient_parsing=True)
    command = cli.get_command(ctx, command_name)
    assert command is not None
    found = [p for p in command.params if isinstance(p, click.Option) and flag in p.opts]
    assert len(found) == 1, f"cpbot {command_name} has no {flag}"
    return found[0]


def described(o: click.Option) -> tuple:
    """What a user sees of an option, and where its value goes."""
    choices = tuple(o.type.choices) if isinstance(o.type, click.Choice) else None
    return (o.name, o.help, o.envvar, o.multiple, choices, type(o.type).__name__)


@pytest.mark.parametrize(
    ("flags", "commands"),
    [
        (("--model", "--base-url", "--api-key"), ("solve", "watch", "bench")),
        (("--strategy", "--strategy-option"), ("solve", "watch")),
        (("--cookies",), ("fetch", "contests", "solve", "watch", "submit")),
        (("--lang",), ("solve", "watch", "bench")),
        (("--lang",), ("judge", "submit")),
    ],
)
def test_a_shared_option_is_the_same_on_every_command(flags, commands):
    for flag in flags:
        seen = {name: described(option(name, flag)) for name in commands}
        assert len(set(seen.values())) == 1, seen


def test_languages_and_strategies_come_from_the_registries():
    for name in ("judge", "solve", "submit", "bench", "watch"):
        assert tuple(option(name, "--lang").type.choices) == LANGUAGE_NAMES
    for name in ("solve", "watch"):
        assert tuple(option(name, "--strategy").type.choices) == STRATEGY_NAMES
    assert option("judge", "--lang").default is None, "judge tells the language from the file by default"
    assert option("solve", "--cookies").envvar == "CPBOT_COOKIES"
