"""`cpbot solve` (the CLI) on lab problems whose answers a checker program judges, with that checker hidden from
the solve: the site's view of a "print any" problem (tokens). The population model answers the test designer's
request for a checker with the folder's own (a right designer reply). The returned program is judged on the
lab's hidden tests with the real checker.

    python scripts/perf/print_any.py [--lab tests/fixtures/selection/pair_sum] [--pass-at-1 0.3 0.6] [--seeds 2]
        [--cpbot PATH]   # another checkout's .venv/bin/cpbot, to compare with it

Prints one line per solve (status, hidden AC, whether the result names a written checker, calls, wall
seconds) and a summary per pass@1 (wall time as a median; the machine's load is printed too).
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

from cpbot.bot.lab.dataset import hidden_tests, load_dataset
from cpbot.judge.model import Solution
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import default_sandbox

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lab", type=Path, nargs="+", default=[ROOT / "tests/fixtures/selection/pair_sum"])
    parser.add_argument("--pass-at-1", type=float, nargs="+", default=[0.3, 0.6])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--cpbot", default=str(Path(sys.executable).parent / "cpbot"))
    parser.add_argument("--max-calls", type=int, default=40)
    args = parser.parse_args()
    sandbox = default_sandbox()
    rows: list[dict] = []
    for folder in args.lab:
        (lab,) = load_dataset(folder.parent, only={folder.name})
        judged = lab.problem.model_copy(update={"checker": str((folder / lab.problem.checker).resolve())})
        hidden = hidden_tests(lab, sandbox)
        for pass_at_1 in args.pass_at_1:
            for seed in range(1, args.seeds + 1):
                with tempfile.TemporaryDirectory() as tmp:
                    source = Path(tmp) / "problem.json"
                    # the first layout (no interactor field), so that an older cpbot reads it too
                    tokens = lab.problem.model_copy(update={"checker": "tokens", "schema_version": 1})
                    source.write_text(tokens.model_dump_json(exclude={"interactor"}))
                    command = [
                        sys.executable, "-m", "cpbot.testing.population_server", str(folder),
                        "--pass-at-1", str(pass_at_1), "--seed", str(seed), "--",
                        args.cpbot, "solve", str(source), "--lang", "python3", "--json",
                        "--max-calls", str(args.max_calls),
                    ]  # fmt: skip
                    env = {**os.environ, "CPBOT_DATA_DIR": str(Path(tmp) / "data")}
                    started = time.monotonic()
                    # in the temporary folder: `cpbot solve` writes the problem's folder where it runs
                    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp, check=False)
                    seconds = time.monotonic() - started
                start = done.stdout.find("\n{")  # after the population server's line
                try:
                    result = json.loads(done.stdout[start + 1 :] if start >= 0 else done.stdout)
                except ValueError:
                    result = {}
                if "status" not in result:
                    print(f"{folder.name} {pass_at_1} seed {seed}: no result ({done.stderr.strip()[-300:]})")
                    continue
                solution = result.get("solution")
                ac = bool(solution) and judge_problem(Solution(**solution), judged, hidden, sandbox=sandbox).accepted
                row = {
                    "problem": folder.name, "pass_at_1": pass_at_1, "seed": seed, "status": result["status"],
                    "hidden_ac": ac, "written": result.get("judged_with") == "written", "calls": result["calls"],
                    "seconds": round(seconds, 1),
                }  # fmt: skip
                rows.append(row)
                print(json.dumps(row), flush=True)
    print(f"load average: {os.getloadavg()[0]:.1f}")
    for pass_at_1 in args.pass_at_1:
        mine = [r for r in rows if r["pass_at_1"] == pass_at_1]
        if not mine:
            continue
        wrong = sum(r["status"] == "solved" and not r["hidden_ac"] for r in mine)
        print(
            f"pass@1 {pass_at_1}: {len(mine)} solves, hidden AC {sum(r['hidden_ac'] for r in mine)}, "
            f"solved {sum(r['status'] == 'solved' for r in mine)}, wrong called solved {wrong}, "
            f"median calls {statistics.median(r['calls'] for r in mine)}, "
            f"median wall {statistics.median(r['seconds'] for r in mine):.1f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
