"""The transcript store: where it lives, WAL, append-only order, concurrency, crashes, redaction, the CLI."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpbot.agents.budget import Budget, BudgetTracker, Usage
from cpbot.agents.envelopes import CodeAttempt, Envelope, Plan
from cpbot.agents.llm import LLMClient
from cpbot.agents.llm_settings import LLMConfig
from cpbot.agents.tracing import LLMCallEvent, NoteEvent, ReportEvent, send
from cpbot.bot.commands.transcripts import transcripts
from cpbot.bot.store.transcripts import DB_NAME, SCHEMA_VERSION, TranscriptError, TranscriptStore, default_db_path
from cpbot.core.redact import REDACTED, Redactor, secrets_from_env
from cpbot.judge.model import JudgeReport, Verdict
from tests.agents.support.scripted_server import Reply, ScriptedServer
from tests.bot import old_schemas

REPO = Path(__file__).resolve().parents[2]
PLANTED_KEY = "sk-planted-4f9c2e7d1b8a6c3e5f0a9d7b"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in ("CPBOT_DATA_DIR", "OPENAI_API_KEY", "CPBOT_API_KEY", "OPENAI_BASE_URL", "CPBOT_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def store(tmp_path):
    with TranscriptStore(tmp_path / DB_NAME) as s:
        yield s


def llm_event(n: int = 0, **changes) -> LLMCallEvent:
    fields = dict(
        call_id=f"call-{n}",
        role="coder",
        model="m",
        messages=[{"role": "user", "content": f"question {n}"}],
        reply=f"answer {n}",
        usage=Usage(prompt_tokens=10, completion_tokens=5),
        latency_ms=12.5,
        attempts=1,
    )
    fields.update(changes)
    return LLMCallEvent(**fields)


# ---- where and how it is stored -------------------------------------------------------------------


def test_the_store_lives_in_the_user_data_dir_by_default(private_user_dirs):
    assert default_db_path() == private_user_dirs / "data" / "cpbot" / DB_NAME
    with TranscriptStore() as s:
        assert s.path == default_db_path()
    assert default_db_path().exists()


def test_cpbot_data_dir_overrides_the_location(tmp_path, monkeypatch):
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "elsewhere"))
    assert default_db_path() == tmp_path / "elsewhere" / DB_NAME


def test_the_database_is_in_wal_mode_with_a_schema_version(store):
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        # one row per layout the store has had: created at 1, then migrated step by step
        assert db.execute("SELECT version FROM schema_version ORDER BY version").fetchall() == [(1,), (2,)]
        assert SCHEMA_VERSION == 2
    db.close()


def test_a_store_from_a_newer_cpbot_is_refused(tmp_path):
    path = tmp_path / DB_NAME
    TranscriptStore(path).close()
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE schema_version SET version = 99")
    db.close()
    with pytest.raises(TranscriptError, match="schema 99"):
        TranscriptStore(path)


# ---- runs and events ------------------------------------------------------------------------------


def test_a_run_records_events_in_order_and_totals_its_llm_calls(store):
    run_id = store.start_run(
        "solve", problem_id="codeforces:1A", strategy="default", model="m", config={"timeout_s": 30}
    )
    tracer = store.tracer(run_id)
    tracer.emit(llm_event(1, usage=Usage(prompt_tokens=100, completion_tokens=40, reasoning_tokens=7)))
    send(tracer, Envelope.wrap(Plan(algorithm="greedy"), task_id="codeforces:1A", iteration=0, sender="planner"))
    tracer.emit(llm_event(2))
    tracer.emit(ReportEvent.of(JudgeReport(verdict=Verdict.AC, passed=3, total=3), iteration=0))
    summary = store.finish_run(run_id, "solved", reason="accepted", totals={"attempts": 1})
    assert (summary.status, summary.reason, summary.totals) == ("solved", "accepted", {"attempts": 1})
    assert (summary.llm_calls, summary.prompt_tokens, summary.completion_tokens) == (2, 110, 45)
    assert summary.reasoning_tokens == 7
    assert summary.llm_ms == 25.0
    assert summary.config == {"timeout_s": 30}
    assert summary.seconds is not None and summary.seconds >= 0
    events = store.events(run_id)
    assert [(e.seq, e.kind) for e in events] == [
        (1, "run_start"),
        (2, "llm_call"),
        (3, "envelope"),
        (4, "llm_call"),
        (5, "report"),
        (6, "run_end"),
    ]
    # an LLM call's text is stored once, in llm_calls, and put back when read
    assert events[1].payload["reply"] == "answer 1"
    assert events[1].trace_event() == llm_event(
        1, usage=Usage(prompt_tokens=100, completion_tokens=40, reasoning_tokens=7), ts=events[1].ts
    )
    assert events[2].trace_event().envelope.payload == Plan(algorithm="greedy")
    with sqlite3.connect(store.path) as db:
        (stored,) = db.execute("SELECT payload FROM events WHERE run_id = ? AND seq = 2", (run_id,)).fetchone()
    db.close()
    assert "answer 1" not in stored


def test_events_and_calls_are_append_only(store):
    run_id = store.start_run("solve")
    store.tracer(run_id).emit(llm_event())
    db = sqlite3.connect(store.path)
    try:
        for sql in (
            "UPDATE events SET kind = 'x'",
            "DELETE FROM events",
            "UPDATE llm_calls SET reply = 'x'",
            "DELETE FROM llm_calls",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                db.execute(sql)
    finally:
        db.close()
    assert len(store.events(run_id)) == 2


def test_a_failed_write_leaves_nothing_half_written(store):
    run_id = store.start_run("solve")
    tracer = store.tracer(run_id)
    tracer.emit(llm_event(1))
    with pytest.raises(TranscriptError, match="UNIQUE") as e:
        tracer.emit(llm_event(1))  # the same call id again: its llm_calls row fails after its event row
    assert e.value.hint == "nothing of it was stored"
    assert [e.kind for e in store.events(run_id)] == ["run_start", "llm_call"]
    tracer.emit(llm_event(2))
    assert [e.seq for e in store.events(run_id)] == [1, 2, 3]


def test_concurrent_writers_from_threads_and_connections_keep_a_gapless_order(store):
    run_id = store.start_run("watch")
    other = TranscriptStore(store.path)  # a second connection, as another process would have

    def write(target: TranscriptStore, branch: int) -> None:
        tracer = target.tracer(run_id)
        for i in range(25):
            tracer.emit(NoteEvent(task_id=f"branch-{branch}", message=f"step {i}"))

    threads = [threading.Thread(target=write, args=(store if b % 2 else other, b)) for b in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    other.close()
    events = store.events(run_id)
    assert [e.seq for e in events] == list(range(1, 152))
    for b in range(6):
        steps = [e.payload["message"] for e in events if e.task_id == f"branch-{b}"]
        assert steps == [f"step {i}" for i in range(25)]  # each writer's own order is kept


def test_a_crash_in_the_middle_of_a_write_keeps_every_earlier_event(store):
    run_id = store.start_run("solve")
    store.tracer(run_id).emit(NoteEvent(message="before the crash"))
    crash = f"""
import os, sys
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.agents.tracing import NoteEvent
s = TranscriptStore(sys.argv[1])
s.tracer({run_id!r}).emit(NoteEvent(message="written by the crashing process"))
db = s.db.connection
db.execute("BEGIN IMMEDIATE")
db.execute("INSERT INTO events (run_id, seq, ts, kind, payload) VALUES (?, 99, 'x', 'note', '{{}}')", ({run_id!r},))
os._exit(1)
"""
    result = subprocess.run([sys.executable, "-c", crash, str(store.path)], cwd=REPO, capture_output=True, timeout=300)
    assert result.returncode == 1, result.stderr.decode()
    with TranscriptStore(store.path) as again:
        messages = [e.payload.get("message") for e in again.events(run_id)]
        assert messages == [None, "before the crash", "written by the crashing process"]
        assert again.run(run_id).status == "running"
    db = sqlite3.connect(store.path)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    db.close()


def test_runs_are_found_by_prefix_or_last_and_listed_newest_first(store, monkeypatch):
    suffixes = iter(["aaaaaa", "aabbbb"])
    monkeypatch.setattr("cpbot.bot.store.transcripts.token_hex", lambda n: next(suffixes))
    first = store.start_run("solve", problem_id="a")
    second = store.start_run("bench", problem_id="b")
    assert store.resolve(first[:-2]) == first
    assert store.resolve(first) == first
    with pytest.raises(TranscriptError, match="matches several runs"):
        store.resolve(first[:2])  # the century
    assert store.resolve("last") == second
    assert [r.id for r in store.list_runs()] == [second, first]
    assert [r.id for r in store.list_runs(kind="solve")] == [first]
    with pytest.raises(TranscriptError, match="no run"):
        store.resolve("19990101")


# ---- redaction ------------------------------------------------------------------------------------


def test_redactor_removes_known_values_and_secret_shapes_but_keeps_token_counts():
    r = Redactor(["hunter2-password"])
    assert r.text("my password is hunter2-password!") == f"my password is {REDACTED}!"
    assert r.text("Authorization: Bearer abc.def.ghi") == f"Authorization: {REDACTED}"
    assert r.text("Cookie: JSESSIONID=1234; 39ce7=abcd\nnext") == f"Cookie: {REDACTED}\nnext"
    assert r.text("use key sk-proj-abcdefghijklmnopqrstuvwx now") == f"use key {REDACTED} now"
    assert r.text("OPENAI_API_KEY=abc123xyz") == f"OPENAI_API_KEY={REDACTED}"
    value = {
        "headers": {"Authorization": "Bearer x", "X-CSRFToken": "t"},
        "api_key": "k",
        "usage": {"prompt_tokens": 5, "total_tokens": 9},
        "max_tokens": 100,
        "list": ["hunter2-password"],
    }
    assert r.value(value) == {
        "headers": {"Authorization": REDACTED, "X-CSRFToken": REDACTED},
        "api_key": REDACTED,
        "usage": {"prompt_tokens": 5, "total_tokens": 9},
        "max_tokens": 100,
        "list": [REDACTED],
    }
    r.add("none")
    r.add("abc")
    assert r.text("none abc") == "none abc"  # too short or too common to be a secret


def test_every_secret_shape_is_removed_whatever_the_text_around_it():
    # the words each shape needs are looked for before the shapes: in any case, mid-line, in long text
    filler = "for i in range(n): print(right[i] + weight)\n" * 40
    shapes = [
        ("proxy-authorization: Basic dXNlcjpwYXNz", "proxy-authorization: "),
        ("SET-COOKIE = sid=1", "SET-COOKIE = "),
        ("x-csrftoken: abcdef", "x-csrftoken: "),
        ("BEARER abcdefgh12", "BEARER "),
        ("my_Api-Key: 'abcd1234", "my_Api-Key: '"),
        ("sk-ant-api03-abcdefghijklmnop", ""),
        ("hf_" + "a" * 30, ""),
        ("ghs_" + "b" * 30, ""),
    ]
    for secret, kept in shapes:
        assert Redactor().text(filler + secret + "\n" + filler) == filler + kept + REDACTED + "\n" + filler
    assert Redactor().text(filler) == filler


def test_secret_shapes_are_found_in_text_beyond_ascii_too():
    # Python's case-insensitive matching takes ſ for s and K (Kelvin) for k, which lower-casing does not
    for text, kept in [
        ("π ≈ 3.14; x-cſrftoken: abcdef", "π ≈ 3.14; x-cſrftoken: "),
        ("é OPENAI_API_\u212aEY=abc123xyz", "é OPENAI_API_\u212aEY="),
        ("naïve sk-ant-api03-abcdefghijklmnop", "naïve "),
    ]:
        assert Redactor().text(text) == kept + REDACTED
    assert Redactor().text("naïve code: print(weight)") == "naïve code: print(weight)"


def test_secrets_are_read_from_the_environment():
    env = {"OPENAI_API_KEY": "k1-long-enough", "CF_COOKIES": "c", "GITHUB_TOKEN": "t", "HOME": "/root"}
    assert sorted(secrets_from_env(env)) == ["c", "k1-long-enough", "t"]


def test_a_planted_key_appears_in_no_file_written(tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setenv("CPBOT_DATA_DIR", str(data))
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED_KEY)
    config = LLMConfig(base_url="http://127.0.0.1:1/v1", api_key=PLANTED_KEY, model="m")
    with ScriptedServer([Reply(f"I saw the key {PLANTED_KEY} in the prompt")]) as server, TranscriptStore() as store:
        config = config.model_copy(update={"base_url": server.base_url})
        store.add_secret(config.api_key.get_secret_value())
        run_id = store.start_run("solve", model=config.model, config={**config.public(), "api_key": PLANTED_KEY})
        tracer = store.tracer(run_id)
        with LLMClient(config, tracer=tracer) as client:
            client.complete(
                "coder",
                [{"role": "user", "content": f"debug this: curl -H 'Authorization: Bearer {PLANTED_KEY}'"}],
                budget=BudgetTracker(Budget()),
            )
        assert server.requests[0].headers["authorization"] == f"Bearer {PLANTED_KEY}"  # it was really used
        tracer.emit(NoteEvent(message="cookies", data={"cookie": "JSESSIONID=abc", "note": PLANTED_KEY}))
        store.finish_run(run_id, "solved", reason=f"done with {PLANTED_KEY}")
        shown = CliRunner().invoke(transcripts, ["show", "last", "--full", "--json"])
        assert shown.exit_code == 0, shown.output
        assert PLANTED_KEY not in shown.output
        assert REDACTED in shown.output
    files = [p for p in data.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {DB_NAME}
    for path in files:
        assert PLANTED_KEY.encode() not in path.read_bytes(), path
        assert PLANTED_KEY[3:20].encode() not in path.read_bytes(), path


def test_the_cli_side_does_not_load_the_model_client():
    check = "import sys, cpbot.bot.commands.transcripts; sys.exit('openai' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", check], cwd=REPO, timeout=300).returncode == 0


# ---- the CLI --------------------------------------------------------------------------------------


@pytest.fixture
def recorded(tmp_path, monkeypatch):
    """A store in CPBOT_DATA_DIR with two runs: a finished solve and a run still going."""
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path))
    with TranscriptStore() as s:
        solve = s.start_run("solve", problem_id="codeforces:4A", strategy="default", model="m")
        tracer = s.tracer(solve)
        long_prompt = "Watermelon. " + "x" * 500 + " END-OF-PROMPT"
        tracer.emit(
            llm_event(1, messages=[{"role": "user", "content": long_prompt}], reply="```cpp\nint main(){}\n```")
        )
        send(tracer, Envelope.wrap(Plan(algorithm="parity check"), task_id="codeforces:4A", iteration=0))
        tracer.emit(ReportEvent.of(JudgeReport(verdict=Verdict.WA, passed=1, total=4), iteration=0))
        s.finish_run(solve, "best_effort", reason="budget exhausted: LLM calls: used 1 of 1")
        running = s.start_run("watch", problem_id=None)
    return solve, running


def test_list_prints_runs_newest_first(recorded):
    solve, running = recorded
    result = CliRunner().invoke(transcripts, ["list"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].startswith(running) and "running" in lines[1]
    assert lines[2].startswith(solve) and "best_effort" in lines[2] and "codeforces:4A" in lines[2]


def test_list_json_is_a_run_list(recorded):
    solve, _ = recorded
    result = CliRunner().invoke(transcripts, ["list", "--json", "--kind", "solve"])
    data = json.loads(result.output)
    assert data["schema_version"] == SCHEMA_VERSION
    assert [r["id"] for r in data["runs"]] == [solve]
    assert data["runs"][0]["llm_calls"] == 1


def test_list_with_no_store_says_so_without_creating_one(tmp_path, monkeypatch):
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "none"))
    result = CliRunner().invoke(transcripts, ["list"])
    assert result.output.strip() == "no transcripts yet"
    assert not (tmp_path / "none").exists()


def test_show_prints_the_summary_and_every_event(recorded):
    solve, running = recorded
    # a part of the id only this run has (two runs made in one second share up to the random suffix)
    shared = next((i for i, (a, b) in enumerate(zip(solve, running, strict=False)) if a != b), len(solve))
    unique = solve[: max(18, shared + 1)]
    result = CliRunner().invoke(transcripts, ["show", unique])
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"run       {solve}  (solve)" in out
    assert "status    best_effort: budget exhausted: LLM calls: used 1 of 1" in out
    assert "llm       1 calls, 10 prompt + 5 completion tokens" in out
    for text in (
        "start",
        "llm       coder via m: 10+5 tokens",
        "envelope  plan #0",
        "judge     WA 1/4 tests",
        "end       best_effort",
    ):
        assert text in out
    assert "END-OF-PROMPT" not in out  # long prompts are cut without --full
    assert "--full shows all" in out
    full = CliRunner().invoke(transcripts, ["show", solve, "--full"]).output
    assert "END-OF-PROMPT" in full


def test_show_json_is_the_whole_transcript(recorded):
    solve, _ = recorded
    data = json.loads(CliRunner().invoke(transcripts, ["show", solve, "--json"]).output)
    assert data["run"]["id"] == solve
    assert [e["kind"] for e in data["events"]] == ["run_start", "llm_call", "envelope", "report", "run_end"]
    assert data["llm_calls"][0]["messages"][0]["content"].endswith("END-OF-PROMPT")


def test_show_of_an_unknown_run_is_an_error_with_a_hint(recorded):
    result = CliRunner().invoke(transcripts, ["show", "nope"])
    assert result.exit_code != 0
    assert isinstance(result.exception, TranscriptError)
    assert "transcripts list" in result.exception.hint


def test_the_store_is_not_created_by_show_either(tmp_path, monkeypatch):
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "none"))
    result = CliRunner().invoke(transcripts, ["show", "last"])
    assert isinstance(result.exception, TranscriptError)
    assert not (tmp_path / "none").exists()
    assert os.environ["CPBOT_DATA_DIR"].endswith("none")


# ---- migrations, contests, stale runs -------------------------------------------------------------


def test_a_version_1_store_is_migrated_in_place_and_keeps_its_runs(tmp_path):
    path = tmp_path / DB_NAME
    db = sqlite3.connect(path)
    db.executescript(old_schemas.TRANSCRIPTS_V1)
    db.execute("INSERT INTO schema_version (version) VALUES (1)")
    db.execute(
        "INSERT INTO runs (id, kind, started_at, status) VALUES ('20240101-000000-aaaaaa', 'solve', ?, 'running')",
        ("2024-01-01T00:00:00+00:00",),
    )
    db.execute(
        "INSERT INTO events (run_id, seq, ts, kind, payload) VALUES (?, 1, ?, 'run_start', '{}')",
        ("20240101-000000-aaaaaa", "2024-01-01T00:00:00+00:00"),
    )
    db.commit()
    db.close()
    with TranscriptStore(path) as s:
        old = s.run("20240101-000000-aaaaaa")
        assert (old.status, old.parent, old.pid, old.children) == ("running", None, None, 0)
        assert s.mark_stale() == []  # whose process it was is unknown: only age can tell
        assert s.mark_stale(older_than_s=3600) == ["20240101-000000-aaaaaa"]
        assert s.run(old.id).status == "stale"
        assert s.run(old.id).ended_at == old.started_at  # its last known moment
        contest = s.start_run("contest")
        s.start_run("solve", parent=contest)
        assert s.run(contest).children == 1
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT MAX(version) FROM schema_version").fetchone() == (SCHEMA_VERSION,)
    db.close()


def test_a_store_written_by_the_cpbot_before_the_shared_storage_opens_with_its_runs(tmp_path):
    """A version-2 file as the previous cpbot left it (schema, blobs and all) reads back whole."""
    path = tmp_path / DB_NAME
    db = sqlite3.connect(path)
    db.executescript(old_schemas.TRANSCRIPTS_V1)
    db.execute("INSERT INTO schema_version (version) VALUES (1)")
    db.executescript(old_schemas.TRANSCRIPTS_V1_TO_V2)
    db.execute("INSERT INTO schema_version (version) VALUES (2)")
    started = "2026-11-01T10:00:00+00:00"
    db.execute(
        "INSERT INTO runs (id, kind, problem_id, started_at, ended_at, status, parent, pid, host)"
        " VALUES ('c1', 'contest', 'codeforces:1900', ?, ?, 'done', NULL, 4242, 'elsewhere')",
        (started, started),
    )
    db.execute(
        "INSERT INTO runs (id, kind, started_at, status, parent) VALUES ('s1', 'solve', ?, 'solved', 'c1')", (started,)
    )
    db.execute(
        "INSERT INTO events (run_id, seq, ts, kind, payload) VALUES ('s1', 1, ?, 'note', ?)",
        (started, json.dumps({"message": "kept"})),
    )
    db.execute(
        "INSERT INTO llm_calls (call_id, run_id, seq, ts, role, model, prompt, reply, prompt_tokens)"
        " VALUES ('call-1', 's1', 2, ?, 'coder', 'm', '[]', 'ok', 70)",
        (started,),
    )
    db.commit()
    db.close()
    with TranscriptStore(path) as s:
        contest = s.run("c1")
        assert (contest.status, contest.children, contest.pid, contest.prompt_tokens) == ("done", 1, 4242, 70)
        assert [e.payload for e in s.events("s1")] == [{"message": "kept"}]
        assert [c.reply for c in s.llm_calls("s1")] == ["ok"]
        s.start_run("solve", parent="c1")  # and it takes new runs
        assert s.run("c1").children == 2
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_version ORDER BY version").fetchall() == [(1,), (2,)]
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    db.close()


def test_a_contest_run_holds_its_problem_runs_and_their_totals(store):
    contest = store.start_run("contest", config={"contest_id": "1873"})
    a = store.start_run("solve", problem_id="codeforces:1873A", parent=contest)
    b = store.start_run("solve", problem_id="codeforces:1873B", parent=contest)
    store.tracer(a).emit(llm_event(1))
    store.tracer(b).emit(llm_event(2, usage=Usage(prompt_tokens=7, completion_tokens=3)))
    store.append(contest, "contest_state", {"contest_id": "1873", "state": "running", "detail": "2 problems"})
    assert [r.id for r in store.list_runs(top_level=True)] == [contest]
    summary = store.run(contest)
    assert (summary.children, summary.llm_calls, summary.prompt_tokens, summary.completion_tokens) == (2, 2, 17, 8)
    assert store.run(a).parent == contest and store.run(a).llm_calls == 1
    assert [r.id for r in store.children(contest)] == [a, b]
    assert store.events(a)[0].payload["parent"] == contest
    transcript = store.transcript(contest)
    assert [r.problem_id for r in transcript.children] == ["codeforces:1873A", "codeforces:1873B"]
    with pytest.raises(TranscriptError, match="no parent run"):
        store.start_run("solve", parent="19990101-000000-000000")


def test_a_run_whose_process_was_killed_is_marked_stale_and_can_be_resumed(store):
    orphan = """
import os, sys
from cpbot.bot.store.transcripts import TranscriptStore
s = TranscriptStore(sys.argv[1])
run = s.start_run("watch")
s.append(run, "contest_state", {"contest_id": "1", "state": "solving", "detail": ""})
print(run, flush=True)
os._exit(0)
"""
    result = subprocess.run([sys.executable, "-c", orphan, str(store.path)], cwd=REPO, capture_output=True, timeout=300)
    dead = result.stdout.decode().strip()
    mine = store.start_run("watch")
    assert store.run(dead).status == "running" and store.run(dead).pid not in (None, os.getpid())
    assert store.mark_stale() == [dead]
    assert store.mark_stale() == []  # once is enough
    stale = store.run(dead)
    assert stale.status == "stale" and "is gone" in stale.reason and stale.ended_at is not None
    assert store.run(mine).status == "running"  # this process is alive
    assert [e.kind for e in store.events(dead)][-1] == "run_end"
    resumed = store.resume_run(dead)
    assert (resumed.status, resumed.ended_at, resumed.pid) == ("running", None, os.getpid())
    assert store.events(dead)[-1].kind == "run_resume"
    assert store.events(dead)[-1].payload["previous_status"] == "stale"
    assert store.mark_stale() == []


def test_list_shows_contests_with_their_problem_count_and_show_lists_their_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path))
    with TranscriptStore() as s:
        contest = s.start_run("contest", problem_id="codeforces:1873")
        runs = [s.start_run("solve", problem_id=f"codeforces:1873{x}", parent=contest) for x in "ABC"]
        s.finish_run(runs[0], "solved", reason="accepted")
    listed = CliRunner().invoke(transcripts, ["list"])
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    assert len(lines) == 2 and lines[1].startswith(contest) and "3 problems" in lines[1]
    every = CliRunner().invoke(transcripts, ["list", "--all"]).output
    assert all(r in every for r in runs)
    shown = CliRunner().invoke(transcripts, ["show", contest])
    assert shown.exit_code == 0, shown.output
    assert "runs      3" in shown.output
    for r, status in zip(runs, ("solved", "running", "running"), strict=True):
        line = next(line for line in shown.output.splitlines() if r in line)
        assert status in line
    data = json.loads(CliRunner().invoke(transcripts, ["show", contest, "--json"]).output)
    assert [c["id"] for c in data["children"]] == runs


# ---- blobs ----------------------------------------------------------------------------------------


def test_code_and_large_outputs_live_in_blob_files_and_read_back_whole(store):
    run_id = store.start_run("solve", problem_id="local:x")
    source = f"# key {PLANTED_KEY}\nprint(sum(map(int, input().split())))\n"
    big = "line of output\n" * 400
    send(
        store.tracer(run_id),
        Envelope.wrap(CodeAttempt(language="python3", source=source), task_id="local:x", iteration=1),
    )
    store.append(run_id, "submission", {"submission_id": "9", "source": source, "stdout": big, "short": "kept"})
    with sqlite3.connect(store.path) as db:
        stored = [json.loads(p) for (p,) in db.execute("SELECT payload FROM events WHERE run_id = ?", (run_id,))]
    db.close()
    ref = stored[1]["envelope"]["payload"]["source"]
    assert set(ref) == {"$blob", "chars"}
    assert stored[2]["source"] == ref  # the same content is one file
    assert set(stored[2]["stdout"]) == {"$blob", "chars"} and stored[2]["short"] == "kept"
    blob_file = store.blob_dir / ref["$blob"][:2] / ref["$blob"][2:]
    assert blob_file.is_file() and PLANTED_KEY not in blob_file.read_text()
    assert REDACTED in blob_file.read_text()  # redacted before it was hashed and written
    events = store.events(run_id)
    assert events[1].trace_event().envelope.payload.source == source.replace(PLANTED_KEY, REDACTED)
    assert events[2].payload["stdout"] == big
    assert len(list(store.blob_dir.rglob("*"))) == 4  # two blobs, each in its own fan-out dir
    blob_file.unlink()
    with pytest.raises(TranscriptError, match="cannot be read"):
        store.events(run_id)


def test_a_huge_reply_is_stored_clipped_with_the_clip_recorded_and_its_program_whole(tmp_path):
    program = "print(sum(map(int, input().split())))\n" * 50
    reply = "thinking " * 200_000 + f"```python\n{program}```"  # about 1.8 MB, the program at the end
    with TranscriptStore(tmp_path / DB_NAME, reply_chars=10_000) as store:
        run_id = store.start_run("solve", problem_id="local:x")
        tracer = store.tracer(run_id)
        tracer.emit(llm_event(reply=reply, reasoning="short"))
        send(tracer, Envelope.wrap(CodeAttempt(language="python3", source=program), task_id="local:x", iteration=1))
        (call,) = store.llm_calls(run_id)
        events = store.events(run_id)
    assert len(call.reply) < 10_200 and call.reasoning == "short"
    assert call.reply.startswith("thinking ") and call.reply.endswith(program + "```")
    assert f"cpbot kept 10,000 of {len(reply):,} characters" in call.reply
    assert events[1].payload["clipped"] == {"reply": len(reply)}
    assert events[2].trace_event().envelope.payload.source == program


def test_a_reply_within_the_bound_is_stored_whole_and_not_marked(store):
    run_id = store.start_run("solve", problem_id="local:x")
    store.tracer(run_id).emit(llm_event(reply="x" * 20_000))
    assert store.llm_calls(run_id)[0].reply == "x" * 20_000
    assert store.events(run_id)[1].payload["clipped"] == {}


def test_the_reply_bound_comes_from_the_environment_and_a_bad_value_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv("CPBOT_TRANSCRIPT_REPLY_CHARS", "5000")
    with TranscriptStore(tmp_path / DB_NAME) as store:
        assert store.reply_chars == 5000
    monkeypatch.setenv("CPBOT_TRANSCRIPT_REPLY_CHARS", "lots")
    with pytest.raises(TranscriptError, match="CPBOT_TRANSCRIPT_REPLY_CHARS"):
        TranscriptStore(tmp_path / DB_NAME)


def test_a_sigkilled_writer_never_leaves_a_corrupt_transcript(store):
    """Kill a writer with SIGKILL at random moments mid-stream: the store stays intact and gapless."""
    run_id = store.start_run("contest")
    writer = f"""
import sys
from cpbot.bot.store.transcripts import TranscriptStore
s = TranscriptStore(sys.argv[1])
i = 0
while True:
    i += 1
    s.append({run_id!r}, "note", {{"message": f"event {{i}}", "source": f"print({{i}})", "out": str(i) * 5000}})
"""
    rng = random.Random(7)
    counts = []
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", writer, str(store.path)], cwd=REPO, stderr=subprocess.PIPE)
        target = len(store.events(run_id)) + rng.randint(3, 40)
        deadline = time.monotonic() + 300  # a safety net only
        while count_events(store.path, run_id) < target and time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.002)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        proc.stderr.close()
        db = sqlite3.connect(store.path)
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        db.close()
        events = store.events(run_id)  # every blob an event names is there and whole
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        notes = [e.payload for e in events if e.kind == "note"]
        for payload in notes:
            i = int(payload["message"].split()[1])
            assert payload["source"] == f"print({i})" and payload["out"] == str(i) * 5000
        counts.append(len(events))
    assert counts == sorted(counts) and counts[-1] >= 3 * 3
    store.append(run_id, "note", {"message": "after the kills"})
    assert store.events(run_id)[-1].seq == counts[-1] + 1


def count_events(path: Path, run_id: str) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT COUNT(*) FROM events WHERE run_id = ?", (run_id,)).fetchone()[0]
    finally:
        db.close()
