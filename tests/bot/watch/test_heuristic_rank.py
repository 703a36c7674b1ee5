"""A watched heuristic contest after its search (`bot/watch/heuristic_rank.py`): ranked with the estimate once the
final standings are fixed, AtCoder's results looked for with backoff until they come out (the fake AtCoder
publishes them after a few looks) or the deadline passes, and ranked again on them."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.watch.heuristic_rank import HeuristicResult, Ranking, backoff_delay, read_result
from cpbot.bot.watch.ports import LoopOptions
from cpbot.bot.watch.rules import Participation
from cpbot.bot.watch.state import ContestRow, WatchState
from cpbot.scrapers.atcoder.ahc import parse_results, table_placing
from cpbot.scrapers.endpoints import Endpoints, site_client
from tests.fakes.atcoder import Entrant, FakeAtCoder
from tests.scrapers.atcoder.round import served

CONTEST = "ahc900"
KEY = f"atcoder:{CONTEST}"
TOTAL = 750.0  # 4th of the 5 entrants below, behind 1000, 900 and 800


def results_json() -> list[dict[str, object]]:
    """AtCoder's results of the 5 entrants, in its real shape (the last unrated)."""
    return [
        {"IsRated": i != 4, "Place": i + 1, "OldRating": 1500, "NewRating": 1500, "Performance": 2400 - 200 * i,
         "InnerPerformance": 2400 - 200 * i, "ContestScreenName": f"{CONTEST}.contest.atcoder.jp",
         "UserScreenName": f"u{i}"}
        for i in range(5)
    ]  # fmt: skip


def over_site(results_after: int, published: bool = True) -> FakeAtCoder:
    """The fake AtCoder with AHC 900 over an hour ago; its results 404 for the first `results_after` looks."""
    site = FakeAtCoder()
    contest = site.add_contest(
        CONTEST, "AtCoder Heuristic Contest 900", start_in_s=-7200, duration_s=3600, tasks=[("A", "ahc900_a")],
        heuristic=True,
    )  # fmt: skip
    contest.standings = [Entrant(f"u{i}", (), 0.0, 1500, 3, True, score=1000.0 - 100 * i) for i in range(5)]
    contest.results = results_json() if published else None
    contest.results_after = results_after
    return site


class Harness:
    """A Ranking of the kept program (total `TOTAL`) against `site`, its looks queued instead of scheduled."""

    def __init__(self, tmp_path: Path, site: FakeAtCoder, options: LoopOptions, now: Callable[[], datetime]) -> None:
        self.site, self.options, self.now, self.tmp_path = site, options, now, tmp_path
        self.queued: list[tuple[float, Callable[[], None]]] = []
        self.delays: list[float] = []
        self.folder = tmp_path / "ahc900_a"
        self.folder.mkdir()

    def later(self, delay_s: float, job: Callable[[], None]) -> None:
        self.delays.append(delay_s)
        self.queued.append((delay_s, job))

    def run(self) -> Iterator[tuple[WatchState, TranscriptStore, Ranking]]:
        with (
            served(self.site) as server,
            site_client(Endpoints(bases={"atcoder": server.url})) as client,
            WatchState(self.tmp_path / "watch.sqlite3") as state,
            TranscriptStore(self.tmp_path / "t.sqlite3") as store,
        ):
            contest = self.site.contests[CONTEST]
            row = ContestRow(
                key=KEY, site="atcoder", contest_id=CONTEST, name="AtCoder Heuristic Contest 900", url="",
                start=datetime.fromtimestamp(contest.start, UTC), duration_s=contest.duration_s,
            )  # fmt: skip
            row = state.add_contest(row)
            run_id = store.start_run("contest", problem_id=KEY)
            result = HeuristicResult(
                contest_id=CONTEST, task="atcoder:ahc900_a", participation=Participation.SHADOW, best_file="best.py",
                mean=TOTAL / 50, seeds=list(range(50)), system_inputs=50, estimated_total=TOTAL,
            )  # fmt: skip
            ranking = Ranking(
                row, self.folder, result, run_id=run_id, state=state, store=store, client=client,
                options=self.options, stop=lambda: False, wait=lambda s: False, say=lambda line: None, now=self.now,
                later=self.later,
            )  # fmt: skip
            yield state, store, ranking

    def drain(self) -> None:
        """Run the queued looks, as the scheduler would when their time comes."""
        while self.queued:
            _, job = self.queued.pop(0)
            job()


def test_the_wait_before_each_look_doubles_up_to_its_cap_and_never_passes_the_deadline() -> None:
    options = LoopOptions(results_poll_s=60.0, results_poll_max_s=200.0, results_wait_s=1000.0)
    assert [backoff_delay(n, options, left_s=1000.0) for n in range(4)] == [60.0, 120.0, 200.0, 200.0]
    assert backoff_delay(3, options, left_s=30.0) == 30.0  # a last look at the deadline
    assert backoff_delay(0, options, left_s=0.0) is None


def test_results_published_after_some_looks_rank_the_program_again_on_them(tmp_path: Path) -> None:
    site = over_site(results_after=2)  # the first look (with the standings) and the next get 404
    options = LoopOptions(results_poll_s=60.0, results_poll_max_s=200.0, results_wait_s=48 * 3600.0)
    harness = Harness(tmp_path, site, options, now=lambda: datetime.now(UTC))
    for state, store, ranking in harness.run():
        ranking.after_end()
        estimate = read_result(harness.folder)
        assert estimate is not None and estimate.placing is not None and estimate.placing.method == "aperf"
        assert estimate.awaits_results and state.contest(KEY).status == "running"
        assert "results not out yet" in state.contest(KEY).detail
        harness.drain()
        final = read_result(harness.folder)
        row = state.contest(KEY)
        standings = [e for e in store.events(ranking.run_id) if e.kind == "standing"]
    assert harness.delays == [60.0, 120.0]  # looked for twice more: 404, then out
    expected = table_placing(TOTAL, [1000.0 - 100 * i for i in range(5)], parse_results(json.dumps(results_json())))
    assert final is not None and final.placing is not None and final.placing.method == "table"
    assert (final.placing.rank, final.placing.performance) == (4, expected.performance) and not final.awaits_results
    assert row.status == "done" and row.standing is not None and row.standing.performance == expected.performance
    assert "published results" in row.detail
    # ranked twice: the estimate, then the published performance
    assert [e.payload["performance"] for e in standings] == [estimate.placing.performance, expected.performance]


def test_results_not_out_by_the_deadline_leave_the_estimate(tmp_path: Path) -> None:
    clock = [datetime.now(UTC)]
    site = over_site(results_after=0, published=False)
    options = LoopOptions(results_poll_s=100.0, results_poll_max_s=1000.0, results_wait_s=250.0)
    harness = Harness(tmp_path, site, options, now=lambda: clock[0])
    for state, _store, ranking in harness.run():
        ranking.after_end()
        while harness.queued:  # time passes as the scheduler waits
            delay, job = harness.queued.pop(0)
            clock[0] += timedelta(seconds=delay)
            job()
        final = read_result(harness.folder)
        row = state.contest(KEY)
    assert harness.delays == [100.0, 150.0]  # 100, then what is left of the 250 s: a last look at the deadline
    assert final is not None and final.placing is not None and final.placing.method == "aperf"
    assert final.results_until is None and "not out by" in final.note
    assert row.status == "done" and row.standing is not None and row.standing.performance == final.placing.performance


def test_without_a_scheduler_the_looks_run_in_the_calling_thread(tmp_path: Path) -> None:
    site = over_site(results_after=1)
    options = LoopOptions(results_poll_s=0.01, results_wait_s=60.0)
    harness = Harness(tmp_path, site, options, now=lambda: datetime.now(UTC))
    for state, _store, ranking in harness.run():
        ranking.later = None
        ranking.after_end()  # returns once ranked on the results
        final = read_result(harness.folder)
        assert state.contest(KEY).status == "done"
    assert final is not None and final.placing is not None and final.placing.method == "table"
    assert site.contests[CONTEST].results_looks == 2


@pytest.mark.parametrize("published", [True, False])
def test_one_look_ranks_on_what_is_out_now(tmp_path: Path, published: bool) -> None:
    site = over_site(results_after=0, published=published)
    harness = Harness(tmp_path, site, LoopOptions(), now=lambda: datetime.now(UTC))
    for state, _store, ranking in harness.run():
        ranking.once()
        final = read_result(harness.folder)
        assert state.contest(KEY).status == "done" and not harness.queued
    assert final is not None and final.placing is not None
    assert final.placing.method == ("table" if published else "aperf")
