"""Shared test setup: a private user dir per test, one compile cache and one sandbox per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# The compile cache (precompiled headers take seconds to build) is shared across tests and runs;
# its entries are keyed by content, so sharing cannot change a result.
CACHE = Path(os.environ.get("CPBOT_TEST_CACHE", f"/tmp/cpbot-test-cache-{os.geteuid()}"))
os.environ["CPBOT_CACHE_DIR"] = str(CACHE)

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def private_user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Config and data dirs of a fresh user for every test, so nothing leaks between tests or to $HOME."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    return home


@pytest.fixture(autouse=True)
def fresh_run_memos() -> None:
    """No generated input or brute-force answer kept from another test (judge/memo.py)."""
    from cpbot.judge.generator import INPUTS
    from cpbot.judge.stress import BRUTE_RUNS

    INPUTS.clear()
    BRUTE_RUNS.clear()


@pytest.fixture
def slot_runs(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The argv of every run the sandbox's slots are given while the test runs."""
    from cpbot.judge.sandbox.pool import Slot

    started: list[list[str]] = []
    original = Slot.start

    def start(self, argv, **kwargs):  # type: ignore[no-untyped-def]
        started.append(list(argv))
        return original(self, argv, **kwargs)

    monkeypatch.setattr(Slot, "start", start)
    return started


@pytest.fixture(scope="session")
def sandbox():
    """As the judge's default sandbox: Python programs fork from a warm interpreter."""
    from cpbot.judge.languages.python import default_warm_python
    from cpbot.judge.sandbox import Sandbox

    with Sandbox(2, warm_python=default_warm_python()) as sb:
        yield sb
