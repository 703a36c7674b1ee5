"""Per-test overhead of the judge against bare `subprocess.run` of the same binary, and Python's against C++'s.

Judges a trivial C++ program (read a line, print it) with the public `judge_program`, one batch of
tests at a time on one slot, and runs the same binary as many times with bare `subprocess.run`; then the
same trivial program in Python, judged in a sandbox whose Python programs fork from a warm interpreter
(the judge's default) and in one that starts a fresh interpreter per test (as before); and the C++ program
again in a sandbox without per-run cgroups (runs counted by sampling), for the cost of the cgroups. Prints
the median per-test time of each (a batch's time divided by its tests) and the ratios.

The machine's speed drifts by a fifth within a minute, so the judged C++ batch and the bare one run side by
side in every round, in alternating order, and the headline ratio is the median over rounds of their
ratio in that round (the ratio of the two medians is printed too, with the quartiles of the round
ratios to show the spread). The other batches run between rounds.

    python scripts/perf/judge_overhead.py [--runs 1000] [--batch 50]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time

from cpbot.judge.build import build_solution
from cpbot.judge.checkers import builtin_checker
from cpbot.judge.languages.python import default_warm_python
from cpbot.judge.model import Limits, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_program
from cpbot.judge.sandbox import Sandbox

ECHO = '#include <bits/stdc++.h>\nint main() { std::string s; std::getline(std::cin, s); std::cout << s << "\\n"; }\n'
ECHO_PY = "print(input())\n"
LINE = "hello judge\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000, help="tests judged (and bare runs) in all")
    parser.add_argument("--batch", type=int, default=50, help="tests per judge_program call")
    args = parser.parse_args()
    batches = max(1, args.runs // args.batch)
    checker = builtin_checker("tokens")
    assert checker is not None
    tests = [TestCase(input=LINE, output=LINE, name=f"echo-{i}") for i in range(args.batch)]
    limits = Limits(time_ms=2000, memory_mb=256)
    with (
        Sandbox(2, warm_python=default_warm_python()) as sandbox,
        Sandbox(2) as fresh,
        Sandbox(2, cgroups=False) as sampled,
    ):
        cpp = build_solution(Solution(language="cpp17", source=ECHO), sandbox).program
        cpp_sampled = build_solution(Solution(language="cpp17", source=ECHO), sampled).program
        py = build_solution(Solution(language="python3", source=ECHO_PY), sandbox).program
        py_fresh = build_solution(Solution(language="python3", source=ECHO_PY), fresh).program
        assert cpp is not None and cpp_sampled is not None and py is not None and py_fresh is not None
        times: dict[str, list[float]] = {"bare": [], "cpp": [], "cpp_sampled": [], "python": [], "python_fresh": []}

        def judged(name: str, program, box: Sandbox) -> None:  # type: ignore[no-untyped-def]
            started = time.perf_counter()
            report = judge_program(program, tests, limits=limits, checker=checker, sandbox=box, jobs=1)
            times[name].append((time.perf_counter() - started) * 1000 / args.batch)
            assert report.verdict == Verdict.AC, report.reason

        def bare() -> None:
            started = time.perf_counter()
            for _ in range(args.batch):
                out = subprocess.run(cpp.argv, input=LINE.encode(), capture_output=True)
                assert out.stdout == LINE.encode()
            times["bare"].append((time.perf_counter() - started) * 1000 / args.batch)

        load_before = os.getloadavg()[0]
        for i in range(batches):
            # the two compared side by side, in alternating order: a drift of the machine's speed hits both
            if i % 2:
                bare()
                judged("cpp", cpp, sandbox)
            else:
                judged("cpp", cpp, sandbox)
                bare()
            judged("cpp_sampled", cpp_sampled, sampled)
            judged("python", py, sandbox)
            judged("python_fresh", py_fresh, fresh)
        median = {name: statistics.median(values) for name, values in times.items()}
        ratios = [judge / bare for judge, bare in zip(times["cpp"], times["bare"], strict=True)]
        quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
        print(f"runs: {batches * args.batch} of each ({batches} batches of {args.batch})")
        print(f"load average (1 min): {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
        print(f"isolation: {sandbox.isolation}")
        print(f"bare subprocess.run median (C++):     {median['bare']:.3f} ms")
        print(f"judge per-test median, C++:           {median['cpp']:.3f} ms (sandboxed run + token check)")
        print(f"judge per-test median, Python (warm): {median['python']:.3f} ms")
        print(f"judge per-test median, Python (fresh interpreter per test): {median['python_fresh']:.3f} ms")
        accounting = sampled.isolation["accounting"]
        print(f"judge per-test median, C++ without cgroups: {median['cpp_sampled']:.3f} ms ({accounting})")
        print(
            f"ratio judge C++ / bare:             {statistics.median(ratios):.3f} (median of the rounds' ratios; "
            f"quartiles {quartiles[0]:.3f}-{quartiles[2]:.3f}; "
            f"ratio of the medians {median['cpp'] / median['bare']:.3f})"
        )
        print(f"cost of the cgroups per test:       {median['cpp'] - median['cpp_sampled']:+.3f} ms")
        print(f"ratio Python (warm) / C++:          {median['python'] / median['cpp']:.2f}")
        print(f"ratio Python (fresh) / C++:         {median['python_fresh'] / median['cpp']:.2f}")


if __name__ == "__main__":
    main()
