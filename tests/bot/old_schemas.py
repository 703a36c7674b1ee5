"""The schemas cpbot wrote before its stores shared `cpbot.bot.store.storage` (as of commit 6f829ae), copied
here as fixtures: the upgrade tests build databases of these shapes, fill them, and open them with the
current stores. Never edit them: they are what users' files look like."""

# transcripts.sqlite3 at version 1 (then `INSERT INTO schema_version (version) VALUES (1)`)
TRANSCRIPTS_V1 = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
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
"""

# the step that took transcripts.sqlite3 from version 1 to 2 (then a row with version 2)
TRANSCRIPTS_V1_TO_V2 = """
ALTER TABLE runs ADD COLUMN parent TEXT REFERENCES runs (id);
ALTER TABLE runs ADD COLUMN pid INTEGER;
ALTER TABLE runs ADD COLUMN pid_start TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN host TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_parent ON runs (parent);
"""

# watch.sqlite3 at version 1 (then `INSERT INTO schema_version (version) VALUES (1)`)
WATCH_V1 = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
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
"""

# submissions.sqlite3 at version 1 (then `INSERT INTO ledger_schema (version) VALUES (1)`)
LEDGER_V1 = """
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
