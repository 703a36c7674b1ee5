"""The one entry point for running untrusted programs: a pool of launcher servers, one per slot.

Each slot is a launcher process (see launcher.c) living in a minimal root built from an allowlist
(/usr, /lib*, /bin, a trimmed /etc, a minimal /dev, the staged programs). Every run in it gets fresh
PID, mount and IPC namespaces, a private /proc and a new size-capped tmpfs work dir, its only writable
place: files go in and come out through the launcher, never through a directory both sides share.
Programs and their files are staged once into a read-only area every slot shows.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import functools
import json
import os
import queue
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel

from cpbot.core.dirs import private_dirs, python_env_dir
from cpbot.core.errors import ConfigError, JudgeError
from cpbot.core.process import pid_alive
from cpbot.judge.sandbox.build import launcher_library_path, launcher_path

NOBODY = 65534
DEFAULT_WORKDIR_MB = 256
ENV_READ_ONLY = "CPBOT_SANDBOX_READ_ONLY"  # extra dirs every run sees read-only (os.pathsep-separated)
BASE_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "PYTHONDONTWRITEBYTECODE": "1",
}


WARM_SCRIPT = Path(__file__).with_name("warm_python.py")
WARM_PRELUDES_ENV = "CPBOT_WARM_PRELUDES"  # warm_python.py's PRELUDES_ENV
# the locale programs get, so the streams match theirs; and one BLAS thread: numpy, imported ahead when the
# interpreter has it, would otherwise start a thread pool in the server, which a fork does not carry over
WARM_ENV = {
    "LD_BIND_NOW": "1",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    **{name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")},
}


class WarmPython(BaseModel):
    """The Python every slot's server runs inside (warm_python.py), so that a Python program starts as a
    fork of an interpreter that has started already and imported `modules`, in the run's own namespaces.
    Programs started as `prefix + [script, args...]` get it; any other command is exec'd as usual.

    `heavy_modules` (numpy) are imported ahead by a second server of the slot, which takes the programs
    whose source imports one of them: a larger interpreter makes every fork and exit slower and every
    program's memory larger, which the programs that do not use them should not pay."""

    prefix: list[str]  # the interpreter and its flags, exactly as the judge starts Python programs
    modules: list[str] = []
    heavy_modules: list[str] = []
    # source lines programs often start with, run ahead: such a program runs only the rest (warm_python.py)
    preludes: list[str] = []


class RunLimits(BaseModel):
    """Limits of one run. `cpu_ms` is where the launcher kills (the judge decides the verdict)."""

    cpu_ms: int | None = None
    wall_ms: int | None = None
    address_space_kb: int | None = None
    output_bytes: int | None = None
    nproc: int = 128
    workdir_mb: int = DEFAULT_WORKDIR_MB  # the size cap of the run's own tmpfs work dir


RunStatus = Literal["exited", "signaled", "exec_failed", "error"]
KillReason = Literal["cpu", "wall"]


class RunResult(BaseModel):
    """What the launcher measured: CPU time and peak memory of all the run's processes (children never
    waited for included; see `accounting`), and the program's own when those are larger; wall time."""

    status: RunStatus
    exit_code: int | None = None
    signal: int | None = None
    cpu_ms: float = 0.0
    wall_ms: float = 0.0
    peak_kb: int = 0
    killed: KillReason | None = None
    exec_errno: int = 0
    message: str = ""
    collected: list[str] = []  # the requested files the program left in its work dir (copied out)
    own_cpu_ms: float = 0.0  # the program's own process (and the children it waited for)
    processes: int = 0  # the most processes seen at once (sampled; 0 where not sampled)
    forks_refused: int | None = None  # process creations refused at the run's limit (cgroup only)
    waited_ms: float | None = None  # killed at the wall limit: time runnable but waiting for a CPU
    accounting: str = ""  # "cgroup" (every process, by the kernel), "sampled", or "" (program only)
    sampling_ms: float = 0.0  # the launcher's CPU time sampling the run's processes (sampled only)
    walks: int = 0  # of it, how many times it read every process's proportional set size
    walks_ms: float = 0.0  # and the CPU time those took

    @property
    def ok(self) -> bool:
        return self.status == "exited" and self.exit_code == 0 and self.killed is None


_REPLY_ITEM = re.compile(r"([^\s=]+)=(\S*)")
_RAN = set(get_args(RunStatus)) - {"error"}  # the statuses of a reply of a run
_KILLED = {"none", *get_args(KillReason)}  # a reply's kill reasons ("none": not killed)


def parse_reply(text: str, wanted: Sequence[str] = ()) -> RunResult:
    """Turn the launcher's `key=value` reply into a `RunResult`; `wanted` names the files asked back."""
    fields = dict(_REPLY_ITEM.findall(text))
    status = fields.get("status", "error")
    if status == "error":
        return RunResult(status="error", message=fields.get("msg", text))
    killed = fields.get("killed", "none")
    own_cpu_ms = (int(fields["utime_us"]) + int(fields["stime_us"])) / 1000
    wait_us = int(fields.get("wait_us", -1))
    refused = int(fields.get("forks_refused", -1))
    if status not in _RAN or killed not in _KILLED:
        return RunResult(status="error", message=f"the sandbox launcher's reply is not understood: {text[:200]}")
    # every value below has its field's type already: built without validation, once per test
    return RunResult.model_construct(
        status=status,  # type: ignore[arg-type]
        exit_code=int(fields["code"]) if int(fields.get("code", -1)) >= 0 else None,
        signal=int(fields["sig"]) or None,
        cpu_ms=max(own_cpu_ms, int(fields.get("all_cpu_us", 0)) / 1000),
        wall_ms=int(fields["wall_us"]) / 1000,
        peak_kb=max(int(fields["maxrss_kb"]), int(fields.get("all_peak_kb", 0))),
        killed=None if killed == "none" else killed,  # type: ignore[arg-type]
        exec_errno=int(fields.get("exec_errno", 0)),
        collected=[name for name, bit in wanted if int(fields.get("got", 0)) >> bit & 1],  # type: ignore[misc]
        own_cpu_ms=own_cpu_ms,
        processes=int(fields.get("procs", 0)),
        forks_refused=refused if refused >= 0 else None,
        waited_ms=wait_us / 1000 if wait_us >= 0 else None,
        accounting=fields.get("acct", ""),
        sampling_ms=int(fields.get("sampling_us", 0)) / 1000,
        walks=int(fields.get("walks", 0)),
        walks_ms=int(fields.get("walks_us", 0)) / 1000,
    )


def _within(path: Path, directory: Path) -> bool:
    return path.resolve().is_relative_to(directory.resolve())


FileSource = Path | bytes | int


class _Server:
    """One launcher server process and the socket the judge speaks to it on."""

    def __init__(self, argv: list[str], env: dict[str, str], sock: socket.socket, theirs: socket.socket) -> None:
        self.sock = sock
        # a session of its own: a signal or priority change aimed at the launcher's group never reaches the judge
        self.proc = subprocess.Popen(
            argv, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, env=env, start_new_session=True
        )
        theirs.close()
        hello = self.sock.recv(4096).decode()
        if not hello.startswith("ready"):
            raise JudgeError(f"the sandbox launcher did not start: {hello!r}")
        self.isolation = dict(item.split("=", 1) for item in hello.split()[1:])

    def receive(self) -> str:
        try:
            reply = self.sock.recv(4096).decode()
        except OSError as e:
            raise JudgeError(f"the sandbox launcher failed: {e}") from e
        if not reply:
            raise JudgeError(f"the sandbox launcher exited (code {self.proc.poll()})")
        return reply

    def hang_up(self) -> None:
        """Close the judge's end: the server ends its runs and exits (`close` waits for it)."""
        self.sock.close()

    def close(self) -> None:
        self.hang_up()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Slot:
    """One launcher server: a minimal root of its own; every run in it gets a fresh work dir. One thread at a time.

    Runs may be queued: `start` several, then `wait` gives their results in the same order. The
    launcher runs them one after another, each in its own namespaces, and prepares each next run while
    the one before is going, so a caller that keeps one run queued pays no start-up time.

    With `warm`, Python programs go to a second server of the same root and CPU, started on first use
    inside that interpreter (see `WarmPython`); everything else keeps the plain one, whose small inits
    add nothing to a program's measured memory. Runs of the two never overlap either."""

    def __init__(
        self,
        launcher: Path,
        mountpoint: Path,
        cpu: int | None,
        read_only: Sequence[Path] = (),
        *,
        namespaces: bool = True,
        warm: WarmPython | None = None,
        cgroups: bool = True,
    ) -> None:
        args = []
        if not namespaces:
            args.append("--no-namespaces")
        if not cgroups:
            args.append("--no-cgroups")
        if cpu is not None:
            args += ["--cpu", str(cpu)]
        for path in read_only:
            args += ["--ro", str(path)]
        for d in private_dirs():
            # only used when the minimal root cannot be built and the host's tree is shown read-only;
            # a private dir that holds the sandbox or the cache (say CPBOT_DATA_DIR=/tmp) cannot be hidden
            if not any(_within(p, d) for p in (mountpoint, launcher)):
                args += ["--hide", str(d)]
        self._launcher, self._mountpoint, self._args = launcher, mountpoint, args
        self.warm = warm
        self._plain = self._start_server(None)
        self._warm: dict[bool, _Server] = {}  # by whether it imported the heavy modules too
        self.isolation = dict(self._plain.isolation)
        self.box = Path(self.isolation.pop("box"))
        self.cpu = cpu  # where its programs run (None: anywhere)
        # runs started and not yet waited for: their server and the files asked back; replies read early
        self._pending: collections.deque[tuple[_Server, list[tuple[str, int]]]] = collections.deque()
        self._early: collections.deque[str] = collections.deque()

    def _start_server(self, warm: WarmPython | None, *, heavy: bool = False) -> _Server:
        sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        args = ["--root", str(self._mountpoint), "--sock", str(theirs.fileno()), *self._args]
        if warm is None:
            argv = [str(self._launcher), *args]
        else:
            library = str(launcher_library_path())
            modules = ",".join([*warm.modules, *(warm.heavy_modules if heavy else [])])
            argv = [*warm.prefix, str(WARM_SCRIPT), library, modules, str(len(warm.prefix)), *warm.prefix, *args]
        # no environment of the judge's (API keys) may be readable from the server's /proc entry
        env = {**WARM_ENV, WARM_PRELUDES_ENV: json.dumps(warm.preludes)} if warm else {}
        return _Server(argv, env, sock, theirs)

    def _server_for(self, argv: Sequence[str]) -> tuple[_Server, bool]:
        if self.warm is None or not _warm_command(argv, self.warm):
            return self._plain, False
        heavy = _imports_any(argv[len(self.warm.prefix)], tuple(self.warm.heavy_modules))
        if heavy not in self._warm:
            self._warm[heavy] = self._start_server(self.warm, heavy=heavy)
        return self._warm[heavy], True

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
        files: Mapping[str, FileSource] | None = None,
        collect: Mapping[str, int | Path] | None = None,
    ) -> RunResult:
        """Run one program to the end; stdin/stdout/stderr are fds or paths (stdin may be bytes)."""
        self.start(
            argv,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            limits=limits,
            env=env,
            cwd=cwd,
            files=files,
            collect=collect,
        )
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
        files: Mapping[str, FileSource] | None = None,
        collect: Mapping[str, int | Path] | None = None,
    ) -> None:
        """Queue a program and return at once; `wait()` gives the results in the order of the starts.

        `files` are copied into the run's fresh work dir before it starts (its only writable place, which
        nothing outside the run can see); `collect` names files copied out of it into fds or host paths
        after it ends. Fds passed in stay the caller's to close; the launcher holds its own copies, so a
        caller wiring two programs with pipes closes its ends after starting both.
        """
        server, warm = self._server_for(argv)
        if self._pending and self._pending[-1][0] is not server:
            # the other server's runs end first (their replies kept): runs of a slot never overlap
            self._early.extend(s.receive() for s, _ in list(self._pending)[len(self._early) :])
        with contextlib.ExitStack() as stack:
            fds = [_input_fd(stdin, stack), _output_fd(stdout, stack), _output_fd(stderr, stack)]
            items = [f"nproc={limits.nproc}", f"box_kb={limits.workdir_mb * 1024}"]
            if warm:
                items.append("warm=1")
            if cwd is not None:
                items.append(f"cwd={cwd}")
            for key, value in (
                ("cpu_ms", limits.cpu_ms),
                ("wall_ms", limits.wall_ms),
                ("as_kb", limits.address_space_kb),
                ("fsize", limits.output_bytes),
            ):
                if value:
                    items.append(f"{key}={value}")
            full_env = {**BASE_ENV, "HOME": str(self.box), "TMPDIR": str(self.box), **(env or {})}
            items += [f"env={k}={v}" for k, v in full_env.items()]
            items += [f"arg={a}" for a in argv]
            wanted: list[tuple[str, int]] = []
            for name, src in (files or {}).items():
                items.append(f"put={name}")
                fds.append(_input_fd(src, stack))
            for name, dst in (collect or {}).items():
                wanted.append((name, len(fds) - 3))
                items.append(f"get={name}")
                fds.append(_output_fd(dst, stack, read_write=True))
            payload = ("\0".join(items) + "\0").encode()
            try:
                socket.send_fds(server.sock, [payload], fds)
            except OSError as e:
                raise JudgeError(f"the sandbox launcher failed: {e}") from e
            self._pending.append((server, wanted))

    def wait(self) -> RunResult:
        """The result of the oldest program started and not yet waited for."""
        server, wanted = self._pending.popleft()
        reply = self._early.popleft() if self._early else server.receive()
        return parse_reply(reply, wanted)

    def drain(self) -> None:
        """Wait out the runs still queued, dropping their results (whoever queued them stopped early):
        a slot must never hand the next borrower replies to someone else's runs."""
        while self._pending:
            self.wait()

    @contextlib.contextmanager
    def caller_elsewhere(self) -> Iterator[None]:
        """Keep the calling thread off this slot's CPU while it feeds the slot.

        The launcher's reply wakes the caller, and the kernel likes to wake it on the replying CPU:
        there it would delay the handover to the next queued run by the whole time it spends checking."""
        allowed = os.sched_getaffinity(0)
        others = allowed - {self.cpu}
        if self.cpu is None or not others or others == allowed:
            yield
            return
        os.sched_setaffinity(0, others)
        try:
            yield
        finally:
            os.sched_setaffinity(0, allowed)

    def _servers(self) -> list[_Server]:
        return [self._plain, *self._warm.values()]

    def hang_up(self) -> None:
        """Tell every server of the slot to end, without waiting (see `close`)."""
        for server in self._servers():
            server.hang_up()

    def close(self) -> None:
        for server in self._servers():
            server.close()


def _warm_command(argv: Sequence[str], warm: WarmPython) -> bool:
    """Whether `argv` runs a script with the warm interpreter (its prefix, then a file, not an option)."""
    n = len(warm.prefix)
    return len(argv) > n and list(argv[:n]) == warm.prefix and not argv[n].startswith("-")


def _imports_any(script: str, modules: tuple[str, ...]) -> bool:
    """Whether the script's source has an import statement naming one of `modules` (a guess that only
    picks a server: a program that imports one some other way imports it itself, as a fresh one does)."""
    if not modules:
        return False
    try:
        st = os.stat(script)
    except OSError:
        return False
    return _source_imports(script, st.st_mtime_ns, st.st_size, modules)


@functools.lru_cache(maxsize=256)
def _source_imports(script: str, _mtime_ns: int, _size: int, modules: tuple[str, ...]) -> bool:
    try:
        with open(script, "rb") as f:
            data = f.read()
    except OSError:
        return False
    if not any(m.encode() in data for m in modules):  # most programs: no regex search through the source
        return False
    source = data.decode("utf-8", errors="replace")
    names = "|".join(re.escape(m) for m in modules)
    return re.search(rf"^[ \t]*(?:import|from)[ \t]+[^\n]*\b(?:{names})\b", source, re.MULTILINE) is not None


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


def _output_fd(dst: int | Path, stack: contextlib.ExitStack, *, read_write: bool = False) -> int:
    if isinstance(dst, int):
        return dst
    mode = os.O_RDWR if read_write else os.O_WRONLY
    fd = os.open(dst, mode | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
    stack.callback(os.close, fd)
    return fd


ROOT_PREFIX = "cpbot-sandbox-"


def remove_orphaned_roots() -> int:
    """Remove sandbox dirs whose judge process is gone (killed before it could clean up); how many."""
    removed = 0
    for path in Path(tempfile.gettempdir()).glob(f"{ROOT_PREFIX}*-*"):
        pid = path.name[len(ROOT_PREFIX) :].split("-", 1)[0]
        try:
            if not pid.isdigit() or pid_alive(int(pid)) or path.lstat().st_uid != os.geteuid():
                continue
            _rmtree(path)
        except FileNotFoundError:
            continue  # removed meanwhile: by another judge, or by the rm its own judge left at exit
        removed += 1
    return removed


# What the launcher shows of the host in every root (besides /etc files, /dev nodes and staged programs).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


def visible_in_sandbox(path: str | Path) -> bool:
    """Whether `path` (resolved) lies in a sandboxed run's root: the system dirs or an extra read-only dir."""
    real = Path(os.path.realpath(path))
    return any(real.is_relative_to(os.path.realpath(d)) for d in [*SYSTEM_DIRS, *read_only_from_env()])


def read_only_from_env() -> list[Path]:
    """Extra read-only dirs for every run (an interpreter installed outside /usr, say), from the environment,
    and the managed Python environment when there is one (`cpbot setup-python`)."""
    value = os.environ.get(ENV_READ_ONLY, "")
    found = [Path(p) for p in value.split(os.pathsep) if p]
    managed = python_env_dir()
    return [*found, managed] if (managed / "pyvenv.cfg").is_file() and managed not in found else found


class Sandbox:
    """A pool of slots (default: one per core) plus a read-only staging area for programs."""

    def __init__(
        self,
        slots: int | None = None,
        *,
        pin: bool = True,
        read_only: Sequence[Path] = (),
        namespaces: bool = True,
        warm_python: WarmPython | None = None,
        cgroups: bool = True,
    ) -> None:
        """`namespaces=False` runs as on a machine that refuses them, to try the fallback: no network,
        root or /proc isolation, a shared work dir emptied between runs (the isolation report says so).
        `cgroups=False` counts runs by sampling even as root (to measure what the cgroups cost).
        `warm_python`: every slot's server runs inside that interpreter, and its Python programs start as
        forks of it (see `WarmPython`)."""
        # at least two: an interactive test runs the solution and the interactor side by side
        self.size = max(2, slots or os.cpu_count() or 1)
        remove_orphaned_roots()
        self.root = Path(tempfile.mkdtemp(prefix=f"{ROOT_PREFIX}{os.getpid()}-"))
        os.chmod(self.root, 0o711)
        self.programs = self.root / "programs"
        self.programs.mkdir(mode=0o755)
        for path in [*read_only, *read_only_from_env()]:
            if not Path(path).is_absolute() or not Path(path).exists():
                raise ConfigError(f"sandbox read-only path {path} is not an existing absolute path")
        self.read_only = [self.programs, *(Path(p) for p in read_only), *read_only_from_env()]
        self._lock = threading.Lock()
        self._group_lock = threading.Lock()
        self._free: queue.Queue[Slot] = queue.Queue()
        self._judge_free: queue.Queue[Slot] = queue.Queue()  # `judge_slot`'s, started when first needed
        self._judges = 0
        self._all: list[Slot] = []
        self._extra = 0
        self._launcher = launcher_path()
        self._namespaces = namespaces
        self._cgroups = cgroups
        self.warm_python = warm_python
        ncpu = os.cpu_count() or 1
        try:
            for i in range(self.size):
                slot = self._start_slot(f"slot-{i}", i % ncpu if pin and self.size <= ncpu else None, self.read_only)
                self._all.append(slot)
                self._free.put(slot)
        except BaseException:
            self.close()
            raise
        self.isolation = dict(self._all[0].isolation)
        self.isolation["workdir"] = describe_workdir(self.isolation.get("workdir", ""), DEFAULT_WORKDIR_MB)

    def _start_slot(self, name: str, cpu: int | None, read_only: Sequence[Path]) -> Slot:
        mountpoint = self.root / name
        mountpoint.mkdir(mode=0o700)
        if os.geteuid() == 0:  # the work dir itself when the minimal root cannot be had
            os.chown(mountpoint, NOBODY, NOBODY)
        return Slot(
            self._launcher,
            mountpoint,
            cpu,
            read_only,
            namespaces=self._namespaces,
            warm=self.warm_python,
            cgroups=self._cgroups,
        )

    @contextlib.contextmanager
    def slot(self, read_only: Sequence[Path] = ()) -> Iterator[Slot]:
        """Borrow a free slot. With `read_only` dirs (a user's include dirs), a slot whose root also shows
        them, read-only at their own paths, is started for this use only (it still takes a pool place)."""
        slot = self._free.get()
        try:
            if not read_only:
                yield slot
                return
            with self._lock:
                self._extra += 1
                name = f"extra-{self._extra}"
            extra = self._start_slot(name, None, [*self.read_only, *read_only])
            try:
                yield extra
            finally:
                extra.close()
                _rmtree(self.root / name)
        finally:
            self._give_back(slot)

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
                self._give_back(slot)

    @contextlib.contextmanager
    def judge_slot(self) -> Iterator[Slot]:
        """A slot for a judge's own program (a checker, a validator), which runs while the judged program's slot is
        held: taken from slots of their own (at most `size`, started when first needed), never from the programs'.
        Two judgings on a two-slot pool, each holding a slot and asking for another for its checker, would
        otherwise wait for each other forever."""
        try:
            slot = self._judge_free.get_nowait()
        except queue.Empty:
            with self._lock:
                name = f"judge-{self._judges}" if self._judges < self.size else None
                self._judges += name is not None
            if name is None:
                slot = self._judge_free.get()
            else:
                slot = self._start_slot(name, None, self.read_only)
                with self._lock:
                    self._all.append(slot)
        try:
            yield slot
        finally:
            self._give_back(slot, self._judge_free)

    def _give_back(self, slot: Slot, free: queue.Queue[Slot] | None = None) -> None:
        try:
            slot.drain()
        finally:
            (self._free if free is None else free).put(slot)
            # a borrower waiting for a slot wakes up needing the GIL, which this thread would hold through its
            # own work after this (up to the switch interval, 5 ms) while the slot sits idle: let it go first
            time.sleep(0)

    def stage(self, name: str, files: Mapping[str, Path | bytes]) -> Path:
        """Put a program's files in the read-only area under `programs/<name>/`; returns that dir.

        A caller's file is hard-linked when it is already readable (and executable, if it is) by
        everyone, else copied: staging never changes the caller's own file.
        """
        target = self.programs / name
        with self._lock:
            if target.exists():
                return target
            tmp = self.programs / f".{name}.tmp"
            try:
                tmp.mkdir(mode=0o755)
            except FileExistsError:  # left by a staging that failed part-way (rmtree costs a walk even when absent)
                shutil.rmtree(tmp)
                tmp.mkdir(mode=0o755)
            for fname, content in files.items():
                dest = tmp / fname
                if dest.parent != tmp:
                    dest.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
                if isinstance(content, bytes):
                    dest.write_bytes(content)
                    os.chmod(dest, 0o644)
                    continue
                mode = os.stat(content).st_mode & 0o777
                wanted = 0o755 if mode & 0o100 else 0o644
                if mode & wanted == wanted:
                    try:
                        os.link(content, dest)
                        continue
                    except OSError:
                        pass
                shutil.copyfile(content, dest)
                os.chmod(dest, wanted)
            os.rename(tmp, target)
        return target

    def close(self, *, remove_in_background: bool = False) -> None:
        """End every slot's servers (told all at once: each takes some 30 ms to tear its runs down) and
        remove the sandbox's dir. `remove_in_background`: by a process of its own that may outlive this one
        (at exit, a command need not wait for the walk through every staged program); a dir it leaves is
        an orphan the next sandbox removes."""
        for slot in self._all:
            slot.hang_up()
        for slot in self._all:
            slot.close()
        self._all.clear()
        if remove_in_background and self.root.exists():
            # the shell starts rm in the background and ends at once: rm is nobody's child to wait for
            command = ["/bin/sh", "-c", 'rm -rf -- "$1" &', "sh", str(self.root)]
            spawned = subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            if spawned.returncode == 0:
                return
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def describe_workdir(kind: str, cap_mb: int) -> str:
    """How the isolation report names the work dir: a per-run tmpfs with its cap, or the fallback."""
    return f"tmpfs {cap_mb} MB per run" if kind == "tmpfs-per-run" else kind or "unknown"


def _no_warm_python() -> WarmPython | None:
    return None


_find_warm_python: Callable[[], WarmPython | None] = _no_warm_python


def set_default_warm_python(find: Callable[[], WarmPython | None]) -> None:
    """How the default sandbox finds its warm Python: registered by the Python language (judge.languages
    builds on the sandbox, so the sandbox does not import it)."""
    global _find_warm_python
    _find_warm_python = find


_default: Sandbox | None = None
_default_lock = threading.Lock()


def default_sandbox() -> Sandbox:
    """The process-wide sandbox (one slot per core), started on first use and closed at exit."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Sandbox(warm_python=_find_warm_python())
            atexit.register(functools.partial(_default.close, remove_in_background=True))
        return _default
