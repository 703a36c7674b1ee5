"""cpbot's settings file: `config.toml` in the user config dir (`CPBOT_CONFIG_DIR` overrides the dir).

Precedence is command line > `CPBOT_*` environment > this file > built-in defaults. Two kinds of entry:

    [llm]                      # the model endpoint, below the CPBOT_*/OPENAI_* variables
    base_url = "http://127.0.0.1:8000/v1"
    model = "qwen2.5-coder-32b"
    api_key = "..."            # only accepted when the file is private (mode 0600)
    timeout_s = 600            # request settings for every role: timeout_s, max_output_tokens,
    max_output_tokens = 8192   # temperature, top_p, seed, reasoning_effort, extra_body, ...
    [llm.roles]                # a model per role
    planner = "a-bigger-model"
    [llm.roles.coder]          # or a role's own request settings
    reasoning_effort = "high"

    [solve]                    # defaults for any command's options, by option name
    strategy = "cpbot"
    lang = "python3"

Command tables become click's `default_map`, which click ranks below the command line and the
option's environment variable and above the option's own default.
"""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path
from typing import Any

import click
from pydantic import BaseModel, ConfigDict, SecretStr, ValidationError

from cpbot.agents.llm import LLMConfig, RequestSettings, resolve_llm_config
from cpbot.core.dirs import config_dir
from cpbot.core.errors import ConfigError

FILE_NAME = "config.toml"


def config_path() -> Path:
    return config_dir() / FILE_NAME


class LLMSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    base_url: str | None = None
    model: str | None = None
    api_key: SecretStr | None = None
    # a role's model name, or a table of its request settings (model, max_output_tokens, temperature, ...)
    roles: dict[str, str | RequestSettings] = {}
    # request settings for every role (see agents.llm.LLMConfig)
    timeout_s: float | None = None
    max_output_tokens: int | None = None
    retry_output_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    seed: int | None = None
    reasoning_effort: str | None = None
    extra_body: dict[str, Any] | None = None
    max_retries: int | None = None
    retry_timeouts: bool | None = None


class Settings(BaseModel):
    """What `config.toml` says; `commands` holds the per-command option defaults."""

    model_config = ConfigDict(extra="forbid")

    path: Path | None = None  # where it was read from (None: no file)
    llm: LLMSettings = LLMSettings()
    commands: dict[str, dict[str, Any]] = {}

    def llm_fallback(self) -> dict[str, Any]:
        """The endpoint settings for `agents.llm.resolve_llm_config(fallback=...)`."""
        values: dict[str, Any] = {"base_url": self.llm.base_url, "model": self.llm.model}
        if self.llm.api_key is not None:
            values["api_key"] = self.llm.api_key.get_secret_value()
        values.update({f"model_{role.lower()}": name for role, name in self.llm.roles.items() if isinstance(name, str)})
        tables = {role.lower(): s for role, s in self.llm.roles.items() if isinstance(s, RequestSettings)}
        if tables:
            values["roles"] = tables
        settings = self.llm.model_dump(exclude={"base_url", "model", "api_key", "roles"}, exclude_none=True)
        values.update(settings)
        return {k: v for k, v in values.items() if v is not None and v != ""}


def load_settings(path: Path | None = None) -> Settings:
    """Read the settings file; a missing file is no settings, a broken one a `ConfigError`."""
    path = path or config_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Settings()
    except OSError as e:
        raise ConfigError(f"cannot read {path}: {e.strerror}", hint="check the file's permissions") from e
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path} is not valid TOML: {e}", hint="fix the file or move it away") from e
    llm = data.pop("llm", {})
    if not isinstance(llm, dict):
        raise ConfigError(f"{path}: [llm] must be a table", hint="see `cpbot config --help`")
    if "api_key" in llm and path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConfigError(
            f"{path} holds an API key but others can read it",
            hint=f"chmod 600 {path}, or set CPBOT_API_KEY instead",
        )
    commands = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: `{name}` must be a table of a command's options, e.g. [solve]")
        commands[name] = table
    try:
        return Settings(path=path, llm=LLMSettings.model_validate(llm), commands=commands)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"{path}: [llm] {where}: {first['msg']}", hint="see `cpbot config --help`") from None


def default_map(settings: Settings, group: click.Group) -> dict[str, dict[str, Any]]:
    """The command tables as click's `default_map`; unknown commands or options are errors, not ignored."""
    result: dict[str, dict[str, Any]] = {}
    for command_name, table in settings.commands.items():
        command = group.commands.get(command_name)
        if command is None:
            known = ", ".join(sorted(group.commands))
            raise ConfigError(f"{settings.path}: no command `{command_name}`", hint=f"commands: {known}")
        result[command_name] = _command_defaults(settings.path, command, table)
    return result


def _command_defaults(path: Path | None, command: click.Command, table: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(command, click.Group):
        return _option_defaults(path, command, table)
    nested = {k: v for k, v in table.items() if isinstance(v, dict) and k in command.commands}
    own = _option_defaults(path, command, {k: v for k, v in table.items() if k not in nested})
    return {**own, **{k: _command_defaults(path, command.commands[k], v) for k, v in nested.items()}}


def _option_defaults(path: Path | None, command: click.Command, table: dict[str, Any]) -> dict[str, Any]:
    """The table's values by parameter name, each checked with the option's own type."""
    by_name: dict[str, click.Option] = {}
    for param in command.params:
        if isinstance(param, click.Option) and param.name:
            by_name[param.name] = param
            for opt in param.opts + param.secondary_opts:
                by_name[opt.lstrip("-").replace("-", "_")] = param
    defaults = {}
    for key, value in table.items():
        param = by_name.get(key.replace("-", "_"))
        if param is None:
            options = ", ".join(sorted({max(p.opts, key=len).lstrip("-") for p in by_name.values()}))
            raise ConfigError(f"{path}: `{command.name}` has no option `{key}`", hint=f"options: {options}")
        try:
            param.type_cast_value(click.Context(command), value)
        except click.BadParameter as e:
            raise ConfigError(
                f"{path}: [{command.name}] {key} = {value!r}: {e.message}", hint="fix the value in the file"
            ) from None
        assert param.name is not None
        defaults[param.name] = value
    return defaults


def current_settings() -> Settings:
    """The settings the running command was started with (read once by the `cpbot` group)."""
    ctx = click.get_current_context(silent=True)
    while ctx is not None:
        if isinstance(ctx.obj, dict) and isinstance(ctx.obj.get("settings"), Settings):
            return ctx.obj["settings"]
        ctx = ctx.parent
    return load_settings()


def resolve_llm(*, base_url: str | None, api_key: str | None, model: str | None, **options: Any) -> LLMConfig:
    """The model endpoint: command line, then CPBOT_*/OPENAI_* variables, then `[llm]` in config.toml."""
    settings = current_settings()
    return resolve_llm_config(
        base_url=base_url,
        api_key=api_key,
        model=model,
        fallback=settings.llm_fallback(),
        **options,
    )
