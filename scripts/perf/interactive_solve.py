"""`cpbot solve` (the CLI) on an interactive problem with a scripted model: what the answer is called, and what
profiling through the interactor costs.

The problem (tests/judge/data/inversions_problem.json: count the inversions of a hidden permutation, n <= 10^4,
500 ms) has no interactor; the scripted test designer writes one with hidden data and a generator of it, and every
program request gets the same program: `right` (O(n log n)) or `slow` (right, O(n^2)). Each solve runs as a user
runs it, with the default gate, once with the profile (`after`) and once with `--strategy-option profile=false`
(`before`: the gate as it was, when an interactive answer was never profiled).

    python scripts/perf/interactive_solve.py [--runs 3] [--programs right slow] [--cpbot PATH]

Prints one line per solve (status, exit code, wall seconds, model calls, the profile's verdict) and the median wall
time per program and mode, with the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cpbot.testing.population_server import request_kind
from cpbot.testing.scripted_server import Reply, ScriptedServer

DATA = Path(__file__).resolve().parents[2] / "tests" / "judge" / "data"
PROGRAMS = {"right": "inversions_bit.py", "slow": "inversions_pairs.py"}
HIDDEN = ["3\n2 3 1\n", "1\n1\n", "5\n5 4 3 2 1\n", "6\n1 2 3 4 5 6\n"]  # the sample's data first


def designer_reply() -> str:
    interactor = (DATA / "inversions_interactor.py").read_text()
    generator = (DATA / "gen_permutation.py").read_text()
    blocks = "\n".join(f"```text\n{t}```" for t in HIDDEN)
    tests = f"## Tests\n{blocks}\n\n"
    return f"## Interactor\n```python\n{interactor}```\n\n{tests}## Generator\n```python\n{generator}```\n"


def model(program: str):
    """Every program request gets `program`, the interactor writer its interactor; anything else is declined."""
    replies = {"program": f"```python\n{program}```\n", "interactor_writer": designer_reply()}

    def answer(body: dict) -> Reply:
        kind = request_kind("\n".join(str(m.get("content") or "") for m in body["messages"]))
        return Reply(replies.get(kind, "I cannot help with that."))

    return answer


def solve_once(cpbot: str, program: str, profile: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp, ScriptedServer([], default=model(program)) as server:
        command = [
            cpbot, "solve", str(DATA / "inversions_problem.json"), "--lang", "python3", "--json",
            "--base-url", server.base_url, "--model", "m", "--api-key", "k",
        ]  # fmt: skip
        if not profile:
            command += ["--strategy-option", "profile=false"]
        env = {**os.environ, "CPBOT_DATA_DIR": str(Path(tmp) / "data")}
        started = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp, check=False)
        seconds = time.monotonic() - started
    try:
        result = json.loads(done.stdout)
    except ValueError:
        return {"error": done.stderr.strip()[-300:], "seconds": seconds, "exit": done.returncode}
    report = result.get("profile") or {}
    return {
        "status": result["status"], "exit": done.returncode, "seconds": round(seconds, 1), "calls": result["calls"],
        "profile": report.get("reason", "none"), "missing": result.get("missing_evidence", []),
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--programs", nargs="+", choices=sorted(PROGRAMS), default=["right", "slow"])
    parser.add_argument("--cpbot", default=str(Path(sys.executable).parent / "cpbot"))
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    times: dict[tuple[str, str], list[float]] = {}
    for name in args.programs:
        program = (DATA / PROGRAMS[name]).read_text()
        for run in range(1, args.runs + 1):
            for mode, profile in (("before", False), ("after", True)):
                row = solve_once(args.cpbot, program, profile)
                print(f"{name:5} {mode:6} run {run}: {json.dumps(row)}", flush=True)
                times.setdefault((name, mode), []).append(row["seconds"])
    for (name, mode), seconds in times.items():
        print(f"{name:5} {mode:6}: median {statistics.median(seconds):.1f} s wall over {len(seconds)} solves")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
