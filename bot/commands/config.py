"""`cpbot config`: where the settings file is and what cpbot will use, with where each value comes from."""

from __future__ import annotations

import json
import os

import click

from cpbot.bot.config import config_path, current_settings

LLM_SOURCES = {
    "base_url": ("CPBOT_BASE_URL", "OPENAI_BASE_URL"),
    "api_key": ("CPBOT_API_KEY", "OPENAI_API_KEY"),
    "model": ("CPBOT_MODEL",),
}


def _mask(value: str) -> str:
    return "set (hidden)" if value else ""


@click.command("config")
@click.option("--path", "only_path", is_flag=True, help="Print only the settings file's path.")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON (secrets hidden).")
def config(only_path: bool, as_json: bool) -> int:
    """Show the settings file (config.toml in the user config dir) and the model endpoint in effect.

    Precedence: command line > CPBOT_* environment > config.toml > defaults. The file has an [llm] table
    (base_url, model, api_key - only in a 0600 file - and [llm.roles] for a model per role) and one table
    per command with defaults for its options by name, e.g. [solve] strategy = "macs", lang = "python3".
    """
    path = config_path()
    if only_path:
        click.echo(str(path))
        return 0
    settings = current_settings()
    llm: dict[str, dict[str, str]] = {}
    fallback = settings.llm_fallback()
    for key, names in LLM_SOURCES.items():
        env = next((n for n in names if os.environ.get(n)), None)
        if env:
            value, source = os.environ[env], f"env {env}"
        elif key in fallback:
            value, source = fallback[key], "config.toml"
        else:
            value, source = "", "not set"
        llm[key] = {"value": _mask(value) if key == "api_key" else value, "source": source}
    info = {
        "path": str(path),
        "exists": path.is_file(),
        "llm": llm,
        "roles": dict(settings.llm.roles),
        "commands": settings.commands,
    }
    if as_json:
        click.echo(json.dumps(info, indent=2, default=str))
        return 0
    click.echo(f"settings file  {path}{'' if info['exists'] else ' (none)'}")
    for key, entry in llm.items():
        click.echo(f"{key:<14} {entry['value'] or '-':<40} ({entry['source']})")
    for role, name in settings.llm.roles.items():
        click.echo(f"model for {role:<4} {name}")
    for command, table in settings.commands.items():
        for option, value in table.items():
            click.echo(f"[{command}] {option} = {value!r}")
    return 0
