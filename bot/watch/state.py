"""cpbot's contest state: the source of truth of `cpbot watch` (SQLite, WAL, in the user data dir).

Tables: `contests` (what is watched and how far it got), `problems` (one row per problem of a contest,
with its status), `attempts` (each solve of a problem and its result), `submissions` (which attempt was
posted as which row of the submission ledger, the one record of what was posted and what the site
answered) and `transitions` (the log of every status change). Every change is one
transaction, so a crash leaves either the old or the new state, never half of one; and operations are
idempotent (re-adding a contest or problem, repeating a transition), so a restart simply resumes.

A problem moves through: pending -> fetching -> solving -> judged -> gated -> submitted -> verdict ->
solved, with `given_up` reachable from any live status, `judged -> solving` when the gate refuses, and
`verdict -> solving` when the site says the answer is wrong. A dry run stops at `gated`.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from cpbot.agents.solve import SolveResult
from cpbot.bot.store.storage import Database, Migrations, StorageError, run_script, table_exists
from cpbot.bot.submit.base import RemoteVerdict
from cpbot.bot.submit.ledger import DB_NAME as LEDGER_DB_NAME
from cpbot.bot.submit.ledger import LedgerEntry, SubmissionLedger
from cpbot.bot.watch.rules import Participation
from cpbot.bot.watch.standing import Standing
from cpbot.core.dirs import data_dir
from cpbot.judge.model import Problem, Verdict

DB_NAME = "watch.sqlite3"
_OLD_SUBMISSIONS = "submissions_v1"  # version 1 kept its own copy of each submission; see m002

ProblemStatus = Literal[
    "pending", "fetching", "solving", "judged", "gated", "shadowed", "submitted", "verdict", "solved", "given_up"
]
# How cpbot takes part in a contest (bot/watch/rules.py): None until decided at the contest's start.
ContestStatus = Literal["watching", "running", "done"]
ContestMode = Literal["live", "virtual"]
TERMINAL: frozenset[str] = frozenset({"solved", "given_up"})
# the detail of a problem given up only because its live contest ended: practice may take it up again
CONTEST_ENDED = "the contest ended"

# to -> the statuses it may come from (a status may always be repeated: that is a no-op)
_FROM: dict[str, frozenset[str]] = {
    "fetching": frozenset({"pending"}),
    "solving": frozenset({"fetching", "judged", "verdict"}),
    "judged": frozenset({"solving"}),
    "gated": frozenset({"judged", "shadowed"}),  # a shadow submission is posted as practice after the round
    "shadowed": frozenset({"gated"}),
    "submitted": frozenset({"gated"}),
    "verdict": frozenset({"submitted"}),
    "solved": frozenset({"verdict"}),
    "given_up": frozenset({"pending", "fetching", "solving", "judged", "gated", "shadowed", "submitted", "verdict"}),
}


class StateError(StorageError):
    """The watch state cannot be opened, or a change does not fit the state it finds."""


MIGRATIONS = Migrations("watch state", error=StateError)


@MIGRATIONS
def m001_contests_problems_attempts(db: sqlite3.Connection) -> None:
    run_script(
        db,
        """
CREATE TABLE contests (
    key TEXT PRIMARY KEY,
    site TEXT NOT NULL,
    contest_id TEXT NOT NULL,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    start TEXT,
    duration_s INTEGER NOT NULL DEFAULT 0,
    mode TEXT NOT NULL,
    status TEXT NOT NULL,
    run_id TEXT,
    detail TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE problems (
    contest_key TEXT NOT NULL REFERENCES contests (key),
    problem_id TEXT NOT NULL,
    idx TEXT,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    rank REAL NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    problem_json TEXT,
    feedback TEXT NOT NULL DEFAULT '[]',
    run_id TEXT,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (contest_key, problem_id)
);
CREATE TABLE attempts (
    contest_key TEXT NOT NULL,
    problem_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    run_id TEXT,
    status TEXT NOT NULL,
    result_json TEXT,
    gate_json TEXT,
    calls INTEGER NOT NULL DEFAULT 0,
    tokens INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    PRIMARY KEY (contest_key, problem_id, n),
    FOREIGN KEY (contest_key, problem_id) REFERENCES problems (contest_key, problem_id)
);
CREATE TABLE submissions (
    contest_key TEXT NOT NULL,
    problem_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    source_sha TEXT NOT NULL,
    remote_id TEXT NOT NULL,
    submitted_at TEXT NOT NULL,
    verdict TEXT,
    detail TEXT NOT NULL DEFAULT '',
    remote_json TEXT,
    PRIMARY KEY (contest_key, problem_id, attempt),
    FOREIGN KEY (contest_key, problem_id) REFERENCES problems (contest_key, problem_id)
);
CREATE TABLE transitions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    contest_key TEXT NOT NULL,
    problem_id TEXT NOT NULL,
    from_status TEXT,
    to_status TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    at TEXT NOT NULL
)
""",
    )


@MIGRATIONS
def m002_submissions_refer_to_the_ledger(db: sqlite3.Connection) -> None:
    # The ledger is the one record of a submission; this table only says which attempt it was. The rows
    # of the old table are carried into the ledger (another file) when the state is opened.
    db.execute(f"ALTER TABLE submissions RENAME TO {_OLD_SUBMISSIONS}")
    db.execute(
        """
CREATE TABLE submissions (
    contest_key TEXT NOT NULL,
    problem_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    ledger_row INTEGER NOT NULL,
    submitted_at TEXT NOT NULL,
    PRIMARY KEY (contest_key, problem_id, attempt),
    FOREIGN KEY (contest_key, problem_id) REFERENCES problems (contest_key, problem_id)
)"""
    )


@MIGRATIONS
def m003_shadow_participation(db: sqlite3.Connection) -> None:
    # Where the rules forbid posting during a live round, each gated program is recorded here with the
    # moment it would have been posted; after the round the same sources go out as practice, and the
    # standing they would have earned is kept on the contest.
    run_script(
        db,
        """
ALTER TABLE contests ADD COLUMN gym INTEGER NOT NULL DEFAULT 0;
ALTER TABLE contests ADD COLUMN participation TEXT;
ALTER TABLE contests ADD COLUMN standing_json TEXT;
CREATE TABLE shadow_submissions (
    contest_key TEXT NOT NULL,
    problem_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    at_s REAL NOT NULL,
    source_sha TEXT NOT NULL,
    language TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (contest_key, problem_id, attempt),
    FOREIGN KEY (contest_key, problem_id) REFERENCES problems (contest_key, problem_id)
)
""",
    )


SCHEMA_VERSION = MIGRATIONS.latest


def default_state_path() -> Path:
    """Where the watch state lives: beside the transcripts in the user data dir."""
    return data_dir() / DB_NAME


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _json(model: BaseModel | None) -> str | None:
    """A typed field as its column holds it (the rows' readers below parse it back, the one place that does)."""
    return None if model is None else model.model_dump_json()


class ContestRow(BaseModel):
    """A watched contest."""

    model_config = ConfigDict(extra="forbid")

    key: str
    site: str
    contest_id: str
    name: str
    url: str
    start: datetime | None = None
    duration_s: int = 0
    mode: ContestMode = "live"
    status: ContestStatus = "watching"
    run_id: str | None = None
    detail: str = ""
    gym: bool = False  # a training contest (Codeforces gym, mashup): the rules allow AI there
    participation: Participation | None = None
    standing: Standing | None = None  # the standing cpbot would have had (a shadowed round)

    @property
    def end(self) -> datetime | None:
        """When a live contest stops accepting submissions (None: unknown or a virtual contest)."""
        if self.mode != "live" or self.start is None or self.duration_s <= 0:
            return None
        return datetime.fromtimestamp(self.start.timestamp() + self.duration_s, UTC)


class ProblemRow(BaseModel):
    """One problem of a watched contest and how far it got."""

    model_config = ConfigDict(extra="forbid")

    contest_key: str
    problem_id: str
    index: str | None = None
    name: str
    url: str
    rank: float = 0.0  # lower is easier; the loop works easiest first
    status: ProblemStatus = "pending"
    detail: str = ""
    problem: Problem | None = None  # the statement, once fetched
    feedback: list[str] = []
    run_id: str | None = None
    updated_at: datetime | None = None


class AttemptRow(BaseModel):
    """One solve of a problem: its transcript run and, once done, its result and gate decision."""

    model_config = ConfigDict(extra="forbid")

    contest_key: str
    problem_id: str
    n: int
    run_id: str | None = None
    status: Literal["running", "done", "interrupted"] = "running"
    result: SolveResult | None = None  # how the solve ended, once it did
    gate_json: str | None = None
    calls: int = 0
    tokens: int = 0
    seconds: float = 0.0
    started_at: datetime | None = None


class SubmissionRow(BaseModel):
    """The submission of one attempt: which attempt it was (the state's) and the ledger's row of it."""

    model_config = ConfigDict(extra="forbid")

    contest_key: str
    problem_id: str
    attempt: int
    entry: LedgerEntry
    submitted_at: datetime | None = None

    @property
    def remote_id(self) -> str:
        """The site's submission id."""
        return self.entry.submission_id or ""

    @property
    def source_sha(self) -> str:
        """The hash of the source posted."""
        return self.entry.source_sha256

    @property
    def remote(self) -> RemoteVerdict | None:
        """The site's final verdict, once there is one."""
        remote = self.entry.remote
        return remote if remote is not None and remote.final else None

    @property
    def verdict(self) -> str | None:
        """The final verdict in short ("AC", "WA", or the site's words when cpbot cannot map them)."""
        return None if self.remote is None else str(self.remote.verdict or self.remote.status_text)

    @property
    def detail(self) -> str:
        """What the final verdict says besides its name ("on test 3")."""
        return "" if self.remote is None else verdict_detail(self.remote)


def verdict_detail(verdict: RemoteVerdict) -> str:
    """The failing test and the site's own words, when they add to the verdict's name."""
    parts = []
    if verdict.failed_test is not None:
        parts.append(f"on test {verdict.failed_test}")
    if verdict.status_text and verdict.status_text != str(verdict.verdict):
        parts.append(f"({verdict.status_text})")
    return " ".join(parts)


class Spent(BaseModel):
    """What a contest's solves have used so far (all attempts, interrupted ones included)."""

    calls: int = 0
    tokens: int = 0
    seconds: float = 0.0
    attempts: int = 0


class ShadowRow(BaseModel):
    """A submission cpbot would have made during a live round where the rules forbid making it."""

    contest_key: str
    problem_id: str
    attempt: int
    at_s: float  # seconds after the contest's start
    source_sha: str
    language: str


class Transition(BaseModel):
    """One logged status change."""

    seq: int
    contest_key: str
    problem_id: str
    from_status: str | None
    to_status: str
    detail: str = ""


class WatchState:
    """The state database; thread-safe (one connection under a lock); close it or use `with`."""

    def __init__(self, path: Path | None = None, *, ledger: SubmissionLedger | None = None) -> None:
        self.path = Path(path) if path is not None else default_state_path()
        self.db = Database(self.path, MIGRATIONS, synchronous="FULL")  # a transition survives a power cut
        try:
            # the submissions are the ledger's rows: by default the ledger beside the state (both in the data dir)
            self.ledger = ledger if ledger is not None else SubmissionLedger(self.path.parent / LEDGER_DB_NAME)
        except BaseException:
            self.db.close()
            raise
        self._owns_ledger = ledger is None
        try:
            self._carry_old_submissions()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Close the database (and the ledger, when the state opened it)."""
        self.db.close()
        if self._owns_ledger:
            self.ledger.close()

    def __enter__(self) -> WatchState:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- contests ----

    def add_contest(self, row: ContestRow) -> ContestRow:
        """Record a contest (idempotent); a known one keeps its progress and gets the latest schedule."""
        now = _now()
        start = row.start.isoformat() if row.start else None
        with self.db.write() as db:
            db.execute(
                "INSERT INTO contests (key, site, contest_id, name, url, start, duration_s, mode, status, run_id,"
                " detail, created_at, updated_at, gym) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'watching', NULL, '', ?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET name = excluded.name, url = excluded.url, start = excluded.start,"
                " duration_s = excluded.duration_s, updated_at = excluded.updated_at",
                (
                    row.key,
                    row.site,
                    row.contest_id,
                    row.name,
                    row.url,
                    start,
                    row.duration_s,
                    row.mode,
                    now,
                    now,
                    int(row.gym),
                ),
            )
        return self.contest(row.key)

    def contest(self, key: str) -> ContestRow:
        """One contest; `StateError` when it is not watched."""
        with self.db.read() as db:
            found = db.execute("SELECT * FROM contests WHERE key = ?", (key,)).fetchone()
        if found is None:
            raise StateError(f"no watched contest {key!r}", hint="`cpbot watch` records contests as it finds them")
        return _contest(found)

    def contests(self, *, status: tuple[str, ...] | None = None) -> list[ContestRow]:
        """Watched contests by start time, optionally only those in `status`."""
        with self.db.read() as db:
            rows = db.execute("SELECT * FROM contests ORDER BY start IS NULL, start, key").fetchall()
        found = [_contest(r) for r in rows]
        return [c for c in found if status is None or c.status in status]

    def set_contest(
        self,
        key: str,
        *,
        status: ContestStatus | None = None,
        run_id: str | None = None,
        detail: str | None = None,
        mode: ContestMode | None = None,
        participation: Participation | None = None,
        standing: Standing | None = None,
    ) -> ContestRow:
        """Update a contest's status, transcript run, detail, mode, participation or standing (one transaction)."""
        with self.db.write() as db:
            current = db.execute("SELECT * FROM contests WHERE key = ?", (key,)).fetchone()
            if current is None:
                raise StateError(f"no watched contest {key!r}")
            db.execute(
                "UPDATE contests SET status = ?, run_id = ?, detail = ?, mode = ?, participation = ?,"
                " standing_json = ?, updated_at = ? WHERE key = ?",
                (
                    status or current["status"],
                    run_id if run_id is not None else current["run_id"],
                    detail if detail is not None else current["detail"],
                    mode or current["mode"],
                    participation or current["participation"],
                    _json(standing) or current["standing_json"],
                    _now(),
                    key,
                ),
            )
        return self.contest(key)

    # ---- problems ----

    def add_problem(self, row: ProblemRow) -> ProblemRow:
        """Record a problem of a contest as pending; a known one is left as it is."""
        self.add_problems([row])
        return self.problem(row.contest_key, row.problem_id)

    def add_problems(self, rows: list[ProblemRow]) -> None:
        """Record a contest's problems in one transaction (a crash never leaves half a problem list)."""
        with self.db.write() as db:
            for row in rows:
                db.execute(
                    "INSERT INTO problems (contest_key, problem_id, idx, name, url, rank, status, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, 'pending', ?) ON CONFLICT DO NOTHING",
                    (row.contest_key, row.problem_id, row.index, row.name, row.url, row.rank, _now()),
                )

    def problem(self, key: str, problem_id: str) -> ProblemRow:
        """One problem; `StateError` when unknown."""
        with self.db.read() as db:
            found = db.execute(
                "SELECT * FROM problems WHERE contest_key = ? AND problem_id = ?", (key, problem_id)
            ).fetchone()
        if found is None:
            raise StateError(f"no problem {problem_id!r} in contest {key!r}")
        return _problem(found)

    def problems(self, key: str) -> list[ProblemRow]:
        """A contest's problems, easiest first (rank, then index)."""
        with self.db.read() as db:
            rows = db.execute(
                "SELECT * FROM problems WHERE contest_key = ? ORDER BY rank, idx, problem_id", (key,)
            ).fetchall()
        return [_problem(r) for r in rows]

    def transition(
        self,
        key: str,
        problem_id: str,
        to: ProblemStatus,
        *,
        detail: str = "",
        problem: Problem | None = None,
        run_id: str | None = None,
        add_feedback: str | None = None,
    ) -> bool:
        """Move a problem to `to` in one transaction, with the fields that go with it.

        Returns False (and changes nothing) when the problem already is in `to`: repeating a step after a
        restart is harmless. Raises `StateError` for a move the status machine does not allow.
        """
        with self.db.write() as db:
            return self._move(db, key, problem_id, to, detail, problem, run_id, add_feedback)

    def _move(
        self,
        db: sqlite3.Connection,
        key: str,
        problem_id: str,
        to: ProblemStatus,
        detail: str = "",
        problem: Problem | None = None,
        run_id: str | None = None,
        add_feedback: str | None = None,
    ) -> bool:
        row = db.execute(
            "SELECT status, feedback FROM problems WHERE contest_key = ? AND problem_id = ?", (key, problem_id)
        ).fetchone()
        if row is None:
            raise StateError(f"no problem {problem_id!r} in contest {key!r}")
        current = row["status"]
        if current == to:
            return False
        if current not in _FROM[to]:
            raise StateError(f"{problem_id}: cannot go from {current} to {to}")
        feedback = json.loads(row["feedback"])
        if add_feedback:
            feedback.append(add_feedback)
        now = _now()
        db.execute(
            "UPDATE problems SET status = ?, detail = ?, problem_json = COALESCE(?, problem_json),"
            " run_id = COALESCE(?, run_id), feedback = ?, updated_at = ? WHERE contest_key = ? AND problem_id = ?",
            (to, detail, _json(problem), run_id, json.dumps(feedback), now, key, problem_id),
        )
        db.execute(
            "INSERT INTO transitions (contest_key, problem_id, from_status, to_status, detail, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (key, problem_id, current, to, detail, now),
        )
        return True

    def record_shadow(
        self, key: str, problem_id: str, attempt: int, *, at_s: float, source_sha: str, language: str, detail: str
    ) -> None:
        """Record a would-be submission and move the problem from gated to shadowed, in one transaction
        (a repeat after a crash changes nothing)."""
        with self.db.write() as db:
            db.execute(
                "INSERT INTO shadow_submissions (contest_key, problem_id, attempt, at_s, source_sha, language,"
                " recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (key, problem_id, attempt, at_s, source_sha, language, _now()),
            )
            self._move(db, key, problem_id, "shadowed", detail, None, None, None)

    def shadows(self, key: str, problem_id: str | None = None) -> list[ShadowRow]:
        """A contest's shadow submissions (of one problem), in the order they were made."""
        query = "SELECT * FROM shadow_submissions WHERE contest_key = ?"
        args: tuple[str, ...] = (key,)
        if problem_id is not None:
            query, args = query + " AND problem_id = ?", (key, problem_id)
        with self.db.read() as db:
            rows = db.execute(query + " ORDER BY at_s, problem_id, attempt", args).fetchall()
        return [ShadowRow(**{k: r[k] for k in ShadowRow.model_fields}) for r in rows]

    def reopen_shadowed(self, key: str) -> list[str]:
        """After the round: shadowed problems go back to gated, to be posted as practice. Returns their ids."""
        reopened = [p.problem_id for p in self.problems(key) if p.status == "shadowed"]
        for problem_id in reopened:
            self.transition(key, problem_id, "gated", detail="posted as practice after the round")
        return reopened

    def reopen_ended(self, key: str) -> list[str]:
        """Problems given up only because the live contest ended go back to pending (the contest is now
        practice); the others stay given up. Returns the reopened problem ids. One transaction."""
        reopened = []
        with self.db.write() as db:
            rows = db.execute(
                "SELECT problem_id, detail FROM problems WHERE contest_key = ? AND status = 'given_up'", (key,)
            ).fetchall()
            now = _now()
            detail = "reopened: the contest is worked on as practice"
            for row in rows:
                if not row["detail"].startswith(CONTEST_ENDED):
                    continue
                db.execute(
                    "UPDATE problems SET status = 'pending', detail = ?, updated_at = ?"
                    " WHERE contest_key = ? AND problem_id = ?",
                    (detail, now, key, row["problem_id"]),
                )
                db.execute(
                    "INSERT INTO transitions (contest_key, problem_id, from_status, to_status, detail, at)"
                    " VALUES (?, ?, 'given_up', 'pending', ?, ?)",
                    (key, row["problem_id"], detail, now),
                )
                reopened.append(row["problem_id"])
        return reopened

    def transitions(self, key: str, problem_id: str | None = None) -> list[Transition]:
        """The status log of a contest (or one of its problems), oldest first."""
        sql = "SELECT * FROM transitions WHERE contest_key = ?"
        args: list[Any] = [key]
        if problem_id is not None:
            sql += " AND problem_id = ?"
            args.append(problem_id)
        with self.db.read() as db:
            rows = db.execute(sql + " ORDER BY seq", args).fetchall()
        return [Transition(**{k: r[k] for k in Transition.model_fields}) for r in rows]

    # ---- attempts ----

    def begin_attempt(self, key: str, problem_id: str, run_id: str | None) -> AttemptRow:
        """Open the next attempt; an attempt left running by a crash is marked interrupted first."""
        with self.db.write() as db:
            db.execute(
                "UPDATE attempts SET status = 'interrupted', ended_at = ? WHERE contest_key = ? AND problem_id = ?"
                " AND status = 'running'",
                (_now(), key, problem_id),
            )
            (n,) = db.execute(
                "SELECT COALESCE(MAX(n), 0) + 1 FROM attempts WHERE contest_key = ? AND problem_id = ?",
                (key, problem_id),
            ).fetchone()
            db.execute(
                "INSERT INTO attempts (contest_key, problem_id, n, run_id, status, started_at)"
                " VALUES (?, ?, ?, ?, 'running', ?)",
                (key, problem_id, n, run_id, _now()),
            )
        return self.attempt(key, problem_id, n)

    def interrupt_attempts(self, key: str, problem_id: str) -> list[AttemptRow]:
        """Mark attempts left running (by a crash) as interrupted; returns them."""
        with self.db.write() as db:
            rows = db.execute(
                "SELECT * FROM attempts WHERE contest_key = ? AND problem_id = ? AND status = 'running'",
                (key, problem_id),
            ).fetchall()
            db.execute(
                "UPDATE attempts SET status = 'interrupted', ended_at = ? WHERE contest_key = ? AND problem_id = ?"
                " AND status = 'running'",
                (_now(), key, problem_id),
            )
        return [_attempt(r) for r in rows]

    def finish_attempt(
        self,
        key: str,
        problem_id: str,
        n: int,
        *,
        result: SolveResult | None,
        calls: int,
        tokens: int,
        seconds: float,
        then: ProblemStatus,
        detail: str = "",
    ) -> None:
        """Store a finished solve and move the problem on (`judged`, or `solving` again) in one transaction."""
        with self.db.write() as db:
            db.execute(
                "UPDATE attempts SET status = 'done', result_json = ?, calls = ?, tokens = ?, seconds = ?,"
                " ended_at = ? WHERE contest_key = ? AND problem_id = ? AND n = ?",
                (_json(result), calls, tokens, seconds, _now(), key, problem_id, n),
            )
            self._move(db, key, problem_id, then, detail)

    def set_gate(
        self,
        key: str,
        problem_id: str,
        n: int,
        gate_json: str,
        *,
        then: ProblemStatus,
        detail: str = "",
        add_feedback: str | None = None,
    ) -> None:
        """Store the gate's decision on attempt `n` and move the problem on (`gated`, or `solving` again)."""
        with self.db.write() as db:
            db.execute(
                "UPDATE attempts SET gate_json = ? WHERE contest_key = ? AND problem_id = ? AND n = ?",
                (gate_json, key, problem_id, n),
            )
            self._move(db, key, problem_id, then, detail, add_feedback=add_feedback)

    def attempt(self, key: str, problem_id: str, n: int) -> AttemptRow:
        """One attempt."""
        with self.db.read() as db:
            row = db.execute(
                "SELECT * FROM attempts WHERE contest_key = ? AND problem_id = ? AND n = ?", (key, problem_id, n)
            ).fetchone()
        if row is None:
            raise StateError(f"no attempt {n} of {problem_id!r}")
        return _attempt(row)

    def attempts(self, key: str, problem_id: str) -> list[AttemptRow]:
        """A problem's attempts, oldest first."""
        with self.db.read() as db:
            rows = db.execute(
                "SELECT * FROM attempts WHERE contest_key = ? AND problem_id = ? ORDER BY n", (key, problem_id)
            ).fetchall()
        return [_attempt(r) for r in rows]

    def last_done_attempt(self, key: str, problem_id: str) -> AttemptRow | None:
        """The latest finished attempt (the one a `judged`/`gated` problem carries on with)."""
        done = [a for a in self.attempts(key, problem_id) if a.status == "done"]
        return done[-1] if done else None

    def spent(self, key: str, problem_id: str | None = None) -> Spent:
        """What the solves of a contest (or of one problem) have used."""
        sql = "SELECT COUNT(*), COALESCE(SUM(calls), 0), COALESCE(SUM(tokens), 0), COALESCE(SUM(seconds), 0)"
        sql += " FROM attempts WHERE contest_key = ?"
        args: list[Any] = [key]
        if problem_id is not None:
            sql += " AND problem_id = ?"
            args.append(problem_id)
        with self.db.read() as db:
            count, calls, tokens, seconds = db.execute(sql, args).fetchone()
        return Spent(calls=calls, tokens=tokens, seconds=round(seconds, 3), attempts=count)

    # ---- submissions ----

    def record_submission(self, key: str, problem_id: str, attempt: int, entry: LedgerEntry) -> None:
        """Remember that attempt `attempt` was posted as ledger row `entry` and move the problem to
        `submitted`, in one transaction (repeating it after a restart is harmless)."""
        if entry.state != "posted" or not entry.submission_id:
            raise StateError(f"ledger row {entry.row_id} is not a posted submission ({entry.state})")
        with self.db.write() as db:
            db.execute(
                "INSERT INTO submissions (contest_key, problem_id, attempt, ledger_row, submitted_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (key, problem_id, attempt, entry.row_id, _now()),
            )
            self._move(db, key, problem_id, "submitted", f"submission {entry.submission_id}")

    def record_verdict(self, submission: SubmissionRow, verdict: RemoteVerdict) -> None:
        """Keep the site's final verdict (in the ledger) and move the problem to `verdict`."""
        if not verdict.final:
            raise StateError(f"submission {submission.remote_id}: the site is still judging it")
        entry = submission.entry
        self.ledger.record_verdict(entry.site, submission.remote_id, verdict)
        text = f"{verdict.verdict or verdict.status_text} {verdict_detail(verdict)}".strip()
        with self.db.write() as db:
            self._move(db, submission.contest_key, submission.problem_id, "verdict", text)

    def submissions(self, key: str, problem_id: str | None = None) -> list[SubmissionRow]:
        """Submissions of a contest (or one problem) in the order they were made, with the ledger's rows."""
        sql = "SELECT * FROM submissions WHERE contest_key = ?"
        args: list[Any] = [key]
        if problem_id is not None:
            sql += " AND problem_id = ?"
            args.append(problem_id)
        with self.db.read() as db:
            rows = db.execute(sql + " ORDER BY submitted_at, attempt", args).fetchall()
        entries = self.ledger.entries_by_id([r["ledger_row"] for r in rows])
        missing = [r["ledger_row"] for r in rows if r["ledger_row"] not in entries]
        if missing:
            raise StateError(
                f"the watch state refers to submissions {missing} of the ledger {self.ledger.path}, which it lacks",
                hint="the ledger file was replaced or deleted; restore it, or watch in a fresh CPBOT_DATA_DIR",
            )
        return [
            SubmissionRow(
                contest_key=r["contest_key"],
                problem_id=r["problem_id"],
                attempt=r["attempt"],
                entry=entries[r["ledger_row"]],
                submitted_at=datetime.fromisoformat(r["submitted_at"]),
            )
            for r in rows
        ]

    def _carry_old_submissions(self) -> None:
        """Move the submissions a state written before version 2 kept itself into the ledger (where the
        post usually is already) and refer to them; each row in its own step, so a crash loses nothing."""
        with self.db.read() as db:
            if not table_exists(db, _OLD_SUBMISSIONS):
                return
            rows = db.execute(
                f"SELECT o.*, c.site, a.result_json FROM {_OLD_SUBMISSIONS} o"
                " JOIN contests c ON c.key = o.contest_key"
                " LEFT JOIN attempts a ON a.contest_key = o.contest_key AND a.problem_id = o.problem_id"
                " AND a.n = o.attempt"
            ).fetchall()
        for r in rows:
            entry = self.ledger.adopt(
                r["site"],
                r["problem_id"],
                r["source_sha"],
                _language(r["result_json"]),
                r["remote_id"],
                verdict=_old_verdict(r),
                note="carried over from the watch state of an older cpbot",
            )
            with self.db.write() as db:
                db.execute(
                    "INSERT INTO submissions (contest_key, problem_id, attempt, ledger_row, submitted_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (r["contest_key"], r["problem_id"], r["attempt"], entry.row_id, r["submitted_at"]),
                )
                db.execute(
                    f"DELETE FROM {_OLD_SUBMISSIONS} WHERE contest_key = ? AND problem_id = ? AND attempt = ?",
                    (r["contest_key"], r["problem_id"], r["attempt"]),
                )
        with self.db.write() as db:
            if table_exists(db, _OLD_SUBMISSIONS) and not db.execute(f"SELECT 1 FROM {_OLD_SUBMISSIONS}").fetchone():
                db.execute(f"DROP TABLE {_OLD_SUBMISSIONS}")


def _language(result_json: str | None) -> str:
    """The language of an attempt's program, from its stored solve result ("" when unknown)."""
    try:
        solution = json.loads(result_json or "{}").get("solution") or {}
    except (ValueError, AttributeError):
        return ""
    return str(solution.get("language") or "") if isinstance(solution, dict) else ""


def _old_verdict(r: sqlite3.Row) -> RemoteVerdict | None:
    """The final verdict a version-1 submission row kept: its stored remote verdict, else its words."""
    if r["verdict"] is None:
        return None
    try:
        return RemoteVerdict.model_validate_json(r["remote_json"] or "")
    except ValueError:
        pass
    word = r["verdict"]
    return RemoteVerdict(
        site=r["site"],
        submission_id=r["remote_id"],
        problem_id=r["problem_id"],
        verdict=Verdict(word) if word in set(Verdict) else None,
        final=True,
        status_text=f"{word} {r['detail']}".strip(),
    )


def _contest(r: sqlite3.Row) -> ContestRow:
    data = {k: r[k] for k in ContestRow.model_fields if k != "standing"}
    data["start"] = datetime.fromisoformat(r["start"]) if r["start"] else None
    data["gym"] = bool(r["gym"])
    data["standing"] = Standing.model_validate_json(r["standing_json"]) if r["standing_json"] else None
    return ContestRow(**data)


def _problem(r: sqlite3.Row) -> ProblemRow:
    return ProblemRow(
        contest_key=r["contest_key"],
        problem_id=r["problem_id"],
        index=r["idx"],
        name=r["name"],
        url=r["url"],
        rank=r["rank"],
        status=r["status"],
        detail=r["detail"],
        problem=Problem.model_validate_json(r["problem_json"]) if r["problem_json"] else None,
        feedback=json.loads(r["feedback"]),
        run_id=r["run_id"],
        updated_at=datetime.fromisoformat(r["updated_at"]),
    )


def _attempt(r: sqlite3.Row) -> AttemptRow:
    data = {k: r[k] for k in AttemptRow.model_fields if k != "result"}
    data["result"] = SolveResult.model_validate_json(r["result_json"]) if r["result_json"] else None
    return AttemptRow(**data)
