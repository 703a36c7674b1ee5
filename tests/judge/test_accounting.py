"""Every process of a run is counted, and a TLE says why: starved by a busy machine, or sleeping.

The sampled accounting of a normal user runs in test_hostile.py's normal-user suite; here, root's
cgroups and the starved-or-sleeping diagnosis through the launcher."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cpbot.judge.model import Limits, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_solution
from cpbot.judge.sandbox import RunLimits
from cpbot.judge.verdicts import classify

ROOT = os.geteuid() == 0
PY = "/usr/bin/python3"


@pytest.mark.skipif(not ROOT, reason="cgroups are root's")
def test_root_counts_with_a_cgroup_per_run(sandbox):
    assert sandbox.isolation["accounting"] == "cgroup-v1(cpuacct,memory,pids)-per-run"


@pytest.mark.skipif(not ROOT, reason="cgroups are root's")
@pytest.mark.parametrize(
    ("lang", "source"),
    [
        (
            "python3",
            "import os\nfd = os.memfd_create('x')\nfor _ in range(100):\n"
            "    os.write(fd, b'x' * (1 << 20))\nprint(4)\n",
        ),
        (
            "cpp17",
            "#include <cstdio>\n#include <sys/mman.h>\n#include <unistd.h>\n#include <vector>\n"
            "int main() { int fd = memfd_create(\"x\", 0); std::vector<char> b(1 << 20, 'x');\n"
            '  for (int i = 0; i < 100; i++) if (write(fd, b.data(), b.size()) < 0) return 1; printf("4\\n"); }\n',
        ),
    ],
)
def test_memory_a_program_hides_in_a_memfd_counts(lang, source, sandbox):
    report = judge_solution(
        Solution(language=lang, source=source),
        [TestCase(input="", output="4\n")],
        limits=Limits(time_ms=2000, memory_mb=64),
        sandbox=sandbox,
    )
    assert report.verdict == Verdict.MLE, report.results[0].checker_message


SPIN = "while True:\n    pass\n"
# On the given CPU at the highest priority, in a session (and so a scheduler autogroup) of its own.
BURNER = """
import os
os.sched_setaffinity(0, {{{cpu}}})
os.setsid()
open('/proc/self/autogroup', 'w').write('-20')
os.nice(-20)
print('burning', flush=True)
while True:
    pass
"""


@pytest.mark.skipif(not ROOT, reason="a burner that takes the program's CPU needs root's priority")
def test_a_program_starved_of_cpu_is_told_from_a_sleeping_one(sandbox):
    """A burner at the highest priority on the program's CPU leaves it almost none: the run reaches its
    wall limit runnable, and the reason says the machine starved it, not that it slept."""
    limits = Limits(time_ms=500, memory_mb=64)
    run_limits = RunLimits(cpu_ms=600, wall_ms=600)
    with sandbox.slot() as slot:
        assert slot.cpu is not None
        burner = subprocess.Popen([sys.executable, "-c", BURNER.format(cpu=slot.cpu)], stdout=subprocess.PIPE)
        assert burner.stdout is not None and burner.stdout.readline() == b"burning\n"
        try:
            out = os.memfd_create("out")
            starved = slot.run([PY, "-c", SPIN], stdin=b"", stdout=out, stderr=out, limits=run_limits)
        finally:
            burner.kill()
            burner.wait()
            burner.stdout.close()
        sleeping = slot.run(
            [PY, "-c", "import time; time.sleep(5)"], stdin=b"", stdout=out, stderr=out, limits=run_limits
        )
        os.close(out)
    verdict, message = classify(starved, limits, "", 0)
    assert verdict == Verdict.TLE and message.startswith("starved of CPU by a busy machine"), (starved, message)
    # time spent waiting for the CPU stretched the wall limit (up to 4 times) before the kill
    assert starved.wall_ms >= 2 * 600
    verdict, message = classify(sleeping, limits, "", 0)
    assert verdict == Verdict.TLE and message.startswith("idle:") and "sleeping or blocked" in message


@pytest.mark.skipif(not ROOT, reason="cgroups are root's")
def test_the_output_the_judge_keeps_is_not_the_programs_memory(sandbox):
    """40 MB printed under a 32 MB memory limit: the page cache of the judge's output file is charged to
    the run's cgroup, but it is not memory the program holds."""
    source = '#include <cstdio>\nint main() { for (int i = 0; i < (40 << 20) / 8; i++) fputs("1234567 ", stdout); }\n'
    report = judge_solution(
        Solution(language="cpp17", source=source),
        [TestCase(input="")],
        limits=Limits(time_ms=4000, memory_mb=32, output_mb=64),
        sandbox=sandbox,
    )
    result = report.results[0]
    assert result.verdict == Verdict.RAN, result.checker_message
    assert result.peak_kb < 16 * 1024


def _slot_cgroups(pid: int) -> list[str]:
    found = []
    for controller in ("cpuacct", "memory", "pids"):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, names, rel = line.split(":", 2)
            if controller in names.split(","):
                path = f"/sys/fs/cgroup/{controller}{rel.rstrip('/')}/cpbot-{pid}"
                if os.path.isdir(path):
                    found.append(path)
    return found


def _kill_tree(pid: int) -> None:
    """SIGKILL a process and all below it, all found before any is killed (as Ctrl-C's kill does)."""
    from cpbot.bot.app.interrupt import _parents

    parents, found, frontier = _parents(), {pid}, {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    for p in found:
        with contextlib.suppress(ProcessLookupError):  # ended meanwhile
            os.kill(p, signal.SIGKILL)


@pytest.mark.skipif(not ROOT, reason="cgroups are root's")
def test_the_cgroups_of_a_killed_launcher_are_removed_by_the_next_one():
    """A launcher killed with its inits (Ctrl-C's kill of every descendant) cannot remove its cgroup dirs;
    the next launcher started beside them does, once nothing of the dead one is left in them."""
    from cpbot.judge.sandbox import Sandbox

    with Sandbox(1) as first, first.slot() as slot:
        server = slot._plain.proc
        assert len(_slot_cgroups(server.pid)) == 3
        _kill_tree(server.pid)
        server.wait()
        # left behind (unless a launcher another judge started meanwhile already removed them)
        for root in _slot_cgroups(server.pid):
            for _ in range(1000):  # a safety net only: killed processes leave their cgroup at once
                try:
                    runs = [Path(root, name) for name in os.listdir(root) if Path(root, name).is_dir()]
                    if not any((run / "cgroup.procs").read_text().strip() for run in runs):
                        break
                except FileNotFoundError:
                    break  # removed meanwhile
                time.sleep(0.01)
        with Sandbox(1) as second, second.slot():
            assert _slot_cgroups(server.pid) == []
