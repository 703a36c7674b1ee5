"""Accuracy of the complexity profiler on a suite of programs of known complexity (C++ and Python).

The suite is tests/judge/complexity/suite.json (programs and generators, read as data). A class counts
as right when it is the expected one; O(1) against O(log n) counts as right only when reported as
ambiguous (timing a whole process cannot tell them apart). Prints one line per program (class,
ambiguity, slope, profiling time) and the accuracy.

    python scripts/perf/profile_accuracy.py [--only NAME ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

from perfkit import COMPLEXITY_SUITE

from cpbot.judge.build import build_program_file
from cpbot.judge.model import Limits
from cpbot.judge.profile import profile_program
from cpbot.judge.sandbox import Sandbox

SUITE = COMPLEXITY_SUITE
FLAT = {"O(1)", "O(log n)"}


def is_right(expected: str, got: str | None, ambiguous: bool) -> bool:
    if got == expected:
        return True
    return expected in FLAT and got in FLAT and ambiguous


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="program files to run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    suite = json.loads((SUITE / "suite.json").read_text())
    limits = Limits(time_ms=suite["time_limit_ms"], memory_mb=1024)
    rows = []
    with Sandbox(2) as sandbox:
        for entry in suite["programs"]:
            if args.only and entry["file"] not in args.only:
                continue
            program = build_program_file(SUITE / entry["file"], sandbox, role="solution")
            generator = build_program_file(SUITE / entry.get("generator", suite["generator"]), sandbox, "generator")
            started = time.perf_counter()
            report = profile_program(program, generator, max_n=entry["max_n"], limits=limits, sandbox=sandbox)
            seconds = time.perf_counter() - started
            right = is_right(entry["class"], report.complexity, report.ambiguous)
            rows.append(
                {
                    "file": entry["file"],
                    "expected": entry["class"],
                    "got": report.complexity,
                    "ambiguous": report.ambiguous,
                    "slope": report.slope,
                    "right": right,
                    "seconds": round(seconds, 2),
                    "points": len(report.points),
                }
            )
            if not args.json:
                print(
                    f"{'ok ' if right else 'BAD'} {entry['file']:<20} expected {entry['class']:<11} got "
                    f"{report.complexity!s:<11} {'ambiguous' if report.ambiguous else 'definite ':<9} "
                    f"slope {report.slope if report.slope is not None else '-':<6} {seconds:6.1f} s"
                )
    right = sum(r["right"] for r in rows)
    summary = {
        "programs": len(rows),
        "right": right,
        "accuracy": round(right / max(1, len(rows)), 3),
        "median_seconds": sorted(r["seconds"] for r in rows)[len(rows) // 2] if rows else 0,
    }
    if args.json:
        print(json.dumps({"rows": rows, **summary}, indent=2))
    else:
        print(
            f"accuracy: {right}/{len(rows)} = {summary['accuracy']:.1%}; median profiling time "
            f"{summary['median_seconds']} s per program"
        )


if __name__ == "__main__":
    main()
