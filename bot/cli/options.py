"""Options several commands take, each declared once as a decorator and stacked on the commands.

Imports click and the registries only: every command module uses these, and `cpbot --help` loads
every command module.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from pydantic import ValidationError

from cpbot.core.errors import ConfigError
from cpbot.core.registry import DEFAULT_LANGUAGE, DEFAULT_STRATEGY, LANGUAGE_ALIASES, LANGUAGE_NAMES, STRATEGY_NAMES
from cpbot.judge.model import Limits

F = TypeVar("F", bound=Callable[..., Any])


def _stack(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    """The decorators applied in the order written (the first is the first option in --help)."""

    def apply(f: F) -> F:
        for decorator in reversed(decorators):
            f = decorator(f)
        return f

    return apply


def model_endpoint_options(f: F) -> F:
    """--model, --base-url, --api-key: the OpenAI-compatible endpoint (see `cpbot.bot.cli.config.resolve_llm`)."""
    return _stack(
        click.option("--model", help="Model name (env CPBOT_MODEL)."),
        click.option(
            "--base-url", help="OpenAI-compatible API root, e.g. http://127.0.0.1:8000/v1 (env CPBOT_BASE_URL)."
        ),
        click.option("--api-key", help="API key (env CPBOT_API_KEY or OPENAI_API_KEY); never stored."),
    )(f)


def strategy_options(f: F) -> F:
    """--strategy NAME, --strategy-option KEY=VALUE (repeatable; see `cpbot.bot.app.strategy_options`) and
    --candidates K (its shorthand for `candidates=K`; `with_candidates` merges it)."""
    return _stack(
        click.option("--strategy", type=click.Choice(STRATEGY_NAMES), default=DEFAULT_STRATEGY, show_default=True),
        click.option(
            "--strategy-option",
            "strategy_option",
            multiple=True,
            metavar="KEY=VALUE",
            help="A strategy option, repeatable (e.g. max_n=1000, count=false for cpbot).",
        ),
        click.option(
            "--candidates",
            type=click.IntRange(min=1),
            help=(
                "cpbot: programs drawn at once and chosen among by what they do (default 8; 1: one program at "
                "a time; --strategy-option candidates=K)."
            ),
        ),
    )(f)


class LanguageChoice(click.Choice):
    """A registered language, or an alias of one (`cpp` -> `cpp17`, `python` -> `python3`), in any case."""

    def __init__(self) -> None:
        super().__init__(LANGUAGE_NAMES, case_sensitive=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            value = LANGUAGE_ALIASES.get(value.lower(), value)
        return super().convert(value, param, ctx)


def language_option(*, default: str | None = DEFAULT_LANGUAGE, help: str | None = None) -> Callable[[F], F]:
    """--lang, one of the registered languages, passed as `language`; `default=None` leaves it unset (the
    command then tells the language from the solution's file extension)."""
    return click.option(
        "--lang",
        "language",
        type=LanguageChoice(),
        default=default,
        show_default=default is not None,
        help=(help or "")
        + (" " if help else "")
        + (
            "cpp and python stand for cpp17 and python3."
            if default is not None
            else "Default: from the file extension (cpp and python stand for cpp17 and python3)."
        ),
    )


def python_option(f: F) -> F:
    """--python PATH: the interpreter CPython programs are judged with. The flag, CPBOT_PYTHON and the
    config's `[judge] python` are ranked in one place (`cpbot.bot.cli.config.python_choice`); without any, the
    managed environment of `cpbot setup-python`, else the system's python3."""

    def apply(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
        from click.core import ParameterSource

        from cpbot.bot.cli.config import python_choice
        from cpbot.judge.languages.python import use_python

        source = ctx.get_parameter_source(param.name or "python")
        flag = value if source is ParameterSource.COMMANDLINE else None
        table = value if source is ParameterSource.DEFAULT_MAP else None
        choice = python_choice(flag, table, command=ctx.info_name or "")
        if choice is not None:
            use_python(*choice)

    return click.option(
        "--python",
        "python",
        expose_value=False,
        callback=apply,
        help="The Python interpreter (or environment's) judged programs run with "
        "(env CPBOT_PYTHON, config [judge] python).",
    )(f)


def cookies_option(f: F) -> F:
    """--cookies FILE (env CPBOT_COOKIES): the browser session the sites are read (or posted to) with."""
    return click.option(
        "--cookies",
        type=click.Path(dir_okay=False, path_type=Path),
        envvar="CPBOT_COOKIES",
        help="A Netscape cookies.txt exported from your browser (env CPBOT_COOKIES).",
    )(f)


def include_option(f: F) -> F:
    """`-I DIR` (repeatable): an include dir for every source the command builds, shown read-only."""
    return click.option(
        "-I",
        "--include",
        "include_dirs",
        multiple=True,
        type=click.Path(exists=True, file_okay=False, path_type=Path),
        help="An include dir for the sources built (repeatable; each source's own folder comes first; read-only).",
    )(f)


def lcb_selection_options(f: F) -> F:
    """--since, --until, --platform, --difficulty: which LiveCodeBench problems (see `livecodebench.Selection`)."""
    return _stack(
        click.option(
            "--since", metavar="DATE", help="Only problems whose contest_date is on or after DATE (YYYY-MM-DD)."
        ),
        click.option("--until", metavar="DATE", help="Only problems whose contest_date is on or before DATE."),
        # the names are LiveCodeBench's data, checked by `livecodebench.make_selection`
        click.option(
            "--platform", "platforms", multiple=True, help="Only this platform: atcoder, codeforces, leetcode."
        ),
        click.option("--difficulty", "difficulties", multiple=True, help="Only this difficulty: easy, medium, hard."),
    )(f)


def compiler_flags_options(f: F) -> F:
    """--cxxflags "FLAGS" and --debug: C++ compiler flags after cpbot's own (-O2 -std=...), for the
    solution only. Without --cxxflags, the command's table and then `[judge] cxxflags` in config.toml
    give them; --debug adds the sanitizers, the checked STL and LOCAL (`judge.languages.cpp.DEBUG_FLAGS`).
    The command gets one tuple, `compiler_flags`."""

    def combine(ctx: click.Context, param: click.Parameter, value: bool) -> None:
        import shlex

        from click.core import ParameterSource

        from cpbot.bot.cli.config import JUDGE_TABLE, current_settings
        from cpbot.judge.languages.cpp import DEBUG_FLAGS

        text = ctx.params.pop("cxxflags", None)
        if text is None or ctx.get_parameter_source("cxxflags") is ParameterSource.DEFAULT:
            text = text or current_settings().commands.get(JUDGE_TABLE, {}).get("cxxflags")
        try:
            flags = shlex.split(text or "")
        except ValueError as e:
            raise click.BadParameter(f"cannot split {text!r}: {e}", ctx, param) from None
        ctx.params["compiler_flags"] = (*flags, *(DEBUG_FLAGS if value else ()))

    return _stack(
        click.option(
            "--cxxflags",
            is_eager=True,
            help='C++ compiler flags after -O2 -std=..., e.g. "-DLOCAL -Wall" (config [judge] cxxflags).',
        ),
        click.option(
            "--debug",
            is_flag=True,
            expose_value=False,
            callback=combine,
            help="A C++ debug build: -fsanitize=address,undefined, -D_GLIBCXX_DEBUG, -DLOCAL, -g (slower; finds "
            "out-of-bounds, use-after-free and overflow where they happen).",
        ),
    )(f)


def cli_limits(tl_s: float, ml_mb: int) -> Limits:
    """The limits `--tl` and `--ml` give, past the bounds a problem may state (`max_time_limit_s`) refused as a
    one-line error."""
    try:
        return Limits(time_ms=round(tl_s * 1000), memory_mb=ml_mb)
    except ValidationError as e:
        raise ConfigError(f"--tl {tl_s:g}: {e.errors()[0]['msg']}") from None
