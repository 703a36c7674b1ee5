"""What a program holds outside its processes' own figures is counted, or refused where it cannot be.

Two ways of counting a run: by cgroup (root on this machine; the session `sandbox`), and by sampling its
PID namespace (a normal user; `sampled`, which is root's launcher with cgroups turned off: the same code
path, and test_nonroot.py shows a real normal user gets it too). Memory in tmpfs files and detached
System V segments is added to the sampled peak; memfds and bigger socket and pipe buffers
are refused where runs are sampled.
Every program here would pass unnoticed without that, so none is AC. Nothing waits on the clock.
"""

from __future__ import annotations

import os

import pytest

from cpbot.judge.build import build_solution
from cpbot.judge.languages.python import default_warm_python
from cpbot.judge.model import Limits, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_solution
from cpbot.judge.sandbox import RunLimits, Sandbox

PY = "/usr/bin/python3"
SMALL = Limits(time_ms=2000, memory_mb=64)


@pytest.fixture(scope="module")
def sampled():
    with Sandbox(2, cgroups=False, warm_python=default_warm_python()) as sb:
        assert sb.isolation["accounting"].startswith("sampled")
        yield sb


def judged(sandbox: Sandbox, language: str, source: str, limits: Limits = SMALL) -> tuple[Verdict, str]:
    report = judge_solution(
        Solution(language=language, source=source), [TestCase(input="", output="done")], limits=limits, sandbox=sandbox
    )
    return report.verdict, report.reason


def run(sandbox: Sandbox, source: str) -> tuple[str, object]:
    out = os.memfd_create("out")
    try:
        with sandbox.slot() as slot:
            result = slot.run(
                [PY, "-c", source], stdin=b"", stdout=out, stderr=out, limits=RunLimits(cpu_ms=20000, wall_ms=60000)
            )
        return os.pread(out, 65536, 0).decode(), result
    finally:
        os.close(out)


# 150 MB in files of the run's own tmpfs dirs (its work dir and /dev/shm), no process mapping them
PY_TMPFS = """
with open("/dev/shm/held", "wb") as f:
    for _ in range(50):
        f.write(b"x" * (1 << 20))
with open("held", "wb") as f:
    for _ in range(100):
        f.write(b"x" * (1 << 20))
print("done")
"""
CPP_TMPFS = """#include <bits/stdc++.h>
int main() {
  std::string mb(1 << 20, 'x');
  FILE *a = fopen("/dev/shm/held", "wb"), *b = fopen("held", "wb");
  for (int i = 0; i < 50; i++) fwrite(mb.data(), 1, mb.size(), a);
  for (int i = 0; i < 100; i++) fwrite(mb.data(), 1, mb.size(), b);
  fclose(a); fclose(b);
  puts("done");
}
"""
# 256 MB of System V shared memory, written 8 MB at a time, each attached only while it is written: at
# no moment in any process's RSS beyond those 8 MB
PY_SYSV = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
segment = libc.shmget(0, 256 << 20, 0o1600)
for i in range(32):
    address = libc.shmat(segment, None, 0)
    ctypes.memset(address + (i << 23), 1, 1 << 23)
    libc.shmdt(ctypes.c_void_p(address))
print("done")
"""
CPP_SYSV = """#include <bits/stdc++.h>
#include <sys/shm.h>
int main() {
  int id = shmget(IPC_PRIVATE, 256 << 20, 0600);
  for (int i = 0; i < 32; i++) {
    char *p = (char *)shmat(id, nullptr, 0);
    memset(p + (i << 23), 1, 1 << 23);
    shmdt(p);
  }
  puts("done");
}
"""
# 256 MB in memfds never mapped (each under the output limit, which caps a memfd like any file)
PY_MEMFD = """
import os
fds = [os.memfd_create("held") for _ in range(8)]
for fd in fds:
    for _ in range(32):
        os.write(fd, b"x" * (1 << 20))
print("done")
"""
CPP_MEMFD = """#include <bits/stdc++.h>
#include <sys/mman.h>
int main() {
  std::string mb(1 << 20, 'x');
  for (int i = 0; i < 8; i++) {
    int fd = memfd_create("held", 0);
    for (int j = 0; j < 32; j++) if (write(fd, mb.data(), mb.size()) < 0) return 1;
  }
  puts("done");
}
"""


@pytest.mark.parametrize(
    ("language", "source"),
    [("python3", PY_TMPFS), ("cpp17", CPP_TMPFS), ("python3", PY_SYSV), ("cpp17", CPP_SYSV)],
    ids=["py-tmpfs", "cpp-tmpfs", "py-sysv", "cpp-sysv"],
)
@pytest.mark.parametrize("counting", ["cgroup", "sampled"])
def test_memory_held_outside_every_process_is_counted(sandbox, sampled, counting, language, source):
    verdict, reason = judged(sandbox if counting == "cgroup" else sampled, language, source)
    assert verdict == Verdict.MLE, reason


@pytest.mark.parametrize(("language", "source"), [("python3", PY_MEMFD), ("cpp17", CPP_MEMFD)], ids=["py", "cpp"])
def test_memfds_are_counted_by_a_cgroup_and_refused_where_runs_are_sampled(sandbox, sampled, language, source):
    assert judged(sandbox, language, source)[0] == Verdict.MLE
    assert judged(sampled, language, source)[0] == Verdict.RE


# children that each burn 5 ms of CPU under a parent that ignores SIGCHLD (or sets SA_NOCLDWAIT): the
# kernel reaps them itself and their CPU time goes to no one; 400 of them use 2 s
CPP_AUTOREAP = """#include <bits/stdc++.h>
#include <sys/wait.h>
#include <unistd.h>
static long cpu_ns() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}
static void burn() { long start = cpu_ns(); while (cpu_ns() - start < 5000000) {} }
int main() {
  struct sigaction sa = {};
  sa.sa_handler = SIG_IGN;
  sa.sa_flags = MODE;
  sigaction(SIGCHLD, &sa, nullptr);
  int p[2];
  if (pipe(p) < 0) return 1;
  char c;
  for (int i = 0; i < 400; i++) {
    if (fork() == 0) { burn(); if (write(p[1], "x", 1) < 0) _exit(1); _exit(0); }
    if (read(p[0], &c, 1) != 1) return 1;
    while (waitpid(-1, nullptr, WNOHANG) > 0) {}  // a refused disposition leaves zombies: reap them
  }
  puts("done");
}
"""


@pytest.mark.parametrize("mode", ["0", "SA_NOCLDWAIT"], ids=["sig-ign", "nocldwait"])
def test_cpu_time_of_children_the_kernel_reaps_itself_is_counted_by_a_cgroup(sandbox, mode):
    """Where runs are sampled (a normal user) what such a child burns after the last sample is lost: refusing
    SIGCHLD actions would break every shell's `wait` (the README says so)."""
    source = CPP_AUTOREAP.replace("MODE", mode)
    if mode != "0":  # SA_NOCLDWAIT with the default action
        source = source.replace("sa.sa_handler = SIG_IGN;", "sa.sa_handler = SIG_DFL;")
    sb = sandbox
    program = build_solution(Solution(language="cpp17", source=source), sb).program
    assert program is not None
    out = os.memfd_create("out")
    with sb.slot() as slot:  # limits far away: what is measured is the CPU time counted, however slow the machine
        result = slot.run(
            program.argv, stdin=b"", stdout=out, stderr=out, limits=RunLimits(cpu_ms=60000, wall_ms=600000)
        )
    assert os.pread(out, 100, 0) == b"done\n"
    os.close(out)
    assert result.cpu_ms >= 1500, result  # the children burnt 2000 ms


# as many bytes as the run can park in socket and pipe buffers (asking for bigger ones first), up to 256 MB
PY_BUFFERS = """
import array, fcntl, os, socket
sockets = pipes = 0
carrier, _ = socket.socketpair()
try:
    while sockets + pipes < 256 << 20:
        a, b = socket.socketpair()
        try:
            a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
        except OSError:
            pass
        a.setblocking(False)
        try:
            while True:
                sockets += a.send(b"x" * 65536)
        except BlockingIOError:
            pass
        r, w = os.pipe()
        try:
            fcntl.fcntl(w, 1031, 1 << 20)  # F_SETPIPE_SZ
        except OSError:
            pass
        os.set_blocking(w, False)
        try:
            while True:
                pipes += os.write(w, b"x" * 65536)
        except BlockingIOError:
            pass
        # in flight over a socket, closed here: held by the kernel, not by an fd of the run
        fds = array.array("i", [a.fileno(), b.fileno(), r, w])
        carrier.sendmsg([b"f"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
        for fd in (a.detach(), b.detach(), r, w):
            os.close(fd)
except OSError:
    pass
print(sockets >> 20, pipes >> 20)
"""


def test_a_run_parks_little_memory_in_kernel_buffers_where_runs_are_sampled(sampled):
    out, _ = run(sampled, PY_BUFFERS)
    sockets_mb, pipes_mb = map(int, out.split())
    assert sockets_mb + pipes_mb <= 32, out


def test_a_run_cannot_raise_its_open_file_limit(sandbox, sampled):
    source = "import resource\nsoft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\nprint(soft, hard)\n"
    source += (
        "try:\n    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))\nexcept ValueError:\n    print('refused')\n"
    )
    for sb in (sandbox, sampled):
        out, _ = run(sb, source)
        assert out.split() == ["64", "64", "refused"], out
