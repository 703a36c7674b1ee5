"""cpbot's edit loop side by side with online-judge-tools (`oj`), each run as a user runs it (the CLIs).

Prints medians of the wall time of:
- judging 5 and 100 tests, C++ and Python: `cpbot judge SOL --tests DIR` (compile cache warm) against
  `oj t -c CMD -d DIR` (C++: the a.out built once, as oj users do);
- an edit-compile-judge loop with a testlib checker: each round edits the solution, then
  `cpbot judge SOL --checker checker.cpp` against `g++ SOL && oj t --judge-command ./checker` (the checker
  built once by hand): the goal is that a re-judge after an edit costs no checker build in cpbot;
- stress to the first counterexample: `cpbot stress` against `oj g/i --hack-actual --hack-expected`.

oj is not a dependency of cpbot: install it into a venv of its own and pass its path, and give testlib.h:

    python3 -m venv /tmp/ojvenv && /tmp/ojvenv/bin/pip install online-judge-tools
    .venv/bin/python scripts/perf/vs_oj.py --oj /tmp/ojvenv/bin/oj --testlib /path/to/testlib.h [--rounds 5]
        [--parts judging,edit,stress]

Run with another checkout's interpreter (its cpbot is the one beside it) to compare two versions.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cpbot.core.dirs import cache_dir

CPBOT = Path(sys.executable).parent / "cpbot"
# the interpreter oj runs Python programs with: the one cpbot judges them with, not a shim on PATH
PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else "python3"

SUM_CPP = """#include <bits/stdc++.h>
using namespace std;
// edit {edit}
int main() {{
    long long n, s = 0, x; cin >> n; for (int i = 0; i < n; i++) {{ cin >> x; s += x; }} cout << s << "\\n";
}}
"""
SUM_PY = "# edit {edit}\nimport sys\nd = sys.stdin.read().split()\nprint(sum(map(int, d[1:1 + int(d[0])])))\n"
CHECKER = """#include "testlib.h"
// run {run}: a checker of its own, so the first judge of this run really builds it
int main(int argc, char* argv[]) {{
    registerTestlibCmd(argc, argv);
    long long want = ans.readLong(), got = ouf.readLong();
    if (want != got) quitf(_wa, "expected %lld, found %lld", want, got);
    quitf(_ok, "%lld", got);
}}
"""
# max of a list, wrong when the maximum is the last element (found at n=2 by either tool)
MAX_WRONG = """#include <bits/stdc++.h>
int main() { int n; std::cin >> n; std::vector<long long> a(n); for (auto& x : a) std::cin >> x;
  long long m = a[0]; for (int i = 0; i + 1 < n; i++) m = std::max(m, a[i]); std::cout << m << "\\n"; }
"""
MAX_BRUTE = "n = int(input())\nprint(max(map(int, input().split())))\n"
GEN = (
    "import random, sys\n"
    "given = len(sys.argv) > 2\n"
    "n, seed = (int(sys.argv[1]), int(sys.argv[2])) if given else (random.randint(1, 10), random.random())\n"
    "r = random.Random(seed)\nprint(n)\nprint(*[r.randint(1, 100) for _ in range(n)])\n"
)


def timed(argv: list[str], cwd: Path, ok: Callable[[int], bool] = lambda rc: True) -> float:
    started = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    took = time.perf_counter() - started
    if not ok(proc.returncode):
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return took


def cached_builds() -> int:
    """How many C++ builds the compile cache holds (a re-judge that builds the checker adds two)."""
    folder = cache_dir() / "build"
    return sum(1 for _ in folder.iterdir()) if folder.is_dir() else 0


def write_tests(folder: Path, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        values = [(i * 7919 + j * 104729) % 1000 for j in range(10)]
        (folder / f"t{i:03d}.in").write_text(f"{len(values)}\n{' '.join(map(str, values))}\n")
        (folder / f"t{i:03d}.out").write_text(f"{sum(values)}\n")


def median_line(label: str, times: list[float]) -> str:
    return f"  {label:<58} median {statistics.median(times):7.2f} s  (n={len(times)}, min {min(times):.2f})"


def judging(work: Path, oj: str, rounds: int) -> None:
    print("judging a correct solution (cpbot judge vs oj t):")
    gxx = shutil.which("g++") or "g++"
    for count in (5, 100):
        tests = work / f"tests{count}"
        write_tests(tests, count)
        for lang, source, name in (("C++", SUM_CPP, "sum.cpp"), ("Python", SUM_PY, "sum.py")):
            folder = work / f"judge-{count}-{name}"
            folder.mkdir()
            (folder / name).write_text(source.format(edit=0))
            if name.endswith(".cpp"):
                subprocess.run([gxx, "-O2", "-std=c++17", name, "-o", "a.out"], cwd=folder, check=True)
                command = "./a.out"
            else:
                command = f"{PYTHON} {name}"
            cp = [str(CPBOT), "judge", name, "--tests", str(tests)]
            timed(cp, folder, lambda rc: rc == 0)  # the compile cache is warm from here on
            ours = [timed(cp, folder, lambda rc: rc == 0) for _ in range(rounds)]
            theirs = [
                timed([oj, "t", "-c", command, "-d", str(tests)], folder, lambda rc: rc == 0) for _ in range(rounds)
            ]
            print(median_line(f"{count} tests, {lang}: cpbot judge", ours))
            print(median_line(f"{count} tests, {lang}: oj t", theirs))


def edit_loop(work: Path, oj: str, testlib: Path, rounds: int) -> None:
    print("edit, compile, judge with a testlib checker (each round edits the solution):")
    folder = work / "edit"
    folder.mkdir(mode=0o700)  # private, as a home folder or mktemp -d is: cpbot stages the checker for the sandbox
    shutil.copy(testlib, folder / "testlib.h")
    (folder / "checker.cpp").write_text(CHECKER.format(run=time.time()))
    write_tests(folder / "tests", 5)
    gxx = shutil.which("g++") or "g++"
    cp = [str(CPBOT), "judge", "sol.cpp", "--tests", "tests", "--checker", "checker.cpp"]
    (folder / "sol.cpp").write_text(SUM_CPP.format(edit="first"))
    first = timed(cp, folder, lambda rc: rc == 0)  # builds the checker (and the precompiled header if new)
    ours, builds = [], []
    for r in range(rounds):
        (folder / "sol.cpp").write_text(SUM_CPP.format(edit=f"cpbot {r} {time.time()}"))
        before = cached_builds()
        ours.append(timed(cp, folder, lambda rc: rc == 0))
        builds.append(cached_builds() - before)
    checker_build = timed([gxx, "-O2", "-std=c++17", "checker.cpp", "-o", "checker"], folder)
    theirs = []
    for r in range(rounds):
        (folder / "sol.cpp").write_text(SUM_CPP.format(edit=f"oj {r} {time.time()}"))
        started = time.perf_counter()
        subprocess.run([gxx, "-O2", "-std=c++17", "sol.cpp", "-o", "a.out"], cwd=folder, check=True)
        timed([oj, "t", "-c", "./a.out", "-d", "tests", "--judge-command", "./checker"], folder, lambda rc: rc == 0)
        theirs.append(time.perf_counter() - started)
    print(
        f"  first cpbot judge (builds the checker once): {first:.2f} s; "
        f"the checker by hand with g++: {checker_build:.2f} s"
    )
    print(median_line("after an edit: cpbot judge --checker checker.cpp", ours))
    print(f"  C++ builds per re-judge after an edit (the solution's is one): {builds}")
    print(median_line("after an edit: g++ sol.cpp && oj t --judge-command ./checker", theirs))


def stress(work: Path, oj: str, rounds: int) -> None:
    print("stress to the first counterexample (cpbot stress vs oj g/i --hack):")
    folder = work / "stress"
    folder.mkdir()
    (folder / "wrong.cpp").write_text(MAX_WRONG)
    (folder / "brute.py").write_text(MAX_BRUTE)
    (folder / "gen.py").write_text(GEN)
    gxx = shutil.which("g++") or "g++"
    subprocess.run([gxx, "-O2", "-std=c++17", "wrong.cpp", "-o", "wrong"], cwd=folder, check=True)
    cp = [str(CPBOT), "stress", "wrong.cpp", "--brute", "brute.py", "--gen", "gen.py"]
    timed(cp, folder, lambda rc: rc == 1)  # builds
    ours = [timed([*cp, "--seed", str(r + 1)], folder, lambda rc: rc == 1) for r in range(rounds)]
    theirs = []
    for r in range(rounds):
        shutil.rmtree(folder / "test", ignore_errors=True)
        argv = [oj, "g/i", "--hack-actual", "./wrong", "--hack-expected", f"{PYTHON} brute.py", f"{PYTHON} gen.py"]
        theirs.append(timed(argv, folder))
        assert any((folder / "test").glob("hack-*.in")), f"oj found no counterexample in round {r}"
    print(median_line("cpbot stress (finds, then shrinks to the smallest input)", ours))
    print(median_line("oj g/i --hack-actual --hack-expected (stops at the first)", theirs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--oj", default="oj", help="the oj executable (in a venv of its own)")
    parser.add_argument("--testlib", type=Path, help="testlib.h, for the edit loop with a testlib checker")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--parts", default="judging,edit,stress", help="which comparisons to run (comma-separated)")
    args = parser.parse_args()
    oj = shutil.which(args.oj) or args.oj
    if not os.access(oj, os.X_OK):
        raise SystemExit(
            f"no oj at {args.oj}: python3 -m venv /tmp/ojvenv && /tmp/ojvenv/bin/pip install online-judge-tools"
        )
    load = os.getloadavg()
    print(
        f"load average at start: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} CPUs; "
        f"medians of {args.rounds}"
    )
    with tempfile.TemporaryDirectory(prefix="cpbot-vs-oj-") as tmp:
        work = Path(tmp)
        os.chmod(work, 0o755)  # as root the sandbox's user must reach the sources
        parts = set(args.parts.split(","))
        if "judging" in parts:
            judging(work, oj, args.rounds)
        if "edit" in parts and args.testlib:
            edit_loop(work, oj, args.testlib, args.rounds)
        elif "edit" in parts:
            print("edit loop skipped: pass --testlib PATH (testlib.h)")
        if "stress" in parts:
            stress(work, oj, args.rounds)
    load = os.getloadavg()
    print(f"load average at end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
