"""`cpbot verify` next to the setters' own tools: per submission of each package, the verdict cpbot gives at the
time limit, and the one problemtools' `verifyproblem` and BAPCtools' `bt run` give.

The anchors are not cpbot's dependencies: install each in a venv of its own and pass its command, e.g.
    python3 -m venv /tmp/pt-venv && /tmp/pt-venv/bin/pip install problemtools
    python3 -m venv /tmp/bt-venv && /tmp/bt-venv/bin/pip install bapctools
    .venv/bin/python scripts/perf/verify_vs_anchors.py --problemtools /tmp/pt-venv/bin/verifyproblem \\
        --bapctools /tmp/bt-venv/bin/bt
Each tool runs on its own copy of the package (`bt upgrade` rewrites a legacy package to 2023-07 first: BAPCtools
reads no other). A tool not given is left out of the table ("n/a"); "-" where a tool names no verdict.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = [ROOT / "tests" / "fixtures" / "packages" / "kattis" / name for name in ("hello", "different", "guess")]
TIMEOUT_S = 1800

# problemtools: "   accepted/hello.cc (C++) OK: AC [CPU: 0.01s @ testcase secret/hello]"
#               "ERROR Compile error for accepted/different_py2.py (...)"
#               "ERROR ... submission wrong_answer/x.cc (C++) got AC" (a submission off its folder's verdict)
PROBLEMTOOLS_RUN = re.compile(r"^\s*(?:ERROR .*?)?(\S+/\S+) \([^)]*\)[^:]*?:? ?(?:got )?(AC|WA|TLE|RTE|JE)\b")
PROBLEMTOOLS_CE = re.compile(r"Compile error for (\S+/\S+) ")
# BAPCtools: "accepted/different.cc:     AC 0.006s @ secret/01", "Build submissions: accepted/x.py ... Failed"
BAPCTOOLS_RUN = re.compile(r"^(\S+/\S+):\s+(AC|WA|TLE|RTE)\b")
BAPCTOOLS_CE = re.compile(r"Build submissions: (\S+/\S+)\s+Failed")
BAPCTOOLS_VERDICTS = {"AC": "AC", "WA": "WA", "TLE": "TLE", "RTE": "RTE"}


def run(argv: list[str], cwd: Path) -> str:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT_S)
    return done.stdout + done.stderr


def cpbot_verdicts(cpbot: str, package: Path) -> tuple[dict[str, str], dict[str, str], str]:
    """(verdict per submission, expected per submission, the time limit)."""
    out = subprocess.run([cpbot, "verify", str(package), "--json"], capture_output=True, text=True, timeout=TIMEOUT_S)
    report = json.loads(out.stdout)
    verdicts = {s["path"]: s["at_limit"] or "not judged" for s in report["submissions"]}
    expected = {s["path"]: s["expected"] for s in report["submissions"]}
    return verdicts, expected, f"{report['time_limit_s']} s"


def problemtools_verdicts(command: str, package: Path) -> tuple[dict[str, str], str]:
    text = run([command, package.name, "-p", "submissions"], package.parent)
    found: dict[str, str] = {}
    for line in text.splitlines():
        if m := PROBLEMTOOLS_CE.search(line):
            found[m.group(1)] = "CE"
        elif m := PROBLEMTOOLS_RUN.match(line):
            found.setdefault(m.group(1), m.group(2))
    return found, text


def bapctools_verdicts(command: str, package: Path) -> tuple[dict[str, str], str]:
    text = ""
    if "2023-07" not in (package / "problem.yaml").read_text(encoding="utf-8"):
        text += run([command, "upgrade"], package)
    text += run([command, "run", "--no-bar", "--no-generate"], package)
    text = text.replace("\r", "\n")
    found: dict[str, str] = {}
    for line in text.splitlines():
        if m := BAPCTOOLS_CE.search(line):
            found[m.group(1)] = "CE"
        elif m := BAPCTOOLS_RUN.match(line.strip()):
            found[m.group(1)] = BAPCTOOLS_VERDICTS[m.group(2)]
    return found, text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("packages", nargs="*", type=Path, default=PACKAGES)
    parser.add_argument("--cpbot", default=str(ROOT / ".venv" / "bin" / "cpbot"))
    parser.add_argument("--problemtools", help="the verifyproblem command")
    parser.add_argument("--bapctools", help="the bt command")
    args = parser.parse_args()
    rows, disagreements = [], []
    for package in args.packages:
        with tempfile.TemporaryDirectory() as tmp:
            copies = {tool: Path(tmp, tool, package.name) for tool in ("cpbot", "problemtools", "bapctools")}
            for copy in copies.values():
                shutil.copytree(package, copy)
            ours, expected, limit = cpbot_verdicts(args.cpbot, copies["cpbot"])
            anchors: dict[str, tuple[dict[str, str], str]] = {}
            if args.problemtools:
                anchors["problemtools"] = problemtools_verdicts(args.problemtools, copies["problemtools"])
            if args.bapctools:
                anchors["bapctools"] = bapctools_verdicts(args.bapctools, copies["bapctools"])
        names = sorted(set(ours) | {n for found, _ in anchors.values() for n in found})
        print(f"{package.name}: cpbot's time limit {limit}", file=sys.stderr)
        for name in names:
            theirs = [anchors[t][0].get(name, "-") if t in anchors else "n/a" for t in ("problemtools", "bapctools")]
            row = [package.name, name, expected.get(name, "-"), ours.get(name, "-"), *theirs]
            rows.append(row)
            if any(v not in (ours.get(name), "n/a", "-") for v in theirs):
                disagreements.append(row)
    header = ["package", "submission", "expected", "cpbot", "problemtools", "bapctools"]
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(str(cell).ljust(w) for cell, w in zip(row, widths, strict=True)))
    print(f"\n{len(rows)} submissions, {len(disagreements)} where a tool gives another verdict than cpbot:")
    for row in disagreements:
        print("  " + "  ".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
