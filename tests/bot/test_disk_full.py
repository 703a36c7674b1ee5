"""A full disk under the data dir: a writing command says "disk full" with a hint; reading the transcripts
and judging still work. The full disk is played by its two symptoms: statvfs reporting no room, and
SQLite unable to make the shared-memory file beside a WAL database."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import cpbot.bot.store.storage as storage
from cpbot.bot.cli.main import main
from cpbot.bot.store.storage import StorageError, disk_full
from cpbot.bot.store.transcripts import TranscriptStore, default_db_path


@pytest.fixture
def full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A data dir holding one recorded run, on a "full" disk; returns the run's id."""
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with TranscriptStore() as store:
        run = store.start_run("solve", problem_id="codeforces:1A")
        store.finish_run(run, "solved")
    path = default_db_path()
    Path(f"{path}-shm").mkdir()  # SQLite cannot make its shared-memory file: it fails as on a full disk
    monkeypatch.setattr(storage, "disk_full", lambda p: True)
    return run


def test_disk_full_reads_statvfs(tmp_path, monkeypatch):
    assert disk_full(tmp_path) is False
    full = os.statvfs_result((4096, 4096, 1000, 0, 0, 100, 0, 0, 0, 255))
    monkeypatch.setattr(os, "statvfs", lambda p: full)
    assert disk_full(tmp_path) is True


def test_a_write_on_a_full_disk_says_disk_full_with_a_hint(full_disk):
    with pytest.raises(StorageError) as caught:
        TranscriptStore()
    assert caught.value.message.startswith("the disk is full: ")
    assert "CPBOT_DATA_DIR" in caught.value.hint and "still work" in caught.value.hint


def test_transcripts_list_and_show_still_work_on_a_full_disk(full_disk, capsys):
    assert main(["transcripts", "list"]) == 0
    captured = capsys.readouterr()
    assert full_disk in captured.out and "is full" in captured.err
    assert main(["transcripts", "show", full_disk]) == 0
    assert "codeforces:1A" in capsys.readouterr().out


def test_judge_still_works_on_a_full_disk(full_disk, tmp_path, capsys):
    (tmp_path / "a.py").write_text("print(int(input()) * 2)\n")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "1.in").write_text("21\n")
    (tests / "1.out").write_text("42\n")
    assert main(["judge", str(tmp_path / "a.py")]) == 0
    assert "AC 1/1" in capsys.readouterr().out
