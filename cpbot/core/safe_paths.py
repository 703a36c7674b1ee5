"""The one way a name from outside becomes a path, and the one way cpbot writes inside a folder.

Names from outside (problem and contest ids, titles, sample and test names, Competitive Companion
names, LiveCodeBench ids) become a file or folder name only through `component`: a plain, bounded path
component, never `..`, a separator or an absolute path. The name itself stays where it came from (a
problem's `problem.json` keeps a sample's own name beside the file written for it).

Every write of cpbot's into a folder goes through `write_inside`: the target must resolve inside the
folder (no `..`, no absolute name, no symlink leading out of it) and the file itself is never a symlink
followed, so nothing outside the folder is created or overwritten.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
from pathlib import Path, PurePath

from cpbot.core.bounds import Bound
from cpbot.core.errors import ConfigError

MAX_COMPONENT = 80  # characters of a name made from outside text
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def component(name: str, fallback: str) -> str:
    """`name` as one plain path component: letters, digits, `_`, `.` and `-` (anything else becomes `_`),
    no leading or trailing dots, at most `MAX_COMPONENT` characters (a long name keeps a hash of the whole,
    so two long names stay apart); `fallback` when nothing is left. Plain names come back unchanged."""
    safe = _UNSAFE.sub("_", name).strip("._")
    if len(safe) > MAX_COMPONENT:
        digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:10]
        safe = f"{safe[: MAX_COMPONENT - 11].rstrip('._')}-{digest}"
    return safe or fallback


def is_plain(name: str) -> bool:
    """True when `name` is already a plain path component (`component` keeps it as it is)."""
    return bool(name) and component(name, "") == name


class OutsideFolder(ConfigError):
    """A name that would lead a read or a write out of its folder."""


def inside(folder: Path, relative: str | PurePath) -> Path:
    """`folder / relative`, refused (`OutsideFolder`) when `relative` is absolute, holds `..`, or leads out
    of `folder` through a symlink."""
    rel = PurePath(relative)
    if rel.is_absolute() or ".." in rel.parts or not rel.parts:
        raise OutsideFolder(f"{relative!s} is not a name inside {folder}", hint=_HINT)
    target = folder / rel
    if not target.resolve().is_relative_to(folder.resolve()):
        raise OutsideFolder(f"{target} leads out of {folder} (a symlink)", hint=_HINT)
    return target


_HINT = "cpbot only writes, and reads tests, inside the folder it was given"


def write_inside(folder: Path, relative: str | PurePath, data: bytes) -> Path:
    """Write `data` to `folder / relative` (folders made as needed) when it lies inside `folder`; the file
    is replaced in place, and a symlink there is refused rather than followed."""
    target = inside(folder, relative)
    target.parent.mkdir(parents=True, exist_ok=True)
    inside(folder, relative)  # the folders just made: still inside (a symlink raced in is refused)
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(target, flags, 0o644)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise OutsideFolder(f"{target} is a symlink; cpbot does not write through it", hint=_HINT) from None
        if e.errno == errno.ENXIO:  # a FIFO nobody reads
            raise NotAFile(f"{target} is a FIFO, not a file", hint=_HINT) from None
        raise
    with os.fdopen(fd, "wb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotAFile(f"{target} is {_kind(os.fstat(fd).st_mode)}, not a file", hint=_HINT)
        f.truncate()
        f.write(data)
    return target


class NotAFile(ConfigError):
    """A FIFO, a device, a socket or a folder where a file was expected."""


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a folder"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def read_file(path: Path, bound: Bound, *, folder: Path | None = None) -> bytes:
    """The bytes of a regular file from outside, never more than `bound` allows (its error past it). With
    `folder`, the file (or a symlink's target) must lie inside it. FIFOs, devices and sockets are
    refused (`NotAFile`) from their `stat`, before any open that could block; the open itself does not
    block either (O_NONBLOCK) and is checked again, so a file swapped in between is caught."""
    if folder is not None and not path.resolve().is_relative_to(folder.resolve()):
        raise OutsideFolder(f"{path} leads out of {folder} (a symlink)", hint="tests must lie inside their folder")
    try:
        mode = path.stat().st_mode
    except OSError as e:
        raise ConfigError(f"cannot read {path}: {e.strerror}") from None
    if not stat.S_ISREG(mode):
        raise NotAFile(
            f"{path} is {_kind(mode)}, not a file", hint="cpbot reads regular files only (a symlink to one is fine)"
        )
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotAFile(
                f"{path} is {_kind(info.st_mode)}, not a file",
                hint="cpbot reads regular files only (a symlink to one is fine)",
            )
        limit = bound.bytes()
        if info.st_size > limit:
            raise bound.exceeded(f"{path} ({info.st_size} bytes)")
        data = f.read(limit + 1)
    if len(data) > limit:  # grew since its stat
        raise bound.exceeded(f"{path}")
    return data
