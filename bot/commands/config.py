"""`cpbot config`: where the settings file is and what cpbot will use, with where each value comes from."""

from __future__ import annotations

import json
import os
from typing import Any

import click

from cpbot.bot.cli.config import config_path, current_settings, resolve_llm
from cpbot.core.errors import ConfigError

# Where each endpoint setting may come from, in the order the resolution tries them (after the flags).
_ENV = {"base_url": ("CPBOT_BASE_URL", "OPENAI_BASE_URL"), "api_key": ("CPBOT_API_KEY", "OPENAI_API_KEY"),
        "model": ("CPBOT_MODEL",)}  # fmt: skip


def _mask(value: str) -> str:
    return "set (hidden)" if value else ""


def llm_sources(fallback: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The endpoint a model command would use, each value with where it comes from. The values are the
    ones `resolve_llm` picks (the one resolution: `OPENAI_API_KEY` shows only where it would be sent);
    the sources are told by which variable or file entry holds the value picked."""
    from cpbot.agents.llm_settings import NO_KEY

    resolved: dict[str, str] = {}
    for model in (None, "-"):  # without a model name, still say which server and key would be used
        try:
            cfg = resolve_llm(base_url=None, api_key=None, model=model)
        except ConfigError:
            continue
        resolved = {"base_url": cfg.base_url, "api_key": cfg.api_key.get_secret_value(), "model": cfg.model}
        if model is not None:
            resolved["model"] = ""
        break
    if resolved.get("api_key") == NO_KEY:
        resolved["api_key"] = ""
    found = {}
    for key, names in _ENV.items():
        value = resolved.get(key, "")
        env = next((n for n in names if value and os.environ.get(n) == value), None)
        if env:
            source = f"env {env}"
        elif value and fallback.get(key) == value:
            source = "config.toml"
        else:
            source = "default" if value else "not set"
        found[key] = {"value": _mask(value) if key == "api_key" else value, "source": source}
    return found


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
    llm = llm_sources(settings.llm_fallback())
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
