"""Solve strategies: one module per workflow, one registry line each.

Every module exposes `make(**options) -> Strategy`; `get_strategy(name, **options)` imports it on first
use, so listing the names costs nothing. `agents.solve.solve` runs a strategy inside a `SolveContext`.
"""

from __future__ import annotations

import importlib
from typing import Any

from agents.strategies.base import Strategy
from judge.errors import ConfigError

# name -> module; adding a strategy means adding one module and one line here
REGISTRY: dict[str, str] = {
    "direct": "agents.strategies.direct",
    "macs": "agents.strategies.macs",
    "cpbot": "agents.strategies.cpbot",
    "nala": "agents.strategies.nala",
    "mas": "agents.strategies.mas",
    "swiftsolve": "agents.strategies.swiftsolve",
    "blockchain": "agents.strategies.blockchain",
}
DEFAULT = "cpbot"


def strategy_names() -> list[str]:
    """The registered strategies, default first."""
    return [DEFAULT, *sorted(n for n in REGISTRY if n != DEFAULT)]


def get_strategy(name: str, **options: Any) -> Strategy:
    """A fresh strategy `name` built with `options` (e.g. `plans=5, debugs=5` for macs)."""
    module = REGISTRY.get(name)
    if module is None:
        raise ConfigError(f"unknown strategy {name!r}", hint=f"use one of: {', '.join(strategy_names())}")
    return importlib.import_module(module).make(**options)  # type: ignore[no-any-return]
