"""Fuzz every parser that takes bytes from outside (tests/outside/fuzz_targets.py) and print, per parser,
the examples tried, the uncaught exceptions (anything but a CpbotError; the goal is 0) with where they
came from, and the process's peak memory so far.

    .venv/bin/python scripts/fuzz.py                 # 500 examples per parser
    .venv/bin/python scripts/fuzz.py -n 5000 -k lcb  # more, for parsers whose name holds "lcb"
    .venv/bin/python scripts/fuzz.py --seed 7        # another random run (default: derandomized)

The suite runs the same property on a few examples each (tests/outside/test_fuzz_parsers.py)."""

from __future__ import annotations

import argparse
import resource
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.outside.fuzz_targets

from hypothesis import HealthCheck, given, seed, settings

from tests.outside.fuzz_targets import Target, check, targets


def _where(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "site-packages" not in f.filename and "/lib/python" not in f.filename]
    last = (ours or frames)[-1]
    return f"{type(error).__name__} at {Path(last.filename).parent.name}/{Path(last.filename).name}:{last.lineno}"


def fuzz(target: Target, examples: int, run_seed: int | None) -> tuple[int, Counter[str], float]:
    tried = 0
    found: Counter[str] = Counter()
    examples_of: dict[str, str] = {}
    started = time.monotonic()

    @settings(
        max_examples=examples, deadline=None, derandomize=run_seed is None, database=None,
        suppress_health_check=list(HealthCheck),
    )  # fmt: skip
    @given(target.inputs)
    def one(data: bytes) -> None:
        nonlocal tried
        tried += 1
        try:
            check(target, data)
        except Exception as e:  # counted, and the run goes on
            found[_where(e)] += 1
            examples_of.setdefault(_where(e), repr(str(e)[:90]))

    if run_seed is not None:
        one = seed(run_seed)(one)
    one()
    return tried, Counter({f"{k} {examples_of[k]}": n for k, n in found.items()}), time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--examples", type=int, default=500)
    parser.add_argument("-k", "--only", default="", help="parsers whose name holds this")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    total = 0
    print(f"{'parser':<24} {'examples':>8} {'uncaught':>8} {'seconds':>8} {'peak MB':>8}")
    for target in targets():
        if args.only not in target.name:
            continue
        tried, found, seconds = fuzz(target, args.examples, args.seed)
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        uncaught = sum(found.values())
        total += uncaught
        print(f"{target.name:<24} {tried:>8} {uncaught:>8} {seconds:>8.1f} {peak_mb:>8.0f}", flush=True)
        for where, count in found.most_common():
            print(f"    {count:>5} x {where}", flush=True)
    print(f"uncaught exceptions in all: {total}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
