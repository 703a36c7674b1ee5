"""`cpbot bench` of AHC001 against its real final standings: where the returned program would have ranked.

The AHC001 folder (tests/fixtures/heuristic/ahc001/: the recorded statement, cpbot's generator and scorer, the
contest's real final standings with published performances) is benched with `ale` through the CLI, the model a
stand-in serving the folder's programs (`cpbot.testing.score_pool_server.file_pool`: the unit squares first, the
greedy as the new method). Prints the returned program's mean score per input, the total scaled to the 1000
system-test inputs, its rank among the 1,381 participants and the performance, and the wall time.

    python scripts/perf/ahc001_bench.py [--hidden 50] [--seeds 4] [--calls 5]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cpbot.testing.score_pool_server import file_pool
from cpbot.testing.scripted_server import ScriptedServer

ROOT = Path(__file__).resolve().parents[2]
AHC001 = ROOT / "tests" / "fixtures" / "heuristic" / "ahc001"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hidden", type=int, default=50, help="hidden seeds the returned program is scored on")
    parser.add_argument("--seeds", type=int, default=4, help="seeds each program of the search is scored on")
    parser.add_argument("--calls", type=int, default=5)
    args = parser.parse_args()
    pool = file_pool([AHC001 / "solutions" / "unit.py", AHC001 / "solutions" / "greedy.py"])
    with tempfile.TemporaryDirectory() as scratch:
        dataset = Path(scratch) / "ahc"
        shutil.copytree(AHC001, dataset / "ahc001", ignore=shutil.ignore_patterns("solutions"))
        problem = json.loads((dataset / "ahc001" / "problem.json").read_text())
        problem["heuristic"]["seeds"] = args.hidden
        (dataset / "ahc001" / "problem.json").write_text(json.dumps(problem))
        with ScriptedServer(default=pool.answer, model="pool") as server:
            env = dict(os.environ, CPBOT_DATA_DIR=str(Path(scratch) / "data"), CPBOT_BASE_URL=server.base_url,
                       CPBOT_API_KEY="sk-pool")  # fmt: skip
            command = [
                sys.executable, "-m", "cpbot", "bench", str(dataset), "--strategy", "ale", "--lang", "python3",
                "--max-calls", str(args.calls), "-j", "1", "--strategy-option", f"seeds={args.seeds}",
                "--strategy-option", "repeats=1", "--model", "pool", "--json",
            ]  # fmt: skip
            started = time.monotonic()
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
            wall = time.monotonic() - started
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return done.returncode
    final = json.loads(done.stdout)["outcomes"][0]["final"]
    mean = final["mean_score"]
    print(f"load average {os.getloadavg()[0]:.1f}; wall {wall:.1f} s")
    print(f"returned program: mean {mean:,.0f} per input on {final['total_tests']} hidden seeds")
    print(f"total over the 1000 system-test inputs: about {mean * 1000:,.0f}")
    print(f"rank {final['rank']} of {final['participants']}, performance {final['performance']}")
    for note in final["placing_notes"]:
        print(f"  {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
