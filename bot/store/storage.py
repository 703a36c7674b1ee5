"""One way to open cpbot's SQLite files (transcripts, watch state, submission ledger).

A `Database` opens its file private to the user (file 0600, directory 0700 when it creates them), in WAL
mode with a busy timeout and foreign keys on, and brings it up to date with the store's `Migrations`:
numbered functions applied in order, each in the same transaction as the row that records it in the
store's version table (one row per step that has run), so a file is migrated whole or not at all. A
file recording a step this cpbot does not have was written by a newer cpbot and is refused.

Every read and write goes through `read()`/`write()`: one connection per `Database` under one lock (any
thread may use it), writes as BEGIN IMMEDIATE ... COMMIT (one writer across processes too), and sqlite's
errors come out as the store's `StorageError` subclass, with a hint.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from cpbot.core.errors import CpbotError

Step = Callable[[sqlite3.Connection], None]
_STEP_NAME = re.compile(r"^m(\d{3})_\w+$")
_DATA_DIR_HINT = "set CPBOT_DATA_DIR to a writable directory"
_DISK_FULL_HINT = (
    "free some space there, or set CPBOT_DATA_DIR to a directory on another disk; commands that only read "
    "(judge, transcripts list/show) still work"
)
_ROOM_NEEDED = 64 * 1024  # less free space than this and SQLite cannot grow its file or make its WAL


def disk_full(path: Path) -> bool:
    """Whether the file system holding `path` has no room left (for this user: root may use reserved blocks)."""
    try:
        st = os.statvfs(path if path.is_dir() else path.parent)
    except OSError:
        return False
    free_blocks = st.f_bfree if os.geteuid() == 0 else st.f_bavail
    return free_blocks * st.f_frsize < _ROOM_NEEDED


class StorageError(CpbotError):
    """A cpbot database cannot be opened, read or written."""


class Migrations:
    """The ordered schema steps of one store; step k (a function named `mNNN_what`, NNN = k) brings a
    file at version k-1 to version k. Register them in order with the instance as a decorator."""

    def __init__(
        self, store: str, *, version_table: str = "schema_version", error: type[StorageError] = StorageError
    ) -> None:
        self.store = store  # how messages name it: "watch state"
        self.version_table = version_table
        self.error = error
        self.steps: list[Step] = []

    def __call__(self, step: Step) -> Step:
        found = _STEP_NAME.match(step.__name__)
        if found is None or int(found.group(1)) != len(self.steps) + 1:
            raise ValueError(
                f"{step.__name__}: the next {self.store} migration must be named m{len(self.steps) + 1:03d}_..."
            )
        self.steps.append(step)
        return step

    @property
    def latest(self) -> int:
        """The version a file has once every step ran."""
        return len(self.steps)


def run_script(db: sqlite3.Connection, script: str) -> None:
    """Run `;`-and-newline separated statements inside the current transaction (unlike `executescript`,
    which commits first)."""
    for statement in script.split(";\n"):
        if statement.strip():
            db.execute(statement)


def table_exists(db: sqlite3.Connection, name: str) -> bool:
    """Whether the file has a table called `name`."""
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone() is not None


class Database:
    """An open, migrated cpbot database; close it when done."""

    def __init__(
        self,
        path: Path,
        migrations: Migrations,
        *,
        synchronous: Literal["FULL", "NORMAL"] = "FULL",
        timeout_s: float = 30.0,
        read_only: bool = False,
    ) -> None:
        """`read_only` opens an existing file for reading only, as it is (no migration), also on a full disk."""
        self.path = Path(path)
        self.migrations = migrations
        self.error = migrations.error
        self.lock = threading.RLock()
        try:
            if read_only:
                self.connection = _connect_read_only(self.path, timeout_s)
            else:
                _create_private(self.path)
                # autocommit mode: transactions are explicit (BEGIN IMMEDIATE ... COMMIT)
                self.connection = sqlite3.connect(
                    self.path, isolation_level=None, check_same_thread=False, timeout=timeout_s
                )
        except (OSError, sqlite3.Error) as e:
            raise self._failed(f"cannot open the {migrations.store} {self.path}: {e}", _DATA_DIR_HINT) from e
        self.connection.row_factory = sqlite3.Row
        try:
            if read_only:
                self.version = self._read_version()
            else:
                self._pragmas(synchronous)
                self.version = self._migrate()
        except BaseException:
            self.connection.close()
            raise

    def _failed(self, message: str, hint: str) -> StorageError:
        """The error of a failed open or write; one that says so when the disk is full."""
        if disk_full(self.path):
            return self.error(f"the disk is full: {message}", hint=_DISK_FULL_HINT)
        return self.error(message, hint=hint)

    def _read_version(self) -> int:
        m = self.migrations
        with self.read() as db:
            found = (
                db.execute(f"SELECT MAX(version) FROM {m.version_table}").fetchone()[0]
                if table_exists(db, m.version_table)
                else 0
            )
        if int(found or 0) != m.latest:
            raise self.error(
                f"{self.path} has {m.store} schema {found}; this cpbot reads {m.latest} and cannot update it now",
                hint="run a command that writes to it (with free disk space) first",
            )
        return m.latest

    def _pragmas(self, synchronous: str) -> None:
        try:
            self.connection.execute("PRAGMA journal_mode=WAL")
            # FULL: a committed row survives a power cut too; NORMAL: durable at checkpoints, never corrupt
            self.connection.execute(f"PRAGMA synchronous={synchronous}")
            self.connection.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as e:
            raise self._failed(
                f"cannot open the {self.migrations.store} {self.path}: {e}",
                "if it is not a cpbot database, move it away; otherwise " + _DATA_DIR_HINT,
            ) from e

    def _migrate(self) -> int:
        m = self.migrations
        with self.write() as db:
            db.execute(f"CREATE TABLE IF NOT EXISTS {m.version_table} (version INTEGER NOT NULL)")
            (found,) = db.execute(f"SELECT MAX(version) FROM {m.version_table}").fetchone()
            version = int(found or 0)
            if version > m.latest:
                raise self.error(
                    f"{self.path} has {m.store} schema {version}, written by a newer cpbot; this one reads up "
                    f"to {m.latest}",
                    hint="upgrade cpbot, or point CPBOT_DATA_DIR at another directory",
                )
            for k in range(version + 1, m.latest + 1):
                m.steps[k - 1](db)
                db.execute(f"INSERT INTO {m.version_table} (version) VALUES (?)", (k,))
        return m.latest

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock, for reads."""
        with self.lock:
            try:
                yield self.connection
            except sqlite3.Error as e:
                raise self.error(
                    f"cannot read the {self.migrations.store} {self.path}: {e}",
                    hint=f"check it with: sqlite3 {self.path} 'PRAGMA integrity_check'; if it is damaged, move it "
                    "away (cpbot starts a new one) or restore a copy",
                ) from e

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One transaction under the lock: committed when the block ends, rolled back when it raises."""
        db = self.connection
        with self.lock:
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                raise self._failed(
                    f"cannot write the {self.migrations.store} {self.path}: {e}",
                    "another cpbot process may hold it; try again when it is done",
                ) from e
            try:
                yield db
                db.execute("COMMIT")
            except BaseException as e:
                if db.in_transaction:  # SQLite may already have rolled back (e.g. disk full)
                    db.execute("ROLLBACK")
                if isinstance(e, sqlite3.Error):
                    raise self._failed(f"{self.migrations.store} write failed: {e}", "nothing of it was stored") from e
                raise

    def close(self) -> None:
        """Close the connection (WAL contents stay safe on disk)."""
        with self.lock:
            self.connection.close()


def _connect_read_only(path: Path, timeout_s: float) -> sqlite3.Connection:
    """A reading connection to an existing file. SQLite reads a WAL file through a shared-memory file
    beside it; where that cannot be made (a full disk) the file is read as it is on disk (immutable),
    which is whole once the last writer closed it."""
    if not path.is_file():
        raise OSError(f"{path} does not exist")
    uri = path.resolve().as_uri()
    connection = sqlite3.connect(
        f"{uri}?mode=ro", uri=True, isolation_level=None, check_same_thread=False, timeout=timeout_s
    )
    try:
        connection.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        return connection
    except sqlite3.Error:
        connection.close()
        return sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None, check_same_thread=False)


def _create_private(path: Path) -> None:
    """Create the file (0600) and its directory (0700) unless they exist; existing ones keep their modes."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
