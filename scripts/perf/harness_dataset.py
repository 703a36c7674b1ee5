"""Run every LeetCodeDataset reference solution through the LeetCode harness and report.

Prints the share of problems judged AC on all their usable cases, the failures grouped by cause,
the cases left out (the dataset recorded an error or a timeout for them, or their input does not
fit the signature), and the median time per case.
With --planted, every reference gets a planted bug and the share judged WA is reported instead.

    python scripts/perf/harness_dataset.py [--limit N] [--only SLUG] [--jobs 2] [--planted] [--json]

Judged with the real judge (`judge_solution`, sandboxed), as `cpbot judge` would.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from perfkit import LEETCODE_DATASET, run_item, summarize

from cpbot.judge.harness.dataset import load_dataset
from cpbot.judge.model import Verdict


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run the dataset, print the report; exit 0 when the 98% target is met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=LEETCODE_DATASET, help="the .jsonl.gz file")
    parser.add_argument("--limit", type=int, default=None, help="only the first N problems")
    parser.add_argument("--only", action="append", default=[], help="only this task slug (repeatable)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--planted", action="store_true", help="plant a bug in every reference")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)

    items = load_dataset(args.dataset)
    if args.only:
        items = [i for i in items if i.problem.id.split(":", 1)[1] in args.only]
    items = items[: args.limit]
    skipped: Counter = Counter()
    for item in items:
        skipped.update(item.skipped)

    started = time.perf_counter()
    outcomes = []
    for n, item in enumerate(items, 1):
        outcome = run_item(item, planted=args.planted, jobs=args.jobs)
        outcomes.append(outcome)
        if not args.json:
            wanted = Verdict.WA if args.planted else Verdict.AC
            mark = "ok " if outcome.verdict == wanted else "!! "
            print(f"{mark}{n:3}/{len(items)} {outcome.task}: {outcome.verdict} {outcome.cause}", file=sys.stderr)
    elapsed = time.perf_counter() - started
    summary = summarize(outcomes)
    wa = sum(o.verdict == Verdict.WA for o in outcomes)

    report = {
        "problems": summary.problems,
        "cases_run": summary.cases,
        "cases_left_out": dict(skipped),
        "median_case_cpu_ms": round(summary.median_cpu_ms, 1),
        "median_case_wall_ms": round(summary.median_wall_ms, 1),
        "seconds": round(elapsed, 1),
    }
    if args.planted:
        report["planted_wa"] = wa
        report["planted_wa_rate"] = round(wa / len(outcomes), 4) if outcomes else 0.0
        report["not_wa"] = {o.task: f"{o.verdict} {o.cause}" for o in outcomes if o.verdict != Verdict.WA}
    else:
        report["ac"] = summary.ac
        report["ac_rate"] = round(summary.ac_rate, 4)
        report["failures_by_cause"] = dict(summary.causes)
        report["failures"] = {o.task: o.cause for o in summary.failures}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print(report, args.planted)
    rate = report["planted_wa_rate"] if args.planted else report["ac_rate"]
    return 0 if rate >= 0.98 else 1


def _print(report: dict, planted: bool) -> None:
    if planted:
        print(f"planted bugs judged WA: {report['planted_wa']}/{report['problems']} ({report['planted_wa_rate']:.1%})")
        for task, why in report["not_wa"].items():
            print(f"  not WA: {task}: {why}")
    else:
        print(f"reference solutions judged AC: {report['ac']}/{report['problems']} ({report['ac_rate']:.1%})")
        for cause, count in report["failures_by_cause"].items():
            print(f"  {count} x {cause}")
        for task, cause in report["failures"].items():
            print(f"    {task}: {cause}")
    print(f"cases run: {report['cases_run']}; cases left out, by reason: {report['cases_left_out']}")
    print(
        f"median per case: {report['median_case_cpu_ms']} ms CPU, {report['median_case_wall_ms']} ms wall; "
        f"total {report['seconds']} s"
    )


if __name__ == "__main__":
    sys.exit(main())
