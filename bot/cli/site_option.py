"""The one way every command takes a site: `cf`, `lc`, `codeforces`, `leetcode` (any case), from the registry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from cpbot.core.registry import LOCAL_SITE, SITE_ALIASES, SITE_NAMES

ALL_SITES = "all"  # what `--site` takes, where a command can work on every site at once


class SiteChoice(click.Choice):
    """A site name or alias, in any case, converted to the site's name (`CF` -> `codeforces`)."""

    def __init__(self, *, allow_all: bool = False, allow_local: bool = False) -> None:
        extra = (*((ALL_SITES,) if allow_all else ()), *((LOCAL_SITE,) if allow_local else ()))
        super().__init__([*SITE_ALIASES, *extra], case_sensitive=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        chosen = super().convert(value, param, ctx)
        return SITE_ALIASES.get(chosen, chosen)


def site_option(
    *param_decls: str, allow_all: bool = False, allow_local: bool = False, **kwargs: Any
) -> Callable[[Any], Any]:
    """`--site` as every command declares it; `allow_all` adds `all` (every site), `allow_local` adds
    `local` (a problem of no site: a problem.json written by hand)."""
    return click.option(
        *(param_decls or ("--site",)), type=SiteChoice(allow_all=allow_all, allow_local=allow_local), **kwargs
    )


def chosen_sites(value: str) -> tuple[str, ...]:
    """The site names a `--site` value stands for (`all`: every registered site)."""
    return SITE_NAMES if value == ALL_SITES else (value,)
