"""The watcher: polls the contest lists, records the contests to watch, and starts each one's loop when it
begins (APScheduler 3.x, a `BackgroundScheduler`).

The jobs live in memory only: `WatchState` is the truth, so on start the watcher schedules every contest
the state holds that is not done (one that has already begun starts at once) before it polls again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.background import BackgroundScheduler

from cpbot.bot.watch.rules import contest_key
from cpbot.bot.watch.state import ContestRow, WatchState
from cpbot.core.errors import CpbotError
from cpbot.scrapers.listing import Contest

_log = logging.getLogger("cpbot.watch")

Lister = Callable[[], list[Contest]]
RunContest = Callable[[str], None]


def contest_row(contest: Contest, now: datetime) -> ContestRow:
    """The state's row for a listed contest: live unless it has already ended (then a virtual run)."""
    ended = contest.phase.ended
    if contest.start is not None and contest.duration_s > 0:
        ended = ended or now >= contest.start + timedelta(seconds=contest.duration_s)
    return ContestRow(
        key=contest_key(contest.site, contest.id),
        site=contest.site,
        contest_id=contest.id,
        name=contest.name,
        url=contest.url,
        start=contest.start,
        duration_s=contest.duration_s,
        mode="virtual" if ended else "live",
        gym=contest.gym,
    )


class Watcher:
    """Polls `lister` every `poll_s` seconds and runs `run_contest(key)` for each selected contest at its start."""

    def __init__(
        self,
        state: WatchState,
        *,
        lister: Lister,
        run_contest: RunContest,
        select: Callable[[Contest], bool],
        keep: Callable[[ContestRow], bool] = lambda row: True,
        poll_s: float = 600.0,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.state = state
        self.lister = lister
        self.run_contest = run_contest
        self.select = select
        self.keep = keep
        self.poll_s = poll_s
        self.now = now
        self.scheduler = BackgroundScheduler(timezone=UTC, job_defaults={"misfire_grace_time": None})
        self.polled = threading.Event()
        self.changed = threading.Event()
        self.errors: list[BaseException] = []
        self._lock = threading.Lock()
        self._active: set[str] = set()
        self._watched: set[str] = set()
        self._waiting: set[str] = set()  # contests with a job to come (`later`)

    def start(self, *, poll: bool = True) -> None:
        """Start the scheduler, schedule what the state holds, and (with `poll`) poll now and then regularly."""
        self.scheduler.start()
        for row in self.state.contests(status=("watching", "running")):
            if self.keep(row):
                self.schedule(row)
        if poll:
            self.scheduler.add_job(
                self.poll, "interval", seconds=self.poll_s, id="poll", next_run_time=self.now(), max_instances=1
            )
        else:
            self.polled.set()

    def shutdown(self) -> None:
        """Stop scheduling; running contest loops are left to finish or stop on their own signal."""
        self.scheduler.shutdown(wait=False)

    def poll(self) -> None:
        """List contests, record the selected ones and schedule them; a failed poll is retried next time."""
        try:
            listed = self.lister()
        except CpbotError as e:
            _log.warning("contest list: %s", e.message)
            self.polled.set()
            return
        now = self.now()
        for contest in listed:
            if not self.select(contest):
                continue
            row = self.state.add_contest(contest_row(contest, now))
            self.schedule(row)
        self.polled.set()
        self.changed.set()

    def schedule(self, row: ContestRow) -> None:
        """(Re)schedule one contest's loop at its start (at once when it has begun); idempotent."""
        with self._lock:
            self._watched.add(row.key)
            if row.status == "done" or row.key in self._active or row.key in self._waiting:
                return
        start = row.start if row.start is not None and row.mode == "live" else None
        when = max(start, self.now()) if start is not None else self.now()
        self.scheduler.add_job(
            self._run, "date", run_date=when, args=[row.key], id=f"contest:{row.key}", replace_existing=True
        )

    def later(self, delay_s: float, job: Callable[[], None], key: str) -> None:
        """Run `job` once, `delay_s` seconds from now, for contest `key` (a heuristic contest's next look for its
        results): until it runs, the contest is not started again though it is not done."""
        with self._lock:
            self._waiting.add(key)

        def run() -> None:
            with self._lock:
                self._waiting.discard(key)
            try:
                job()
            except BaseException as e:
                _log.error("contest %s: %s", key, e)
                self.errors.append(e)
            finally:
                self.changed.set()

        self.scheduler.add_job(run, "date", run_date=self.now() + timedelta(seconds=delay_s))

    def _run(self, key: str) -> None:
        with self._lock:
            if key in self._active:
                return
            self._active.add(key)
        try:
            self.run_contest(key)
        except BaseException as e:
            _log.error("contest %s stopped: %s", key, e)
            self.errors.append(e)
        finally:
            with self._lock:
                self._active.discard(key)
            self.changed.set()

    def seen(self) -> list[str]:
        """Keys of the contests this watcher scheduled (or found done), in key order."""
        with self._lock:
            return sorted(self._watched)

    def pending(self) -> list[str]:
        """Keys of the contests seen by this watcher that are not done yet."""
        with self._lock:
            keys = sorted(self._watched)
        return [k for k in keys if self.state.contest(k).status != "done"]

    def active(self) -> set[str]:
        """Contests whose loop is running now."""
        with self._lock:
            return set(self._active)
