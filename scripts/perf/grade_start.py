"""The `cpbot grade` command as a user runs it: its wall time, its start (until the first program runs) and the
CPU of its own process (the driver) apart from the sandbox's, against other checkouts in alternating rounds.

Each round runs `cpbot grade DATASET GENERATIONS -j JOBS --lcb-preamble -o FILE` in a fresh process of each
checkout's own `.venv` (this one first, then every `--compare` checkout), with the default data and cache
dirs, and prints per round and as medians:

- `first_run_s`: from the process's exec to the first program it hands the sandbox (a syntax precheck);
- `first_test_s`: to the first test of a generation;
- `wall_s`: the whole command (imports, reading, grading, the evaluation file, shutting the sandbox down);
- `driver_cpu_s`: the CPU of the command's own process (all its threads), `sandbox_cpu_s` that of its children
  (the launchers, the warm interpreters and every program they ran);
- whether the evaluation file is the first checkout's first one (`same_eval_file`), but for the CPU times the
  programs took (a passing generation's `execution time`, a TLE's "CPU time N ms"), which no two runs share.

The first runs are seen by wrapping `Slot.start` in the measured process (nothing else of it is touched).

    python scripts/perf/grade_start.py DATASET.jsonl[.gz] GENERATIONS.json[.gz] [--rounds 3] [--jobs 2]
        [--compare /path/to/other/checkout ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from grade_speed import plain_copy  # this folder is on the path when a script here runs

# Run by each checkout's interpreter: `cpbot grade` with its first runs reported on stderr, its CPU at exit.
WRAPPER = r"""
import atexit, os, resource, sys, time
def since_exec():
    ticks = int(open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19])
    started = ticks / os.sysconf("SC_CLK_TCK")
    return time.clock_gettime(time.CLOCK_BOOTTIME) - started
from cpbot.judge.sandbox import pool
start, seen = pool.Slot.start, set()
def first_runs(self, argv, **kwargs):
    test = not any("py-syntax-check" in str(a) for a in argv)
    for what in ("run", "test") if test else ("run",):
        if what not in seen:
            seen.add(what)
            print(f"@first_{what} {since_exec():.4f}", file=sys.stderr, flush=True)
    return start(self, argv, **kwargs)
pool.Slot.start = first_runs
def cpu():
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"@cpu {own.ru_utime + own.ru_stime:.3f} {children.ru_utime + children.ru_stime:.3f}", file=sys.stderr)
atexit.register(cpu)  # registered first, so it runs last: after the sandbox is closed and its servers reaped
from cpbot.bot.cli.main import main
sys.argv = ["cpbot", *sys.argv[1:]]
sys.exit(main())
"""


def without_times(path: Path) -> list[dict[str, Any]]:
    """The evaluation file with the programs' measured CPU times left out."""
    entries = json.loads(path.read_text(encoding="utf-8"))
    for entry in entries:
        metadata = [json.loads(m) for m in entry["metadata"]]
        for m in metadata:
            m.pop("execution time", None)
            if "error" in m:
                m["error"] = re.sub(r"CPU time \d+ ms", "CPU time N ms", m["error"])
        entry["metadata"] = metadata
    return entries


def one_round(checkout: Path, argv: list[str]) -> dict[str, Any]:
    python = checkout / ".venv" / "bin" / "python"
    started = time.perf_counter()
    proc = subprocess.Popen(
        [str(python), "-c", WRAPPER, *argv], cwd=checkout, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    assert proc.stderr is not None
    found: dict[str, Any] = {}
    for line in proc.stderr:
        if line.startswith("@first_"):
            name, value = line[1:].split()
            found[f"{name}_s"] = float(value)
        elif line.startswith("@cpu"):
            own, children = line.split()[1:]
            found["driver_cpu_s"], found["sandbox_cpu_s"] = float(own), float(children)
    code = proc.wait()
    found["wall_s"] = round(time.perf_counter() - started, 3)
    if code != 0:
        raise SystemExit(f"{checkout}: cpbot grade exited with {code}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("generations", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--compare", type=Path, action="append", default=[], help="another checkout (its .venv)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    checkouts = [Path(__file__).resolve().parents[2], *(p.resolve() for p in args.compare)]
    with tempfile.TemporaryDirectory(prefix="grade-start-") as name:
        tmp = Path(name)
        dataset, generations = plain_copy(args.dataset, tmp), plain_copy(args.generations, tmp)
        rounds: dict[str, list[dict[str, Any]]] = {str(c): [] for c in checkouts}
        for n in range(args.rounds):
            for i, checkout in enumerate(checkouts):
                out = tmp / f"eval-{i}-{n}.json"
                argv = ["grade", str(dataset), str(generations), "-j", str(args.jobs), "--lcb-preamble", "-o", str(out)]
                found = one_round(checkout, argv)
                found["same_eval_file"] = without_times(out) == without_times(tmp / "eval-0-0.json")
                rounds[str(checkout)].append(found)
                if not args.json:
                    print(f"round {n + 1} {checkout}: {json.dumps(found)}", flush=True)
    medians = {
        checkout: {k: round(statistics.median(r[k] for r in found), 3) for k in found[0] if k != "same_eval_file"}
        for checkout, found in rounds.items()
    }
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"rounds": rounds, "medians": medians, "load_average": load}, indent=2))
        return 0
    print(f"medians of {args.rounds} alternating rounds (load average at the end {load[0]:.2f} {load[1]:.2f}):")
    for checkout, figures in medians.items():
        print(f"  {checkout}: {json.dumps(figures)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
