"""Helpers of the scraper tests: where the recorded fixtures live, and a fake clock."""

from __future__ import annotations

from pathlib import Path

from tests.paths import FIXTURES


def fixture_path(*parts: str) -> Path:
    """A recorded fixture under tests/fixtures (a missing one is an error, never a skip)."""
    path = FIXTURES.joinpath(*parts)
    if not path.is_file():
        raise FileNotFoundError(f"recorded fixture missing from the repository: {path}")
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
