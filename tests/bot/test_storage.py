"""The shared SQLite helper: private files, pragmas, ordered migrations recorded step by step and applied
whole or not at all, files from a newer cpbot refused, and sqlite's errors turned into the store's own."""

from __future__ import annotations

import sqlite3
import stat
import threading
from pathlib import Path

import pytest

from cpbot.bot.store.storage import Database, Migrations, StorageError, run_script


class NotesError(StorageError):
    """The test store's error."""


def notes_migrations(*, fail_at_2: bool = False) -> Migrations:
    steps = Migrations("notes store", version_table="notes_version", error=NotesError)

    @steps
    def m001_notes(db: sqlite3.Connection) -> None:
        run_script(db, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL UNIQUE);\n")

    @steps
    def m002_note_authors(db: sqlite3.Connection) -> None:
        db.execute("ALTER TABLE notes ADD COLUMN author TEXT NOT NULL DEFAULT 'me'")
        if fail_at_2:
            raise RuntimeError("the disk went away half-way")
        db.execute("CREATE INDEX notes_author ON notes (author)")

    return steps


def versions(path: Path) -> list[int]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT version FROM notes_version ORDER BY version").fetchall()
    db.close()
    return [r[0] for r in rows]


def test_a_new_file_is_private_and_set_up(tmp_path: Path) -> None:
    path = tmp_path / "data" / "notes.sqlite3"
    db = Database(path, notes_migrations())
    with db.write() as c:
        c.execute("INSERT INTO notes (body) VALUES ('x')")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    wal = path.with_name(path.name + "-wal")
    assert wal.exists() and stat.S_IMODE(wal.stat().st_mode) == 0o600  # SQLite copies the file's mode
    with db.read() as c:
        assert c.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert c.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert c.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.version == 2
    db.close()
    assert versions(path) == [1, 2]


def test_an_existing_file_and_directory_keep_their_modes(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    sqlite3.connect(path).close()
    path.chmod(0o640)
    tmp_path.chmod(0o750)
    Database(path, notes_migrations(), synchronous="NORMAL").close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert stat.S_IMODE(tmp_path.stat().st_mode) == 0o750


def test_migrations_run_once_in_order_and_pick_up_where_a_file_stopped(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    first = Migrations("notes store", version_table="notes_version", error=NotesError)
    first(notes_migrations().steps[0])  # the cpbot of yesterday knew only step 1
    old = Database(path, first)
    with old.write() as c:
        c.execute("INSERT INTO notes (body) VALUES ('old')")
    old.close()
    assert versions(path) == [1]

    db = Database(path, notes_migrations())
    with db.read() as c:
        assert [tuple(r) for r in c.execute("SELECT body, author FROM notes")] == [("old", "me")]
    db.close()
    Database(path, notes_migrations()).close()  # nothing left to do: no second row, no error
    assert versions(path) == [1, 2]


def test_a_failing_migration_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    first = Migrations("notes store", version_table="notes_version", error=NotesError)
    first(notes_migrations().steps[0])
    Database(path, first).close()
    with pytest.raises(RuntimeError, match="half-way"):
        Database(path, notes_migrations(fail_at_2=True))
    with sqlite3.connect(path) as c:
        columns = [r[1] for r in c.execute("PRAGMA table_info(notes)")]
    c.close()
    assert columns == ["id", "body"] and versions(path) == [1]
    Database(path, notes_migrations()).close()  # and a good cpbot migrates it later
    assert versions(path) == [1, 2]


def test_a_file_from_a_newer_cpbot_is_refused_with_a_hint(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    Database(path, notes_migrations()).close()
    with sqlite3.connect(path) as c:
        c.execute("INSERT INTO notes_version (version) VALUES (3)")
    c.close()
    with pytest.raises(NotesError, match="notes store schema 3, written by a newer cpbot") as e:
        Database(path, notes_migrations())
    assert "upgrade cpbot" in e.value.hint
    assert versions(path) == [1, 2, 3]  # refused, not touched


def test_migrations_must_be_numbered_in_order() -> None:
    steps = Migrations("notes store")

    def m002_skipped_one(db: sqlite3.Connection) -> None: ...

    with pytest.raises(ValueError, match="must be named m001_"):
        steps(m002_skipped_one)


def test_sqlite_errors_become_the_stores_error_and_roll_back(tmp_path: Path) -> None:
    db = Database(tmp_path / "notes.sqlite3", notes_migrations())
    with pytest.raises(NotesError, match="notes store write failed: UNIQUE") as e, db.write() as c:
        c.execute("INSERT INTO notes (body) VALUES ('a')")
        c.execute("INSERT INTO notes (body) VALUES ('a')")
    assert e.value.hint == "nothing of it was stored"
    with pytest.raises(NotesError, match="cannot read the notes store") as e, db.read() as c:
        c.execute("SELECT nothing FROM notes")
    assert "integrity_check" in e.value.hint
    with db.read() as c:
        assert c.execute("SELECT COUNT(*) FROM notes").fetchone()[0] == 0
    db.close()


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"this is a text file, not SQLite" * 100)
    with pytest.raises(NotesError, match="cannot open the notes store") as e:
        Database(path, notes_migrations())
    assert "move it away" in e.value.hint


def test_a_directory_that_cannot_be_created_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(NotesError, match="cannot open the notes store") as e:
        Database(blocker / "notes.sqlite3", notes_migrations())
    assert "CPBOT_DATA_DIR" in e.value.hint


def test_a_write_held_by_another_connection_waits_for_it(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    a = Database(path, notes_migrations())
    b = Database(path, notes_migrations())
    holding = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with a.write() as c:
            c.execute("INSERT INTO notes (body) VALUES ('first')")
            holding.set()
            release.wait(10)

    t = threading.Thread(target=hold)
    t.start()
    holding.wait(10)
    threading.Timer(0.2, release.set).start()
    with b.write() as c:  # BEGIN IMMEDIATE waits (busy timeout) instead of failing at once
        c.execute("INSERT INTO notes (body) VALUES ('second')")
    t.join()
    with b.read() as c:
        assert [r[0] for r in c.execute("SELECT body FROM notes ORDER BY id")] == ["first", "second"]
    a.close()
    b.close()
