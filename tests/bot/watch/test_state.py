"""The watch state: transitions follow the status machine, each is atomic and idempotent, and a state
reopened after a crash carries on from where it was."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cpbot.bot.watch.state import ContestRow, ProblemRow, StateError, SubmissionRow, WatchState, contest_key

KEY = contest_key("codeforces", "1900")


def contest() -> ContestRow:
    start = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
    return ContestRow(
        key=KEY, site="codeforces", contest_id="1900", name="Round", url="u", start=start, duration_s=7200
    )


def problem(pid: str, rank: float = 0.0) -> ProblemRow:
    return ProblemRow(contest_key=KEY, problem_id=pid, index=pid[-1], name=pid, url=f"u/{pid}", rank=rank)


@pytest.fixture
def state(tmp_path: Path) -> WatchState:
    with WatchState(tmp_path / "watch.sqlite3") as s:
        s.add_contest(contest())
        yield s


def test_adding_a_contest_or_problem_twice_keeps_its_progress(state: WatchState) -> None:
    state.add_problem(problem("codeforces:1900A"))
    state.transition(KEY, "codeforces:1900A", "fetching")
    state.set_contest(KEY, status="running", run_id="run-1")
    again = state.add_contest(contest().model_copy(update={"name": "Round (renamed)"}))
    state.add_problem(problem("codeforces:1900A"))
    assert again.status == "running" and again.run_id == "run-1" and again.name == "Round (renamed)"
    assert state.problem(KEY, "codeforces:1900A").status == "fetching"
    assert contest().end == datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def test_problems_come_easiest_first(state: WatchState) -> None:
    for pid, rank in (("codeforces:1900C", 2.0), ("codeforces:1900A", 0.0), ("codeforces:1900B", 1.0)):
        state.add_problem(problem(pid, rank))
    assert [p.index for p in state.problems(KEY)] == ["A", "B", "C"]


def test_the_full_path_to_solved_is_logged_and_repeats_are_no_ops(state: WatchState) -> None:
    pid = "codeforces:1900A"
    state.add_problem(problem(pid))
    assert state.transition(KEY, pid, "fetching")
    assert not state.transition(KEY, pid, "fetching")  # a restart repeating the step changes nothing
    assert state.transition(KEY, pid, "solving", problem_json='{"id": "x"}')
    attempt = state.begin_attempt(KEY, pid, "child-1")
    state.finish_attempt(KEY, pid, attempt.n, result_json="{}", calls=2, tokens=300, seconds=1.5, then="judged")
    state.set_gate(KEY, pid, attempt.n, '{"allowed": true}', then="gated")
    state.record_submission(
        SubmissionRow(contest_key=KEY, problem_id=pid, attempt=attempt.n, source_sha="abc", remote_id="77")
    )
    state.record_verdict(KEY, pid, attempt.n, verdict="AC", detail="", remote_json="{}")
    assert state.transition(KEY, pid, "solved")
    path = [(t.from_status, t.to_status) for t in state.transitions(KEY, pid)]
    assert path == [
        ("pending", "fetching"),
        ("fetching", "solving"),
        ("solving", "judged"),
        ("judged", "gated"),
        ("gated", "submitted"),
        ("submitted", "verdict"),
        ("verdict", "solved"),
    ]
    row = state.problem(KEY, pid)
    assert row.problem_json == '{"id": "x"}' and row.status == "solved"
    assert state.submissions(KEY, pid)[0].verdict == "AC"
    assert state.spent(KEY).model_dump() == {"calls": 2, "tokens": 300, "seconds": 1.5, "attempts": 1}


def test_a_move_the_machine_does_not_allow_is_refused_and_changes_nothing(state: WatchState) -> None:
    pid = "codeforces:1900A"
    state.add_problem(problem(pid))
    with pytest.raises(StateError, match="cannot go from pending to submitted"):
        state.transition(KEY, pid, "submitted")
    state.transition(KEY, pid, "given_up", detail="contest ended")
    with pytest.raises(StateError):
        state.transition(KEY, pid, "solving")
    assert state.problem(KEY, pid).status == "given_up"
    assert len(state.transitions(KEY, pid)) == 1


def test_a_wrong_verdict_sends_the_problem_back_with_its_feedback(state: WatchState) -> None:
    pid = "codeforces:1900A"
    state.add_problem(problem(pid))
    for to in ("fetching", "solving"):
        state.transition(KEY, pid, to)
    a = state.begin_attempt(KEY, pid, None)
    state.finish_attempt(KEY, pid, a.n, result_json="{}", calls=1, tokens=10, seconds=0.1, then="judged")
    state.set_gate(KEY, pid, a.n, "{}", then="gated")
    state.record_submission(SubmissionRow(contest_key=KEY, problem_id=pid, attempt=a.n, source_sha="s", remote_id="1"))
    state.record_verdict(KEY, pid, a.n, verdict="WA", detail="on test 3", remote_json="{}")
    state.transition(KEY, pid, "solving", add_feedback="WA on test 3")
    assert state.problem(KEY, pid).feedback == ["WA on test 3"]


def test_a_failed_write_rolls_back_the_whole_transition(state: WatchState) -> None:
    pid = "codeforces:1900A"
    state.add_problem(problem(pid))
    for to in ("fetching", "solving"):
        state.transition(KEY, pid, to)
    a = state.begin_attempt(KEY, pid, None)
    state.finish_attempt(KEY, pid, a.n, result_json="{}", calls=1, tokens=10, seconds=0.1, then="judged")
    state.set_gate(KEY, pid, a.n, "{}", then="gated")
    # a submission row for an unknown problem violates the foreign key: the status must not move either
    bad = SubmissionRow(contest_key=KEY, problem_id="codeforces:1900Z", attempt=1, source_sha="s", remote_id="1")
    with pytest.raises(StateError):
        state.record_submission(bad)
    assert state.problem(KEY, pid).status == "gated"
    assert state.submissions(KEY) == []


def test_reopening_after_a_crash_resumes_and_marks_the_lost_attempt_interrupted(tmp_path: Path) -> None:
    path = tmp_path / "watch.sqlite3"
    pid = "codeforces:1900A"
    first = WatchState(path)
    first.add_contest(contest())
    first.add_problem(problem(pid))
    first.transition(KEY, pid, "fetching")
    first.transition(KEY, pid, "solving", problem_json="{}")
    first.begin_attempt(KEY, pid, "child-1")
    first._db.close()  # the process dies: no clean shutdown

    with WatchState(path) as again:
        assert again.problem(KEY, pid).status == "solving"
        lost = again.interrupt_attempts(KEY, pid)
        assert [a.run_id for a in lost] == ["child-1"]
        nxt = again.begin_attempt(KEY, pid, "child-2")
        assert nxt.n == 2
        assert [a.status for a in again.attempts(KEY, pid)] == ["interrupted", "running"]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_state_from_another_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "watch.sqlite3"
    WatchState(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE schema_version SET version = 99")
    db.commit()
    db.close()
    with pytest.raises(StateError, match="schema 99"):
        WatchState(path)


def test_problems_given_up_because_the_contest_ended_are_reopened_for_practice(state: WatchState) -> None:
    from cpbot.bot.watch.state import CONTEST_ENDED

    for pid in ("codeforces:1900A", "codeforces:1900B", "codeforces:1900C"):
        state.add_problem(problem(pid))
    state.transition(KEY, "codeforces:1900A", "given_up", detail=f"{CONTEST_ENDED} before it was submitted")
    state.transition(KEY, "codeforces:1900B", "given_up", detail="the budget ran out: 4 attempts")
    assert state.reopen_ended(KEY) == ["codeforces:1900A"]
    assert state.problem(KEY, "codeforces:1900A").status == "pending"
    assert state.problem(KEY, "codeforces:1900B").status == "given_up", "given up for its own reasons: stays"
    assert state.problem(KEY, "codeforces:1900C").status == "pending"
    last = state.transitions(KEY, "codeforces:1900A")[-1]
    assert (last.from_status, last.to_status) == ("given_up", "pending")
    assert state.reopen_ended(KEY) == [], "a second call finds nothing to reopen"
