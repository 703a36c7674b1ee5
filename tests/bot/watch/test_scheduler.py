"""The watcher: contests found by a poll run at their start, once; after a restart the jobs come back
from the state alone, and a contest that already began resumes at once."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cpbot.bot.watch.scheduler import Watcher, contest_row
from cpbot.bot.watch.state import WatchState
from cpbot.scrapers.listing import Contest


def listed(cid: str, start_in_s: float, duration_s: int = 3600, phase: str = "BEFORE") -> Contest:
    start = datetime.now(UTC) + timedelta(seconds=start_in_s)
    return Contest(
        site="codeforces", id=cid, name=f"Round {cid}", phase=phase, start=start, duration_s=duration_s,
        url=f"https://codeforces.com/contest/{cid}",
    )  # fmt: skip


class Runs:
    def __init__(self, state: WatchState, finish: bool = True) -> None:
        self.state = state
        self.finish = finish
        self.calls: list[tuple[str, float]] = []
        self.done = threading.Event()

    def __call__(self, key: str) -> None:
        self.calls.append((key, time.monotonic()))
        if self.finish:
            self.state.set_contest(key, status="done")
        self.done.set()


def test_a_polled_contest_runs_at_its_start_once_and_far_ones_are_skipped(tmp_path: Path) -> None:
    with WatchState(tmp_path / "w.sqlite3") as state:
        runs = Runs(state)
        soon, far = listed("1", 0.4), listed("2", 3 * 86400)
        horizon = timedelta(hours=1)
        watcher = Watcher(
            state,
            lister=lambda: [soon, far],
            run_contest=runs,
            select=lambda c: c.start is None or c.start - datetime.now(UTC) <= horizon,
            poll_s=0.1,
        )
        started = time.monotonic()
        watcher.start()
        try:
            assert runs.done.wait(120)  # a safety net only
            time.sleep(0.4)  # several more polls: the contest must not run again
        finally:
            watcher.shutdown()
        assert [k for k, _ in runs.calls] == ["codeforces:1"]
        assert runs.calls[0][1] - started >= 0.3  # not before its start
        assert [c.key for c in state.contests()] == ["codeforces:1"]
        assert watcher.pending() == [] and watcher.seen() == ["codeforces:1"]


def test_after_a_restart_the_state_alone_brings_back_a_running_contest_at_once(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite3"
    with WatchState(path) as state:
        row = state.add_contest(contest_row(listed("7", -60, phase="CODING"), datetime.now(UTC)))
        state.set_contest(row.key, status="running", run_id="r1")
        state.add_contest(contest_row(listed("8", -600, phase="CODING"), datetime.now(UTC)))
        state.set_contest("codeforces:8", status="done")
    with WatchState(path) as state:
        runs = Runs(state)

        def no_list() -> list[Contest]:
            raise AssertionError("the restart must not need the contest list")

        watcher = Watcher(state, lister=no_list, run_contest=runs, select=lambda c: True)
        watcher.start(poll=False)
        try:
            assert runs.done.wait(120)  # a safety net only
        finally:
            watcher.shutdown()
        assert [k for k, _ in runs.calls] == ["codeforces:7"]  # the done one is left alone


def test_a_contest_that_has_ended_is_watched_as_a_virtual_one() -> None:
    now = datetime.now(UTC)
    assert contest_row(listed("5", -7200, 3600, phase="FINISHED"), now).mode == "virtual"
    assert contest_row(listed("6", -60, 3600, phase="CODING"), now).mode == "live"
    assert contest_row(listed("6", 600, 3600), now).end is not None
