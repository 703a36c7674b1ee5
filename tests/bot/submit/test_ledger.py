"""The submission ledger's file: a ledger written by the previous cpbot opens with its rows and keeps
every rule it enforced (never twice, minimum interval, pending intents), and a newer one is refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cpbot.bot.submit.base import DuplicateSubmission, RemoteVerdict, SubmitTooSoon
from cpbot.bot.submit.ledger import LedgerError, SubmissionLedger
from cpbot.judge.model import Verdict
from tests.bot import old_schemas

PID = "codeforces:1900A"


def old_ledger(path: Path) -> RemoteVerdict:
    """submissions.sqlite3 as the previous cpbot left it: one post judged WA, one abandoned intent, and one
    intent whose POST may or may not have landed (the process died); returns the WA verdict."""
    wrong = RemoteVerdict(
        site="codeforces", submission_id="501", problem_id=PID, verdict=Verdict.WA, final=True, failed_test=4
    )
    db = sqlite3.connect(path)
    db.executescript(old_schemas.LEDGER_V1)
    db.execute("INSERT INTO ledger_schema (version) VALUES (1)")
    db.execute(
        "INSERT INTO submissions (site, problem_id, source_sha256, language, state, submission_id, intent_at,"
        " posted_at, verdict, final, verdict_json) VALUES ('codeforces', ?, 'sha-1', 'cpp17', 'posted', '501',"
        " 1000.0, 1001.0, 'WRONG_ANSWER', 1, ?)",
        (PID, wrong.model_dump_json()),
    )
    db.execute(
        "INSERT INTO submissions (site, problem_id, source_sha256, language, state, intent_at, note)"
        " VALUES ('codeforces', ?, 'sha-2', 'cpp17', 'abandoned', 1010.0, 'login page')",
        (PID,),
    )
    db.execute(
        "INSERT INTO submissions (site, problem_id, source_sha256, language, state, intent_at)"
        " VALUES ('codeforces', ?, 'sha-3', 'cpp17', 'intent', 1020.0)",
        (PID,),
    )
    db.commit()
    db.close()
    return wrong


def test_a_ledger_from_the_previous_cpbot_opens_with_its_rows_and_rules(tmp_path: Path) -> None:
    path = tmp_path / "submissions.sqlite3"
    wrong = old_ledger(path)
    now = [1025.0]
    with SubmissionLedger(path, min_interval_s=10, clock=lambda: now[0]) as ledger:
        entries = ledger.entries("codeforces", PID)
        assert [(e.row_id, e.state, e.submission_id, e.note) for e in entries] == [
            (1, "posted", "501", ""),
            (2, "abandoned", None, "login page"),
            (3, "intent", None, ""),
        ]
        assert entries[0].remote == wrong and entries[0].final and entries[0].verdict == "WRONG_ANSWER"
        assert ledger.posted("codeforces", PID, "sha-1") == entries[0] == ledger.find("codeforces", "501")
        assert [e.row_id for e in ledger.pending("codeforces")] == [3]  # still to be reconciled
        with pytest.raises(DuplicateSubmission, match="submission 501"):
            ledger.reserve("codeforces", PID, "sha-1", "cpp17")
        with pytest.raises(DuplicateSubmission, match="unresolved"):
            ledger.reserve("codeforces", PID, "sha-3", "cpp17")
        with pytest.raises(SubmitTooSoon):  # the old intent at 1020 still counts
            ledger.reserve("codeforces", PID, "sha-4", "cpp17")
        now[0] = 1031.0
        row = ledger.reserve("codeforces", PID, "sha-2", "cpp17")  # an abandoned source may go again
        assert row == 4
    db = sqlite3.connect(path)
    assert db.execute("SELECT version FROM ledger_schema ORDER BY version").fetchall() == [(1,), (2,)]
    indexes = {r[1] for r in db.execute("PRAGMA index_list(submissions)")}
    assert {"submissions_once", "submissions_remote_id", "submissions_problem"} <= indexes
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    db.close()


def test_a_ledger_from_a_newer_cpbot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "submissions.sqlite3"
    SubmissionLedger(path).close()
    db = sqlite3.connect(path)
    db.execute("INSERT INTO ledger_schema (version) VALUES (7)")
    db.commit()
    db.close()
    with pytest.raises(LedgerError, match="submission ledger schema 7, written by a newer cpbot") as e:
        SubmissionLedger(path)
    assert "upgrade cpbot" in e.value.hint


def test_adopting_a_post_the_ledger_already_holds_adds_no_row(tmp_path: Path) -> None:
    with SubmissionLedger(tmp_path / "l.sqlite3", min_interval_s=0) as ledger:
        row = ledger.reserve("codeforces", PID, "sha", "cpp17")
        ledger.resolve(row, "77")
        verdict = RemoteVerdict(site="codeforces", submission_id="77", problem_id=PID, verdict=Verdict.AC, final=True)
        again = ledger.adopt("codeforces", PID, "sha", "cpp17", "77", verdict=verdict, note="carried over")
        assert again.row_id == row and again.remote == verdict and again.note == ""
        other = ledger.adopt("codeforces", PID, "sha-b", "", "78", verdict=None, note="carried over")
        assert (other.state, other.submission_id, other.note) == ("posted", "78", "carried over")
        assert len(ledger.entries()) == 2
        with pytest.raises(LedgerError, match="no submission row 99"):
            ledger.entry(99)
