"""Median parse time per recorded page (target: under 20 ms with lxml).

Usage: python scripts/perf/parse_speed.py [--repeat N] [--fixtures DIR]
Parses every Codeforces page and LeetCode answer recorded in tests/fixtures N times and prints the
median time of each, then the median over all pages.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from perfkit import FIXTURES

from cpbot.scrapers.codeforces.parse import parse_problems
from cpbot.scrapers.leetcode.parse import parse_question

TARGET_MS = 20.0


def recorded_pages(fixtures: Path) -> list[tuple[str, bytes, Callable[[bytes], object]]]:
    pages: list[tuple[str, bytes, Callable[[bytes], object]]] = []
    for path in sorted((fixtures / "codeforces").glob("*.html")):
        pages.append((path.name, path.read_bytes(), parse_problems))
    for path in sorted((fixtures / "leetcode").glob("*.json")):
        if not path.name.endswith(".expected.json"):
            pages.append((path.name, path.read_bytes(), parse_question))
    return pages


def main() -> int:
    """Run the benchmark and print one line per page and the overall median."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="parses per page (default 20)")
    parser.add_argument("--fixtures", type=Path, default=FIXTURES, help="the folder of recorded pages")
    args = parser.parse_args()
    pages = recorded_pages(args.fixtures)
    if not pages:
        print(f"no recorded pages under {args.fixtures}", file=sys.stderr)
        return 1
    medians = []
    for name, data, parse in pages:
        parse(data)  # warm-up: imports and lxml's first-use costs
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            parse(data)
            times.append((time.perf_counter() - start) * 1000)
        median = statistics.median(times)
        medians.append(median)
        print(f"{median:8.2f} ms  {len(data) / 1024:7.1f} KiB  {name}")
    overall = statistics.median(medians)
    verdict = "ok" if overall < TARGET_MS else "OVER TARGET"
    print(
        f"median parse time per page: {overall:.2f} ms over {len(pages)} pages (target < {TARGET_MS:g} ms: {verdict})"
    )
    print(f"slowest page: {max(medians):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
