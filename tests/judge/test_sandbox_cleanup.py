"""Removing sandbox trees never changes the mode of anything outside the tree being removed.

Several judges (one per test session) clean up orphaned sandbox roots under the system temp dir; when
two remove the same root, one finds it gone. That must not touch the temp dir itself: a /tmp left at
0700 stops every sandboxed program (run as `nobody`) from starting anywhere on the machine.
"""

from __future__ import annotations

import stat
from pathlib import Path

from cpbot.judge.sandbox.pool import _rmtree


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_tree_already_removed_by_someone_else_leaves_its_parent_alone(tmp_path: Path) -> None:
    parent = tmp_path / "temp-dir"
    parent.mkdir()
    parent.chmod(0o1777)
    _rmtree(parent / "cpbot-sandbox-1-gone")
    assert mode(parent) == 0o1777


def test_a_tree_with_read_only_directories_inside_is_removed(tmp_path: Path) -> None:
    parent = tmp_path / "temp-dir"
    root = parent / "cpbot-sandbox-1-x"
    locked = root / "work" / "locked"
    locked.mkdir(parents=True)
    (locked / "out.txt").write_text("left by a program")
    locked.chmod(0o500)
    (root / "work").chmod(0o500)
    parent.chmod(0o755)
    _rmtree(root)
    assert not root.exists()
    assert mode(parent) == 0o755


def test_staging_replaces_what_a_staging_that_failed_part_way_left(sandbox) -> None:
    leftover = sandbox.programs / ".prog.tmp"
    (leftover / "sub").mkdir(parents=True)
    (leftover / "sub" / "stale.txt").write_text("old")
    staged = sandbox.stage("prog", {"main.py": b"print(1)\n", "lib/util.py": b"X = 2\n"})
    assert sorted(str(p.relative_to(staged)) for p in staged.rglob("*")) == ["lib", "lib/util.py", "main.py"]
    assert (staged / "lib" / "util.py").read_bytes() == b"X = 2\n"
    assert not leftover.exists()


def test_a_sandbox_closed_at_exit_has_its_dir_removed_by_a_process_of_its_own() -> None:
    import time

    from cpbot.judge.sandbox import Sandbox

    sandbox = Sandbox(2)
    staged = sandbox.stage("prog", {"main.py": b"print(1)\n"})
    servers = [slot._plain for slot in sandbox._all]
    sandbox.close(remove_in_background=True)
    assert all(server.proc.poll() is not None for server in servers)  # every server ended before close returned
    waited = 0.0
    while sandbox.root.exists() and waited < 60:  # a safety net only: the removal is usually done at once
        time.sleep(0.05)
        waited += 0.05
    assert not staged.exists() and not sandbox.root.exists()


def test_an_orphaned_root_that_vanishes_while_the_roots_are_listed_is_skipped(tmp_path: Path, monkeypatch) -> None:
    """A judge that exited leaves its dir to an rm still running: it may be gone between the listing and
    the look at its owner, and a new sandbox must start all the same."""
    from cpbot.judge.sandbox import pool

    gone = tmp_path / f"{pool.ROOT_PREFIX}{2**22 + 7}-vanished"  # no such pid: an orphan's name
    kept = tmp_path / f"{pool.ROOT_PREFIX}{2**22 + 9}-left"
    kept.mkdir()
    monkeypatch.setattr(pool.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.setattr(pool.Path, "glob", lambda self, pattern: iter([gone, kept]))
    assert pool.remove_orphaned_roots() == 1
    assert not kept.exists()
