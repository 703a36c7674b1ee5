"""Per-test judge time of this checkout's launcher against other launcher sources, measured in one run.

Judges the trivial program of judge_overhead.py (read a line, print it; C++, or Python from a warm
interpreter with `--lang python3`) through a sandbox built from each launcher source, and runs it with
bare `subprocess.run`; the batches alternate so that
machine noise hits all alike. Prints the median per-test time of each, its ratio to bare, and its
difference to this checkout's. A source may be another checkout's launcher.c (main's, for before and
after) or a copy with one part of the seal taken out (for what that part costs per run). As root with a
cgroup-v1 cpuacct hierarchy, each launcher is started in a cpuacct cgroup of its own, and the CPU time
of all its processes per test is printed too: steadier than the time on a loaded machine (work the kernel
does in its own threads, such as tearing a network namespace down, is in no cgroup and not counted).

    python scripts/perf/launcher_ab.py --source main=/tmp/seal-base/judge/sandbox/launcher.c [--runs 600]
        [--batch 50] [--lang python3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from cpbot.judge.build import build_solution
from cpbot.judge.checkers import builtin_checker
from cpbot.judge.languages.python import default_warm_python
from cpbot.judge.model import Limits, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_program
from cpbot.judge.sandbox import Sandbox, build

ECHO_PY = "print(input())\n"
ECHO = '#include <bits/stdc++.h>\nint main() { std::string s; std::getline(std::cin, s); std::cout << s << "\\n"; }\n'
LINE = "hello judge\n"


CPUACCT = Path("/sys/fs/cgroup/cpuacct")


def own_cpuacct() -> Path | None:
    """This process's cpuacct cgroup, where one can be made below it (root, cgroup v1)."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, rel = line.split(":", 2)
        if "cpuacct" in controllers.split(",") and os.geteuid() == 0:
            return CPUACCT / rel.lstrip("/")
    return None


@contextmanager
def launcher_from(source: bytes | None) -> Iterator[None]:
    """Launchers (and warm Python's launcher library) built meanwhile are built from `source` (None: this
    checkout's), by the judge's own builder and cache."""
    if source is None:
        yield
        return
    original = build.launcher_source
    build.launcher_source = lambda: source  # type: ignore[method-assign]
    try:
        yield
    finally:
        build.launcher_source = original  # type: ignore[method-assign]


@contextmanager
def in_cgroup(group: Path | None, parent: Path | None) -> Iterator[None]:
    """Processes started meanwhile start in cpuacct cgroup `group`."""
    if group is None or parent is None:
        yield
        return
    (group / "cgroup.procs").write_text(str(os.getpid()))
    try:
        yield
    finally:
        (parent / "cgroup.procs").write_text(str(os.getpid()))


def remove_when_empty(group: Path) -> None:
    """Remove a cgroup once the processes of a closed sandbox have left it (they may still be exiting)."""
    for _ in range(200):
        try:
            group.rmdir()
            return
        except OSError:
            time.sleep(0.05)
    group.rmdir()


def cpu_ns(group: Path | None) -> int:
    return int((group / "cpuacct.usage").read_text()) if group else 0


def bare_argv(program: object, lang: str) -> list[str]:
    """The command a bare run uses: the C++ binary, or python3 on the staged source."""
    argv = list(program.argv)  # type: ignore[attr-defined]
    return argv if lang == "cpp17" else ["/usr/bin/python3", argv[-1]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", action="append", default=[], metavar="NAME=PATH", help="another launcher.c")
    parser.add_argument("--runs", type=int, default=600, help="tests judged (and bare runs) per launcher")
    parser.add_argument("--batch", type=int, default=50, help="tests per judge_program call")
    parser.add_argument("--lang", choices=["cpp17", "python3"], default="cpp17", help="python3: warm Python")
    args = parser.parse_args()
    sources: dict[str, bytes | None] = {"this": None}
    for item in args.source:
        name, _, path = item.partition("=")
        sources[name] = Path(path).read_bytes()
    batches = max(1, args.runs // args.batch)
    checker = builtin_checker("tokens")
    assert checker is not None
    tests = [TestCase(input=LINE, output=LINE, name=f"echo-{i}") for i in range(args.batch)]
    limits = Limits(time_ms=2000, memory_mb=256)
    parent = own_cpuacct()
    groups: dict[str, Path | None] = {}
    cpu: dict[str, list[float]] = {name: [] for name in sources}
    solution = Solution(language=args.lang, source=ECHO if args.lang == "cpp17" else ECHO_PY)
    with ExitStack() as stack:
        boxes, programs = {}, {}
        for name, source in sources.items():
            groups[name] = parent / f"launcher-ab-{os.getpid()}-{name}" if parent else None
            if groups[name] is not None:
                groups[name].mkdir()
                stack.callback(remove_when_empty, groups[name])  # once the sandbox is closed (run in reverse)
            with launcher_from(source), in_cgroup(groups[name], parent):
                warm = default_warm_python() if args.lang == "python3" else None
                boxes[name] = stack.enter_context(Sandbox(2, warm_python=warm))
                programs[name] = build_solution(solution, boxes[name]).program
                # a slot's warm interpreter starts at its first program: here (both slots), of this source
                judge_program(programs[name], tests[:2], limits=limits, checker=checker, sandbox=boxes[name], jobs=2)
        times: dict[str, list[float]] = {name: [] for name in ["bare", *boxes]}
        for _ in range(batches):
            for name, box in boxes.items():
                started, used = time.perf_counter(), cpu_ns(groups[name])
                report = judge_program(programs[name], tests, limits=limits, checker=checker, sandbox=box, jobs=1)
                times[name].append((time.perf_counter() - started) * 1000 / args.batch)
                cpu[name].append((cpu_ns(groups[name]) - used) / 1e6 / args.batch)
                assert report.verdict == Verdict.AC, (name, report.reason)
            argv = bare_argv(programs["this"], args.lang)
            started = time.perf_counter()
            for _ in range(args.batch):
                out = subprocess.run(argv, input=LINE.encode(), capture_output=True)
                assert out.stdout == LINE.encode()
            times["bare"].append((time.perf_counter() - started) * 1000 / args.batch)
        median = {name: statistics.median(values) for name, values in times.items()}
        load = os.getloadavg()[0]
        print(f"runs: {batches * args.batch} of each ({batches} batches of {args.batch}); load at the end {load:.1f}")
        print(f"network: {boxes['this'].isolation['network']}")
        print(f"bare subprocess.run median: {median['bare']:.3f} ms")
        for name in boxes:
            ratio = median[name] / median["bare"]
            print(
                f"judge per-test median, {name:>12}: {median[name]:.3f} ms  ratio to bare {ratio:.2f}"
                f"  this - {name}: {median['this'] - median[name]:+.3f} ms"
            )
        if parent is not None:
            used = {name: statistics.median(values) for name, values in cpu.items()}
            for name in boxes:
                print(
                    f"launcher CPU per test (all its processes, program included), {name:>12}: {used[name]:.3f} ms"
                    f"  this - {name}: {used['this'] - used[name]:+.3f} ms"
                )


if __name__ == "__main__":
    main()
