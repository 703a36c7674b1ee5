"""The launcher isolates for a normal user too (user namespace instead of root's uid switch)."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import tempfile
import textwrap
from pathlib import Path

import pytest

from cpbot.judge.sandbox.build import launcher_path
from tests.judge.hostile import PY_NET_USE
from tests.judge.test_sealed import FIND_INFLIGHT, USE_THE_NETWORK

LEAVE_INFLIGHT = USE_THE_NETWORK + "print('left-inflight')\n"

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to become a normal user"
)

# A stdlib-only client: the project's own packages may not be readable by the normal user.
CLIENT = textwrap.dedent("""
    import os, socket, subprocess, sys
    launcher, workdir = sys.argv[1], sys.argv[2]
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    subprocess.Popen([launcher, "--root", workdir, "--sock", str(theirs.fileno())], pass_fds=(theirs.fileno(),))
    theirs.close()
    print(ours.recv(4096).decode(), flush=True)
    def run(script):
        out = os.memfd_create("out")
        items = ["cpu_ms=20000", "wall_ms=120000", "nproc=40", "env=PATH=/usr/bin:/bin",
                 "arg=/bin/sh", "arg=-c", "arg=" + script]
        payload = b"".join(i.encode() + b"\\0" for i in items)
        socket.send_fds(ours, [payload], [os.open("/dev/null", os.O_RDONLY), out, out])
        reply = ours.recv(4096).decode()
        print(reply)
        print(os.pread(out, 65536, 0).decode(), flush=True)
    for script in sys.argv[3:]:
        run(script)
    print("client-alive", os.getpriority(os.PRIO_PROCESS, 0), flush=True)
""")


def python_hex(source: str) -> str:
    """A shell command running a Python program, with nothing in it the shell would read."""
    return f"python3 -c 'exec(bytes.fromhex(\"{source.encode().hex()}\"))' 2>&1"


@pytest.fixture
def world_dir():
    """A directory the normal user can reach (pytest's tmp_path sits under a root-only dir)."""
    path = Path(tempfile.mkdtemp(prefix="cpbot-nonroot-"))
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_normal_user_gets_network_filesystem_and_fork_isolation(world_dir: Path):
    tmp_path = world_dir
    launcher = tmp_path / "launcher"
    shutil.copy(launcher_path(), launcher)
    workdir = tmp_path / "work"
    workdir.mkdir()
    os.chown(workdir, 65534, 65534)
    outside = tmp_path / "outside"
    outside.mkdir(mode=0o777)
    os.chmod(outside, 0o777)
    (tmp_path / "client.py").write_text(CLIENT)
    scripts = [
        f"touch {outside}/escaped && echo wrote || echo blocked; touch inside && echo inside-ok",
        "i=0; while [ $i -lt 200 ]; do sleep 66.5 & i=$((i+1)); done; echo spawned",
        # right after a fork storm: its processes are gone, the count of processes with them
        "i=0; while [ $i -lt 20 ]; do true & i=$((i+1)); done; wait; echo forked-20",
        # the launcher's client (this user's other process) is in no group a program can signal or renice
        "trap '' TERM HUP INT; renice -n 19 -g 0 >/dev/null 2>&1; kill -TERM 0; kill -HUP 0; echo signalled",
        "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", 9), timeout=1)' 2>&1 | tail -1",
        # sockets work inside the run, in a network namespace of its own: what one leaves, the next cannot find
        python_hex(PY_NET_USE),
        python_hex(LEAVE_INFLIGHT),
        python_hex(FIND_INFLIGHT),
        # runs are sampled here (no cgroup): a memfd is refused, a file in /dev/shm is counted as memory
        "python3 -c 'import os; os.memfd_create(\"m\")' 2>&1 | tail -1",
        "head -c 40000000 /dev/zero > /dev/shm/held && echo held",
    ]
    proc = subprocess.run(
        [
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "/usr/bin/python3",
            str(tmp_path / "client.py"),
            str(launcher),
            str(workdir),
            *scripts,
        ],
        capture_output=True,
        text=True,
        timeout=600,  # a safety net only: no script waits on the clock
    )
    out = proc.stdout
    ready = (
        "ready user=self root=allowlist network=namespace-per-run(on-first-socket) processes=pid-namespace"
        " session=own-per-run"
    )
    assert f"{ready} proc=private" in out
    assert "blocked" in out and "inside-ok" in out
    assert not (outside / "escaped").exists()
    assert "spawned" not in out, "the fork limit stopped 200 background processes"
    assert "ConnectionRefusedError" in out  # the run's own loopback, where nothing listens
    assert "net-ok tcp" in out and "ping raw raw ifflags\nleft-inflight" in out
    assert "\nnone\n" in out and "found" not in out
    assert "forked-20" in out, out
    assert "signalled" in out and "client-alive 0" in out
    assert "PermissionError: [Errno 1] Operation not permitted" in out
    held = out.splitlines()[out.splitlines().index("held") - 1]
    assert int(held.split("all_peak_kb=")[1].split()[0]) >= 39000, held
    leftover = subprocess.run(["pgrep", "-f", "sleep 66.5"], capture_output=True, text=True).stdout
    assert leftover == ""


AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3"]

# Two judges of one user, each with its launcher: a fork storm fills one run's own process limit while a
# correct program of the other judge, then the storm judge's next test, each need 60 processes at once.
TWO_JUDGES = textwrap.dedent("""
    import os, socket, subprocess, sys
    launcher, work_a, work_b = sys.argv[1:4]
    def server(workdir):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        subprocess.Popen([launcher, "--root", workdir, "--sock", str(theirs.fileno())], pass_fds=(theirs.fileno(),))
        theirs.close()
        print(ours.recv(4096).decode(), flush=True)
        return ours
    def start(sock, script, stdin, out):
        items = ["cpu_ms=20000", "wall_ms=120000", "nproc=128", "env=PATH=/usr/bin:/bin",
                 "arg=/usr/bin/python3", "arg=-c", "arg=" + script]
        socket.send_fds(sock, [b"".join(i.encode() + b"\\0" for i in items)], [stdin, out, out])
    STORM = '''
    import os, sys
    n = 0
    try:
        while True:
            if os.fork() == 0:
                os.read(0, 1)
                os._exit(0)
            n += 1
    except OSError as e:
        print("full", n, flush=True)
    os.read(0, 1)
    '''
    SIXTY = '''
    import os
    r, w = os.pipe()
    pids = []
    for i in range(60):
        pid = os.fork()
        if pid == 0:
            os.close(w)
            os.read(r, 1)
            os._exit(0)
        pids.append(pid)
    os.close(w)
    for pid in pids:
        os.waitpid(pid, 0)
    print("forked 60")
    '''
    a, b = server(work_a), server(work_b)
    go_r, go_w = os.pipe()
    storm_r, storm_w = os.pipe()
    start(a, STORM, go_r, storm_w)
    os.close(go_r)
    os.close(storm_w)
    print("A:", os.read(storm_r, 4096).decode().strip(), flush=True)
    for name, sock in (("B", b), ("A-next", None)):
        if sock is None:  # the storm ends (its stdin closes), then the same judge's next test
            os.close(go_w)
            a.recv(4096)
            sock = a
        out = os.memfd_create("out")
        start(sock, SIXTY, os.open("/dev/null", os.O_RDONLY), out)
        print(name, sock.recv(4096).decode().split()[:2], flush=True)
        print(name, os.pread(out, 65536, 0).decode().strip()[-60:], flush=True)
""")


def test_a_fork_storm_of_one_judge_starves_neither_another_judge_of_the_user_nor_its_next_test(world_dir: Path):
    launcher = world_dir / "launcher"
    shutil.copy(launcher_path(), launcher)
    for name in ("a", "b"):
        (world_dir / name).mkdir()
        os.chown(world_dir / name, 65534, 65534)
    (world_dir / "client.py").write_text(TWO_JUDGES)
    _, hard = resource.getrlimit(resource.RLIMIT_NPROC)
    # a soft limit that a storm (about 128) and 60 more cannot share, under a hard one that they can
    soft = 170
    if hard != resource.RLIM_INFINITY and hard < 400:
        pytest.skip(f"the hard process limit here ({hard}) leaves no room")
    proc = subprocess.run(
        [*AS_NOBODY, str(world_dir / "client.py"), str(launcher), str(world_dir / "a"), str(world_dir / "b")],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NPROC, (soft, hard)),
    )
    out = proc.stdout
    assert "A: full" in out, (out, proc.stderr)
    storm = int(out.split("A: full")[1].split()[0])
    assert storm >= 100, out  # it really filled its own limit
    assert "B forked 60" in out, out
    assert "A-next forked 60" in out, out
    if hard != resource.RLIM_INFINITY:
        assert f"fork_limit=rlimit-nproc-per-slot(all-judges-of-the-user-share:{hard})" in out
    else:
        assert "fork_limit=rlimit-nproc-per-slot " in out
