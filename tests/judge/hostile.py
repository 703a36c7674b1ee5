"""Hostile programs, in C++ and Python, and the planted secrets they hunt for.

Shared by the root test (tests/judge/test_hostile.py) and by the same suite run as a normal user: that
run imports this module in a subprocess started as `nobody` and prints one JSON line per scenario.

Each scenario is judged through the whole Python judge (`judge_solution`). A program that hunts for an
answer prints what it found; the expected output is a secret it cannot compute, so only a found
secret could make it AC. Scenarios about traces between tests run the same program on several tests
and expect every test to start from a clean state.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from cpbot.judge.model import JudgeReport, Limits, Solution, TestCase
from cpbot.judge.runner import judge_solution
from cpbot.judge.sandbox import Sandbox


@dataclass(frozen=True)
class Planted:
    """Secrets planted where a program on this machine could look for them."""

    secret: str  # the answer and the content of every planted file
    tests_dir: Path  # a tests folder the judge reads: cheat.in / cheat.out
    hidden: Path  # a benchmark's hidden answers
    ssh_key: Path
    cookies: Path  # next to the judge's working directory
    answer_file: Path  # an answer file a source may #include

    @property
    def paths(self) -> list[str]:
        return [str(p) for p in (self.tests_dir / "cheat.out", self.hidden / "1.ans", self.ssh_key, self.cookies)]


def plant(base: Path) -> Planted:
    secret = "S" + secrets.token_hex(12)
    tests = base / "tests"
    hidden = base / "bench" / "hidden"
    home = base / "home"
    work = base / "cwd"
    for d in (tests, hidden, home / ".ssh", work):
        d.mkdir(parents=True, exist_ok=True)
    (tests / "cheat.in").write_text("what is the secret\n")
    (tests / "cheat.out").write_text(secret + "\n")
    (hidden / "1.in").write_text("what is the secret\n")
    (hidden / "1.ans").write_text(secret + "\n")
    (home / ".ssh" / "id_rsa").write_text(f"-----BEGIN KEY----- {secret}\n")
    (work / "cookies.txt").write_text(f".example.com\tTRUE\t/\tFALSE\t0\tsession\t{secret}\n")
    answer = base / "answer.h"
    answer.write_text(f"{secret}\n")
    # readable by everyone: only the sandbox, not file permissions, may keep them from a program
    for path in [base, *base.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return Planted(secret, tests, hidden, home / ".ssh" / "id_rsa", work / "cookies.txt", answer)


def _py_hunter(p: Planted) -> str:
    """Looks everywhere a Python program can: known paths, a walk of the disk, /proc of every process."""
    return f"""
import os, sys
SECRET_PATHS = {p.paths!r}
found = []
def grab(path):
    try:
        data = open(path, errors='replace').read(4096)
    except OSError:
        return
    for word in data.split():
        if word.startswith('S') and len(word) == 25:
            found.append(word)
for path in SECRET_PATHS:
    grab(path)
for top in ['/', os.path.expanduser('~')]:
    for root, dirs, files in os.walk(top):
        if root.startswith(('/proc', '/sys', '/usr', '/dev')):
            dirs[:] = []
            continue
        for f in files:
            if f.endswith(('.out', '.ans', '.txt', 'id_rsa', '.h')):
                grab(os.path.join(root, f))
for pid in os.listdir('/proc') if os.path.isdir('/proc') else []:
    if not pid.isdigit():
        continue
    try:
        args = open(f'/proc/{{pid}}/cmdline', 'rb').read().split(b'\\0')
    except OSError:
        continue
    for i, a in enumerate(args):
        text = a.decode(errors='replace')
        grab(f'/proc/{{pid}}/fd/0')
        if text == '--tests' and i + 1 < len(args):
            d = args[i + 1].decode()
            for f in os.listdir(d) if os.path.isdir(d) else []:
                grab(os.path.join(d, f))
        if text.startswith('S') and len(text) == 25:
            found.append(text)
print(found[0] if found else 'nothing')
"""


def _cpp_hunter(p: Planted) -> str:
    paths = ", ".join(f'"{x}"' for x in p.paths)
    return f"""#include <bits/stdc++.h>
#include <dirent.h>
using namespace std;
vector<string> found;
void grab(const string& path) {{
    ifstream in(path);
    string w;
    while (in >> w) if (w.size() == 25 && w[0] == 'S') found.push_back(w);
}}
int main() {{
    for (const char* p : {{{paths}}}) grab(p);
    if (DIR* d = opendir("/proc")) {{
        while (dirent* e = readdir(d)) {{
            if (!isdigit(e->d_name[0])) continue;
            string base = string("/proc/") + e->d_name;
            grab(base + "/fd/0");
            ifstream cmd(base + "/cmdline");
            string all((istreambuf_iterator<char>(cmd)), {{}});
            vector<string> args;
            string cur;
            for (char c : all) {{ if (c) cur += c; else {{ args.push_back(cur); cur.clear(); }} }}
            for (size_t i = 0; i < args.size(); i++) {{
                if (args[i] == "--tests" && i + 1 < args.size()) grab(args[i + 1] + "/cheat.out");
                if (args[i].size() == 25 && args[i][0] == 'S') found.push_back(args[i]);
            }}
        }}
        closedir(d);
    }}
    cout << (found.empty() ? string("nothing") : found[0]) << endl;
}}
"""


def _cpp_include(p: Planted) -> str:
    # the answer file is not C++: were it readable, the compiler would quote it in its error message
    return f'#include "{p.answer_file}"\nint main() {{ return 0; }}\n'


PY_TRACES = """
import os, sys
report = []
# a file, a dir left unwritable, SysV shared memory: all must be gone for the next test
report.append('file-left' if os.path.exists('marker') else 'no-file')
open('marker', 'w').write('x')
os.makedirs('locked/deeper', exist_ok=True)
os.chmod('locked/deeper', 0)
os.chmod('locked', 0)
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
shmid = libc.shmget(0x5eed, 4096, 0o666)
report.append('shm-left' if shmid >= 0 else 'no-shm')
if shmid < 0:
    libc.shmget(0x5eed, 4096, 0o1000 | 0o666)  # IPC_CREAT
os.chmod('.', 0)
print(' '.join(report))
"""

CPP_FILL_DISK = """#include <bits/stdc++.h>
int main() {
    std::vector<char> block(1 << 20, 'x');
    long long total = 0;
    for (int f = 0; f < 64; f++) {
        FILE* out = fopen(("fill" + std::to_string(f)).c_str(), "w");
        if (!out) break;
        bool full = false;
        for (int i = 0; i < 64; i++) {
            size_t n = fwrite(block.data(), 1, block.size(), out);
            total += n;
            if (n < block.size()) { full = true; break; }
        }
        if (fclose(out) != 0 || full) break;
    }
    printf("%lld\\n", total >> 20);
}
"""

PY_ESCAPE = """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWUSER, CLONE_NEWNS = 0x10000000, 0x00020000
results = []
for name, flags in (('userns', CLONE_NEWUSER), ('mountns', CLONE_NEWNS | CLONE_NEWUSER)):
    rc = libc.unshare(flags)
    results.append(f"{name}:{'ok' if rc == 0 else os.strerror(ctypes.get_errno())}")
rc = libc.mount(b'none', b'/box', b'tmpfs', 0, None)
results.append(f"mount:{'ok' if rc == 0 else os.strerror(ctypes.get_errno())}")
rc = libc.umount2(b'/proc', 2)
results.append(f"umount:{'ok' if rc == 0 else os.strerror(ctypes.get_errno())}")
results.append('sys:' + ('present' if os.path.exists('/sys/kernel') else 'absent'))
results.append('dev:' + ','.join(sorted(os.listdir('/dev'))))
results.append('procs:' + str(len([p for p in os.listdir('/proc') if p.isdigit()])))
print('|'.join(results))
"""

CPP_ESCAPE = """#include <sched.h>
#include <sys/mount.h>
#include <cerrno>
#include <cstring>
#include <cstdio>
int main() {
    int a = unshare(CLONE_NEWUSER) == 0 ? 0 : errno;
    int b = mount("none", "/box", "tmpfs", 0, nullptr) == 0 ? 0 : errno;
    printf("userns:%s mount:%s\\n", a ? strerror(a) : "ok", b ? strerror(b) : "ok");
}
"""

# Tests alternate: an attacker signals and renices its process group; a victim in the other slot sleeps
# and then says it lived, with its niceness. Every test must end AC, and the judge must live on.
PY_GROUP_ATTACK = """
import os, signal, sys, time
if sys.stdin.readline().strip() == 'victim':
    time.sleep(1.5)
    print('done', os.getpriority(os.PRIO_PROCESS, 0))
    sys.exit(0)
for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
    signal.signal(sig, signal.SIG_IGN)
try:
    os.setpriority(os.PRIO_PGRP, 0, 19)
except OSError:
    pass
for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
    os.kill(0, sig)
print('done', 0)
"""

CPP_GROUP_ATTACK = """#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
int main() {
    std::string role;
    std::cin >> role;
    if (role == "victim") {
        usleep(1500000);
        printf("done %d\\n", getpriority(PRIO_PROCESS, 0));
        return 0;
    }
    for (int sig : {SIGTERM, SIGHUP, SIGINT}) signal(sig, SIG_IGN);
    setpriority(PRIO_PGRP, 0, 19);
    for (int sig : {SIGTERM, SIGHUP, SIGINT}) kill(0, sig);
    killpg(getpgrp(), SIGTERM);
    printf("done 0\\n");
}
"""

# Locks and watches on files every run shares (the program itself, libc) are refused.
PY_LOCKS = """
import fcntl, sys
try:
    fcntl.flock(open(sys.executable, 'rb'), fcntl.LOCK_SH | fcntl.LOCK_NB)
    print('locked')
except OSError as e:
    print(e.strerror)
"""
CPP_LOCKS = """#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
int main() {
    int fd = open("/proc/self/exe", O_RDONLY);
    struct flock fl = {};
    fl.l_type = F_RDLCK;
    int a = flock(fd, LOCK_SH | LOCK_NB) == 0 ? 0 : errno;
    int b = fcntl(fd, F_SETLK, &fl) == 0 ? 0 : errno;
    int c = fcntl(fd, F_OFD_SETLK, &fl) == 0 ? 0 : errno;
    printf("%s|%s|%s\\n", a ? strerror(a) : "locked", b ? strerror(b) : "locked", c ? strerror(c) : "locked");
}
"""

# Every process of a run counts: a child the program never waits for burns the CPU time (TLE), eight
# children each under the memory limit hold more than it together (MLE), a fork storm is named.
PY_ORPHAN_CPU = """
import os, time
r, w = os.pipe()
if os.fork() == 0:
    start = time.process_time()
    while time.process_time() - start < 3:
        pass
    os.write(w, b'4\\n')
    os._exit(0)
print(os.read(r, 10).decode().strip())
"""
CPP_ORPHAN_CPU = """#include <cstdio>
#include <ctime>
#include <unistd.h>
int main() {
    int p[2];
    if (pipe(p) != 0) return 1;
    if (fork() == 0) {
        while (clock() < 3 * CLOCKS_PER_SEC) {}
        if (write(p[1], "4\\n", 2) != 2) return 1;
        _exit(0);
    }
    char buf[8] = {};
    if (read(p[0], buf, 7) <= 0) return 1;
    printf("%s", buf);
}
"""
# the children hold their memory together: each says it is ready and holds it until the run ends, so the
# run's last sample (taken once the program has exited, before the rest is killed) sees all of them
PY_CHILDREN_MEMORY = """
import os, signal
ready_r, ready_w = os.pipe()
for _ in range(8):
    if os.fork() == 0:
        hoard = bytearray(24 << 20)
        for i in range(0, len(hoard), 4096):
            hoard[i] = 1
        os.write(ready_w, b'x')
        signal.pause()
for _ in range(8):
    os.read(ready_r, 1)
print(4)
"""
CPP_CHILDREN_MEMORY = """#include <cstdio>
#include <cstdlib>
#include <unistd.h>
int main() {
    int ready[2];
    if (pipe(ready) != 0) return 1;
    char c = 'x';
    for (int i = 0; i < 8; i++)
        if (fork() == 0) {
            volatile char* p = (volatile char*)malloc(24 << 20);
            for (int j = 0; j < (24 << 20); j += 4096) p[j] = 1;
            if (write(ready[1], &c, 1) != 1) _exit(1);
            for (;;) pause();
        }
    for (int i = 0; i < 8; i++)
        if (read(ready[0], &c, 1) != 1) return 1;
    printf("4\\n");
}
"""
# A correct program that keeps 100 forked children alive, all sharing the 64 MB it touched before forking:
# the kernel holds those pages once (with the children's own, about 150 MB), where the summed resident
# sizes of the processes come to 6.5 GB.
PY_SHARED_CHILDREN = """
import os, signal
shared = bytearray(64 << 20)
for i in range(0, len(shared), 4096):
    shared[i] = 1
ready_r, ready_w = os.pipe()
for _ in range(100):
    if os.fork() == 0:
        os.write(ready_w, b'x')
        signal.pause()
for _ in range(100):
    os.read(ready_r, 1)
print(4)
"""
# The same sharing, then each child writes every shared page: 8 private copies of 16 MB, though no
# process's resident size grows.
PY_SHARED_THEN_WRITTEN = """
import os, signal
shared = bytearray(16 << 20)
for i in range(0, len(shared), 4096):
    shared[i] = 1
ready_r, ready_w = os.pipe()
for _ in range(8):
    if os.fork() == 0:
        for i in range(0, len(shared), 4096):
            shared[i] = 2
        os.write(ready_w, b'x')
        signal.pause()
for _ in range(8):
    os.read(ready_r, 1)
print(4)
"""
CPP_FORK_STORM = """#include <unistd.h>
int main() {
    for (;;) {
        pid_t p = fork();
        if (p == 0) for (;;) pause();
        if (p < 0) for (;;) pause();
    }
}
"""
# Every test leaves an abstract unix socket bound (in flight over a socket pair that holds itself, so it
# outlives every process of the run) and moves the TCP counters of its network namespace; the next test
# must find neither. The counters a run can read (/proc/net) are those of the namespace every run shares,
# where nothing can be sent: they stay at zero.
PY_NET_CHANNEL = """
import array, socket
lines = [line.split() for line in open('/proc/net/snmp') if line.startswith('Tcp:')]
opens = dict(zip(lines[0], lines[1]))['ActiveOpens']
probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    probe.connect(b'\\0cpbot-net-channel')
    found = 'found'
except OSError:
    found = 'none'
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(b'\\0cpbot-net-channel')
server.listen()
a, b = socket.socketpair()
a.sendmsg([b'x'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', [server.fileno(), a.fileno(), b.fileno()]))])
listener = socket.socket()
listener.bind(('127.0.0.1', 0))
listener.listen()
client = socket.create_connection(listener.getsockname())
conn, _ = listener.accept()
client.sendall(b'ping')
assert conn.recv(4) == b'ping'
print(found, 'opens-' + opens)
"""
CPP_NET_CHANNEL = """#include <arpa/inet.h>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
int main() {
    std::ifstream snmp("/proc/net/snmp");
    std::string head, values, line, opens = "?";
    while (std::getline(snmp, line))
        if (line.rfind("Tcp:", 0) == 0) (head.empty() ? head : values) = line;
    std::istringstream h(head), v(values);
    for (std::string name, value; h >> name && v >> value;)
        if (name == "ActiveOpens") opens = value;
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const char name[] = "cpbot-net-channel-cpp";
    memcpy(addr.sun_path + 1, name, sizeof name - 1);
    socklen_t len = offsetof(sockaddr_un, sun_path) + sizeof name;
    int probe = socket(AF_UNIX, SOCK_STREAM, 0);
    const char* found = connect(probe, (sockaddr*)&addr, len) == 0 ? "found" : "none";
    int server = socket(AF_UNIX, SOCK_STREAM, 0);
    if (bind(server, (sockaddr*)&addr, len) != 0 || listen(server, 8) != 0) return 1;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) return 1;
    int held[3] = {server, pair[0], pair[1]};
    char data = 'x', control[CMSG_SPACE(sizeof held)] = {};
    iovec iov{&data, 1};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof held);
    memcpy(CMSG_DATA(c), held, sizeof held);
    if (sendmsg(pair[0], &msg, 0) != 1) return 1;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in in{};
    in.sin_family = AF_INET;
    in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t inlen = sizeof in;
    if (bind(listener, (sockaddr*)&in, inlen) != 0 || listen(listener, 8) != 0) return 1;
    getsockname(listener, (sockaddr*)&in, &inlen);
    int client = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(client, (sockaddr*)&in, inlen) != 0) return 1;
    int conn = accept(listener, nullptr, nullptr);
    char got[5] = {};
    if (write(client, "ping", 4) != 4 || read(conn, got, 4) != 4 || strcmp(got, "ping") != 0) return 1;
    printf("%s opens-%s\\n", found, opens.c_str());
}
"""
# Programs that use sockets inside their run work as anywhere: a socket pair, asyncio, TCP on loopback.
PY_NET_USE = """
import asyncio, socket
a, b = socket.socketpair()
a.sendall(b'pair')
assert b.recv(4) == b'pair'
async def echo():
    async def handle(reader, writer):
        writer.write(await reader.readline())
        await writer.drain()
        writer.close()
    server = await asyncio.start_server(handle, '127.0.0.1', 0)
    reader, writer = await asyncio.open_connection(*server.sockets[0].getsockname())
    writer.write(b'tcp\\n')
    line = await reader.readline()
    writer.close()
    server.close()
    return line.decode().strip()
print('net-ok', asyncio.run(echo()))
"""
# A run stays on its slot's CPU, whatever affinity it asks for itself, a thread or a child: the CPU of
# the other slot is another run's.
PY_AFFINITY = """
import os, threading
start = os.sched_getaffinity(0)
everything = set(range(os.cpu_count()))
os.sched_setaffinity(0, everything)
thread = threading.Thread(target=lambda: os.sched_setaffinity(0, everything))
thread.start()
thread.join()
go_r, go_w = os.pipe()
child = os.fork()
if child == 0:
    os.read(go_r, 1)  # once its parent has asked for every CPU for it
    os._exit(0 if os.sched_getaffinity(0) == start else 1)
os.sched_setaffinity(child, everything)
os.write(go_w, b'x')
_, status = os.waitpid(child, 0)
try:
    os.sched_setaffinity(0, everything - start)
    elsewhere = 'moved'
except OSError as e:
    elsewhere = e.strerror
print('kept' if os.sched_getaffinity(0) == start and status == 0 else 'spread', elsewhere)
"""
COUNT_LIMITS = Limits(time_ms=1000, memory_mb=64, output_mb=64)
# 100 forks of a 70 MB Python take about a second of CPU on a loaded machine: a limit far from it
SHARED_LIMITS = Limits(time_ms=10000, memory_mb=256, output_mb=64)

LIMITS = Limits(time_ms=2000, memory_mb=256, output_mb=64)


@dataclass(frozen=True)
class Outcome:
    name: str
    verdicts: list[str]
    outputs: list[str]
    report_json: str
    isolation: dict[str, str]


def _judge(
    name: str, lang: str, source: str, tests: list[TestCase], sandbox: Sandbox, limits: Limits = LIMITS
) -> Outcome:
    report: JudgeReport = judge_solution(Solution(language=lang, source=source), tests, limits=limits, sandbox=sandbox)
    return Outcome(
        name,
        [str(r.verdict) for r in report.results] or [str(report.verdict)],
        [r.stdout.strip() if r.stdout.strip() else r.checker_message for r in report.results] or [report.compile_log],
        report.model_dump_json(),
        report.isolation,
    )


def scenarios(p: Planted, sandbox: Sandbox) -> list[Outcome]:
    """Judge every hostile program; a decoy process holds `--tests DIR --api-key SECRET` in its cmdline."""
    cheat = TestCase(input="what is the secret\n", output=p.secret + "\n", name="cheat")
    decoy = subprocess.Popen(
        ["/usr/bin/python3", "-c", "import time; time.sleep(120)", "--tests", str(p.tests_dir), "--api-key", p.secret],
        stdin=subprocess.DEVNULL,
    )
    try:
        outcomes = [
            _judge("py-hunter", "python3", _py_hunter(p), [cheat] * 3, sandbox),
            _judge("cpp-hunter", "cpp17", _cpp_hunter(p), [cheat] * 3, sandbox),
            _judge("cpp-include-answer", "cpp17", _cpp_include(p), [cheat], sandbox),
        ]
    finally:
        decoy.kill()
        decoy.wait()
    clean = [TestCase(input="", output="no-file no-shm\n", name=f"t{i}") for i in range(4)]
    outcomes.append(_judge("py-traces", "python3", PY_TRACES, clean, sandbox))
    outcomes.append(_judge("cpp-fill-disk", "cpp17", CPP_FILL_DISK, [TestCase(input="", name="fill")] * 2, sandbox))
    outcomes.append(_judge("py-escape", "python3", PY_ESCAPE, [TestCase(input="", name="escape")], sandbox))
    outcomes.append(_judge("cpp-escape", "cpp17", CPP_ESCAPE, [TestCase(input="", name="escape")], sandbox))
    roles = [TestCase(input=f"{role}\n", output="done 0\n", name=role) for role in ("victim", "attack") * 3]
    outcomes.append(_judge("py-group-attack", "python3", PY_GROUP_ATTACK, roles, sandbox))
    outcomes.append(_judge("cpp-group-attack", "cpp17", CPP_GROUP_ATTACK, roles, sandbox))
    outcomes.append(_judge("py-locks", "python3", PY_LOCKS, [TestCase(input="", name="lock")], sandbox))
    outcomes.append(_judge("cpp-locks", "cpp17", CPP_LOCKS, [TestCase(input="", name="lock")], sandbox))
    net = [TestCase(input="", output="none opens-0\n", name=f"net{i}") for i in range(3)]
    outcomes.append(_judge("py-net-channel", "python3", PY_NET_CHANNEL, net, sandbox))
    outcomes.append(_judge("cpp-net-channel", "cpp17", CPP_NET_CHANNEL, net, sandbox))
    outcomes.append(_judge("py-affinity", "python3", PY_AFFINITY, [TestCase(input="", name="cpu")] * 2, sandbox))
    use = [TestCase(input="", output="net-ok tcp\n", name="use")]
    outcomes.append(_judge("py-net-use", "python3", PY_NET_USE, use, sandbox))
    four = [TestCase(input="", output="4\n", name="four")]
    for name, lang, source in (
        ("py-orphan-cpu", "python3", PY_ORPHAN_CPU),
        ("cpp-orphan-cpu", "cpp17", CPP_ORPHAN_CPU),
    ):
        outcomes.append(_judge(name, lang, source, four, sandbox, COUNT_LIMITS))
    outcomes += memory_scenarios(sandbox)
    # a long limit: even starved by a loaded machine, the storm reaches the process limit
    outcomes.append(_judge("cpp-fork-storm", "cpp17", CPP_FORK_STORM, four, sandbox, Limits(time_ms=4000)))
    return outcomes


def memory_scenarios(sandbox: Sandbox) -> list[Outcome]:
    """The memory of all a run's processes, each page counted once: children that hold memory of their own
    or write what they share exceed the limit; children that only share do not."""
    four = [TestCase(input="", output="4\n", name="four")]
    outcomes = [
        _judge(name, lang, source, four, sandbox, COUNT_LIMITS)
        for name, lang, source in (
            ("py-children-memory", "python3", PY_CHILDREN_MEMORY),
            ("cpp-children-memory", "cpp17", CPP_CHILDREN_MEMORY),
            ("py-shared-then-written", "python3", PY_SHARED_THEN_WRITTEN),
        )
    ]
    outcomes.append(_judge("py-shared-children", "python3", PY_SHARED_CHILDREN, four, sandbox, SHARED_LIMITS))
    return outcomes


def main() -> None:
    """Run as a normal user: plant under argv[1], run everything, one JSON line per outcome."""
    base = Path(sys.argv[1])
    planted = plant(base / "planted")
    os.chdir(planted.cookies.parent)
    print(json.dumps({"secret": planted.secret}), flush=True)
    with Sandbox(2) as sandbox:
        for outcome in scenarios(planted, sandbox):
            print(json.dumps(outcome.__dict__), flush=True)
    print(json.dumps({"judge_priority": os.getpriority(os.PRIO_PROCESS, 0)}), flush=True)


if __name__ == "__main__":
    main()
