"""Helpers of the scraper tests: where the recorded fixtures live, and a fake clock."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def shared_dir() -> Path:
    """The repo's sibling `shared/` (or $CPBOT_SHARED)."""
    env = os.environ.get("CPBOT_SHARED")
    return Path(env) if env else Path(__file__).resolve().parents[2].parent / "shared"


FIXTURES = shared_dir() / "fixtures"


def fixture_path(*parts: str) -> Path:
    """A recorded fixture; the test is skipped when the shared corpus is not there."""
    path = FIXTURES.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"fixture not available: {path}")
    return path


class FakeClock:
    """A monotonic clock that only moves when someone sleeps on it."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
