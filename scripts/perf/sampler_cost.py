"""What the launcher's sampled accounting (no cgroups: a normal user, or `Sandbox(cgroups=False)` as root)
costs, and what it counts, on programs with many processes.

For each program, runs it `--runs` times in one sampled slot and prints medians: the run's wall and CPU
time, the peak memory counted (summed proportional set sizes), the CPU time the launcher's init spent
sampling the run (`sampling_ms`, on the program's CPU), how many proportional-set walks it took and their
CPU time (the last one after the program ended), and the sampling's share of the wall time. The
programs: 100 children sharing 64 MB that sleep (the case summed resident sizes counted as 6.5 GB), 8
children that each allocate 24 MB, and one process that touches 256 MB (sampled by resident size alone).

    .venv/bin/python scripts/perf/sampler_cost.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the hostile programs are the tests' own

from cpbot.judge.sandbox import RunLimits, Sandbox
from tests.judge.hostile import PY_CHILDREN_MEMORY, PY_SHARED_CHILDREN

LONE = """
hoard = bytearray(256 << 20)
for i in range(0, len(hoard), 4096):
    hoard[i] = 1
"""
PROGRAMS = {
    "100 children sharing 64 MB": PY_SHARED_CHILDREN,
    "8 children, 24 MB each": PY_CHILDREN_MEMORY,
    "one process, 256 MB": LONE,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    limits = RunLimits(cpu_ms=20000, wall_ms=60000, nproc=128)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; medians of {args.runs} runs")
    print(
        f"{'program':<28} {'wall ms':>8} {'cpu ms':>7} {'peak MB':>8} {'sampling ms':>11} {'walks':>5} "
        f"{'walks ms':>8} {'share':>6}"
    )
    with Sandbox(1, cgroups=False) as sandbox, sandbox.slot() as slot, tempfile.TemporaryDirectory() as tmp:
        if not sandbox.isolation.get("accounting", "").startswith("sampled"):
            print(f"this sandbox does not sample: {sandbox.isolation.get('accounting')}", file=sys.stderr)
            return 1
        out = Path(tmp) / "out"
        for name, source in PROGRAMS.items():
            runs = [
                slot.run(["/usr/bin/python3", "-c", source], stdin=b"", stdout=out, stderr=out, limits=limits)
                for _ in range(args.runs)
            ]
            if any(not r.ok for r in runs):
                print(f"{name}: a run failed: {runs[0]}", file=sys.stderr)
                return 1
            wall = statistics.median(r.wall_ms for r in runs)
            sampling = statistics.median(r.sampling_ms for r in runs)
            print(
                f"{name:<28} {wall:>8.0f} {statistics.median(r.cpu_ms for r in runs):>7.0f} "
                f"{statistics.median(r.peak_kb for r in runs) / 1024:>8.1f} {sampling:>11.1f} "
                f"{statistics.median(r.walks for r in runs):>5.0f} {statistics.median(r.walks_ms for r in runs):>8.1f} "
                f"{sampling / wall:>6.1%}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
