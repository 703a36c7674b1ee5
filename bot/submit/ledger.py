"""The submission ledger: the one record of what cpbot posted to a site (one SQLite table), which makes
"never twice" and "not too often" hold across processes and crashes. `cpbot submit` and `cpbot watch`
both post through it; the watch state refers to its rows by row id.

Before a POST the submitter writes an intent row (site, problem, source hash, time); after it, the
site's submission id. An intent without an id means the process died around the POST: before posting
anything again, the submitter looks at the site's own list of submissions and either adopts the one it
finds (`resolve`) or, when there is none, drops the intent (`abandon`). The site's verdicts, as
polled, are kept on the row too.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cpbot.bot.store.storage import Database, Migrations, StorageError, run_script
from cpbot.core.dirs import data_dir
from cpbot.scrapers.submission import DuplicateSubmission, RemoteVerdict, SubmitTooSoon

DB_NAME = "submissions.sqlite3"
State = Literal["intent", "posted", "abandoned"]


class LedgerError(StorageError):
    """The submission ledger cannot be opened, read or written."""


MIGRATIONS = Migrations("submission ledger", version_table="ledger_schema", error=LedgerError)


@MIGRATIONS
def m001_submissions(db: sqlite3.Connection) -> None:
    run_script(
        db,
        """
CREATE TABLE submissions (
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
CREATE UNIQUE INDEX submissions_once
    ON submissions (site, problem_id, source_sha256) WHERE state != 'abandoned';
CREATE UNIQUE INDEX submissions_remote_id
    ON submissions (site, submission_id) WHERE submission_id IS NOT NULL
""",
    )


@MIGRATIONS
def m002_problem_index(db: sqlite3.Connection) -> None:
    # the watch state looks submissions up by problem (the partial unique index cannot serve that)
    db.execute("CREATE INDEX submissions_problem ON submissions (site, problem_id, row_id)")


SCHEMA_VERSION = MIGRATIONS.latest


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
    verdict: str | None = None  # the site's words for the latest verdict seen
    final: bool = False
    remote: RemoteVerdict | None = None  # that verdict whole
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
        self.db = Database(self.path, MIGRATIONS, synchronous="FULL")  # an intent must survive a power cut

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def __enter__(self) -> SubmissionLedger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def reserve(self, site: str, problem_id: str, sha: str, language: str) -> int:
        """Write the intent to post this source; returns its row id.

        Raises `DuplicateSubmission` when the source was already posted (or is being posted) for the
        problem, and `SubmitTooSoon` when the last post on the site is younger than the interval.
        """
        now = self.clock()
        with self.db.write() as db:
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
            # no interval asked: no wait (clocks may step back a little between two posts)
            if last is not None and self.min_interval_s > 0 and now - last < self.min_interval_s:
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
        with self.db.write() as db:
            db.execute(
                "UPDATE submissions SET state = 'posted', submission_id = ?, posted_at = ?, note = ?"
                " WHERE row_id = ? AND state = 'intent'",
                (submission_id, self.clock(), note, row_id),
            )

    def abandon(self, row_id: int, note: str) -> None:
        """The POST of this intent certainly did not land (refused, or absent from the site's list)."""
        with self.db.write() as db:
            db.execute(
                "UPDATE submissions SET state = 'abandoned', note = ? WHERE row_id = ? AND state = 'intent'",
                (note, row_id),
            )

    def record_verdict(self, site: str, submission_id: str, verdict: RemoteVerdict) -> None:
        """Keep the latest remote verdict of a posted submission."""
        with self.db.write() as db:
            db.execute(
                "UPDATE submissions SET verdict = ?, final = ?, verdict_json = ? WHERE site = ? AND submission_id = ?",
                (verdict.status_text, int(verdict.final), verdict.model_dump_json(), site, submission_id),
            )

    def adopt(
        self,
        site: str,
        problem_id: str,
        sha: str,
        language: str,
        submission_id: str,
        *,
        verdict: RemoteVerdict | None,
        note: str,
    ) -> LedgerEntry:
        """The row of a submission posted without this ledger knowing it (a record carried over from an
        older cpbot): the existing row of that submission id, or of that source, else a new posted row.
        A final verdict it lacks is filled in. The minimum interval does not apply: this is the past."""
        with self.db.write() as db:
            found = (
                db.execute(
                    "SELECT row_id FROM submissions WHERE site = ? AND submission_id = ?", (site, submission_id)
                ).fetchone()
                or db.execute(
                    "SELECT row_id FROM submissions WHERE site = ? AND problem_id = ? AND source_sha256 = ?"
                    " AND state = 'posted'",
                    (site, problem_id, sha),
                ).fetchone()
            )
            if found is not None:
                row_id = int(found[0])
            else:
                # an intent of the same source left by a crash is this very post
                db.execute(
                    "UPDATE submissions SET state = 'abandoned', note = ? WHERE site = ? AND problem_id = ?"
                    " AND source_sha256 = ? AND state = 'intent'",
                    (f"superseded: {note}", site, problem_id, sha),
                )
                now = self.clock()
                row_id = int(
                    db.execute(
                        "INSERT INTO submissions (site, problem_id, source_sha256, language, state, submission_id,"
                        " intent_at, posted_at, note) VALUES (?, ?, ?, ?, 'posted', ?, ?, ?, ?)",
                        (site, problem_id, sha, language, submission_id, now, now, note),
                    ).lastrowid
                    or 0
                )
            if verdict is not None and verdict.final:
                db.execute(
                    "UPDATE submissions SET verdict = ?, final = 1, verdict_json = ? WHERE row_id = ? AND final = 0",
                    (verdict.status_text, verdict.model_dump_json(), row_id),
                )
        return self.entry(row_id)

    def entry(self, row_id: int) -> LedgerEntry:
        """One row; `LedgerError` when the ledger has no such row."""
        found = self.entries_by_id([row_id])
        if row_id not in found:
            raise LedgerError(
                f"{self.path} has no submission row {row_id}",
                hint="the ledger file was replaced or deleted; restore it, or start over in a fresh CPBOT_DATA_DIR",
            )
        return found[row_id]

    def entries_by_id(self, row_ids: list[int]) -> dict[int, LedgerEntry]:
        """The rows among `row_ids` that exist, by row id."""
        if not row_ids:
            return {}
        marks = ", ".join("?" * len(row_ids))
        return {e.row_id: e for e in self._select(f"WHERE row_id IN ({marks})", tuple(row_ids))}

    def posted(self, site: str, problem_id: str, sha: str) -> LedgerEntry | None:
        """The posted row of this source for this problem, if there is one."""
        found = self._select(
            "WHERE site = ? AND problem_id = ? AND source_sha256 = ? AND state = 'posted'", (site, problem_id, sha)
        )
        return found[0] if found else None

    def find(self, site: str, submission_id: str) -> LedgerEntry | None:
        """The row of the site's submission `submission_id`, if the ledger holds it."""
        found = self._select("WHERE site = ? AND submission_id = ?", (site, submission_id))
        return found[0] if found else None

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
        with self.db.read() as db:
            rows = db.execute(
                "SELECT submission_id FROM submissions WHERE site = ? AND submission_id IS NOT NULL", (site,)
            ).fetchall()
        return {r[0] for r in rows}

    def _select(self, tail: str, args: tuple[object, ...]) -> list[LedgerEntry]:
        with self.db.read() as db:
            rows = db.execute(
                "SELECT row_id, site, problem_id, source_sha256, language, state, submission_id, intent_at,"
                f" posted_at, verdict, final, verdict_json, note FROM submissions {tail}",
                args,
            ).fetchall()
        return [_entry(r) for r in rows]


def _entry(row: sqlite3.Row) -> LedgerEntry:
    data = dict(row)
    raw = data.pop("verdict_json")
    data["final"] = bool(data["final"])
    data["remote"] = RemoteVerdict.model_validate_json(raw) if raw else None
    return LedgerEntry(**data)
