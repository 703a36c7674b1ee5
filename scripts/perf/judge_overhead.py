"""Per-test overhead of the judge against bare `subprocess.run` of the same binary.

Judges a trivial C++ program (read a line, print it) with the public `judge_program`, one batch of
tests at a time on one slot, and runs the same binary as many times with bare `subprocess.run`; the
batches alternate so that machine noise hits both alike. Prints the median per-test time of each
(a batch's time divided by its tests) and their ratio.

    python scripts/perf/judge_overhead.py [--runs 1000] [--batch 50]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time

from cpbot.judge.build import build_solution
from cpbot.judge.checkers import builtin_checker
from cpbot.judge.model import Limits, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_program
from cpbot.judge.sandbox import Sandbox

ECHO = '#include <bits/stdc++.h>\nint main() { std::string s; std::getline(std::cin, s); std::cout << s << "\\n"; }\n'
LINE = "hello judge\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000, help="tests judged (and bare runs) in all")
    parser.add_argument("--batch", type=int, default=50, help="tests per judge_program call")
    args = parser.parse_args()
    batches = max(1, args.runs // args.batch)
    with Sandbox(2) as sandbox:
        program = build_solution(Solution(language="cpp17", source=ECHO), sandbox).program
        assert program is not None
        checker = builtin_checker("tokens")
        assert checker is not None
        tests = [TestCase(input=LINE, output=LINE, name=f"echo-{i}") for i in range(args.batch)]
        limits = Limits(time_ms=2000, memory_mb=256)
        judge_ms, bare_ms = [], []
        for _ in range(batches):
            started = time.perf_counter()
            report = judge_program(program, tests, limits=limits, checker=checker, sandbox=sandbox, jobs=1)
            judge_ms.append((time.perf_counter() - started) * 1000 / args.batch)
            assert report.verdict == Verdict.AC, report.reason
            started = time.perf_counter()
            for _ in range(args.batch):
                out = subprocess.run(program.argv, input=LINE.encode(), capture_output=True)
                assert out.stdout == LINE.encode()
            bare_ms.append((time.perf_counter() - started) * 1000 / args.batch)
        judge, bare = statistics.median(judge_ms), statistics.median(bare_ms)
        print(f"runs: {batches * args.batch} ({batches} batches of {args.batch})")
        print(f"isolation: {sandbox.isolation}")
        print(f"bare subprocess.run median: {bare:.3f} ms")
        print(f"judge per-test median:      {judge:.3f} ms (sandboxed run + token check, judge_program)")
        print(f"ratio judge / bare:         {judge / bare:.2f}")


if __name__ == "__main__":
    main()
