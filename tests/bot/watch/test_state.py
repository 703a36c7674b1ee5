"""The watch state: transitions follow the status machine, each is atomic and idempotent, and a state
reopened after a crash carries on from where it was."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cpbot.agents.solve import SolveResult
from cpbot.bot.submit.base import DuplicateSubmission, RemoteVerdict
from cpbot.bot.submit.ledger import LedgerEntry, SubmissionLedger
from cpbot.bot.watch.rules import contest_key
from cpbot.bot.watch.state import ContestRow, ProblemRow, StateError, WatchState
from cpbot.judge.model import Problem, Verdict
from tests.bot import old_schemas

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
    ledger = SubmissionLedger(tmp_path / "submissions.sqlite3", min_interval_s=0)
    with ledger, WatchState(tmp_path / "watch.sqlite3", ledger=ledger) as s:
        s.add_contest(contest())
        yield s


def solved(pid: str) -> SolveResult:
    return SolveResult(problem_id=pid, strategy="direct", language="python3", status="solved", calls=2)


def post(state: WatchState, pid: str, source_sha: str, remote_id: str) -> LedgerEntry:
    """A submission as a site's submitter leaves it in the ledger."""
    row = state.ledger.reserve("codeforces", pid, source_sha, "python3")
    state.ledger.resolve(row, remote_id)
    return state.ledger.entry(row)


def final(verdict: Verdict, remote_id: str, pid: str, **kw: object) -> RemoteVerdict:
    return RemoteVerdict(site="codeforces", submission_id=remote_id, problem_id=pid, verdict=verdict, final=True, **kw)


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
    statement = Problem(id=pid, title="Two numbers", statement="Add them.")
    assert state.transition(KEY, pid, "solving", problem=statement)
    attempt = state.begin_attempt(KEY, pid, "child-1")
    state.finish_attempt(KEY, pid, attempt.n, result=solved(pid), calls=2, tokens=300, seconds=1.5, then="judged")
    state.set_gate(KEY, pid, attempt.n, '{"allowed": true}', then="gated")
    state.record_submission(KEY, pid, attempt.n, post(state, pid, "abc", "77"))
    state.record_verdict(state.submissions(KEY, pid)[0], final(Verdict.AC, "77", pid, status_text="OK"))
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
    assert row.problem == statement and row.status == "solved"
    assert state.last_done_attempt(KEY, pid).result == solved(pid)  # typed fields come back as they went in
    (sub,) = state.submissions(KEY, pid)
    assert (sub.attempt, sub.remote_id, sub.source_sha, sub.verdict) == (1, "77", "abc", "AC")
    assert state.ledger.entry(sub.entry.row_id).verdict == "OK"  # the verdict lives in the ledger only
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
    state.finish_attempt(KEY, pid, a.n, result=solved(pid), calls=1, tokens=10, seconds=0.1, then="judged")
    state.set_gate(KEY, pid, a.n, "{}", then="gated")
    state.record_submission(KEY, pid, a.n, post(state, pid, "s", "1"))
    state.record_verdict(state.submissions(KEY, pid)[0], final(Verdict.WA, "1", pid, failed_test=3))
    assert state.problem(KEY, pid).detail == "WA on test 3"
    state.transition(KEY, pid, "solving", add_feedback="WA on test 3")
    assert state.problem(KEY, pid).feedback == ["WA on test 3"]


def test_a_failed_write_rolls_back_the_whole_transition(state: WatchState) -> None:
    pid = "codeforces:1900A"
    state.add_problem(problem(pid))
    for to in ("fetching", "solving"):
        state.transition(KEY, pid, to)
    a = state.begin_attempt(KEY, pid, None)
    state.finish_attempt(KEY, pid, a.n, result=solved(pid), calls=1, tokens=10, seconds=0.1, then="judged")
    state.set_gate(KEY, pid, a.n, "{}", then="gated")
    # a submission row for an unknown problem violates the foreign key: the status must not move either
    with pytest.raises(StateError):
        state.record_submission(KEY, "codeforces:1900Z", 1, post(state, "codeforces:1900Z", "s", "1"))
    assert state.problem(KEY, pid).status == "gated"
    assert state.submissions(KEY) == []


def test_reopening_after_a_crash_resumes_and_marks_the_lost_attempt_interrupted(tmp_path: Path) -> None:
    path = tmp_path / "watch.sqlite3"
    pid = "codeforces:1900A"
    first = WatchState(path)
    first.add_contest(contest())
    first.add_problem(problem(pid))
    first.transition(KEY, pid, "fetching")
    first.transition(KEY, pid, "solving", problem=Problem(id=pid))
    first.begin_attempt(KEY, pid, "child-1")
    first.db.connection.close()  # the process dies: no clean shutdown

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


# ---- files written by the previous cpbot -------------------------------------------------------------

OLD_START = "2026-11-01T10:00:00+00:00"


def old_watch_state(path: Path, *, wrong_json: str) -> None:
    """watch.sqlite3 as the previous cpbot left it: problem A solved on the second submission (the first
    was WA on test 2), problem B still solving, each submission kept in the state's own table."""
    db = sqlite3.connect(path)
    db.executescript(old_schemas.WATCH_V1)
    db.execute("INSERT INTO schema_version (version) VALUES (1)")
    db.execute(
        "INSERT INTO contests VALUES (?, 'codeforces', '1900', 'Round', 'u', ?, 7200, 'live', 'running', 'run-1',"
        " '', ?, ?)",
        (KEY, OLD_START, OLD_START, OLD_START),
    )
    for pid, status in (("codeforces:1900A", "solved"), ("codeforces:1900B", "solving")):
        db.execute(
            "INSERT INTO problems (contest_key, problem_id, idx, name, url, status, feedback, updated_at)"
            " VALUES (?, ?, ?, ?, 'u', ?, '[\"tried once\"]', ?)",
            (KEY, pid, pid[-1], pid, status, OLD_START),
        )
    result = json.dumps({"solution": {"language": "pypy3", "source": "print(1)"}})
    for n in (1, 2):
        db.execute(
            "INSERT INTO attempts (contest_key, problem_id, n, status, result_json, calls, tokens, started_at)"
            " VALUES (?, 'codeforces:1900A', ?, 'done', ?, 2, 300, ?)",
            (KEY, n, result, OLD_START),
        )
    db.execute(
        "INSERT INTO submissions VALUES (?, 'codeforces:1900A', 1, 'sha-wrong', '501', ?, 'WA', 'on test 2', ?)",
        (KEY, OLD_START, wrong_json),
    )
    right = final(Verdict.AC, "502", "codeforces:1900A", status_text="OK").model_dump_json()
    db.execute(
        "INSERT INTO submissions VALUES (?, 'codeforces:1900A', 2, 'sha-right', '502', ?, 'AC', '', ?)",
        (KEY, "2026-11-01T10:05:00+00:00", right),
    )
    db.execute(
        "INSERT INTO transitions (contest_key, problem_id, from_status, to_status, at)"
        " VALUES (?, 'codeforces:1900A', 'verdict', 'solved', ?)",
        (KEY, OLD_START),
    )
    db.commit()
    db.close()


def old_ledger(path: Path) -> None:
    """submissions.sqlite3 as the previous cpbot left it, holding the same two posts with their verdicts."""
    db = sqlite3.connect(path)
    db.executescript(old_schemas.LEDGER_V1)
    db.execute("INSERT INTO ledger_schema (version) VALUES (1)")
    wrong = final(Verdict.WA, "501", "codeforces:1900A", status_text="WRONG_ANSWER", failed_test=2)
    right = final(Verdict.AC, "502", "codeforces:1900A", status_text="OK")
    for sid, sha, remote in (("501", "sha-wrong", wrong), ("502", "sha-right", right)):
        db.execute(
            "INSERT INTO submissions (site, problem_id, source_sha256, language, state, submission_id, intent_at,"
            " posted_at, verdict, final, verdict_json) VALUES ('codeforces', 'codeforces:1900A', ?, 'pypy3',"
            " 'posted', ?, 1.0, 2.0, ?, 1, ?)",
            (sha, sid, remote.status_text, remote.model_dump_json()),
        )
    db.commit()
    db.close()


def test_a_state_and_ledger_from_the_previous_cpbot_are_upgraded_in_place(tmp_path: Path) -> None:
    wrong = final(Verdict.WA, "501", "codeforces:1900A", status_text="WRONG_ANSWER", failed_test=2)
    old_watch_state(tmp_path / "watch.sqlite3", wrong_json=wrong.model_dump_json())
    old_ledger(tmp_path / "submissions.sqlite3")

    with WatchState(tmp_path / "watch.sqlite3") as state:
        assert state.ledger.path == tmp_path / "submissions.sqlite3"  # the ledger beside it
        c = state.contest(KEY)
        assert (c.status, c.run_id, c.duration_s) == ("running", "run-1", 7200)
        assert [(p.index, p.status, p.feedback) for p in state.problems(KEY)] == [
            ("A", "solved", ["tried once"]),
            ("B", "solving", ["tried once"]),
        ]
        assert state.spent(KEY).model_dump() == {"calls": 4, "tokens": 600, "seconds": 0.0, "attempts": 2}
        assert [t.to_status for t in state.transitions(KEY)] == ["solved"]
        subs = state.submissions(KEY, "codeforces:1900A")
        assert [(s.attempt, s.remote_id, s.source_sha, s.verdict, s.detail) for s in subs] == [
            (1, "501", "sha-wrong", "WA", "on test 2 (WRONG_ANSWER)"),
            (2, "502", "sha-right", "AC", "(OK)"),
        ]
        # the posts the ledger already held are referred to, not recorded a second time
        assert [(e.submission_id, e.note) for e in state.ledger.entries()] == [("501", ""), ("502", "")]
        assert [s.entry.row_id for s in subs] == [1, 2]
        # and the contest carries on: a new attempt can be submitted and linked
        state.transition(KEY, "codeforces:1900B", "judged")
        state.transition(KEY, "codeforces:1900B", "gated")
        row = state.ledger.reserve("codeforces", "codeforces:1900B", "sha-b", "pypy3")
        state.ledger.resolve(row, "503")
        state.record_submission(KEY, "codeforces:1900B", 1, state.ledger.entry(row))
        assert [s.remote_id for s in state.submissions(KEY)] == ["501", "502", "503"]

    db = sqlite3.connect(tmp_path / "watch.sqlite3")
    columns = [r[1] for r in db.execute("PRAGMA table_info(submissions)")]
    assert columns == ["contest_key", "problem_id", "attempt", "ledger_row", "submitted_at"]
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "submissions_v1" not in tables
    assert db.execute("SELECT version FROM schema_version ORDER BY version").fetchall() == [(1,), (2,), (3,)]
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    db.close()
    db = sqlite3.connect(tmp_path / "submissions.sqlite3")
    assert db.execute("SELECT version FROM ledger_schema ORDER BY version").fetchall() == [(1,), (2,)]
    db.close()


def test_submissions_the_ledger_lacks_are_carried_into_it_on_upgrade(tmp_path: Path) -> None:
    # e.g. the ledger file was lost: the state's own copy is the only record left, and it must survive
    old_watch_state(tmp_path / "watch.sqlite3", wrong_json="{}")
    with WatchState(tmp_path / "watch.sqlite3") as state:
        subs = state.submissions(KEY)
        assert [(s.remote_id, s.verdict, s.detail) for s in subs] == [
            ("501", "WA", "(WA on test 2)"),
            ("502", "AC", "(OK)"),
        ]
        entries = state.ledger.entries()
        assert [(e.submission_id, e.state, e.language, e.source_sha256, e.final) for e in entries] == [
            ("501", "posted", "pypy3", "sha-wrong", True),
            ("502", "posted", "pypy3", "sha-right", True),
        ]
        assert all("older cpbot" in e.note for e in entries)
        # "never the same source twice" holds for them as for any other post
        with pytest.raises(DuplicateSubmission):
            state.ledger.reserve("codeforces", "codeforces:1900A", "sha-wrong", "pypy3")
    with WatchState(tmp_path / "watch.sqlite3") as again:  # a second open changes nothing
        assert [s.entry.row_id for s in again.submissions(KEY)] == [e.row_id for e in entries]
        assert len(again.ledger.entries()) == 2


def test_a_state_whose_ledger_rows_are_gone_says_so(state: WatchState) -> None:
    pid = "codeforces:1900A"
    state.add_problem(problem(pid))
    for to in ("fetching", "solving", "judged", "gated"):
        state.transition(KEY, pid, to)
    state.record_submission(KEY, pid, 1, post(state, pid, "s", "9"))
    state.ledger.db.connection.execute("DELETE FROM submissions")  # someone replaced the ledger file
    with pytest.raises(StateError, match="lacks") as e:
        state.submissions(KEY)
    assert "CPBOT_DATA_DIR" in e.value.hint
