"""The submission ledger: one SQLite table (WAL) that makes "never twice" and "not too often" hold
across processes and crashes.

Before a POST the submitter writes an intent row (site, problem, source hash, time); after it, the
site's submission id. An intent without an id means the process died around the POST: before posting
anything again, the submitter looks at the site's own list of submissions and either adopts the one it
finds (`resolve`) or, when there is none, drops the intent (`abandon`).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cpbot.bot.submit.base import DuplicateSubmission, RemoteVerdict, SubmitError, SubmitTooSoon
from cpbot.core.dirs import data_dir

SCHEMA_VERSION = 1
DB_NAME = "submissions.sqlite3"
State = Literal["intent", "posted", "abandoned"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS ledger_schema (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS submissions (
    row_id INTEGER PRIMARY KEY AUTOINCREMENT,
    site TEXT NOT NULL,
    problem_id TEXT NOT NULL,
    source_sha256 TEXT NOT NULL,
    language TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('intent', 'posted', 'abandoned')),
    submission_id TEXT,
    intent_at REAL NOT NULL,
    posted_at REAL,
    verdict TEXT,
    final INTEGER NOT NULL DEFAULT 0,
    verdict_json TEXT,
    note TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX IF NOT EXISTS submissions_once
    ON submissions (site, problem_id, source_sha256) WHERE state != 'abandoned';
CREATE UNIQUE INDEX IF NOT EXISTS submissions_remote_id
    ON submissions (site, submission_id) WHERE submission_id IS NOT NULL;
"""


class LedgerEntry(BaseModel):
    """One row of the ledger."""

    model_config = ConfigDict(extra="forbid")

    row_id: int
    site: str
    problem_id: str
    source_sha256: str
    language: str
    state: State
    submission_id: str | None = None
    intent_at: float
    posted_at: float | None = None
    verdict: str | None = None
    final: bool = False
    note: str = ""


def default_ledger_path() -> Path:
    """Beside the transcripts, in the user data dir (`CPBOT_DATA_DIR` overrides it)."""
    return data_dir() / DB_NAME


class SubmissionLedger:
    """The ledger; safe to share between threads, and between processes through SQLite's locks."""

    def __init__(
        self,
        path: Path | None = None,
        *,
        min_interval_s: float = 10.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path) if path is not None else default_ledger_path()
        self.min_interval_s = min_interval_s
        self.clock = clock
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30.0)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")  # an intent must survive a power cut
            with self._write():
                for statement in _SCHEMA.split(";\n"):
                    if statement.strip():
                        self._db.execute(statement)
                row = self._db.execute("SELECT MAX(version) FROM ledger_schema").fetchone()
                if row[0] is None:
                    self._db.execute("INSERT INTO ledger_schema (version) VALUES (?)", (SCHEMA_VERSION,))
                elif row[0] != SCHEMA_VERSION:
                    raise SubmitError(
                        f"{self.path} has ledger schema {row[0]}, this cpbot reads {SCHEMA_VERSION}",
                        hint="upgrade cpbot, or point CPBOT_DATA_DIR at another directory",
                    )
        except (OSError, sqlite3.Error) as e:
            raise SubmitError(
                f"cannot open the submission ledger {self.path}: {e}",
                hint="set CPBOT_DATA_DIR to a writable directory",
            ) from e

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> SubmissionLedger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self) -> _Immediate:
        return _Immediate(self._db, self._lock)

    def reserve(self, site: str, problem_id: str, sha: str, language: str) -> int:
        """Write the intent to post this source; returns its row id.

        Raises `DuplicateSubmission` when the source was already posted (or is being posted) for the
        problem, and `SubmitTooSoon` when the last post on the site is younger than the interval.
        """
        now = self.clock()
        with self._write() as db:
            same = db.execute(
                "SELECT state, submission_id FROM submissions"
                " WHERE site = ? AND problem_id = ? AND source_sha256 = ? AND state != 'abandoned'",
                (site, problem_id, sha),
            ).fetchone()
            if same is not None:
                if same["state"] == "posted":
                    raise DuplicateSubmission(
                        f"this source was already submitted for {problem_id} (submission {same['submission_id']})",
                        hint="change the solution; the same code is never submitted twice",
                    )
                raise DuplicateSubmission(
                    f"this source for {problem_id} has an unresolved earlier attempt",
                    hint="cpbot checks the site's submission list before posting it again",
                )
            (last,) = db.execute(
                "SELECT MAX(intent_at) FROM submissions WHERE site = ? AND state != 'abandoned'", (site,)
            ).fetchone()
            if last is not None and now - last < self.min_interval_s:
                wait = self.min_interval_s - (now - last)
                raise SubmitTooSoon(
                    f"the last submission to {site} was {now - last:.1f} s ago; the minimum interval is "
                    f"{self.min_interval_s:g} s",
                    wait_s=wait,
                )
            cur = db.execute(
                "INSERT INTO submissions (site, problem_id, source_sha256, language, state, intent_at)"
                " VALUES (?, ?, ?, ?, 'intent', ?)",
                (site, problem_id, sha, language, now),
            )
            return int(cur.lastrowid or 0)

    def resolve(self, row_id: int, submission_id: str, note: str = "") -> None:
        """The POST of this intent landed as `submission_id`."""
        with self._write() as db:
            db.execute(
                "UPDATE submissions SET state = 'posted', submission_id = ?, posted_at = ?, note = ?"
                " WHERE row_id = ? AND state = 'intent'",
                (submission_id, self.clock(), note, row_id),
            )

    def abandon(self, row_id: int, note: str) -> None:
        """The POST of this intent certainly did not land (refused, or absent from the site's list)."""
        with self._write() as db:
            db.execute(
                "UPDATE submissions SET state = 'abandoned', note = ? WHERE row_id = ? AND state = 'intent'",
                (note, row_id),
            )

    def record_verdict(self, site: str, submission_id: str, verdict: RemoteVerdict) -> None:
        """Keep the latest remote verdict of a posted submission."""
        with self._write() as db:
            db.execute(
                "UPDATE submissions SET verdict = ?, final = ?, verdict_json = ? WHERE site = ? AND submission_id = ?",
                (verdict.status_text, int(verdict.final), verdict.model_dump_json(), site, submission_id),
            )

    def pending(self, site: str) -> list[LedgerEntry]:
        """Intents of `site` that never got a submission id (a crash around the POST)."""
        return self._select("WHERE site = ? AND state = 'intent' ORDER BY row_id", (site,))

    def entries(self, site: str | None = None, problem_id: str | None = None) -> list[LedgerEntry]:
        """Rows, oldest first, optionally of one site and problem."""
        clauses, args = [], []
        if site is not None:
            clauses.append("site = ?")
            args.append(site)
        if problem_id is not None:
            clauses.append("problem_id = ?")
            args.append(problem_id)
        where = ("WHERE " + " AND ".join(clauses)) if clauses else ""
        return self._select(f"{where} ORDER BY row_id", tuple(args))

    def known_ids(self, site: str) -> set[str]:
        """Submission ids of `site` already in the ledger."""
        with self._lock:
            rows = self._db.execute(
                "SELECT submission_id FROM submissions WHERE site = ? AND submission_id IS NOT NULL", (site,)
            ).fetchall()
        return {r[0] for r in rows}

    def _select(self, tail: str, args: tuple[object, ...]) -> list[LedgerEntry]:
        with self._lock:
            rows = self._db.execute(
                "SELECT row_id, site, problem_id, source_sha256, language, state, submission_id, intent_at,"
                f" posted_at, verdict, final, note FROM submissions {tail}",
                args,
            ).fetchall()
        return [LedgerEntry(**{**dict(r), "final": bool(r["final"])}) for r in rows]


class _Immediate:
    """BEGIN IMMEDIATE ... COMMIT under the thread lock: one writer, across processes too."""

    def __init__(self, db: sqlite3.Connection, lock: threading.Lock) -> None:
        self._db = db
        self._lock = lock

    def __enter__(self) -> sqlite3.Connection:
        self._lock.acquire()
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self._lock.release()
            raise
        return self._db

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        try:
            self._db.execute("COMMIT" if exc_type is None else "ROLLBACK")
        finally:
            self._lock.release()
