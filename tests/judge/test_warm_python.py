"""Python programs forked from a warm interpreter (WarmPython): each run as fresh as a new interpreter."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cpbot.judge.harness import build_program
from cpbot.judge.languages.python import default_warm_python
from cpbot.judge.model import Method, Param, Signature, Solution
from cpbot.judge.sandbox import RunLimits, Sandbox
from cpbot.judge.sandbox.build import launcher_library_path
from cpbot.judge.sandbox.pool import WARM_SCRIPT

LIMITS = RunLimits(cpu_ms=5000, wall_ms=60000, output_bytes=1 << 20)
WARM = default_warm_python()
pytestmark = pytest.mark.skipif(WARM is None, reason="no CPython interpreter the sandbox can run")


@pytest.fixture(scope="module")
def warm_sandbox():
    with Sandbox(2, warm_python=WARM) as sb:
        yield sb


@pytest.fixture(scope="module")
def cold_sandbox():
    with Sandbox(2) as sb:
        yield sb


def run_python(sandbox: Sandbox, name: str, source: str, *, stdin: bytes = b"", limits: RunLimits = LIMITS, args=()):
    """Run a Python script in `sandbox`: its result, stdout and stderr (the staged dir shown as DIR)."""
    staged = sandbox.stage(name, {"main.py": source.encode()})
    out, err = os.memfd_create("out"), os.memfd_create("err")
    try:
        with sandbox.slot() as slot:
            argv = [*WARM.prefix, str(staged / "main.py"), *args]
            result = slot.run(argv, stdin=stdin, stdout=out, stderr=err, limits=limits)
        shown = [os.pread(fd, 1 << 16, 0).decode().replace(str(staged), "DIR") for fd in (out, err)]
        return result, shown[0], shown[1]
    finally:
        os.close(out)
        os.close(err)


def test_a_python_program_runs_in_a_fork_of_the_warm_interpreter(warm_sandbox, cold_sandbox):
    source = "import sys\nprint('statistics' in sys.modules, sys.argv[1:], input())\n"
    warm, out, _ = run_python(warm_sandbox, "which", source, stdin=b"line\n", args=["x"])
    assert warm.ok and out == "True ['x'] line\n"
    cold, out, _ = run_python(cold_sandbox, "which", source, stdin=b"line\n", args=["x"])
    assert cold.ok and out == "False ['x'] line\n"


def test_a_test_sees_no_module_state_files_or_threads_of_the_test_before(warm_sandbox):
    leave_traces = (
        "import math, os, threading, time\n"
        "math.left_behind = 1\n"
        "open('/box/left', 'w').write('x'); open('/dev/shm/left', 'w').write('x')\n"
        "threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
        "print(threading.active_count())\n"
    )
    look = (
        "import math, os, threading\n"
        "pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())\n"
        "print(hasattr(math, 'left_behind'), os.listdir('/box'), os.listdir('/dev/shm'),\n"
        "      threading.active_count(), pids)\n"
    )
    with warm_sandbox.slot() as slot:
        staged = warm_sandbox.stage("traces", {"leave.py": leave_traces.encode(), "look.py": look.encode()})
        out = os.memfd_create("out")
        first = slot.run([*WARM.prefix, str(staged / "leave.py")], stdin=None, stdout=out, stderr=2, limits=LIMITS)
        assert first.ok and os.pread(out, 100, 0) == b"2\n"
        os.close(out)
        out = os.memfd_create("out")
        second = slot.run([*WARM.prefix, str(staged / "look.py")], stdin=None, stdout=out, stderr=2, limits=LIMITS)
        seen = os.pread(out, 1000, 0).decode()
        os.close(out)
    assert second.ok
    # the init is pid 1 and the program pid 2 of the run's own PID namespace: nothing else lives there
    assert seen == "False [] [] 1 [1, 2]\n"


PROGRAMS = {
    "traceback": "def f():\n    raise ValueError('boom')\nprint('before')\nf()\n",
    "exit-code": "import sys\nprint('out')\nsys.exit(3)\n",
    "exit-message": "import sys\nsys.exit('bye')\n",
    "syntax-error": "print(\n",
    "thread-prints-last": "import threading, time\n"
    "threading.Thread(target=lambda: (time.sleep(0.1), print('thread'))).start()\nprint('main')\n",
    "atexit-and-del": "import atexit\natexit.register(print, 'atexit')\n"
    "class A:\n    def __del__(self):\n        print('del')\na = A()\nprint('main')\n",
    "stdin-forms": "import sys\nfirst = sys.stdin.readline()\nrest = open(0).read()\n"
    "print(repr(first), rest.split())\n",
    "stdout-unflushed-file": "f = open('/box/f', 'w')\nf.write('kept')\nprint(open('/box/f').read() == '')\n",
    # the run's environment only (none of the server's), in os.environ, os.environb and the C one a child gets
    "environment": "import os, subprocess\nprint(sorted(os.environ.items()))\n"
    "print(os.environb == {k.encode(): v.encode() for k, v in os.environ.items()})\n"
    "print(sorted(subprocess.run(['/usr/bin/env'], capture_output=True, text=True).stdout.splitlines()))\n",
    "random-and-recursion": "import random, sys\nsys.setrecursionlimit(10**6)\n"
    "def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\nprint(depth(100000), type(random.random()))\n",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_warm_run_prints_and_exits_as_a_fresh_interpreter(name, warm_sandbox, cold_sandbox):
    warm = run_python(warm_sandbox, name, PROGRAMS[name], stdin=b"1 2\n3 4\n")
    cold = run_python(cold_sandbox, name, PROGRAMS[name], stdin=b"1 2\n3 4\n")
    assert shown(warm) == shown(cold)


def shown(ran: tuple) -> tuple:
    """What a run shows of itself: how it ended, its exit code, stdout and stderr."""
    return ran[0].status, ran[0].exit_code, ran[1], ran[2]


PRELUDE = "from math import *\nfrom collections import *\nimport sys\nsys.setrecursionlimit(5000)\n"
AFTER_PRELUDE = {
    "globals": "print(list(globals()), __name__, __file__ == sys.argv[0], sqrt(4), deque)\n",
    "recursion-limit": "print(sys.getrecursionlimit())\n",
    "traceback-lines": "def f():\n    raise ValueError(floor(2.5))\nf()\n",
    "future-import": "from __future__ import annotations\nprint('compiled')\n",
    "syntax-error": "print(\n",
    # the next run of the slot must find the prelude's names as the prelude left them
    "rebinds-and-mutates": "pi = 3\ndel floor\nimport math\nmath.tau = 0\nprint(pi, 'floor' in globals())\n",
    # at exit the program's globals are dropped, those bound to the prelude's names too
    "finalizers": "class Loud:\n    def __init__(self, name):\n        self.name = name\n"
                  "    def __del__(self):\n        print('bye', self.name)\n"
                  "mine = Loud('mine')\npi = Loud('pi')\ndel floor\nfloor = Loud('floor')\nprint('end')\n",
    "unflushed-files": "e = open(1, 'w', closefd=False)\ne.write('bound to a prelude name\\n')\n"
                       "mine = open(1, 'w', closefd=False)\nmine.write('bound to its own name\\n')\n",
}  # fmt: skip


@pytest.fixture(scope="module")
def prelude_sandbox():
    with Sandbox(2, warm_python=WARM.model_copy(update={"preludes": [PRELUDE]})) as sb:
        yield sb


@pytest.mark.parametrize("name", sorted(AFTER_PRELUDE))
def test_a_program_starting_with_a_prelude_runs_as_if_it_ran_it_itself(name, prelude_sandbox, cold_sandbox):
    source = PRELUDE + AFTER_PRELUDE[name]
    for _ in range(2):  # the second run of a slot after the first changed what the prelude made
        warm = run_python(prelude_sandbox, "prelude-" + name, source)
        cold = run_python(cold_sandbox, "prelude-" + name, source)
        assert shown(warm) == shown(cold)
    same = "print(pi, floor(2.5), sys.getrecursionlimit(), __import__('math').tau > 6)\n"
    assert run_python(prelude_sandbox, "after-" + name, PRELUDE + same)[1] == f"{3.141592653589793} 2 5000 True\n"


def test_a_program_without_the_prelude_gets_nothing_of_it(prelude_sandbox):
    source = "import sys\nprint('sqrt' in globals(), 'deque' in globals(), sys.getrecursionlimit())\n"
    assert run_python(prelude_sandbox, "no-prelude", source)[1] == "False False 1000\n"
    # a source that starts with only some of the prelude's lines runs them itself
    first_line = PRELUDE.split("\n")[0] + "\n"
    assert run_python(prelude_sandbox, "part-prelude", first_line + source)[1] == "True False 1000\n"


ADD = Signature(
    methods=[Method(name="add", params=[Param(name="a", type="integer"), Param(name="b", type="integer")],
                    return_type="integer")]
)  # fmt: skip
COUNTER = Signature(
    kind="design",
    class_name="Counter2",
    methods=[Method(name="Counter2", params=[]), Method(name="bump", params=[Param(name="k", type="integer")],
                                                       return_type="integer")],
)  # fmt: skip
LEETCODE = {
    # the driver's code is the warm server's, run once (its functions' file is the prelude's)
    "driver-run-ahead": (ADD, "class Solution:\n    def add(self, a, b):\n        import sys\n"
                         "        main = sys.modules['__main__']\n"
                         "        return (main._main.__code__.co_filename == '<prelude>') + a + b\n"),
    "raises": (ADD, "class Solution:\n    def add(self, a, b):\n        return a // (b - b)\n"),
    "future-import": (ADD, "from __future__ import annotations\nclass Solution:\n"
                      "    def add(self, a: int, b: int) -> int:\n        return a - b\n"),
    "node-class-changed": (ADD, "ListNode.x = 1\nclass Solution:\n    def add(self, a, b):\n"
                           "        return a + b + hasattr(ListNode, 'y')\nListNode.y = 2\n"),
    "design": (COUNTER, "class Counter2:\n    def __init__(self):\n        self.n = 0\n"
               "    def bump(self, k):\n        self.n += k\n        return self.n\n"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(LEETCODE))
def test_a_leetcode_driver_runs_warm_as_a_fresh_interpreter_runs_it(name, cold_sandbox):
    signature, source = LEETCODE[name]
    program = build_program(Solution(language="python3", source=source), signature).source
    stdin = b'["Counter2","bump","bump"]\n[[],[2],[3]]\n' if signature.kind == "design" else b"5\n7\n"
    with Sandbox(2, warm_python=default_warm_python()) as warm_sandbox:
        for _ in range(2):  # the second run of a slot after the first changed the driver's classes
            warm = run_python(warm_sandbox, "leetcode-" + name, program, stdin=stdin)
            cold = run_python(cold_sandbox, "leetcode-" + name, program, stdin=stdin)
            if name == "driver-run-ahead":
                assert (warm[1], cold[1]) == ("13\n", "12\n")
                continue
            assert shown(warm) == shown(cold)


def test_each_warm_run_draws_its_own_random_numbers(warm_sandbox):
    draws = {run_python(warm_sandbox, "draw", "import random\nprint(random.random())\n")[1] for _ in range(3)}
    assert len(draws) == 3


def test_a_warm_program_holds_no_capability_and_no_fd_of_the_launcher(warm_sandbox):
    source = (
        "import os\n"
        "caps = [l.split()[1] for l in open('/proc/self/status') if l.startswith(('CapEff', 'CapPrm', 'CapAmb'))]\n"
        "print(caps, sorted(os.listdir('/proc/self/fd')))\n"
    )
    result, out, _ = run_python(warm_sandbox, "caps", source)
    assert result.ok
    assert out == "['0000000000000000', '0000000000000000', '0000000000000000'] ['0', '1', '2', '3']\n"  # 3: listdir's


def test_the_cpu_limit_counts_from_the_program_start(warm_sandbox):
    result, _, _ = run_python(warm_sandbox, "spin", "while True:\n    pass\n", limits=RunLimits(cpu_ms=300))
    assert result.killed == "cpu" and result.cpu_ms >= 300


def test_other_commands_of_a_warm_slot_start_as_before(warm_sandbox):
    out = os.memfd_create("out")
    try:
        with warm_sandbox.slot() as slot:
            code = "import sys; print('statistics' in sys.modules)"
            fresh = slot.run([*WARM.prefix, "-c", code], stdin=None, stdout=out, stderr=out, limits=LIMITS)
            assert fresh.ok and os.pread(out, 100, 0) == b"False\n"
            # the warm server ignores SIGXFSZ as Python does; a program exec'd from it gets the default
            big = slot.run(
                ["/bin/sh", "-c", "exec head -c 100000 /dev/zero"],
                stdin=None,
                stdout=out,
                stderr=2,
                limits=RunLimits(cpu_ms=2000, output_bytes=1000),
            )
    finally:
        os.close(out)
    assert big.status == "signaled" and big.signal == 25  # SIGXFSZ


def test_python_and_other_runs_queued_in_one_slot_run_in_turn_and_reply_in_order(warm_sandbox):
    staged = warm_sandbox.stage(
        "turns",
        {
            "turn.py": b"import sys, time\nprint(sys.argv[1], 'start', flush=True)\n"
            b"time.sleep(0.2)\nprint(sys.argv[1], 'end')\nsys.exit(int(sys.argv[1]))\n"
        },
    )
    read_end, write_end = os.pipe()
    with warm_sandbox.slot() as slot:
        for n in (1, 2, 3, 4):
            if n % 2:
                argv = [*WARM.prefix, str(staged / "turn.py"), str(n)]
            else:
                argv = ["/bin/sh", "-c", f"echo {n} start; sleep 0.2; echo {n} end; exit {n}"]
            slot.start(argv, stdin=None, stdout=write_end, stderr=2, limits=LIMITS)
        results = [slot.wait() for _ in range(4)]
    os.close(write_end)
    with os.fdopen(read_end) as f:
        lines = f.read().splitlines()
    assert lines == [f"{n} {mark}" for n in (1, 2, 3, 4) for mark in ("start", "end")]
    assert [r.exit_code for r in results] == [1, 2, 3, 4]


# A stdlib-only client for a normal user: start a warm server, run one Python program marked warm.
NONROOT_CLIENT = """
import os, socket, subprocess, sys
server, script = sys.argv[1].split("|"), sys.argv[2]
ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
subprocess.Popen([*server, "--sock", str(theirs.fileno())], pass_fds=(theirs.fileno(),), env={"LANG": "C.UTF-8"})
theirs.close()
assert ours.recv(4096).startswith(b"ready")
out = os.memfd_create("out")
items = ["cpu_ms=2000", "wall_ms=20000", "nproc=40", "warm=1"]
items += ["arg=/usr/bin/python3", "arg=-I", "arg=-S", "arg=" + script]
socket.send_fds(ours, [b"".join(i.encode() + b"\\0" for i in items)], [os.open("/dev/null", os.O_RDONLY), out, out])
print(ours.recv(4096).decode())
print(os.pread(out, 65536, 0).decode(), flush=True)
"""


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to become a normal user")
def test_a_warm_program_of_a_normal_users_sandbox_holds_no_capability(tmp_path_factory):
    # as a normal user the server holds every capability of its user namespace; a program must not
    world = Path(tempfile.mkdtemp(prefix="cpbot-warm-nonroot-"))
    try:
        os.chmod(world, 0o755)
        shutil.copy(launcher_library_path(), world / "liblauncher.so")
        shutil.copy(WARM_SCRIPT, world / "warm_python.py")
        (world / "work").mkdir()
        (world / "client.py").write_text(NONROOT_CLIENT)
        (world / "prog.py").write_text(
            "import sys\n"
            "caps = [l.split()[1] for l in open('/proc/self/status') if l.startswith(('CapEff', 'CapPrm'))]\n"
            "print('warm' if 'statistics' in sys.modules else 'cold', caps)\n"
        )
        server = [
            "/usr/bin/python3", "-I", "-S", str(world / "warm_python.py"), str(world / "liblauncher.so"),
            "statistics", "3", "/usr/bin/python3", "-I", "-S", "--root", str(world / "work"), "--ro", str(world),
        ]  # fmt: skip
        proc = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3",
             str(world / "client.py"), "|".join(server), str(world / "prog.py")],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    finally:
        shutil.rmtree(world, ignore_errors=True)
    assert "status=exited code=0" in proc.stdout, proc.stdout + proc.stderr
    assert "warm ['0000000000000000', '0000000000000000']" in proc.stdout
