"""CPU of the sandbox around a warm Python test: everything the launcher's processes use but the program.

Judges a trivial Python program (read a line, print it; with `--preamble`, LiveCodeBench's preamble first,
as `cpbot grade --lcb-preamble` judges stdin programs) on one slot of a 2-slot sandbox with warm Python, in
batches, and prints per test: the CPU of all the sandbox's processes (as the kernel counts them when they
are reaped), the programs' own CPU as the launcher reports it, the difference (`around`, what
grade_cost.py calls sandbox_around_programs_ms_per_test), the page faults of all those processes, the
judge's own CPU, and the wall time. A sandbox started and used for a few tests, then closed, is measured
apart and taken off, so the figures are per test. With `--compare CHECKOUT` the same script runs from
that checkout (its own .venv) in alternating rounds, and the medians of both are printed.

    python scripts/perf/warm_cost.py [--tests 1000] [--preamble] [--rounds 3] [--compare /tmp/base]
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
FIGURES = ("children_ms", "own_ms", "around_ms", "faults", "judge_ms", "wall_ms")


def children() -> tuple[float, int]:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime, used.ru_minflt


def judged(tests: int, preamble: bool) -> dict[str, float]:
    """One sandbox's totals over `tests` tests (batches of 50): CPU seconds, faults, the programs' own CPU."""
    from cpbot.bot.bench.livecodebench import stdin_preamble
    from cpbot.judge.build import build_solution
    from cpbot.judge.checkers import builtin_checker
    from cpbot.judge.languages.python import default_warm_python
    from cpbot.judge.model import Limits, Solution, TestCase, Verdict
    from cpbot.judge.runner import judge_program
    from cpbot.judge.sandbox import Sandbox

    source = (stdin_preamble() if preamble else "") + ECHO
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
            batch = [TestCase(input="hello\n", output="hello\n", name=f"t{i}") for i in range(min(50, tests - done))]
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


def per_test(tests: int, preamble: bool) -> dict[str, float]:
    """The figures per test: a run of `tests` less a run of 10 (the sandbox's start, build and close)."""
    small, large = judged(10, preamble), judged(tests + 10, preamble)
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
    parser.add_argument("--preamble", action="store_true", help="LiveCodeBench's preamble before the program")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compare", type=Path, help="another checkout (with its .venv) to alternate with")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # one round, as JSON
    args = parser.parse_args()
    if args.one:
        print(json.dumps(per_test(args.tests, args.preamble)))
        return
    checkouts = {"this": Path(__file__).resolve().parents[2]}
    if args.compare:
        checkouts["compare"] = args.compare.resolve()
    rounds: dict[str, list[dict[str, float]]] = {name: [] for name in checkouts}
    for _ in range(args.rounds):
        for name, root in checkouts.items():
            python = root / ".venv" / "bin" / "python"
            command = [str(python if python.exists() else sys.executable), __file__, "--one"]
            command += ["--tests", str(args.tests), *(["--preamble"] if args.preamble else [])]
            out = subprocess.run(command, cwd=root, check=True, capture_output=True, text=True).stdout
            rounds[name].append(json.loads(out.splitlines()[-1]))
            shown = " ".join(f"{k}={v:.3f}" for k, v in rounds[name][-1].items())
            print(f"{name} ({root}): {shown} load={os.getloadavg()[0]:.1f}", flush=True)
    for name, found in rounds.items():
        medians = {k: statistics.median(r[k] for r in found) for k in FIGURES}
        print(f"median of {len(found)}, {name}: " + " ".join(f"{k}={v:.3f}" for k, v in medians.items()))


if __name__ == "__main__":
    main()
