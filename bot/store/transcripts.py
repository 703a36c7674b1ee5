"""The transcript store: every run (a solve, a contest, a benchmark) and everything that happened in it.

One SQLite file in the user data dir (`CPBOT_DATA_DIR` overrides it), in WAL mode:

- `runs`: one row per run (kind, problem, strategy, model, start/end, status, totals, config);
- `events`: the append-only log of a run, numbered 1, 2, 3... (`seq`), each a trace event as JSON;
- `llm_calls`: each LLM call's prompt, reply, tokens and latency, for queries (its event refers to it);
- `schema_version`: the layout's version, checked on open; older layouts are migrated in place.

A run may belong to a parent run (a contest run holds one run per problem). Each run records the pid
(and its start time) of the process that owns it, so a run left "running" by a killed process is
marked stale rather than shown as running forever (`mark_stale`), and can be taken over (`resume_run`).

Code and large text go to files beside the database, `blobs/ab/abcdef...` named by the SHA-256 of
their (redacted) content; the event holds `{"$blob": sha, "chars": n}` and reading it back puts the
content in again. A blob is written before the event that refers to it, so no event points nowhere.

What a model sent is kept up to `reply_chars` characters per field (its reply, its reasoning;
`CPBOT_TRANSCRIPT_REPLY_CHARS`, default 500,000): a longer one keeps its beginning and its end around a
marker, and the event's `clipped` records the full length. The program taken from a reply is whole in
its code envelope (a blob) whatever the clip.

Every write is one transaction (a crash loses at most the event being written) under one lock, so
any thread may write; SQLite's own locking serialises other processes. Triggers refuse UPDATE and
DELETE on events and calls. Everything passes through a `Redactor` first: no API key, cookie or
Authorization header is ever written. `TranscriptTracer` is the agents' `Tracer` for one run.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from secrets import token_hex
from typing import Any

from pydantic import BaseModel

from cpbot.agents.tracing import TraceEvent, load_event
from cpbot.bot.store.storage import Database, Migrations, StorageError, run_script
from cpbot.core.dirs import data_dir
from cpbot.core.process import pid_alive, process_start
from cpbot.core.redact import Redactor, secrets_from_env

DB_NAME = "transcripts.sqlite3"
BLOB_DIR = "blobs"
BLOB_MIN_CHARS = 4096  # strings at least this long leave the event for a blob file
BLOB_KEYS = frozenset({"source"})  # program text always goes to a blob, whatever its size
BLOB_REF = "$blob"
# Fields of an LLM call kept in `llm_calls` rather than repeated in its event.
_CALL_TEXT = ("messages", "reply", "reasoning")
_CLIPPED_TEXT = ("reply", "reasoning")  # what the model sent: the fields clipped to `reply_chars`
DEFAULT_REPLY_CHARS = 500_000
REPLY_CHARS_ENV = "CPBOT_TRANSCRIPT_REPLY_CHARS"


def _reply_chars_from_env() -> int:
    raw = os.environ.get(REPLY_CHARS_ENV, "")
    if not raw:
        return DEFAULT_REPLY_CHARS
    if not raw.isdigit() or int(raw) < 1000:
        raise TranscriptError(
            f"{REPLY_CHARS_ENV}={raw!r} is not a number of characters of at least 1000",
            hint=f"unset it for the default ({DEFAULT_REPLY_CHARS:,}), or give e.g. {REPLY_CHARS_ENV}=200000",
        )
    return int(raw)


def clip_middle(text: str, limit: int) -> tuple[str, int | None]:
    """`text` in at most about `limit` characters: whole when it fits, else its beginning and end around a
    marker naming the cut; and its full length when it was clipped (None when whole)."""
    if len(text) <= limit:
        return text, None
    head = limit // 2
    tail = limit - head
    marker = (
        f"\n[... cpbot kept {limit:,} of {len(text):,} characters: {len(text) - limit:,} clipped here "
        f"({REPLY_CHARS_ENV}) ...]\n"
    )
    return text[:head] + marker + text[-tail:], len(text)


class TranscriptError(StorageError):
    """The transcript store cannot be opened, read or written."""


MIGRATIONS = Migrations("transcript store", error=TranscriptError)


@MIGRATIONS
def m001_runs_events_calls(db: sqlite3.Connection) -> None:
    run_script(
        db,
        """
CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    problem_id TEXT,
    strategy TEXT,
    model TEXT,
    started_at TEXT NOT NULL,
    ended_at TEXT,
    status TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    config TEXT NOT NULL DEFAULT '{}',
    totals TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX runs_started ON runs (started_at);
CREATE TABLE events (
    run_id TEXT NOT NULL REFERENCES runs (id),
    seq INTEGER NOT NULL,
    ts TEXT NOT NULL,
    kind TEXT NOT NULL,
    task_id TEXT NOT NULL DEFAULT '',
    payload TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
CREATE TABLE llm_calls (
    call_id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs (id),
    seq INTEGER NOT NULL,
    ts TEXT NOT NULL,
    task_id TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt TEXT NOT NULL,
    reply TEXT NOT NULL,
    reasoning TEXT NOT NULL DEFAULT '',
    finish_reason TEXT,
    prompt_tokens INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    latency_ms REAL NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX llm_calls_run ON llm_calls (run_id, seq);
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'transcript events are append-only'); END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'transcript events are append-only'); END;
CREATE TRIGGER llm_calls_append_only_update BEFORE UPDATE ON llm_calls
    BEGIN SELECT RAISE(ABORT, 'transcript LLM calls are append-only'); END;
CREATE TRIGGER llm_calls_append_only_delete BEFORE DELETE ON llm_calls
    BEGIN SELECT RAISE(ABORT, 'transcript LLM calls are append-only'); END;
""",
    )


@MIGRATIONS
def m002_run_parents_and_owners(db: sqlite3.Connection) -> None:
    run_script(
        db,
        """
ALTER TABLE runs ADD COLUMN parent TEXT REFERENCES runs (id);
ALTER TABLE runs ADD COLUMN pid INTEGER;
ALTER TABLE runs ADD COLUMN pid_start TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN host TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_parent ON runs (parent);
""",
    )


SCHEMA_VERSION = MIGRATIONS.latest


def default_db_path() -> Path:
    """Where transcripts live by default."""
    return data_dir() / DB_NAME


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _owner_alive(pid: int | None, pid_start: str, host: str) -> bool | None:
    """Whether the process that owns a run is still there; None when that cannot be told from here."""
    if pid is None or host != socket.gethostname():
        return None
    if Path("/proc/self/stat").exists():
        now = process_start(pid)
        return bool(now) and (not pid_start or now == pid_start)
    return pid_alive(pid)


class RunSummary(BaseModel):
    """One run as `cpbot transcripts list` shows it."""

    id: str
    kind: str
    problem_id: str | None = None
    strategy: str | None = None
    model: str | None = None
    started_at: datetime
    ended_at: datetime | None = None
    status: str
    reason: str = ""
    parent: str | None = None
    pid: int | None = None
    children: int = 0  # runs whose parent this is (the problems of a contest)
    events: int = 0
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    llm_ms: float = 0.0  # LLM figures cover the run's own calls and those of its child runs
    totals: dict[str, Any] = {}
    config: dict[str, Any] = {}

    @property
    def seconds(self) -> float | None:
        """How long the run took, None while it runs."""
        return (self.ended_at - self.started_at).total_seconds() if self.ended_at else None


class StoredEvent(BaseModel):
    """One event of a run; an LLM call's payload is whole again (prompt and reply included)."""

    seq: int
    ts: datetime
    kind: str
    task_id: str = ""
    payload: dict[str, Any]

    def fields(self) -> dict[str, Any]:
        """The fields of the typed event this was written from (its payload with kind, ts and task_id)."""
        return {**self.payload, "kind": self.kind, "ts": self.ts, "task_id": self.task_id}

    def trace_event(self) -> TraceEvent:
        """The agents' event this was written from (not for run_start/run_end, which are the store's own)."""
        return load_event(self.fields())


class StoredLLMCall(BaseModel):
    """One row of `llm_calls`."""

    call_id: str
    seq: int
    ts: datetime
    task_id: str = ""
    role: str
    model: str
    messages: list[dict[str, Any]]
    reply: str
    reasoning: str = ""
    finish_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    latency_ms: float = 0.0
    attempts: int = 0
    error: str = ""


class RunList(BaseModel):
    """`cpbot transcripts list --json`."""

    schema_version: int = SCHEMA_VERSION
    runs: list[RunSummary]


class RunTranscript(BaseModel):
    """`cpbot transcripts show RUN --json`: the run, its events in order, its LLM calls, its child runs."""

    schema_version: int = SCHEMA_VERSION
    run: RunSummary
    events: list[StoredEvent]
    llm_calls: list[StoredLLMCall]
    children: list[RunSummary] = []


class TranscriptStore:
    """The SQLite store; thread-safe; close it (or use `with`) when done."""

    def __init__(
        self,
        path: Path | None = None,
        *,
        secrets: Iterable[str] = (),
        read_only: bool = False,
        reply_chars: int | None = None,
    ) -> None:
        """`read_only`: an existing store opened for reading only (it works on a full disk too).
        `reply_chars`: the characters kept of each reply and reasoning (default: `CPBOT_TRANSCRIPT_REPLY_CHARS`,
        else `DEFAULT_REPLY_CHARS`)."""
        self.path = Path(path) if path is not None else default_db_path()
        self.reply_chars = reply_chars if reply_chars is not None else _reply_chars_from_env()
        self.redactor = Redactor([*secrets_from_env(), *secrets])
        self.blob_dir = self.path.parent / BLOB_DIR
        # NORMAL: durable at checkpoints; a crash never corrupts (WAL), and events are written often
        self.db = Database(self.path, MIGRATIONS, synchronous="NORMAL", read_only=read_only)

    def close(self) -> None:
        """Close the database (WAL contents stay safe on disk)."""
        self.db.close()

    def __enter__(self) -> TranscriptStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add_secret(self, secret: str | None) -> None:
        """Never write `secret` (e.g. the API key in use) from now on."""
        self.redactor.add(secret)

    # ---- writing ----

    def start_run(
        self,
        kind: str,
        *,
        problem_id: str | None = None,
        strategy: str | None = None,
        model: str | None = None,
        config: Mapping[str, Any] | None = None,
        parent: str | None = None,
    ) -> str:
        """Open a run owned by this process and return its id (time-sortable: `YYYYmmdd-HHMMSS-xxxxxx`);
        `parent` is the run it belongs to (e.g. the contest of a problem run)."""
        started = datetime.now(UTC)
        run_id = f"{started:%Y%m%d-%H%M%S}-{token_hex(3)}"
        config_json = json.dumps(self.redactor.value(dict(config or {})))
        pid = os.getpid()
        with self.db.write() as db:
            if parent is not None and not db.execute("SELECT 1 FROM runs WHERE id = ?", (parent,)).fetchone():
                raise TranscriptError(f"no parent run {parent!r}", hint="start the contest run first")
            db.execute(
                "INSERT INTO runs (id, kind, problem_id, strategy, model, started_at, status, config, parent,"
                " pid, pid_start, host) VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?)",
                (
                    run_id,
                    kind,
                    problem_id,
                    strategy,
                    model,
                    started.isoformat(),
                    config_json,
                    parent,
                    pid,
                    process_start(pid),
                    socket.gethostname(),
                ),
            )
            payload = {"kind": kind, "problem_id": problem_id, "strategy": strategy, "model": model}
            if parent is not None:
                payload["parent"] = parent
            self._append(run_id, "run_start", payload, ts=started.isoformat())
        return run_id

    def resume_run(self, run_id: str) -> RunSummary:
        """Take over run `run_id` (e.g. a contest after a restart): this process owns it and it is running
        again; a `run_resume` event records the status it had."""
        pid = os.getpid()
        with self.db.write() as db:
            row = db.execute("SELECT status FROM runs WHERE id = ?", (run_id,)).fetchone()
            if row is None:
                raise TranscriptError(f"no run {run_id!r}", hint="`cpbot transcripts list` shows the runs")
            self._append(run_id, "run_resume", {"previous_status": row[0], "pid": pid}, ts=_now())
            db.execute(
                "UPDATE runs SET status = 'running', ended_at = NULL, reason = '', pid = ?, pid_start = ?, host = ?"
                " WHERE id = ?",
                (pid, process_start(pid), socket.gethostname(), run_id),
            )
        return self.run(run_id)

    def mark_stale(self, older_than_s: float | None = None) -> list[str]:
        """Mark as `stale` every running run whose owning process is gone, and, when `older_than_s` is
        given, every running run whose owner cannot be checked from here (another host, an old store)
        and that has had no event for that long. Returns the ids marked."""
        now = datetime.now(UTC)
        with self.db.read() as db:
            rows = db.execute(
                "SELECT r.id, r.pid, r.pid_start, r.host, (SELECT MAX(e.ts) FROM events e WHERE e.run_id = r.id)"
                " FROM runs r WHERE r.status = 'running'"
            ).fetchall()
        marked = []
        for run_id, pid, pid_start, host, last_ts in rows:
            alive = _owner_alive(pid, pid_start, host)
            last = _time(last_ts)
            idle = (now - last).total_seconds() if last else None
            if alive is False:
                reason = f"the process that ran it (pid {pid}) is gone"
            elif alive is None and older_than_s is not None and idle is not None and idle > older_than_s:
                reason = f"no event for {idle:.0f} s and its process cannot be checked from here"
            else:
                continue
            if self._mark_stale(run_id, pid, reason, last_ts or now.isoformat()):
                marked.append(run_id)
        return marked

    def _mark_stale(self, run_id: str, pid: int | None, reason: str, ended: str) -> bool:
        with self.db.write() as db:
            # re-checked inside the write lock: another process may have finished or resumed it meanwhile
            row = db.execute("SELECT status, pid FROM runs WHERE id = ?", (run_id,)).fetchone()
            if row is None or row[0] != "running" or row[1] != pid:
                return False
            self._append(run_id, "run_end", {"status": "stale", "reason": reason, "totals": {}}, ts=_now())
            db.execute(
                "UPDATE runs SET status = 'stale', ended_at = ?, reason = ? WHERE id = ?", (ended, reason, run_id)
            )
        return True

    # ---- blobs ----

    def _blob_path(self, sha: str) -> Path:
        if len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
            raise TranscriptError(f"{sha!r} is not a blob name (a SHA-256 in hex)")
        return self.blob_dir / sha[:2] / sha[2:]

    def put_blob(self, content: str) -> str:
        """Store `content` (redacted) as a blob file and return its SHA-256; the same content is stored once."""
        data = self.redactor.text(content).encode()
        sha = hashlib.sha256(data).hexdigest()
        path = self._blob_path(sha)
        if path.exists():
            return sha
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            try:
                tmp.write_bytes(data)
            except FileNotFoundError:  # the first blob of its folder: no mkdir call for every blob
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp.write_bytes(data)
            os.replace(tmp, path)  # atomic: a blob file is whole or absent
        except OSError as e:
            raise TranscriptError(f"cannot write a transcript blob under {self.blob_dir}: {e}") from e
        return sha

    def blob(self, sha: str) -> str:
        """The content of blob `sha`."""
        path = self._blob_path(sha)
        try:
            return path.read_bytes().decode()
        except OSError as e:
            raise TranscriptError(
                f"the transcript refers to blob {sha} but {path} cannot be read: {e}",
                hint=f"the {BLOB_DIR}/ directory must stay beside {self.path.name}",
            ) from e

    def _externalize(self, value: Any, key: str = "") -> Any:
        """`value` with program text and long strings replaced by blob references."""
        if isinstance(value, str):
            if (key in BLOB_KEYS and value) or len(value) >= BLOB_MIN_CHARS:
                return {BLOB_REF: self.put_blob(value), "chars": len(value)}
            return value
        if isinstance(value, Mapping):
            return {k: self._externalize(v, k) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self._externalize(v) for v in value]
        return value

    def _internalize(self, value: Any) -> Any:
        """`value` with blob references replaced by their content."""
        if isinstance(value, Mapping):
            if set(value) == {BLOB_REF, "chars"} and isinstance(value[BLOB_REF], str):
                return self.blob(value[BLOB_REF])
            return {k: self._internalize(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._internalize(v) for v in value]
        return value

    def _append(self, run_id: str, kind: str, payload: Mapping[str, Any], *, ts: str, task_id: str = "") -> int:
        (seq,) = self.db.connection.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE run_id = ?", (run_id,)
        ).fetchone()
        self.db.connection.execute(
            "INSERT INTO events (run_id, seq, ts, kind, task_id, payload) VALUES (?, ?, ?, ?, ?, ?)",
            (run_id, seq, ts, kind, task_id, json.dumps(payload, ensure_ascii=False)),
        )
        return int(seq)

    def append(self, run_id: str, kind: str, payload: Mapping[str, Any], *, task_id: str = "") -> int:
        """Append an event given as a kind and a JSON-able payload; returns its seq."""
        clean = self._externalize(self.redactor.value(dict(payload)))
        with self.db.write():
            return self._append(run_id, kind, clean, ts=_now(), task_id=task_id)

    def record(self, run_id: str, event: TraceEvent) -> int:
        """Append a trace event (an LLM call also gets its `llm_calls` row); returns its seq."""
        data = self.redactor.value(event.model_dump(mode="json"))
        kind = data["kind"]
        ts = data.pop("ts")
        task_id = data.pop("task_id", "")
        if kind != "llm_call":
            data = self._externalize(data)  # blob files are written before the event that names them
        with self.db.write() as db:
            if kind != "llm_call":
                return self._append(run_id, kind, data, ts=ts, task_id=task_id)
            text = {k: data.pop(k) for k in _CALL_TEXT}
            for key in _CLIPPED_TEXT:
                text[key], full = clip_middle(text[key], self.reply_chars)
                if full is not None:
                    data["clipped"] = {**data.get("clipped", {}), key: full}
            seq = self._append(run_id, kind, self._externalize(data), ts=ts, task_id=task_id)
            usage = data["usage"]
            db.execute(
                "INSERT INTO llm_calls (call_id, run_id, seq, ts, task_id, role, model, prompt, reply, reasoning,"
                " finish_reason, prompt_tokens, completion_tokens, reasoning_tokens, latency_ms, attempts, error)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    data["call_id"],
                    run_id,
                    seq,
                    ts,
                    task_id,
                    data["role"],
                    data["model"],
                    json.dumps(text["messages"], ensure_ascii=False),
                    text["reply"],
                    text["reasoning"],
                    data["finish_reason"],
                    usage["prompt_tokens"],
                    usage["completion_tokens"],
                    usage["reasoning_tokens"],
                    data["latency_ms"],
                    data["attempts"],
                    data["error"],
                ),
            )
            return seq

    def finish_run(
        self, run_id: str, status: str, *, reason: str = "", totals: Mapping[str, Any] | None = None
    ) -> RunSummary:
        """Close a run with its status (solved, best_effort, failed, error, cancelled, ...) and reason;
        the LLM totals are added up from its calls. Returns the run."""
        extra = self.redactor.value(dict(totals or {}))
        reason = self.redactor.text(reason)
        ended = _now()
        with self.db.write() as db:
            if not db.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchone():
                raise TranscriptError(f"no run {run_id}")
            self._append(run_id, "run_end", {"status": status, "reason": reason, "totals": extra}, ts=ended)
            db.execute(
                "UPDATE runs SET ended_at = ?, status = ?, reason = ?, totals = ? WHERE id = ?",
                (ended, status, reason, json.dumps(extra), run_id),
            )
        return self.run(run_id)

    def tracer(self, run_id: str) -> TranscriptTracer:
        """A `Tracer` writing to run `run_id`."""
        return TranscriptTracer(self, run_id)

    # ---- reading ----

    _SUMMARY = """
        SELECT r.id, r.kind, r.problem_id, r.strategy, r.model, r.started_at, r.ended_at, r.status, r.reason,
               r.totals, r.config, r.parent, r.pid,
               (SELECT COUNT(*) FROM runs k WHERE k.parent = r.id) AS children,
               (SELECT COUNT(*) FROM events e WHERE e.run_id = r.id) AS events,
               COUNT(c.call_id) AS llm_calls,
               COALESCE(SUM(c.prompt_tokens), 0) AS prompt_tokens,
               COALESCE(SUM(c.completion_tokens), 0) AS completion_tokens,
               COALESCE(SUM(c.reasoning_tokens), 0) AS reasoning_tokens,
               ROUND(COALESCE(SUM(c.latency_ms), 0), 3) AS llm_ms
        FROM runs r LEFT JOIN llm_calls c
            ON c.run_id IN (SELECT r.id UNION ALL SELECT k.id FROM runs k WHERE k.parent = r.id)
    """

    @staticmethod
    def _summary(row: sqlite3.Row) -> RunSummary:
        data = dict(row)
        return RunSummary(**{**data, "totals": json.loads(data["totals"]), "config": json.loads(data["config"])})

    def list_runs(
        self, *, limit: int | None = 50, kind: str | None = None, top_level: bool = False, parent: str | None = None
    ) -> list[RunSummary]:
        """The latest runs, newest first; `top_level` leaves out runs that belong to another (a contest's
        problems), `parent` keeps only the runs of that parent."""
        conditions: list[str] = []
        args: list[Any] = []
        if kind:
            conditions.append("r.kind = ?")
            args.append(kind)
        if top_level:
            conditions.append("r.parent IS NULL")
        if parent is not None:
            conditions.append("r.parent = ?")
            args.append(parent)
        where = f"WHERE {' AND '.join(conditions)}" if conditions else ""
        sql = f"{self._SUMMARY} {where} GROUP BY r.id ORDER BY r.started_at DESC, r.id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        with self.db.read() as db:
            rows = db.execute(sql, args).fetchall()
        return [self._summary(r) for r in rows]

    def resolve(self, run: str) -> str:
        """The full id of run `run`, given whole or as any part of it that only one run has (its random
        tail, its time), or "last" for the newest top-level run (a contest rather than its latest problem)."""
        with self.db.read() as db:
            if run == "last":
                rows = db.execute(
                    "SELECT id FROM runs WHERE parent IS NULL ORDER BY started_at DESC, id DESC LIMIT 1"
                ).fetchall()
            else:
                pattern = "%" + run.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
                rows = db.execute(
                    "SELECT id FROM runs WHERE id LIKE ? ESCAPE '\\' ORDER BY id LIMIT 3", (pattern,)
                ).fetchall()
        if not rows:
            raise TranscriptError(f"no run {run!r} in {self.path}", hint="`cpbot transcripts list` shows the runs")
        exact = [r[0] for r in rows if r[0] == run]
        if exact:
            return exact[0]
        if len(rows) > 1:
            raise TranscriptError(
                f"{run!r} matches several runs ({', '.join(r[0] for r in rows)}...)", hint="give more of the id"
            )
        return str(rows[0][0])

    def run(self, run_id: str) -> RunSummary:
        """One run's summary."""
        with self.db.read() as db:
            row = db.execute(f"{self._SUMMARY} WHERE r.id = ? GROUP BY r.id", (run_id,)).fetchone()
        if row is None:
            raise TranscriptError(f"no run {run_id!r}", hint="`cpbot transcripts list` shows the runs")
        return self._summary(row)

    def llm_calls(self, run_id: str) -> list[StoredLLMCall]:
        """A run's LLM calls in order."""
        with self.db.read() as db:
            rows = db.execute("SELECT * FROM llm_calls WHERE run_id = ? ORDER BY seq", (run_id,)).fetchall()
        calls = []
        for row in rows:
            data = dict(row)
            data.pop("run_id")
            data["messages"] = json.loads(data.pop("prompt"))
            calls.append(StoredLLMCall(**data))
        return calls

    def children(self, run_id: str) -> list[RunSummary]:
        """The runs that belong to run `run_id`, oldest first."""
        return list(reversed(self.list_runs(limit=None, parent=run_id)))

    def events(self, run_id: str) -> list[StoredEvent]:
        """A run's events in order, with LLM calls' prompts and replies and blob contents put back."""
        calls = {c.call_id: c for c in self.llm_calls(run_id)}
        with self.db.read() as db:
            rows = db.execute(
                "SELECT seq, ts, kind, task_id, payload FROM events WHERE run_id = ? ORDER BY seq", (run_id,)
            ).fetchall()
        events = []
        for seq, ts, kind, task_id, payload in rows:
            data = self._internalize(json.loads(payload))
            call = calls.get(data.get("call_id", "")) if kind == "llm_call" else None
            if call is not None:
                data.update(messages=call.messages, reply=call.reply, reasoning=call.reasoning)
            events.append(StoredEvent(seq=seq, ts=ts, kind=kind, task_id=task_id, payload=data))
        return events

    def transcript(self, run: str) -> RunTranscript:
        """Everything about run `run` (an id, a prefix, or "last")."""
        run_id = self.resolve(run)
        return RunTranscript(
            run=self.run(run_id),
            events=self.events(run_id),
            llm_calls=self.llm_calls(run_id),
            children=self.children(run_id),
        )


class TranscriptTracer:
    """The agents' `Tracer` for one run of a `TranscriptStore`."""

    def __init__(self, store: TranscriptStore, run_id: str) -> None:
        self.store = store
        self.run_id = run_id

    def emit(self, event: TraceEvent) -> None:
        """Write `event` to the run."""
        self.store.record(self.run_id, event)
