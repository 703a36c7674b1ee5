"""The live view of `cpbot watch`, rendered to text: a countdown before the start, the time left while the
round runs, one row per problem with its state, tries, tokens, time and remote verdict (a running solve's
tokens and time counted live), a summary caption, and short columns that survive a narrow terminal."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.console import Console

from cpbot.agents.budget import Usage
from cpbot.agents.tracing import LLMCallEvent
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.submit.base import RemoteVerdict
from cpbot.bot.submit.ledger import SubmissionLedger
from cpbot.bot.watch.render import WatchReport, changes, duration, report, view
from cpbot.bot.watch.rules import contest_key
from cpbot.bot.watch.state import ContestRow, ProblemRow, WatchState
from cpbot.core.texts import clock
from cpbot.judge.model import Verdict

KEY = contest_key("codeforces", "1900")
NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
START = NOW - timedelta(minutes=30)


def text(data: WatchReport, width: int = 160) -> str:
    console = Console(record=True, width=width, color_system=None)
    console.print(view(data))
    return console.export_text()


def cells(rendered: str, index: str) -> list[str]:
    """The stripped cells of the row whose first cell is `index`."""
    for line in rendered.splitlines():
        parts = [c.strip() for c in line.split("│")[1:-1]]
        if parts and parts[0] == index:
            return parts
    raise AssertionError(f"no row {index} in\n{rendered}")


@pytest.fixture
def stores(tmp_path: Path):
    ledger = SubmissionLedger(tmp_path / "submissions.sqlite3", min_interval_s=0)
    state = WatchState(tmp_path / "watch.sqlite3", ledger=ledger)
    with ledger, state, TranscriptStore(tmp_path / "t.sqlite3") as store:
        yield state, store


def contest(state: WatchState, start: datetime) -> None:
    state.add_contest(
        ContestRow(
            key=KEY,
            site="codeforces",
            contest_id="1900",
            name="Codeforces Round 901",
            url="https://codeforces.com/contest/1900",
            start=start,
            duration_s=7200,
        )
    )


def test_before_the_start_the_title_counts_down_and_the_table_waits(stores) -> None:
    state, _ = stores
    contest(state, NOW + timedelta(minutes=5, seconds=7))
    rendered = text(report(state, [KEY], now=NOW))
    assert "Codeforces Round 901 · starts in 0:05:07" in rendered
    header = next(line for line in rendered.splitlines() if "problem" in line)
    assert [c.strip() for c in header.split("┃")[1:-1]] == [
        "#",
        "problem",
        "state",
        "tries",
        "tokens",
        "time",
        "remote",
        "detail",
    ]
    assert "waiting" in rendered and "the problem list is not published yet" in rendered


def test_a_running_round_shows_each_state_with_tokens_time_and_verdicts(stores) -> None:
    state, store = stores
    start = datetime.now(UTC) - timedelta(minutes=30)  # attempts are stamped with the real time
    contest(state, start)
    state.set_contest(KEY, status="running")
    ids = {i: f"codeforces:1900{i}" for i in "ABCDE"}
    state.add_problems(
        [
            ProblemRow(contest_key=KEY, problem_id=ids[i], index=i, name=name, url="u", rank=rank)
            for rank, (i, name) in enumerate(
                [("A", "Two Sums"), ("B", "Candies"), ("C", "Trees"), ("D", "Hard Graph"), ("E", "Later")]
            )
        ]
    )
    # A: solved on the first try
    _finish(state, ids["A"], tokens=1200, seconds=12.5, then="judged")
    state.transition(KEY, ids["A"], "gated")
    _post(state, ids["A"], 1, "111", verdict="AC")
    state.transition(KEY, ids["A"], "solved", detail="accepted (submission 111)")
    # B: wrong on the site, now solving again (a live attempt with one model call so far)
    _finish(state, ids["B"], tokens=800, seconds=20.0, then="judged")
    state.transition(KEY, ids["B"], "gated")
    _post(state, ids["B"], 1, "112", verdict="WA")
    state.transition(KEY, ids["B"], "solving", detail="remote WA: trying again")
    run = store.start_run("solve", problem_id=ids["B"])
    store.tracer(run).emit(
        LLMCallEvent(
            task_id=ids["B"],
            call_id="c1",
            role="coder",
            model="m",
            messages=[],
            usage=Usage(prompt_tokens=300, completion_tokens=45),
        )
    )
    live = state.begin_attempt(KEY, ids["B"], run)
    # C: posted, no verdict yet; D: given up
    _finish(state, ids["C"], tokens=500, seconds=65.0, then="judged")
    state.transition(KEY, ids["C"], "gated")
    _post(state, ids["C"], 1, "113", verdict=None)
    state.transition(KEY, ids["D"], "given_up", detail="the statement was never published")

    assert live.started_at is not None
    at = live.started_at + timedelta(seconds=4)
    data = report(state, [KEY], store=store, now=at)
    rendered = text(data)
    left = start + timedelta(hours=2) - at
    assert f"Codeforces Round 901 · running, {clock(left.total_seconds())} left" in rendered
    assert cells(rendered, "A") == ["A", "Two Sums", "solved", "1", "1,200", "12.5s", "AC", "accepted (submission 111)"]
    # B's tokens and time include the running attempt: 800 + 345 tokens, 20 s + 4 s
    assert cells(rendered, "B") == ["B", "Candies", "solving …", "2", "1,145", "24.0s", "WA", "remote WA: trying again"]
    assert cells(rendered, "C") == ["C", "Trees", "submitted", "1", "500", "1m05s", "waiting", "submission 113"]
    assert cells(rendered, "D")[:4] == ["D", "Hard Graph", "given_up", "0"]
    assert cells(rendered, "E") == ["E", "Later", "pending", "0", "0", "0.0s", "", ""]
    assert "1/5 solved · 1 given up · 3 submissions · 2,845 tokens · 1m41s solving" in rendered
    # the same report as JSON carries the live figures
    b = next(p for p in data.contests[0].problems if p.index == "B")
    assert (b.running, b.tokens, b.seconds) == (True, 1145, 24.0)

    # on an 80-column terminal the names and details are cut, the short columns stay whole
    narrow = text(data, width=80)
    assert max(len(line) for line in narrow.splitlines()) <= 80
    row = cells(narrow, "B")
    assert row[2:7] == ["solving …", "2", "1,145", "24.0s", "WA"] and row[7].endswith("…")


def test_a_finished_or_virtual_round_says_so(stores) -> None:
    state, _ = stores
    contest(state, START)
    state.set_contest(KEY, status="done", detail="2/3 solved")
    assert "Codeforces Round 901 · done: 2/3 solved" in text(report(state, [KEY], now=NOW))
    virtual = ContestRow(
        key="codeforces:1800", site="codeforces", contest_id="1800", name="Old Round", url="u", mode="virtual"
    )
    state.add_contest(virtual)
    state.set_contest(virtual.key, status="running")
    assert "Old Round · finished contest, worked on as a virtual one" in text(report(state, [virtual.key], now=NOW))
    assert "no contest to work on yet" in text(report(state, [], now=NOW))


def test_durations_and_clocks_read_well() -> None:
    assert [duration(s) for s in (0.04, 12.34, 65, 3725)] == ["0.0s", "12.3s", "1m05s", "1h02m"]
    assert [clock(s) for s in (7, 3600 + 62, 2 * 86400 + 5)] == ["0:00:07", "1:01:02", "2d 0:00:05"]


def _finish(state: WatchState, pid: str, *, tokens: int, seconds: float, then: str) -> None:
    state.transition(KEY, pid, "fetching")
    state.transition(KEY, pid, "solving", detail="fetched")
    attempt = state.begin_attempt(KEY, pid, None)
    state.finish_attempt(
        KEY,
        pid,
        attempt.n,
        result=None,
        calls=2,
        tokens=tokens,
        seconds=seconds,
        then=then,  # type: ignore[arg-type]
    )


def _post(state: WatchState, pid: str, attempt: int, remote_id: str, *, verdict: str | None) -> None:
    row = state.ledger.reserve("codeforces", pid, remote_id, "cpp17")
    state.ledger.resolve(row, remote_id)
    state.record_submission(KEY, pid, attempt, state.ledger.entry(row))
    if verdict is not None:
        remote = RemoteVerdict(
            site="codeforces", submission_id=remote_id, problem_id=pid, verdict=Verdict(verdict), final=True
        )
        state.record_verdict(state.submissions(KEY, pid)[-1], remote)


def test_plain_progress_has_one_line_per_change(stores) -> None:
    state, _ = stores
    contest(state, START)
    state.add_problems([ProblemRow(contest_key=KEY, problem_id="codeforces:1900A", index="A", name="P", url="u")])
    seen: dict[tuple[str, str], str] = {}
    first = changes(report(state, [KEY], now=NOW), seen)
    assert first == ["12:00:00 Codeforces Round 901: watching (live)", "12:00:00 Codeforces Round 901 A: pending"]
    assert changes(report(state, [KEY], now=NOW), seen) == []  # nothing new, nothing printed
    state.transition(KEY, "codeforces:1900A", "fetching", detail="fetching the statement")
    assert changes(report(state, [KEY], now=NOW), seen) == [
        "12:00:00 Codeforces Round 901 A: fetching: fetching the statement"
    ]


def test_the_participation_and_the_standing_show_in_the_table_and_in_transcripts_show() -> None:
    from cpbot.bot.report.render import event_lines
    from cpbot.bot.store.transcripts import StoredEvent
    from cpbot.bot.watch.render import standing_line
    from cpbot.bot.watch.standing import ProblemScore, Standing
    from cpbot.scrapers.ranklist import Scoring

    standing = Standing(
        scoring=Scoring.POINTS,
        problems=[ProblemScore(index="A", solved=True, time_s=60, points=496), ProblemScore(index="B", solved=False)],
        points=496,
        penalty=0,
        rank=812,
        participants=20411,
        percentile=96.03,
        performance=1712,
    )
    row = ContestRow(key="codeforces:1", site="codeforces", contest_id="1", name="R", url="u",
                     participation="practice", standing=standing)  # fmt: skip
    assert standing_line(row) == "in the shadow: rank 812 of 20,411 (96.03% at or behind), performance 1712"
    event = StoredEvent(seq=1, ts=datetime.now(UTC), kind="standing", payload=standing.model_dump(mode="json"))
    lines = event_lines(event, full=False)
    assert lines[0].startswith("standing  rank 812 of 20411") and "performance 1712" in lines[0]
    assert any("B: unsolved" in line for line in lines)
