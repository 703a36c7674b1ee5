"""`--strategy-option KEY=VALUE` (on `cpbot solve`, `cpbot watch` and `cpbot bench`) turned into a strategy's
options."""

from __future__ import annotations

import dataclasses
from typing import Any

from pydantic import BaseModel

from cpbot.agents.strategies import get_strategy
from cpbot.core.errors import ConfigError


def parse_strategy_options(strategy: str, items: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """`--strategy-option key=value` (repeatable) -> the strategy's options, each value converted to the
    type of the strategy's own field (`max_n=24`, `count=false`, `stress_seconds=2.5`, `max_n=none`)."""
    made = get_strategy(strategy)
    known = dataclasses.is_dataclass(made)
    fields = option_fields(made)
    hint = f"{strategy} takes: {', '.join(sorted(fields)) or '(no options)'}"
    options: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise ConfigError(f"--strategy-option {item!r} is not key=value", hint=hint)
        if known and key not in fields:
            raise ConfigError(f"strategy {strategy} has no option {key!r}", hint=hint)
        options[key] = _option_value(key, text.strip(), fields.get(key, ""), hint)
    try:
        get_strategy(strategy, **options)
    except (TypeError, ValueError) as e:  # a pydantic ValidationError is a ValueError
        raise ConfigError(f"--strategy-option for {strategy}: {e}", hint=hint) from e
    return options


def option_fields(strategy: object) -> dict[str, str]:
    """A strategy's options, name -> type as written: the fields of its dataclass ("name" is its registry name, not
    an option), where a field holding a pydantic model (the `cpbot` strategy's `gate`) stands for that model's
    fields, each an option of its own name."""
    if not dataclasses.is_dataclass(strategy):
        return {}
    fields: dict[str, str] = {}
    for f in dataclasses.fields(strategy):
        value = getattr(strategy, f.name)
        if isinstance(value, BaseModel):
            fields.update({name: _type_name(info.annotation) for name, info in type(value).model_fields.items()})
        elif f.name != "name":
            fields[f.name] = str(f.type)
    return fields


def _type_name(annotation: Any) -> str:
    return annotation.__name__ if isinstance(annotation, type) else str(annotation)


def with_candidates(items: tuple[str, ...] | list[str], candidates: int | None) -> tuple[str, ...]:
    """The `--strategy-option` items with `--candidates K` added as `candidates=K` (when given)."""
    return (*items, f"candidates={candidates}") if candidates is not None else tuple(items)


def bench_options(strategies: list[str], items: tuple[str, ...] | list[str]) -> dict[str, dict[str, Any]]:
    """`cpbot bench`'s `--strategy-option [STRATEGY:]KEY=VALUE` -> the options of each strategy: an item naming
    a strategy goes to it alone, one that does not to every strategy of the bench that takes the option (so
    `candidates=8` reaches `cpbot` and not `direct`). An item no strategy takes is an error."""
    chosen: dict[str, list[str]] = {name: [] for name in strategies}
    for item in items:
        head, colon, rest = item.partition(":")
        named = colon and "=" not in head
        targets = [head.strip()] if named else [s for s in strategies if _takes(s, item)]
        if named and targets[0] not in chosen:
            raise ConfigError(
                f"--strategy-option {item!r} names {targets[0]}, which this bench does not run",
                hint=f"the bench runs: {', '.join(strategies)}",
            )
        if not targets:
            key = item.partition("=")[0].strip()
            raise ConfigError(
                f"no strategy of this bench ({', '.join(strategies)}) has the option {key!r}",
                hint="prefix an option with its strategy to check it: cpbot:candidates=8",
            )
        for target in targets:
            chosen[target].append(rest if named else item)
    return {name: parse_strategy_options(name, found) for name, found in chosen.items() if found}


def _takes(strategy: str, item: str) -> bool:
    key = item.partition("=")[0].strip().replace("-", "_")
    return key in option_fields(get_strategy(strategy))


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _option_value(key: str, text: str, annotation: str, hint: str) -> Any:
    """`text` as the field's type (`annotation` as written, e.g. "int | None"); guessed when unknown."""
    lowered = text.lower()
    if lowered == "none" and ("None" in annotation or not annotation):
        return None
    if "bool" in annotation or (not annotation and lowered in ("true", "false")):
        if lowered in _TRUE or lowered in _FALSE:
            return lowered in _TRUE
        raise ConfigError(f"--strategy-option {key}={text}: expected true or false", hint=hint)
    for kind, convert in (("int", int), ("float", float)):
        if kind in annotation or not annotation:
            try:
                return convert(text)
            except ValueError:
                pass
    if "str" in annotation or not annotation:
        return text
    raise ConfigError(f"--strategy-option {key}={text}: expected {annotation}", hint=hint)
