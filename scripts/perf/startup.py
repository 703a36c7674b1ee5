"""Start-up time of the `cpbot` command: the median wall time of `cpbot --help`, `cpbot --version` and
`cpbot judge --help`, and each as a ratio to `python -c pass` (the interpreter's own start-up).

Each command runs as a fresh process, the way a user starts it. By default the settings come from an
empty temporary config dir, so the figure does not depend on the user's config.toml
(`--user-config` measures with the real one).

    python scripts/perf/startup.py [--runs 21] [--user-config] [--module] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS: tuple[tuple[str, ...], ...] = (("--help",), ("--version",), ("judge", "--help"))


def cpbot_command() -> list[str]:
    """The installed `cpbot` script beside this interpreter, else `python -m cpbot`."""
    script = Path(sys.executable).with_name("cpbot")
    if script.is_file():
        return [str(script)]
    found = shutil.which("cpbot")
    return [found] if found else [sys.executable, "-m", "cpbot"]


def median_seconds(argv: list[str], runs: int, env: dict[str, str]) -> float:
    """The median wall time of `runs` fresh runs of `argv` (one untimed run first warms the file cache)."""
    times = []
    for i in range(runs + 1):
        start = time.perf_counter()
        done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
        elapsed = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode().strip()}")
        if i:
            times.append(elapsed)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="Runs per command (default: 21).")
    parser.add_argument("--user-config", action="store_true", help="Use the user's config.toml, not an empty one.")
    parser.add_argument("--module", action="store_true", help="Run `python -m cpbot`, not the installed script.")
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args()
    cpbot = [sys.executable, "-m", "cpbot"] if args.module else cpbot_command()
    with tempfile.TemporaryDirectory() as empty:
        env = dict(os.environ)
        if not args.user_config:
            env["CPBOT_CONFIG_DIR"] = empty
        baseline = median_seconds([sys.executable, "-c", "pass"], args.runs, env)
        figures = {"python -c pass": baseline}
        for command in COMMANDS:
            figures["cpbot " + " ".join(command)] = median_seconds([*cpbot, *command], args.runs, env)
    if args.json:
        print(json.dumps({"runs": args.runs, "median_s": figures}, indent=2))
        return 0
    print(f"median wall time over {args.runs} runs ({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})")
    for name, seconds in figures.items():
        print(f"  {name:<20} {seconds * 1000:7.0f} ms  {seconds / baseline:5.1f}x python -c pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
