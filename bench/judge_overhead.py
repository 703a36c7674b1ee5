"""Per-test overhead of the judge against bare `subprocess.run` of the same binary.

Runs a trivial C++ program (read a line, print it) N times (default 1000) each way, interleaved so that
machine noise hits both alike, and prints the medians and their ratio.

    python bench/judge_overhead.py [--runs 1000]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from cpbot.judge.build import build_solution
from cpbot.judge.checkers import builtin_checker
from cpbot.judge.model import Limits, Solution, TestCase
from cpbot.judge.runner import _Judging, prepare_tests
from cpbot.judge.sandbox import Sandbox

ECHO = '#include <bits/stdc++.h>\nint main() { std::string s; std::getline(std::cin, s); std::cout << s << "\\n"; }\n'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    args = parser.parse_args()
    with Sandbox(2) as sandbox:
        program = build_solution(Solution(language="cpp17", source=ECHO), sandbox).program
        assert program is not None
        binary = program.argv[0]
        checker = builtin_checker("tokens")
        assert checker is not None
        workdir = Path(tempfile.mkdtemp(dir=sandbox.root))
        session = _Judging(program, Limits(time_ms=2000, memory_mb=256), checker, None, sandbox, workdir)
        (test,) = prepare_tests([TestCase(input="hello judge\n", output="hello judge\n")], workdir)
        judge_times, bare_times = [], []
        for _ in range(args.runs):
            t = time.perf_counter()
            result, _ = session.run_test(test)
            judge_times.append(time.perf_counter() - t)
            assert result.verdict == "AC"
            t = time.perf_counter()
            out = subprocess.run([binary], input=b"hello judge\n", capture_output=True)
            bare_times.append(time.perf_counter() - t)
            assert out.stdout == b"hello judge\n"
        judge_ms = statistics.median(judge_times) * 1000
        bare_ms = statistics.median(bare_times) * 1000
        print(f"runs: {args.runs}")
        print(f"isolation: {sandbox.isolation}")
        print(f"bare subprocess.run median: {bare_ms:.3f} ms")
        print(f"judge per-test median:      {judge_ms:.3f} ms (sandboxed run + token check)")
        print(f"ratio judge / bare:         {judge_ms / bare_ms:.2f}")


if __name__ == "__main__":
    main()
