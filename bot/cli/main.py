"""The `cpbot` command: a thin click group whose commands live in `bot/commands/`, one module each.

The group is lazy (click's documented LazyGroup pattern): a command's module is imported only when
that command runs, shows its help, or has a table in config.toml to check. `cpbot --help` and
`cpbot --version` import no command at all; tests/bot/test_cli_startup.py keeps it that way.
"""

from __future__ import annotations

import importlib
import logging
import sys
import traceback

import click

from cpbot import __version__
from cpbot.core.errors import ConfigError, CpbotError
from cpbot.core.terminal import shown

# command name -> "module:attribute" of its click command
COMMANDS: dict[str, str] = {
    name: f"cpbot.bot.commands.{name.replace('-', '_')}:{name.replace('-', '_')}"
    for name in (
        "bench", "config", "contests", "doctor", "fetch", "grade", "judge", "lab", "listen", "login", "profile",
        "setup-python", "solve", "stress", "submit", "transcripts", "verify", "watch",
    )
}  # fmt: skip

# commands whose behaviour rests on the settings file: a broken file stops them rather than being ignored
NEEDS_SETTINGS = frozenset({"solve", "watch", "submit", "bench", "config"})


class LazyGroup(click.Group):
    """A group that imports a command's module on first use, from a name -> "module:attribute" table."""

    def __init__(self, *args: object, lazy_commands: dict[str, str], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy_commands = lazy_commands

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy_commands:
            self.add_command(self._load(cmd_name), cmd_name)
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """As click's, with "did you mean" for a mistyped command."""
        name = click.utils.make_str(args[0]) if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            import difflib

            from cpbot.bot.cli.habits import command_habit

            habit = command_habit(name)
            if habit is not None:
                ctx.fail(f"No such command {name!r}. Did you mean 'cpbot {habit}'?")

            close = difflib.get_close_matches(name, self.list_commands(ctx), n=2, cutoff=0.6)
            if close:
                ctx.fail(f"No such command {name!r}. Did you mean {' or '.join(map(repr, close))}?")
        return super().resolve_command(ctx, args)

    def _load(self, cmd_name: str) -> click.Command:
        module_name, _, attribute = self.lazy_commands[cmd_name].partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy_commands[cmd_name]} is not a click command")
        return command


@click.group(
    cls=LazyGroup,
    lazy_commands=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"], "auto_envvar_prefix": "CPBOT"},
)
@click.version_option(__version__, prog_name="cpbot")
@click.option("-v", "--verbose", is_flag=True, help="Show tracebacks on errors.")
@click.pass_context
def cli(ctx: click.Context, verbose: bool) -> None:
    """cpbot: scrape, solve, judge and submit competitive-programming problems."""
    from cpbot.bot.cli.config import Settings, default_map, load_settings

    ctx.ensure_object(dict)
    ctx.obj["verbose"] = verbose
    try:
        settings = load_settings()
        ctx.default_map = default_map(settings, ctx)
        settings.apply_bounds()
    except ConfigError as e:
        if ctx.invoked_subcommand in NEEDS_SETTINGS:
            raise
        # a local tool (or the diagnosis itself) still runs, on built-in defaults, and says so
        click.echo(f"warning: settings ignored: {shown(e.message)}", err=True)
        settings = Settings()
    ctx.obj["settings"] = settings


def _echo_json_error(message: str, hint: str, exit_code: int) -> None:
    import json

    click.echo(json.dumps({"error": {"message": message, "hint": hint, "exit_code": exit_code}}))


# Every error, hint, traceback (-v) and log line the CLI prints goes through `shown`: redacted, escaped.
class _ShownLogs(logging.Handler):
    """cpbot's log lines on stderr, through `shown` (Python's default would print them as they came)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            click.echo(shown(self.format(record)), err=True)
        except Exception:  # a broken log line must not end the command
            self.handleError(record)


def _show_logs() -> None:
    logger = logging.getLogger("cpbot")
    if not any(isinstance(h, _ShownLogs) for h in logger.handlers):
        handler = _ShownLogs(logging.WARNING)
        logger.addHandler(handler)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; a `CpbotError` becomes one line (and its hint) and a non-zero exit."""
    args = sys.argv[1:] if argv is None else argv
    verbose = "-v" in args or "--verbose" in args
    as_json = "--json" in args  # a script reading stdout gets a JSON error object, never an empty stdout
    _show_logs()
    try:
        rv = cli.main(args=args, prog_name="cpbot", standalone_mode=False)
    except CpbotError as e:
        if verbose:
            click.echo(shown(traceback.format_exc()).rstrip("\n"), err=True)
        message, hint = shown(e.message), shown(e.hint)
        click.echo(f"error: {message}", err=True)
        if hint:
            click.echo(f"hint: {hint}", err=True)
        if as_json:
            _echo_json_error(message, hint, e.exit_code)
        return e.exit_code
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        if as_json:
            _echo_json_error("aborted", "", 130)
        return 130
    except click.ClickException as e:
        e.show()
        if as_json:
            _echo_json_error(e.format_message(), "run the command with --help", e.exit_code)
        return e.exit_code
    except click.exceptions.Exit as e:
        return e.exit_code
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":
    sys.exit(main())
