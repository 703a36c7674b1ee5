"""Check the lab dataset's labels: every candidate passes the samples, a right one passes every hidden
test, a wrong one fails at least one.

    python scripts/lab/check_labels.py tests/fixtures/lab [--problem NAME] [--drop] [--report LAB.json ...]

Prints one line per candidate that breaks the rule and exits 1 if any does; `--drop` removes those
candidates from lab.json (and their files) instead, for the import scripts' output. `--report` reads
the verdicts from `cpbot lab --json` reports instead of judging again.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cpbot.bot.lab.dataset import LabProblem, hidden_tests, load_dataset
from cpbot.bot.lab.measure import LabReport
from cpbot.judge.model import Verdict
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import Sandbox, default_sandbox


def problems_with(lab: LabProblem, sandbox: Sandbox) -> list[tuple[str, str]]:
    """(file, what is wrong) for each candidate of `lab` whose label the tests do not bear out."""
    hidden = hidden_tests(lab, sandbox)
    bad = []
    for c in lab.spec.candidates:
        solution = lab.program(c.file)
        samples = judge_problem(solution, lab.problem, sandbox=sandbox)
        if samples.verdict != Verdict.AC:
            bad.append((c.file, f"{samples.verdict} on the samples"))
            continue
        report = judge_problem(solution, lab.problem, hidden, sandbox=sandbox, stop_on_failure=c.label == "wrong")
        if (report.verdict == Verdict.AC) != (c.label == "right"):
            bad.append((c.file, f"labelled {c.label}, {report.verdict} on the hidden tests {report.reason}".strip()))
    return bad


def _from_reports(paths: list[Path]) -> dict[str, list[tuple[str, str]]]:
    """Per problem the candidates a lab report shows breaking the rule (samples failed, label wrong)."""
    found: dict[str, list[tuple[str, str]]] = {}
    for path in paths:
        for r in LabReport.model_validate_json(path.read_text()).results:
            bad = found.setdefault(r.problem, [])
            if r.caught_by == "samples":
                bad.append((r.file, "fails the samples"))
            elif r.hidden_ok != (r.label == "right"):
                bad.append((r.file, f"labelled {r.label}, hidden tests: {r.hidden_detail or 'AC'}"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--problem", action="append")
    parser.add_argument("--drop", action="store_true", help="remove the candidates that break the rule")
    parser.add_argument("--report", action="append", type=Path, help="a `cpbot lab --json` report to read")
    args = parser.parse_args()
    sandbox = default_sandbox()
    failed = False
    seen = _from_reports(args.report) if args.report else None
    for lab in load_dataset(args.root, set(args.problem) if args.problem else None):
        if seen is not None and lab.name not in seen:
            continue
        bad = seen[lab.name] if seen is not None else problems_with(lab, sandbox)
        for file, why in bad:
            print(f"{lab.name}/{file}: {why}")
        if bad and args.drop:
            drop = {file for file, _ in bad}
            spec = json.loads((lab.folder / "lab.json").read_text())
            spec["candidates"] = [c for c in spec["candidates"] if c["file"] not in drop]
            (lab.folder / "lab.json").write_text(json.dumps(spec, indent=2) + "\n")
            for file in drop:
                (lab.folder / file).unlink()
        failed = failed or (bool(bad) and not args.drop)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
