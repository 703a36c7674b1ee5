"""A watched heuristic contest after its search: the kept program's rank and performance in the final standings.

The total is the kept program's mean on fresh seeds times the system test's inputs (`HeuristicResult`, kept as
`result.json` beside the program). Once the contest is over and its final standings fixed, the site ranks it
(`Site.place_score`): AtCoder's AHC with the published performance of each rank once its results are out, with
the APerf estimate until then (`scrapers/atcoder/ahc.py`). AtCoder publishes the results some time after the
standings, so after an estimate `Ranking` keeps looking for them: first `results_poll_s` after, each wait twice
the last (at most `results_poll_max_s`), until `results_wait_s` has passed (the deadline is kept in
`result.json`, so a restarted watch goes on where it stopped). The looks run on the watch's scheduler when it
gives one (`later`), else in the calling thread. The contest stays `running` meanwhile, its detail saying when the
next look is; it is ranked again (a new `standing` event) when the results are out, and `done` then or at the
deadline, when the estimate stands. `cpbot watch --contest ID --rank-only` looks once (`Ranking.once`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pydantic import Field, ValidationError

from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.watch.events import ContestStateEvent, StandingEvent
from cpbot.bot.watch.ports import LoopOptions
from cpbot.bot.watch.rules import Participation
from cpbot.bot.watch.standing import Standing
from cpbot.bot.watch.state import ContestRow, ContestStatus, WatchState
from cpbot.core.bounds import TEST_FILE
from cpbot.core.errors import CpbotError, ParseError, first_problem
from cpbot.core.safe_paths import read_file, write_inside
from cpbot.judge.model import SCHEMA_VERSION, Model
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.ranklist import Scoring
from cpbot.scrapers.scored import Placing
from cpbot.scrapers.sites import get_site

RESULT = "result.json"
STANDINGS_POLL_S = 5.0
STANDINGS_WAIT_S = 6 * 3600.0  # how long after the end the final standings (the system test's) are waited for
Later = Callable[[float, Callable[[], None]], None]  # run a function after so many seconds (the watch's scheduler)


class HeuristicResult(Model):
    """What a watched heuristic contest ended with (`result.json` beside the best program)."""

    schema_version: int = SCHEMA_VERSION
    contest_id: str
    task: str
    participation: Participation
    best_file: str
    search_mean: float | None = None  # the leader's mean on the seeds the search chose it on (biased upwards)
    mean: float | None = None  # its mean on fresh seeds (`seeds`), which the estimate of the total uses
    seeds: list[int] = Field(default_factory=list)
    system_inputs: int = 0
    estimated_total: float | None = None
    relative: bool = False  # relative scoring: the standings' totals cannot rank a new entry
    posts: int = 0
    # a restarted search went on from the program the earlier one kept: its mean then, and again on the same seeds
    kept_mean_before: float | None = None
    kept_mean_again: float | None = None
    placing: Placing | None = None
    results_until: datetime | None = None  # AtCoder's results are looked for until then (after an estimate)
    note: str = ""

    @property
    def awaits_results(self) -> bool:
        """Ranked with the estimate, and the published results still looked for."""
        return self.placing is not None and self.placing.method == "aperf" and self.results_until is not None


def read_result(folder: Path) -> HeuristicResult | None:
    """The `result.json` of an earlier search in `folder` (None: there is none)."""
    path = folder / RESULT
    if not path.is_file():
        return None
    try:
        return HeuristicResult.model_validate_json(read_file(path, TEST_FILE))
    except ValidationError as e:
        raise ParseError(f"{path} is not a cpbot heuristic result: {first_problem(e)}") from None


def write_result(folder: Path, result: HeuristicResult) -> None:
    write_inside(folder, RESULT, result.model_dump_json(indent=2).encode())


def backoff_delay(attempt: int, options: LoopOptions, left_s: float) -> float | None:
    """The wait before look `attempt` (0, 1, ...) for the results: `results_poll_s` doubled each time, at most
    `results_poll_max_s`, and never past the deadline `left_s` away (None: the deadline has passed)."""
    if left_s <= 0:
        return None
    return min(options.results_poll_s * 2.0**attempt, options.results_poll_max_s, left_s)


class Ranking:
    """The kept program of one watched heuristic contest ranked once the contest is over."""

    def __init__(
        self,
        contest: ContestRow,
        folder: Path,
        result: HeuristicResult,
        *,
        run_id: str,
        state: WatchState,
        store: TranscriptStore,
        client: HttpClient,
        options: LoopOptions,
        stop: Callable[[], bool],
        wait: Callable[[float], bool],
        say: Callable[[str], None],
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        later: Later | None = None,
    ) -> None:
        self.contest, self.folder, self.result, self.run_id = contest, folder, result, run_id
        self.state, self.store, self.client, self.options = state, store, client, options
        self.stop, self.wait, self.say, self.now, self.later = stop, wait, say, now, later

    def after_end(self) -> None:
        """Wait for the end and the final standings, rank the estimate, then look for the results."""
        result = self.result
        assert result.estimated_total is not None
        if result.placing is None:
            self._step("waiting", "waiting for the end of the contest and its final standings")
            placing = self._wait_for_standings(result.estimated_total)
            if placing is None:
                result.note = f"the final standings were not out {STANDINGS_WAIT_S / 3600:g} h after the end: no rank"
                self._finish()
                return
            self._ranked(placing)
        if result.placing is not None and result.placing.method == "aperf" and self.options.results_wait_s > 0:
            if result.results_until is None:
                result.results_until = self.now() + timedelta(seconds=self.options.results_wait_s)
            self._look_later(0)
            return
        result.results_until = None
        self._finish()

    def once(self) -> None:
        """One look at the final standings and results now (`--rank-only`)."""
        assert self.result.estimated_total is not None
        placing = self._place(self.result.estimated_total)
        if placing is None:
            self.result.note = "the final standings are not fixed yet: no rank (try again later)"
        else:
            self._ranked(placing)
            if placing.method == "table":
                self.result.results_until = None
        self._finish("done")

    # ---- after an estimate: the published results ----

    def _look_later(self, attempt: int) -> None:
        """Look for the results after the backoff's wait: on the watch's scheduler, or here, until found."""
        while not self.stop():
            until = self.result.results_until
            assert until is not None
            delay = backoff_delay(attempt, self.options, (until - self.now()).total_seconds())
            if delay is None:
                self.result.note = (
                    f"AtCoder's results were not out by {until:%Y-%m-%d %H:%M} UTC: the performance stays the "
                    "estimate (cpbot watch --contest ID --rank-only ranks again later)"
                )
                self.result.results_until = None
                self._finish()
                return
            nxt = self.now() + timedelta(seconds=delay)
            self._finish("running", f"; AtCoder's results not out yet, looked for again at {nxt:%H:%M:%S} UTC")
            if self.later is not None:
                self.later(delay, functools.partial(self._scheduled_look, attempt))
                return
            if self.wait(delay) or self._look():
                return
            attempt += 1

    def _scheduled_look(self, attempt: int) -> None:
        if not self.stop() and not self._look():
            self._look_later(attempt + 1)

    def _look(self) -> bool:
        """One look: True once ranked on the published results. A failed look is told and tried again later."""
        assert self.result.estimated_total is not None
        try:
            placing = self._place(self.result.estimated_total)
        except CpbotError as e:
            self.say(f"{self.contest.key}: looking for the results failed ({e.message}); looking again later")
            return False
        if placing is None or placing.method != "table":
            return False
        self._ranked(placing)
        self.result.results_until = None
        self._finish()
        return True

    # ---- the standings ----

    def _wait_for_standings(self, total: float) -> Placing | None:
        end = self.contest.end
        while end is not None and self.now() < end and not self.stop():
            self.wait(min(STANDINGS_POLL_S, max((end - self.now()).total_seconds(), 0.01)))
        deadline = time.monotonic() + STANDINGS_WAIT_S
        while not self.stop() and time.monotonic() < deadline:
            placing = self._place(total)
            if placing is not None:
                return placing
            self.wait(STANDINGS_POLL_S)
        return None

    def _place(self, total: float) -> Placing | None:
        site = get_site(self.contest.site)
        return site.place_score(self.contest.contest_id, total, relative=self.result.relative, client=self.client)

    def _ranked(self, placing: Placing) -> None:
        self.result.placing = placing
        standing = _standing(placing)
        if standing is not None:
            self.store.record(self.run_id, StandingEvent(**dict(standing)))
            self.state.set_contest(self.contest.key, standing=standing)

    def _step(self, step: str, detail: str) -> None:
        self.store.record(self.run_id, ContestStateEvent(contest_id=self.contest.key, state=step, detail=detail))
        self.state.set_contest(self.contest.key, detail=detail)
        self.say(f"{self.contest.key}: {detail}")

    def _finish(self, status: ContestStatus = "done", more: str = "") -> None:
        """`result.json` written, the contest's status and detail set and told."""
        write_result(self.folder, self.result)
        detail = summary(self.result) + more
        self.state.set_contest(self.contest.key, status=status, detail=detail)
        self.store.record(self.run_id, ContestStateEvent(contest_id=self.contest.key, state=status, detail=detail))
        self.say(f"{self.contest.key}: {detail}")


def _standing(placing: Placing) -> Standing | None:
    if placing.rank is None:
        return None
    behind = placing.participants - placing.rank + 1
    return Standing(
        scoring=Scoring.SCORE_TIME,
        problems=[],
        points=placing.score,
        penalty=0.0,
        rank=placing.rank,
        participants=placing.participants,
        percentile=100.0 * behind / max(placing.participants, 1),
        performance=placing.performance,
        performance_note=placing.note,
        assumptions=[
            *placing.assumptions,
            "the total is the best program's mean score on fresh seeds times the system test's inputs",
        ],
    )


def summary(result: HeuristicResult) -> str:
    """One line: the kept program's estimate and, once ranked, its rank and performance."""
    if result.mean is None:
        return f"no program scored; nothing kept in {result.best_file}"
    text = (
        f"best program's mean {result.mean:,.1f} on {len(result.seeds)} fresh seeds (in the search "
        f"{result.search_mean or 0:,.1f}), about {result.estimated_total:,.0f} on the system test"
    )
    placing = result.placing
    if placing is not None:
        if placing.rank is None:
            text += f"; {placing.note}"
        else:
            text += f"; rank {placing.rank} of {placing.participants}"
            if placing.performance is not None:
                how = "published results" if placing.method == "table" else "estimate"
                text += f", performance {placing.performance} ({how})"
    if result.note:
        text += f"; {result.note}"
    if result.posts:
        text += f"; {result.posts} submitted"
    return f"{text}; the program: {result.best_file}"
