"""Where a solve's wall time goes, read from its transcript (`cpbot transcripts show last --json`, the CLI).

Each gap between two events of a solve is put in the phase the solve was in: the phase a `route` note opened
(stress, aimed inputs, profile, ...), or, around the choice among candidates, drawing and judging on the samples
(until `selection filtered`), running the candidates on the probes and grouping them (until `selection grouped`),
and weighing the panel of brute forces and choosing (until `selection chosen`). A model call's own time is
counted as `model` whatever the phase.

    python scripts/perf/solve_time.py DATA_DIR ...          # one solve's data dir each (population.py --keep)
    python scripts/perf/solve_time.py --keep KEEP_ROOT      # every data dir under it

Prints each phase's share of the summed wall time, and its median share per solve.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict
from datetime import datetime
from pathlib import Path

SELECTION_PHASES = {"filtered": "probes and grouping", "grouped": "panel and choosing", "chosen": "after the choice"}


def transcript(data_dir: Path, cpbot: str) -> dict:
    env = {**os.environ, "CPBOT_DATA_DIR": str(data_dir)}
    out = subprocess.run([cpbot, "transcripts", "show", "last", "--json"], env=env, capture_output=True, check=True)
    return json.loads(out.stdout)


def phases(events: list[dict]) -> dict[str, float]:
    """Seconds per phase of one solve's events (in order)."""
    spent: dict[str, float] = defaultdict(float)
    phase = "drawing and the samples"
    times = [datetime.fromisoformat(e["ts"].replace("Z", "+00:00")) for e in events]
    for event, start, end in zip(events, times, times[1:], strict=False):
        payload = event["payload"]
        if event["kind"] == "note" and payload.get("message") == "route":
            phase = str(payload.get("data", {}).get("to", "other"))
        elif event["kind"] == "selection" and payload.get("step") in SELECTION_PHASES:
            phase = SELECTION_PHASES[payload["step"]]
        spent[phase] += (end - start).total_seconds()
    return spent


def model_seconds(run: dict) -> float:
    return sum(call.get("latency_ms", 0) or 0 for call in run.get("llm_calls", [])) / 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", type=Path, nargs="*")
    parser.add_argument("--keep", type=Path, help="a population.py --keep folder: every data dir under it")
    parser.add_argument("--cpbot", default=str(Path(sys.executable).with_name("cpbot")))
    args = parser.parse_args()
    dirs = list(args.dirs) + (sorted(p for p in args.keep.iterdir() if p.is_dir()) if args.keep else [])
    total: dict[str, float] = defaultdict(float)
    shares: dict[str, list[float]] = defaultdict(list)
    walls = []
    for folder in dirs:
        run = transcript(folder, args.cpbot)
        spent = phases(run["events"])
        wall = sum(spent.values())
        if wall <= 0:
            continue
        walls.append(wall)
        for phase, seconds in spent.items():
            total[phase] += seconds
        for phase in set(total) | set(spent):
            shares[phase].append(spent.get(phase, 0.0) / wall)
        total["(of which model calls)"] += model_seconds(run)
    summed = sum(v for k, v in total.items() if not k.startswith("("))
    print(f"{len(walls)} solves, median wall {statistics.median(walls):.1f} s, summed {summed:.0f} s")
    print("| phase | seconds | share of the summed time | median share per solve |")
    print("|---|---|---|---|")
    for phase, seconds in sorted(total.items(), key=lambda kv: -kv[1]):
        median = f"{statistics.median(shares[phase] + [0.0] * (len(walls) - len(shares[phase]))):.0%}"
        print(f"| {phase} | {seconds:.0f} | {seconds / summed:.0%} | {median if phase in shares else '-'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
