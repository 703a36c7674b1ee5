"""cpbot's settings file: `config.toml` in the user config dir (`CPBOT_CONFIG_DIR` overrides the dir).

Precedence is command line > `CPBOT_*` environment > this file > built-in defaults. Three kinds of entry:

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

    [browser]                  # the browser transport (README: Browser transport)
    executable = "/usr/bin/chromium"

    [solve]                    # defaults for any command's options, by option name
    strategy = "cpbot"
    lang = "python3"

    [judge]                    # `cpbot judge`'s options; `python` is every command's judged Python
    python = "~/envs/contest/bin/python"

    [input]                    # bounds on what is read from outside (cpbot.core.bounds; CPBOT_MAX_* win)
    max_page_mb = 32           # max_page_s, max_test_file_mb, max_decompressed_mb, max_json_depth,
                               # max_time_limit_s, max_memory_limit_mb

Command tables become click's `default_map`, which click ranks below the command line and the
option's environment variable and above the option's own default.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cpbot.core.bounds import BOUNDS
from cpbot.core.bounds import configure as configure_bounds
from cpbot.core.dirs import config_dir
from cpbot.core.errors import ConfigError, first_problem
from cpbot.core.secrets import register_secret

if TYPE_CHECKING:
    from cpbot.agents.llm_settings import LLMConfig
    from cpbot.scrapers.browser_settings import BrowserSettings

FILE_NAME = "config.toml"
INPUT_TABLE = "input"  # bounds on what cpbot reads from outside (cpbot.core.bounds)
# The [llm] table's keys and the type of each value ([llm.roles] maps a role to a model name).
LLM_KEYS: dict[str, type | tuple[type, ...]] = {"base_url": str, "model": str, "api_key": str, "roles": dict}
# The request settings [llm] (and a role's table) may hold, with their types (agents.llm checks ranges).
REQUEST_KEYS: dict[str, type | tuple[type, ...]] = {
    "timeout_s": (int, float),
    "max_output_tokens": int,
    "retry_output_tokens": int,
    "temperature": (int, float),
    "top_p": (int, float),
    "seed": int,
    "reasoning_effort": str,
    "extra_body": dict,
    "max_retries": int,
    "retry_timeouts": bool,
    "max_in_flight": int,
    "max_reply_bytes": int,
}
# what a role's own table may hold ([llm.roles.coder]): a model and the per-request settings
_PROCESS_WIDE = ("retry_output_tokens", "max_retries", "retry_timeouts", "max_in_flight", "max_reply_bytes")
ROLE_KEYS = {"model": str, **{k: v for k, v in REQUEST_KEYS.items() if k not in _PROCESS_WIDE}}


def config_path() -> Path:
    return config_dir() / FILE_NAME


# Plain dataclasses, not pydantic models: the settings are read by every command before its arguments
# are parsed, and importing pydantic would double the start-up time of `cpbot judge --help`.
@dataclass(frozen=True)
class LLMSettings:
    base_url: str | None = None
    model: str | None = None
    api_key: str | None = field(default=None, repr=False)
    # a role's model name, or a table of its request settings (model, max_output_tokens, temperature, ...)
    roles: dict[str, str | dict[str, Any]] = field(default_factory=dict)
    # request settings for every role (see agents.llm.LLMConfig): timeout_s, max_output_tokens, ...
    request: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Settings:
    """What `config.toml` says; `commands` holds the per-command option defaults."""

    path: Path | None = None  # where it was read from (None: no file)
    llm: LLMSettings = LLMSettings()
    browser: BrowserSettings | None = None  # the [browser] table, when there is one
    commands: dict[str, dict[str, Any]] = field(default_factory=dict)
    # the [input] table: bounds on what is read from outside (cpbot.core.bounds), applied by `apply_bounds`
    bounds: dict[str, Any] = field(default_factory=dict)

    def apply_bounds(self) -> None:
        """Put the [input] table's bounds in force for this process (the environment still wins)."""
        try:
            configure_bounds(self.bounds)
        except ConfigError as e:
            raise ConfigError(f"{self.path}: {e.message}", hint=e.hint) from None

    def llm_fallback(self) -> dict[str, Any]:
        """The endpoint settings for `agents.llm.resolve_llm_config(fallback=...)`."""
        values: dict[str, Any] = {"base_url": self.llm.base_url, "model": self.llm.model, "api_key": self.llm.api_key}
        values.update({f"model_{role.lower()}": name for role, name in self.llm.roles.items() if isinstance(name, str)})
        tables = {role.lower(): t for role, t in self.llm.roles.items() if isinstance(t, dict)}
        if tables:
            from pydantic import ValidationError

            from cpbot.agents.llm_settings import RequestSettings

            try:
                values["roles"] = {role: RequestSettings(**table) for role, table in tables.items()}
            except ValidationError as e:
                raise ConfigError(
                    f"{self.path}: [llm.roles] {first_problem(e)}", hint="see `cpbot config --help`"
                ) from None
        values.update(self.llm.request)
        return {k: v for k, v in values.items() if v is not None and v != ""}


def _llm_settings(path: Path, table: dict[str, Any]) -> LLMSettings:
    """The [llm] table checked key by key: known keys with values of the right type; a role is a model
    name or a table of its own request settings."""
    hint = f"[llm] takes {', '.join([*LLM_KEYS, *REQUEST_KEYS])}; see `cpbot config --help`"
    for key, value in table.items():
        _check(path, "llm", key, value, {**LLM_KEYS, **REQUEST_KEYS}, hint)
    roles = table.get("roles", {})
    for role, value in roles.items():
        if isinstance(value, dict):
            for key, item in value.items():
                _check(path, f"llm.roles.{role}", key, item, ROLE_KEYS, hint)
        elif not isinstance(value, str):
            raise ConfigError(f"{path}: [llm.roles] {role} must be a model name or a table, not {value!r}", hint=hint)
    return LLMSettings(
        base_url=table.get("base_url"),
        model=table.get("model"),
        api_key=table.get("api_key"),
        roles=dict(roles),
        request={k: v for k, v in table.items() if k in REQUEST_KEYS},
    )


def _check(path: Path, where: str, key: str, value: Any, known: dict[str, type | tuple[type, ...]], hint: str) -> None:
    expected = known.get(key)
    if expected is None:
        raise ConfigError(f"{path}: [{where}] {key}: no such setting", hint=hint)
    numeric = expected in (int, (int, float))
    if not isinstance(value, expected) or (numeric and isinstance(value, bool)):
        kind = {str: "a string", dict: "a table", int: "a whole number", bool: "true or false"}.get(
            expected,  # type: ignore[call-overload]
            "a number",
        )
        raise ConfigError(f"{path}: [{where}] {key} must be {kind}, not {value!r}", hint=hint)


def load_settings(path: Path | None = None) -> Settings:
    """Read the settings file; a missing file is no settings, a broken one a `ConfigError`."""
    path = path or config_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Settings()
    except OSError as e:
        raise ConfigError(f"cannot read {path}: {e.strerror}", hint="check the file's permissions") from e
    import tomllib  # only when there is a file to read

    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path} is not valid TOML: {e}", hint="fix the file or move it away") from e
    except RecursionError:
        raise ConfigError(f"{path} is nested too deep to read", hint="fix the file or move it away") from None
    bounds_table = data.pop(INPUT_TABLE, {})
    if not isinstance(bounds_table, dict):
        raise ConfigError(f"{path}: [{INPUT_TABLE}] must be a table", hint=f"[{INPUT_TABLE}] takes {', '.join(BOUNDS)}")
    llm = data.pop("llm", {})
    if not isinstance(llm, dict):
        raise ConfigError(f"{path}: [llm] must be a table", hint="see `cpbot config --help`")
    if "api_key" in llm and path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConfigError(
            f"{path} holds an API key but others can read it",
            hint=f"chmod 600 {path}, or set CPBOT_API_KEY instead",
        )
    browser = data.pop("browser", None)
    browser_settings = None
    if browser is not None:  # pydantic is imported only for a file that has the table
        from cpbot.scrapers.browser_settings import BrowserSettings

        browser_settings = BrowserSettings.from_table(browser, str(path))
    commands = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: `{name}` must be a table of a command's options, e.g. [solve]")
        commands[name] = table
    return Settings(
        path=path, llm=_llm_settings(path, llm), browser=browser_settings, commands=commands, bounds=bounds_table
    )


def default_map(settings: Settings, ctx: click.Context) -> dict[str, dict[str, Any]]:
    """The command tables as click's `default_map` for the group of `ctx`; unknown commands or options
    are errors, not ignored. Only the commands that have a table are loaded (the group may be lazy)."""
    group = ctx.command
    assert isinstance(group, click.Group)
    result: dict[str, dict[str, Any]] = {}
    for command_name, table in settings.commands.items():
        command = group.get_command(ctx, command_name) if command_name in group.list_commands(ctx) else None
        if command is None:
            known = ", ".join(group.list_commands(ctx))
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


PYTHON_VARIABLE = "CPBOT_PYTHON"
JUDGE_TABLE = "judge"


def python_choice(
    flag: str | None = None,
    command_default: str | None = None,
    settings: Settings | None = None,
    *,
    command: str = JUDGE_TABLE,
) -> tuple[str, str] | None:
    """The interpreter judged CPython programs run with and what chose it, in cpbot's one order: the
    command's --python, then CPBOT_PYTHON, then the command's own table (`[grade] python`), then
    `[judge] python` (every command's). None leaves the judge's default: the managed environment of
    `cpbot setup-python`, else the system's python3. `cpbot doctor` shows the outcome."""
    if flag:
        return flag, "--python"
    if os.environ.get(PYTHON_VARIABLE):
        return os.environ[PYTHON_VARIABLE], PYTHON_VARIABLE
    settings = settings or current_settings()
    where = f"{settings.path}" if settings.path else "config.toml"
    if command_default:  # the table of the running `command`
        return command_default, f"[{command}] python in {where}"
    configured = settings.commands.get(JUDGE_TABLE, {}).get("python")
    if configured:
        return str(configured), f"[{JUDGE_TABLE}] python in {where}"
    return None


def resolve_llm(*, base_url: str | None, api_key: str | None, model: str | None, **options: Any) -> LLMConfig:
    """The model endpoint: command line, then CPBOT_*/OPENAI_* variables, then `[llm]` in config.toml."""
    from cpbot.agents.llm_settings import resolve_llm_config  # the model client's module: only for commands that use it

    settings = current_settings()
    config = resolve_llm_config(
        base_url=base_url,
        api_key=api_key,
        model=model,
        fallback=settings.llm_fallback(),
        **options,
    )
    # a server's error may echo the key back: every redactor of the process (the CLI's error printing
    # included) removes it from then on
    register_secret(config.api_key.get_secret_value())
    return config
