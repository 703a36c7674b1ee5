"""Fixtures of the scraper tests."""

from __future__ import annotations

import pytest

from tests.scrapers.scraper_support import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    """A fake monotonic clock whose `sleep` advances it and records the pause."""
    return FakeClock()
