"""The `cpbot` command: a thin click group; each command group lives in `bot/commands/`."""

from __future__ import annotations

import json
import sys
import traceback

import click

from cpbot import __version__
from cpbot.bot.commands import doctor, judge_cmd
from cpbot.bot.commands.bench import bench
from cpbot.bot.commands.config_cmd import config
from cpbot.bot.commands.contests import contests
from cpbot.bot.commands.fetch import fetch
from cpbot.bot.commands.listen import listen
from cpbot.bot.commands.login import login
from cpbot.bot.commands.profile_cmd import profile
from cpbot.bot.commands.solve import solve
from cpbot.bot.commands.stress_cmd import stress
from cpbot.bot.commands.submit import submit
from cpbot.bot.commands.transcripts import transcripts
from cpbot.bot.commands.watch import watch
from cpbot.bot.config import Settings, default_map, load_settings
from cpbot.core.errors import ConfigError, CpbotError

# commands whose behaviour rests on the settings file: a broken file stops them rather than being ignored
NEEDS_SETTINGS = frozenset({"solve", "watch", "submit", "bench", "config"})


@click.group(context_settings={"help_option_names": ["-h", "--help"], "auto_envvar_prefix": "CPBOT"})
@click.version_option(__version__, prog_name="cpbot")
@click.option("-v", "--verbose", is_flag=True, help="Show tracebacks on errors.")
@click.pass_context
def cli(ctx: click.Context, verbose: bool) -> None:
    """cpbot: scrape, solve, judge and submit competitive-programming problems."""
    ctx.ensure_object(dict)
    ctx.obj["verbose"] = verbose
    try:
        settings = load_settings()
        ctx.default_map = default_map(settings, cli)
    except ConfigError as e:
        if ctx.invoked_subcommand in NEEDS_SETTINGS:
            raise
        # a local tool (or the diagnosis itself) still runs, on built-in defaults, and says so
        click.echo(f"warning: settings ignored: {e.message}", err=True)
        settings = Settings()
    ctx.obj["settings"] = settings


cli.add_command(judge_cmd.judge)
cli.add_command(bench)
cli.add_command(config)
cli.add_command(doctor.doctor)
cli.add_command(fetch)
cli.add_command(listen)
cli.add_command(login)
cli.add_command(contests)
cli.add_command(profile)
cli.add_command(stress)
cli.add_command(submit)
cli.add_command(solve)
cli.add_command(transcripts)
cli.add_command(watch)


def _echo_json_error(message: str, hint: str, exit_code: int) -> None:
    click.echo(json.dumps({"error": {"message": message, "hint": hint, "exit_code": exit_code}}))


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; a `CpbotError` becomes one line (and its hint) and a non-zero exit."""
    args = sys.argv[1:] if argv is None else argv
    verbose = "-v" in args or "--verbose" in args
    as_json = "--json" in args  # a script reading stdout gets a JSON error object, never an empty stdout
    try:
        rv = cli.main(args=args, prog_name="cpbot", standalone_mode=False)
    except CpbotError as e:
        if verbose:
            traceback.print_exc()
        click.echo(f"error: {e.message}", err=True)
        if e.hint:
            click.echo(f"hint: {e.hint}", err=True)
        if as_json:
            _echo_json_error(e.message, e.hint, e.exit_code)
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
