"""Solve strategies: one module per workflow, registered in `cpbot.core.registry.STRATEGY_SPECS`.

Every module exposes `make(**options) -> Strategy`; `get_strategy(name, **options)` imports it on first
use, so listing the names costs nothing. `agents.solve.solve` runs a strategy inside a `SolveContext`.
"""

from __future__ import annotations

import importlib
from typing import Any

from cpbot.agents.strategies.base import Strategy
from cpbot.core.registry import STRATEGY_NAMES, strategy_spec


def strategy_names() -> list[str]:
    """The registered strategies, default first."""
    return list(STRATEGY_NAMES)


def get_strategy(name: str, **options: Any) -> Strategy:
    """A fresh strategy `name` built with `options` (e.g. `plans=5, debugs=5` for macs)."""
    return importlib.import_module(strategy_spec(name).module).make(**options)  # type: ignore[no-any-return]
