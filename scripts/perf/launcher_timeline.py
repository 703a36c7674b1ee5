"""Where a judged test's time goes in the launcher: a per-test timeline from clock stamps, per launcher source.

Builds a copy of each launcher source with CLOCK_MONOTONIC stamps added at fixed points of a run's init
(the copy appends them to its reply), judges the trivial C++ program of judge_overhead.py through each in
alternating batches (one slot, runs queued as the judge queues them, or one at a time with
`--one-at-a-time`, as judging that stops at the first failure sends them), and prints the median of each
stretch:

- setup: the init made by the server (namespaces) until it waits for a request: mounts, cgroups, filters;
- request -> vfork: from taking its request to forking the program (staging, then waiting for its turn);
- vfork -> exec'd: until the program's process has exec'd (the vfork returns);
- program: exec'd until its exit is seen (the dynamic loader, the program, its exit);
- exit -> reaped: until nothing of the run is left;
- reaped -> reply: totals read, files copied out, reply sent;
- handover: a program's exit until the next program's vfork (the stretch the judge adds between runs);
- cycle: exit to exit of consecutive programs.

    python scripts/perf/launcher_timeline.py --source main=/tmp/seal-base/judge/sandbox/launcher.c
        [--rounds 20] [--batch 50] [--one-at-a-time]
"""

from __future__ import annotations

import argparse
import re
import statistics
from pathlib import Path

from launcher_ab import launcher_from  # this folder is on the path when a script here runs

import cpbot.judge.sandbox.pool as pool
from cpbot.judge.build import build_solution
from cpbot.judge.checkers import builtin_checker
from cpbot.judge.model import Limits, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_program
from cpbot.judge.sandbox import Sandbox
from cpbot.judge.sandbox.build import launcher_source

ECHO = '#include <bits/stdc++.h>\nint main() { std::string s; std::getline(std::cin, s); std::cout << s << "\\n"; }\n'
LINE = "hello judge\n"
SETUP, READY, REQUEST, VFORK, EXECD, EXIT, REAPED, REPLY = range(8)
STRETCHES = {
    "setup": (SETUP, READY),
    "request -> vfork": (REQUEST, VFORK),
    "vfork -> exec'd": (VFORK, EXECD),
    "program": (EXECD, EXIT),
    "exit -> reaped": (EXIT, REAPED),
    "reaped -> reply": (REAPED, REPLY),
}


def stamped(source: str) -> str:
    """The launcher source with stamps; fails loudly when a point is no longer where it was looked for."""
    points = [
        (r"\n(    int ready = mount_run\()", SETUP, "before"),
        (r"\n(    ssize_t len = receive\((?:SOCK_FD, )?buf)", READY, "before"),
        (r"(\n    if \(len <= 0\) _exit\(INIT_JUDGE_GONE\);\n)", REQUEST, "after"),
        (r"\n(        clock_gettime\(CLOCK_MONOTONIC, &t0\);\n        pid = vfork\(\);)", VFORK, "before"),
        (r"(\n    if \(pid == 0\) exec_program\(rq, &exec_errno\);\n)", EXECD, "after"),
        (r"\n(    struct rusage ru;\n    int status = 0;\n    while \(wait4\()", EXIT, "before"),
        (r"(\n[^\n]*reap_all\(pid\);\n)", REAPED, "after"),
        (r"(killed, exec_errno, got, wait_us, totals\);\n)", REPLY, "after"),
    ]
    for pattern, index, where in points:
        stamp = f"    STAMP({index});\n"
        source, n = re.subn(pattern, _inserter(stamp, where), source, count=1)
        if n != 1:
            raise SystemExit(f"launcher_timeline: stamp point {index} not found ({pattern})")
    define = (
        "static long stamps[8];\n#define STAMP(i) do { struct timespec ts_; clock_gettime(CLOCK_MONOTONIC, &ts_); "
        "stamps[i] = ts_.tv_sec * 1000000000L + ts_.tv_nsec; } while (0)\n"
    )
    source = source.replace("static void kill_all(pid_t pid) {", define + "static void kill_all(pid_t pid) {", 1)
    append = (
        '    { size_t on = strlen(out); snprintf(out + on, sizeof out - on, " stamps=");\n'
        "      for (int i = 0; i < 8; i++) {\n"
        '        on = strlen(out); snprintf(out + on, sizeof out - on, "%ld,", stamps[i]);\n'
        "      } }\n"
    )
    return source.replace(f"    STAMP({REPLY});\n", f"    STAMP({REPLY});\n" + append, 1)


def _inserter(stamp: str, where: str):  # type: ignore[no-untyped-def]
    def insert(m: re.Match[str]) -> str:
        text = m.group(1)
        if where == "before":
            return "\n" + stamp + text
        return text + stamp

    return insert


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", action="append", default=[], metavar="NAME=PATH", help="another launcher.c")
    parser.add_argument("--rounds", type=int, default=20, help="batches judged per launcher")
    parser.add_argument("--batch", type=int, default=50, help="tests per judge_program call")
    parser.add_argument("--one-at-a-time", action="store_true", help="as judging that stops at the first failure")
    args = parser.parse_args()
    sources = {"this": launcher_source().decode()}
    for item in args.source:
        name, _, path = item.partition("=")
        sources[name] = Path(path).read_text()
    replies: dict[int, list[str]] = {}
    receive = pool._Server.receive

    def keep(server: pool._Server) -> str:
        reply = receive(server)
        replies.setdefault(id(server), []).append(reply)
        return reply

    pool._Server.receive = keep  # type: ignore[method-assign]
    checker = builtin_checker("tokens")
    assert checker is not None
    tests = [TestCase(input=LINE, output=LINE, name=f"echo-{i}") for i in range(args.batch)]
    limits = Limits(time_ms=2000, memory_mb=256)
    boxes, programs = {}, {}
    for name, source in sources.items():
        with launcher_from(stamped(source).encode()):  # built by the judge's own builder, into its cache
            boxes[name] = Sandbox(2)
        programs[name] = build_solution(Solution(language="cpp17", source=ECHO), boxes[name]).program
    try:
        for _ in range(args.rounds):
            for name, box in boxes.items():
                report = judge_program(
                    programs[name],
                    tests,
                    limits=limits,
                    checker=checker,
                    sandbox=box,
                    jobs=1,
                    stop_on_failure=args.one_at_a_time,
                )
                assert report.verdict == Verdict.AC, (name, report.reason)
        for name, box in boxes.items():
            print(f"== {name}")
            for label, values in timeline([replies.get(id(slot._plain), []) for slot in box._all], args.batch):
                print(f"   {label:18s} {statistics.median(values):8.1f} us")
    finally:
        for box in boxes.values():
            box.close()


def timeline(per_slot: list[list[str]], batch: int) -> list[tuple[str, list[float]]]:
    """Each stretch's durations (microseconds) over the tests of every slot, a batch's first 3 left out."""
    found: dict[str, list[float]] = {label: [] for label in [*STRETCHES, "handover", "cycle"]}
    for replies in per_slot:
        stamps = [[int(v) for v in re.search(r"stamps=(\S+)", r).group(1).strip(",").split(",")] for r in replies]
        for i, now in enumerate(stamps):
            if i % batch < 3:
                continue
            for label, (start, end) in STRETCHES.items():
                found[label].append((now[end] - now[start]) / 1000)
            found["handover"].append((now[VFORK] - stamps[i - 1][EXIT]) / 1000)
            found["cycle"].append((now[EXIT] - stamps[i - 1][EXIT]) / 1000)
    return [(label, values) for label, values in found.items() if values]


if __name__ == "__main__":
    main()
