"""Fuzz the reading of model replies longer than the suite does, and print what was tried and what escaped.

    .venv/bin/python scripts/fuzz_replies.py [--examples 5000] [--seed 1] [--only "HTTP body" ...]

Each property of tests/agents/test_reply_fuzz.py (code extraction, JSON reading, structured output, the HTTP
body, the shape of a chat completion) runs on `--examples` inputs; an input on which the function under test
raised anything but the project's errors is counted as uncaught (goal: 0) and the first few are shown.
Needs the test extra (hypothesis).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, for tests.agents

from hypothesis import HealthCheck, given, seed, settings

from tests.agents.test_reply_fuzz import PROPERTIES


def run(name: str, examples: int, chosen_seed: int) -> tuple[int, list[str]]:
    check, given_values = PROPERTIES[name]
    tried = 0
    uncaught: list[str] = []

    def counted(**values: Any) -> None:
        nonlocal tried
        tried += 1
        try:
            check(**values)
        except Exception as e:  # what the property forbids: counted, not raised, so the run goes on
            uncaught.append(f"{type(e).__name__}: {str(e)[:200]} <- {str(values)[:200]}")

    test = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )(given(**given_values)(counted))
    seed(chosen_seed)(test)()
    return tried, uncaught


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=5000, help="inputs per property (default 5000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=sorted(PROPERTIES), action="append", help="run only this property")
    args = parser.parse_args()
    failed = 0
    print(f"{'property':24} {'tried':>7} {'uncaught':>9} {'seconds':>8}")
    for name in args.only or PROPERTIES:
        started = time.monotonic()
        tried, uncaught = run(name, args.examples, args.seed)
        print(f"{name:24} {tried:7d} {len(uncaught):9d} {time.monotonic() - started:8.1f}", flush=True)
        for line in uncaught[:3]:
            print(f"    {line}")
        failed += len(uncaught)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
