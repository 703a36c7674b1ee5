"""The one entry point for running untrusted programs: a pool of launcher servers, one per slot.

Each slot is a launcher process (see launcher.c) with its own work dir, the only place a program it
runs may write. Programs and their files are staged once into a read-only area every slot can read.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from cpbot.core.dirs import private_dirs
from cpbot.core.errors import JudgeError
from cpbot.judge.sandbox.build import launcher_path

NOBODY = 65534
BASE_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "PYTHONDONTWRITEBYTECODE": "1",
}


class RunLimits(BaseModel):
    """Limits of one run. `cpu_ms` is where the launcher kills (the judge decides the verdict)."""

    cpu_ms: int | None = None
    wall_ms: int | None = None
    address_space_kb: int | None = None
    output_bytes: int | None = None
    nproc: int = 128


class RunResult(BaseModel):
    """What the launcher measured: the program's own CPU time, wall time and peak RSS."""

    status: Literal["exited", "signaled", "exec_failed", "error"]
    exit_code: int | None = None
    signal: int | None = None
    cpu_ms: float = 0.0
    wall_ms: float = 0.0
    peak_kb: int = 0
    killed: Literal["cpu", "wall"] | None = None
    exec_errno: int = 0
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "exited" and self.exit_code == 0 and self.killed is None


def parse_reply(text: str) -> RunResult:
    """Turn the launcher's `key=value` reply into a `RunResult`."""
    fields = dict(item.split("=", 1) for item in text.split() if "=" in item)
    status = fields.get("status", "error")
    if status == "error":
        return RunResult(status="error", message=fields.get("msg", text))
    killed = fields.get("killed", "none")
    return RunResult(
        status=status,  # type: ignore[arg-type]
        exit_code=int(fields["code"]) if int(fields.get("code", -1)) >= 0 else None,
        signal=int(fields["sig"]) or None,
        cpu_ms=(int(fields["utime_us"]) + int(fields["stime_us"])) / 1000,
        wall_ms=int(fields["wall_us"]) / 1000,
        peak_kb=int(fields["maxrss_kb"]),
        killed=None if killed == "none" else killed,  # type: ignore[arg-type]
        exec_errno=int(fields.get("exec_errno", 0)),
    )


def _within(path: Path, directory: Path) -> bool:
    return path.resolve().is_relative_to(directory.resolve())


class Slot:
    """One launcher server and its work dir. Used by one thread at a time."""

    def __init__(self, launcher: Path, workdir: Path, cpu: int | None) -> None:
        self.workdir = workdir
        self._sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        argv = [str(launcher), "--workdir", str(workdir), "--sock", str(theirs.fileno())]
        if cpu is not None:
            argv += ["--cpu", str(cpu)]
        for d in private_dirs():
            # a private dir that holds the sandbox or the cache (say CPBOT_DATA_DIR=/tmp) cannot be hidden
            if not any(_within(p, d) for p in (workdir, launcher)):
                argv += ["--hide", str(d)]
        self._proc = subprocess.Popen(argv, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
        theirs.close()
        hello = self._sock.recv(4096).decode()
        if not hello.startswith("ready"):
            raise JudgeError(f"the sandbox launcher did not start: {hello!r}")
        self.isolation = dict(item.split("=", 1) for item in hello.split()[1:])

    def run(
        self,
        argv: Sequence[str],
        *,
        stdin: int | Path | bytes | None,
        stdout: int | Path,
        stderr: int | Path,
        limits: RunLimits,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> RunResult:
        """Run one program to the end; stdin/stdout/stderr are fds or paths (stdin may be bytes)."""
        self.start(argv, stdin=stdin, stdout=stdout, stderr=stderr, limits=limits, env=env, cwd=cwd)
        return self.wait()

    def start(
        self,
        argv: Sequence[str],
        *,
        stdin: int | Path | bytes | None,
        stdout: int | Path,
        stderr: int | Path,
        limits: RunLimits,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        """Start a program and return at once; `wait()` gives its result.

        Fds passed in stay the caller's to close; the launcher holds its own copies, so a caller
        wiring two programs with pipes closes its ends after starting both.
        """
        with contextlib.ExitStack() as stack:
            fds = [_input_fd(stdin, stack), _output_fd(stdout, stack), _output_fd(stderr, stack)]
            items = [f"cwd={cwd or self.workdir}", f"nproc={limits.nproc}"]
            for key, value in (
                ("cpu_ms", limits.cpu_ms),
                ("wall_ms", limits.wall_ms),
                ("as_kb", limits.address_space_kb),
                ("fsize", limits.output_bytes),
            ):
                if value:
                    items.append(f"{key}={value}")
            full_env = {**BASE_ENV, "HOME": str(self.workdir), "TMPDIR": str(self.workdir), **(env or {})}
            items += [f"env={k}={v}" for k, v in full_env.items()]
            items += [f"arg={a}" for a in argv]
            payload = b"".join(i.encode() + b"\0" for i in items)
            try:
                socket.send_fds(self._sock, [payload], fds)
            except OSError as e:
                raise JudgeError(f"the sandbox launcher failed: {e}") from e

    def wait(self) -> RunResult:
        """The result of the program `start()` started."""
        try:
            reply = self._sock.recv(4096).decode()
        except OSError as e:
            raise JudgeError(f"the sandbox launcher failed: {e}") from e
        if not reply:
            raise JudgeError(f"the sandbox launcher exited (code {self._proc.poll()})")
        return parse_reply(reply)

    def clean(self) -> None:
        """Empty the work dir for the next run (usually already empty: outputs live elsewhere)."""
        for entry in os.scandir(self.workdir):
            path = Path(entry.path)
            if entry.is_dir(follow_symlinks=False):
                _rmtree(path)
            else:
                path.unlink(missing_ok=True)

    def close(self) -> None:
        self._sock.close()
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


def _rmtree(path: str | Path) -> None:
    """Remove a tree a sandboxed program may have left without write permission."""
    force_remove = functools.partial(_force_remove, os.path.abspath(path))
    if sys.version_info >= (3, 12):
        shutil.rmtree(path, onexc=force_remove)
    else:  # `onexc` is new in 3.12; `onerror` passes exc_info instead, which is not used
        shutil.rmtree(path, onerror=force_remove)


def _force_remove(root: str, func, path, exc) -> None:  # type: ignore[no-untyped-def]
    """A program may leave a directory without write permission; make it removable and retry.

    Only directories inside `root` are touched: when the root itself fails (another judge removed the
    same orphaned root a moment before), its parent is the system's temp dir, which must keep its mode."""
    if not os.path.lexists(path):
        return  # already removed by someone else
    parent = os.path.dirname(path)
    if parent != root and not parent.startswith(root + os.sep):
        raise exc if isinstance(exc, BaseException) else exc[1]
    os.chmod(parent, 0o700)
    if os.path.isdir(path) and not os.path.islink(path):
        os.chmod(path, 0o700)
        _rmtree(path)
    else:
        os.unlink(path)


def _input_fd(src: int | Path | bytes | None, stack: contextlib.ExitStack) -> int:
    if isinstance(src, int):
        return src
    if src is None:
        src = b""
    if isinstance(src, bytes):
        fd = os.memfd_create("stdin", os.MFD_CLOEXEC)
        stack.callback(os.close, fd)
        os.write(fd, src) if len(src) < 65536 else _write_all(fd, src)
        os.lseek(fd, 0, os.SEEK_SET)
        return fd
    fd = os.open(src, os.O_RDONLY | os.O_CLOEXEC)
    stack.callback(os.close, fd)
    return fd


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _output_fd(dst: int | Path, stack: contextlib.ExitStack) -> int:
    if isinstance(dst, int):
        return dst
    fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
    stack.callback(os.close, fd)
    return fd


ROOT_PREFIX = "cpbot-sandbox-"


def remove_orphaned_roots() -> int:
    """Remove sandbox dirs whose judge process is gone (killed before it could clean up); how many."""
    removed = 0
    for path in Path(tempfile.gettempdir()).glob(f"{ROOT_PREFIX}*-*"):
        pid = path.name[len(ROOT_PREFIX) :].split("-", 1)[0]
        if not pid.isdigit() or _alive(int(pid)) or path.lstat().st_uid != os.geteuid():
            continue
        try:
            _rmtree(path)
        except FileNotFoundError:
            continue  # another judge cleaned it up at the same time
        removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


class Sandbox:
    """A pool of slots (default: one per core) plus a read-only staging area for programs."""

    def __init__(self, slots: int | None = None, *, pin: bool = True) -> None:
        # at least two: an interactive test runs the solution and the interactor side by side
        self.size = max(2, slots or os.cpu_count() or 1)
        remove_orphaned_roots()
        self.root = Path(tempfile.mkdtemp(prefix=f"{ROOT_PREFIX}{os.getpid()}-"))
        os.chmod(self.root, 0o711)
        self.programs = self.root / "programs"
        self.programs.mkdir(mode=0o755)
        self._lock = threading.Lock()
        self._group_lock = threading.Lock()
        self._free: queue.Queue[Slot] = queue.Queue()
        self._all: list[Slot] = []
        launcher = launcher_path()
        ncpu = os.cpu_count() or 1
        try:
            for i in range(self.size):
                workdir = self.root / f"slot-{i}"
                workdir.mkdir(mode=0o700)
                if os.geteuid() == 0:
                    os.chown(workdir, NOBODY, NOBODY)
                slot = Slot(launcher, workdir, i % ncpu if pin and self.size <= ncpu else None)
                self._all.append(slot)
                self._free.put(slot)
        except BaseException:
            self.close()
            raise
        self.isolation = dict(self._all[0].isolation)

    @contextlib.contextmanager
    def slot(self) -> Iterator[Slot]:
        """Borrow a free slot; its work dir is emptied when it is given back."""
        slot = self._free.get()
        try:
            yield slot
        finally:
            try:
                slot.clean()
            finally:
                self._free.put(slot)

    @contextlib.contextmanager
    def slots(self, n: int) -> Iterator[list[Slot]]:
        """Borrow `n` slots at once (an interactive run needs two); taken together so two callers never deadlock."""
        if n > self.size:
            raise JudgeError(f"{n} sandbox slots needed at once but the pool has {self.size}")
        with self._group_lock:
            taken = [self._free.get() for _ in range(n)]
        try:
            yield taken
        finally:
            for slot in taken:
                try:
                    slot.clean()
                finally:
                    self._free.put(slot)

    def stage(self, name: str, files: Mapping[str, Path | bytes]) -> Path:
        """Put a program's files in the read-only area under `programs/<name>/`; returns that dir."""
        target = self.programs / name
        with self._lock:
            if target.exists():
                return target
            tmp = self.programs / f".{name}.tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(mode=0o755)
            for fname, content in files.items():
                dest = tmp / fname
                dest.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
                if isinstance(content, bytes):
                    dest.write_bytes(content)
                    os.chmod(dest, 0o644)
                else:
                    try:
                        os.link(content, dest)
                    except OSError:
                        shutil.copy2(content, dest)
                    os.chmod(dest, 0o755 if os.access(content, os.X_OK) else 0o644)
            os.rename(tmp, target)
        return target

    def close(self) -> None:
        for slot in self._all:
            slot.close()
        self._all.clear()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_default: Sandbox | None = None
_default_lock = threading.Lock()


def default_sandbox() -> Sandbox:
    """The process-wide sandbox (one slot per core), started on first use and closed at exit."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Sandbox()
            atexit.register(_default.close)
        return _default
