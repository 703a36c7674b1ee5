"""CPU of the sandbox around a warm Python test: everything the launcher's processes use but the program.

Judges a trivial Python program (read a line, print it; with `--preamble`, LiveCodeBench's preamble first,
as `cpbot grade --lcb-preamble` judges stdin programs; with `--leetcode`, a LeetCode function that adds two
numbers, through cpbot's LeetCode driver) on one slot of a 2-slot sandbox with warm Python, in
batches, and prints per test: the CPU of all the sandbox's processes (as the kernel counts them when they
are reaped), the programs' own CPU as the launcher reports it, the difference (`around`, what
grade_cost.py calls sandbox_around_programs_ms_per_test), the page faults of all those processes, the
judge's own CPU, and the wall time. A sandbox started and used for a few tests, then closed, is measured
apart and taken off, so the figures are per test. With `--compare CHECKOUT` the same script runs from
that checkout (its own .venv) in alternating rounds, and the medians of both are printed.

    python scripts/perf/warm_cost.py [--tests 1000] [--preamble | --leetcode] [--rounds 3] [--compare /tmp/base]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ECHO = "print(input())\n"
ADD = "class Solution:\n    def add(self, a, b):\n        return a + b\n"
FIGURES = ("children_ms", "own_ms", "around_ms", "faults", "judge_ms", "wall_ms")


def children() -> tuple[float, int]:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime, used.ru_minflt


def program_and_test(kind: str) -> tuple[str, str, str]:
    """The source judged, its test's input and expected output."""
    if kind == "leetcode":
        from cpbot.judge.harness import build_program
        from cpbot.judge.model import Method, Param, Signature, Solution

        add = Method(name="add", params=[Param(name=n, type="integer") for n in "ab"], return_type="integer")
        return (
            build_program(Solution(language="python3", source=ADD), Signature(methods=[add])).source,
            "5\n7\n",
            "12\n",
        )
    if kind == "preamble":
        from cpbot.bot.bench.livecodebench import stdin_preamble

        return stdin_preamble() + ECHO, "hello\n", "hello\n"
    return ECHO, "hello\n", "hello\n"


def judged(tests: int, kind: str) -> dict[str, float]:
    """One sandbox's totals over `tests` tests (batches of 50): CPU seconds, faults, the programs' own CPU."""
    from cpbot.judge.build import build_solution
    from cpbot.judge.checkers import builtin_checker
    from cpbot.judge.languages.python import default_warm_python
    from cpbot.judge.model import Limits, Solution, TestCase, Verdict
    from cpbot.judge.runner import judge_program
    from cpbot.judge.sandbox import Sandbox

    source, given, expected = program_and_test(kind)
    checker = builtin_checker("tokens")
    limits = Limits(time_ms=2000, memory_mb=256)
    cpu0, faults0 = children()
    self0 = time.process_time()
    started = time.perf_counter()
    own = 0.0
    with Sandbox(2, warm_python=default_warm_python()) as sandbox:
        program = build_solution(Solution(language="python3", source=source), sandbox).program
        assert program is not None
        done = 0
        while done < tests:
            batch = [TestCase(input=given, output=expected, name=f"t{i}") for i in range(min(50, tests - done))]
            report = judge_program(program, batch, limits=limits, checker=checker, sandbox=sandbox, jobs=1)
            assert report.verdict == Verdict.AC, report.reason
            own += sum(r.cpu_ms for r in report.results) / 1000
            done += len(batch)
    cpu1, faults1 = children()
    return {
        "children": cpu1 - cpu0,
        "own": own,
        "faults": faults1 - faults0,
        "judge": time.process_time() - self0,
        "wall": time.perf_counter() - started,
    }


def per_test(tests: int, kind: str) -> dict[str, float]:
    """The figures per test: a run of `tests` less a run of 10 (the sandbox's start, build and close)."""
    small, large = judged(10, kind), judged(tests + 10, kind)
    d = {k: (large[k] - small[k]) / tests for k in large}
    return {
        "children_ms": 1000 * d["children"],
        "own_ms": 1000 * d["own"],
        "around_ms": 1000 * (d["children"] - d["own"]),
        "faults": d["faults"],
        "judge_ms": 1000 * d["judge"],
        "wall_ms": 1000 * d["wall"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=1000)
    kinds = parser.add_mutually_exclusive_group()
    kinds.add_argument("--preamble", action="store_true", help="LiveCodeBench's preamble before the program")
    kinds.add_argument("--leetcode", action="store_true", help="a LeetCode function through cpbot's driver")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compare", type=Path, help="another checkout (with its .venv) to alternate with")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # one round, as JSON
    args = parser.parse_args()
    kind = "preamble" if args.preamble else "leetcode" if args.leetcode else "plain"
    if args.one:
        print(json.dumps(per_test(args.tests, kind)))
        return
    checkouts = {"this": Path(__file__).resolve().parents[2]}
    if args.compare:
        checkouts["compare"] = args.compare.resolve()
    rounds: dict[str, list[dict[str, float]]] = {name: [] for name in checkouts}
    for _ in range(args.rounds):
        for name, root in checkouts.items():
            python = root / ".venv" / "bin" / "python"
            command = [str(python if python.exists() else sys.executable), __file__, "--one"]
            command += ["--tests", str(args.tests), *([f"--{kind}"] if kind != "plain" else [])]
            out = subprocess.run(command, cwd=root, check=True, capture_output=True, text=True).stdout
            rounds[name].append(json.loads(out.splitlines()[-1]))
            shown = " ".join(f"{k}={v:.3f}" for k, v in rounds[name][-1].items())
            print(f"{name} ({root}): {shown} load={os.getloadavg()[0]:.1f}", flush=True)
    for name, found in rounds.items():
        medians = {k: statistics.median(r[k] for r in found) for k in FIGURES}
        print(f"median of {len(found)}, {name}: " + " ".join(f"{k}={v:.3f}" for k, v in medians.items()))


if __name__ == "__main__":
    main()
