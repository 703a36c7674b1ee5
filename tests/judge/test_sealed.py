"""Runs are sealed from each other and from the judge, straight through the launcher (as root; the
normal-user launcher is in test_nonroot.py, the whole judge as both users in test_hostile.py).

No test here waits for a wall-clock window: an attack either reaches its target or it cannot."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from cpbot.judge.model import Limits, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_solution
from cpbot.judge.sandbox import RunLimits
from tests.judge.hostile import PY_AFFINITY, PY_NET_CHANNEL, PY_NET_USE

PY = "/usr/bin/python3"
LIMITS = RunLimits(cpu_ms=5000, wall_ms=20000)


def run_py(slot, source: str, stdin: bytes = b"", limits: RunLimits = LIMITS) -> tuple[str, object]:
    out = os.memfd_create("out")
    try:
        result = slot.run([PY, "-c", source], stdin=stdin, stdout=out, stderr=out, limits=limits)
        return os.pread(out, 65536, 0).decode(), result
    finally:
        os.close(out)


# Waits until the test says go on its stdin (after the attack), then reports. The attacker signals
# and renices its process group.
VICTIM = """
import os, sys
sys.stdin.readline()
print('alive', os.getpriority(os.PRIO_PROCESS, 0))
"""
ATTACKER = """
import os, signal
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
try:
    os.setpriority(os.PRIO_PGRP, 0, 19)
except OSError as e:
    print('renice', e.strerror)
os.kill(0, signal.SIGTERM)
os.kill(0, signal.SIGHUP)
os.killpg(os.getpgid(0), signal.SIGTERM)
print('sent', os.getsid(0) == os.getpid())
"""


def test_signals_and_priority_aimed_at_the_process_group_reach_only_the_run(sandbox):
    before = os.getpriority(os.PRIO_PROCESS, 0)
    with sandbox.slots(2) as (victim_slot, attacker_slot):
        out_fd = os.memfd_create("victim")
        go_read, go_write = os.pipe()
        victim_slot.start([PY, "-c", VICTIM], stdin=go_read, stdout=out_fd, stderr=out_fd, limits=LIMITS)
        os.close(go_read)
        # the victim's run is under way (it waits for its stdin) while the attack runs
        attack, _ = run_py(attacker_slot, ATTACKER)
        os.write(go_write, b"go\n")
        os.close(go_write)
        result = victim_slot.wait()
        victim = os.pread(out_fd, 4096, 0).decode()
        os.close(out_fd)
    assert attack.strip().endswith("sent True"), attack  # a session of its own
    assert result.ok and victim.strip() == "alive 0", (result, victim)
    assert os.getpriority(os.PRIO_PROCESS, 0) == before


# Leaves a child behind that holds much memory (so that dying takes it a while) and sleeps.
LEAVE_A_CHILD = """
import ctypes, os, signal, time
ready_r, ready_w = os.pipe()
if os.fork() == 0:
    os.setsid()
    ctypes.CDLL(None).prctl(15, b'cpbot-leftover', 0, 0, 0)  # PR_SET_NAME
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    hoard = bytearray(300 << 20)
    for i in range(0, len(hoard), 4096):
        hoard[i] = 1
    os.write(ready_w, b'x')
    time.sleep(600)
os.read(ready_r, 1)
print('left')
"""


def processes_named(name: str) -> list[int]:
    """Processes whose name is `name`, including those still dying."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if Path(entry.path, "comm").read_text().strip() == name:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_nothing_of_a_run_is_alive_when_its_reply_comes(sandbox):
    with sandbox.slot() as slot:
        for _ in range(3):
            out, result = run_py(slot, LEAVE_A_CHILD)
            assert out.strip() == "left" and result.ok, out
            # no waiting: the reply itself must come after the last process of the run is gone
            assert processes_named("cpbot-leftover") == []


LEAVE_SOCKET = """
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect(b'\\0cpbot-sealed-channel')
    print('found', s.recv(100).decode())
except OSError:
    print('none')
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(b'\\0cpbot-sealed-channel')
server.listen(8)
ready_r, ready_w = os.pipe()
if os.fork() == 0:
    os.setsid()
    hoard = bytearray(300 << 20)  # dying takes a while
    for i in range(0, len(hoard), 4096):
        hoard[i] = 1
    os.write(ready_w, b'x')
    while True:
        conn, _ = server.accept()
        conn.send(b'secret-from-an-earlier-run')
        conn.close()
os.read(ready_r, 1)
"""


def test_an_abstract_socket_carries_nothing_to_the_next_run(sandbox):
    with sandbox.slot() as slot:
        outputs = [run_py(slot, LEAVE_SOCKET)[0].strip() for _ in range(3)]
    assert outputs == ["none"] * 3


def test_an_abstract_socket_carries_nothing_to_a_queued_run(sandbox):
    """The next run is made while this one goes: its network namespace must still be its own."""
    outs = [os.memfd_create(f"out{i}") for i in range(3)]
    try:
        with sandbox.slot() as slot:
            for fd in outs:
                slot.start([PY, "-c", LEAVE_SOCKET], stdin=b"", stdout=fd, stderr=fd, limits=LIMITS)
            for _ in outs:
                slot.wait()
        assert [os.pread(fd, 4096, 0).decode().strip() for fd in outs] == ["none"] * 3
    finally:
        for fd in outs:
            os.close(fd)


# Fills the run's process limit with children that hold memory (so that dying takes them a while).
FORK_STORM = """
import os, time
try:
    while True:
        if os.fork() == 0:
            hoard = bytearray(16 << 20)
            for i in range(0, len(hoard), 4096):
                hoard[i] = 1
            time.sleep(600)
except OSError:
    print('storm')
"""
FORK_20 = "i=0; while [ $i -lt 20 ]; do true & i=$((i+1)); done; wait; echo forked"


def test_a_fork_storm_leaves_the_next_run_free_to_fork(sandbox):
    limits = RunLimits(cpu_ms=5000, nproc=60)
    outs = [os.memfd_create(f"out{i}") for i in range(6)]
    try:
        with sandbox.slot() as slot:
            # queued: each check starts the moment the storm before it has its reply
            for i, fd in enumerate(outs):
                argv = [PY, "-c", FORK_STORM] if i % 2 == 0 else ["/bin/sh", "-c", FORK_20]
                slot.start(argv, stdin=b"", stdout=fd, stderr=fd, limits=limits)
            for _ in outs:
                slot.wait()
        printed = [os.pread(fd, 65536, 0).decode().strip() for fd in outs]
    finally:
        for fd in outs:
            os.close(fd)
    assert printed == ["storm", "forked"] * 3, printed


# What a run sees of the network namespace the runs of a slot share (a run's sockets are made in a
# namespace of its own, at its first one): the namespace, its sockets, counters and devices.
SHOW_SHARED_NETWORK = """
import os
print(os.readlink('/proc/self/ns/net'))
for name in ('unix', 'tcp', 'tcp6', 'udp', 'raw', 'packet', 'dev', 'snmp', 'netstat', 'snmp6'):
    print(open('/proc/net/' + name).read())
"""
# Binds an abstract name (kept past the run: in flight over a socket pair that holds itself), talks TCP
# and UDP over loopback, asks for a raw socket and a netlink one, and tries to bring a device up.
USE_THE_NETWORK = """
import array, fcntl, socket, struct
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(b'\\0cpbot-sealed-inflight')
server.listen()
a, b = socket.socketpair()
a.sendmsg([b'x'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', [server.fileno(), a.fileno(), b.fileno()]))])
listener = socket.socket()
listener.bind(('127.0.0.1', 0))
listener.listen()
client = socket.create_connection(listener.getsockname())
conn, _ = listener.accept()
client.sendall(b'ping')
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
udp.sendto(b'x', ('127.0.0.1', 9))
refused = []
raw = ((socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP), (socket.AF_PACKET, socket.SOCK_RAW, 0))
for family, kind, proto in raw:
    try:
        socket.socket(family, kind, proto)
    except PermissionError:
        refused.append('raw')
nl = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
try:
    fcntl.ioctl(udp.fileno(), 0x8914, struct.pack('16sH', b'lo', 0))  # SIOCSIFFLAGS: lo down
except PermissionError:
    refused.append('ifflags')
print(conn.recv(4).decode(), *refused)
"""
FIND_INFLIGHT = """
import socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect(b'\\0cpbot-sealed-inflight')
    print('found')
except OSError:
    print('none')
"""


def test_a_run_sees_the_same_shared_network_namespace_whatever_the_runs_before_did(sandbox):
    with sandbox.slot() as slot:
        before = run_py(slot, SHOW_SHARED_NETWORK)[0]
        used = [run_py(slot, USE_THE_NETWORK)[0].strip() for _ in range(2)]
        found = run_py(slot, FIND_INFLIGHT)[0].strip()
        after = run_py(slot, SHOW_SHARED_NETWORK)[0]
    assert used == ["ping raw raw ifflags"] * 2, used
    assert found == "none"
    assert after == before
    lines = before.splitlines()
    tcp = [line.split() for line in lines if line.startswith("Tcp:")]
    assert dict(zip(tcp[0], tcp[1], strict=True))["ActiveOpens"] == "0", before
    assert sandbox.isolation["network"] == "namespace-per-run(on-first-socket)"


def test_nothing_can_change_the_shared_network_namespace_without_a_socket(sandbox):
    """Its sysctls belong to the namespace's root; devices, addresses and routes need a socket."""
    attempt = (
        "import os\n"
        "for name in ('ipv4/ping_group_range', 'core/somaxconn', 'ipv4/ip_forward', 'ipv4/ip_local_port_range'):\n"
        "    try:\n"
        "        open('/proc/sys/net/' + name, 'w').write('1\\n')\n"
        "        print('wrote', name)\n"
        "    except OSError as e:\n"
        "        print('refused', e.errno)\n"
    )
    with sandbox.slot() as slot:
        out, result = run_py(slot, attempt)
    assert result.ok and out.split() == ["refused", "13"] * 4, out


def test_programs_using_sockets_work_inside_their_run(sandbox):
    """A socket pair, asyncio (its own socket pair inside), a TCP server and client on loopback."""
    with sandbox.slot() as slot:
        out, result = run_py(slot, PY_NET_USE)
    assert result.ok and out.strip() == "net-ok tcp", out


LOCKS = """
import fcntl, os, struct, sys
results = []
def attempt(name, fn):
    try:
        fn()
        results.append(name + ':ok')
    except OSError as e:
        results.append(name + ':' + (e.strerror or str(e)))
shared = open(sys.executable, 'rb')
mine = open('mine', 'w+')
flock = struct.pack('hhqqi', fcntl.F_RDLCK, 0, 0, 0, 0)
attempt('flock', lambda: fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB))
attempt('setlk', lambda: fcntl.fcntl(shared, fcntl.F_SETLK, flock))
attempt('getlk', lambda: fcntl.fcntl(shared, fcntl.F_GETLK, flock))
attempt('ofd', lambda: fcntl.fcntl(shared, 37, flock))  # F_OFD_SETLK
attempt('lease', lambda: fcntl.fcntl(mine, fcntl.F_SETLEASE, fcntl.F_RDLCK))
attempt('notify', lambda: fcntl.fcntl(os.open('.', os.O_RDONLY), fcntl.F_NOTIFY, fcntl.DN_ACCESS))
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(0)
results.append('inotify:' + ('ok' if fd >= 0 else os.strerror(ctypes.get_errno())))
print('|'.join(results))
"""


def test_no_lock_or_watch_can_be_taken_on_any_file(sandbox):
    """Locks on the files every run shares (the interpreter, libc, the staged program) would be a
    channel between runs; the whole class is refused, whatever the file."""
    with sandbox.slot() as slot:
        out, result = run_py(slot, LOCKS)
    assert result.ok, out
    fields = dict(item.split(":", 1) for item in out.strip().split("|"))
    assert fields == {name: "No locks available" for name in ("flock", "setlk", "getlk", "ofd", "lease", "notify")} | {
        "inotify": "Operation not permitted"
    }, out
    assert sandbox.isolation["file_locks"] == "refused(seccomp)"


def test_two_slots_run_at_once_without_sharing_a_lock(sandbox):
    """The attack the lock rule stops: one run holds a lock on a shared file, another probes it."""
    holder = "import fcntl, sys, time\nfcntl.flock(open(sys.executable, 'rb'), fcntl.LOCK_EX)\nprint('held')\n"
    results: list[str] = []
    with sandbox.slots(2) as (a, b):
        thread = threading.Thread(target=lambda: results.append(run_py(a, holder)[0]))
        thread.start()
        results.append(run_py(b, holder)[0])
        thread.join()
    assert not any("held" in r for r in results), results


def test_a_run_cannot_spread_to_the_cpu_of_another_slot(sandbox):
    """Slots are pinned one CPU each; a program's own sched_setaffinity (for itself, a thread, a child)
    is narrowed to its slot's CPU, and moving to another CPU alone is refused (as under a cpuset)."""
    if sandbox.isolation["cpu"] == "any":
        pytest.skip("slots are not pinned on a machine with one CPU")
    with sandbox.slot() as slot:
        out, result = run_py(slot, PY_AFFINITY)
    assert result.ok and out.strip() == "kept Invalid argument", out
    assert sandbox.isolation["cpu"] == "one-per-slot(contained)"


def test_warm_python_programs_are_sealed_alike(sandbox):
    """A judged Python program forks from the slot's warm interpreter: its sockets and affinity go the
    same way (the warm program's process sets its filter up itself, ahead of its turn)."""
    cases = [
        (PY_NET_CHANNEL, "none opens-0\n", 3),
        (PY_NET_USE, "net-ok tcp\n", 1),
        (PY_AFFINITY, "kept Invalid argument\n" if sandbox.isolation["cpu"] != "any" else None, 2),
    ]
    for source, expected, count in cases:
        tests = [TestCase(input="", output=expected, name=f"t{i}") for i in range(count)]
        solution = Solution(language="python3", source=source)
        report = judge_solution(solution, tests, limits=Limits(time_ms=5000), sandbox=sandbox)
        assert [r.verdict for r in report.results] == [Verdict.AC] * count, [r.stdout for r in report.results]
