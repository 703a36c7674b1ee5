"""Write lab problems from LiveCodeBench's published o1 generations (the LCB-format folder whose
README describes it: dataset.jsonl.gz, generations-<model>.json.gz, expected-<model>.json.gz).

    python scripts/lab/import_livecodebench.py /path/to/lcb [--out tests/fixtures/lab] [--limit 60]

A problem is taken when some generation LiveCodeBench failed passes the public tests (the samples)
and fails the failing test LiveCodeBench recorded (a stored hidden test). Its candidates are the
models' generations: LiveCodeBench's verdict is the label (right = passed all its tests), and a
right one must pass the stored hidden tests too. Stdin programs get LiveCodeBench's preamble (the
imports its grader provides), so each candidate file runs as it is. No brute force, no generator.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import sys
import tempfile
from pathlib import Path

from cpbot.bot.bench import livecodebench
from cpbot.bot.bench.grade import read_generations
from cpbot.core.errors import CpbotError
from cpbot.judge.model import Solution, Verdict
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import default_sandbox

MODELS = ("o1-mini", "o1-preview")
SOURCE = "LiveCodeBench/submissions (O1-Mini-2024-09-12, O1-Preview-2024-09-12 N=1 eval_all)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lcb", type=Path)
    parser.add_argument("--out", type=Path, default=Path("tests/fixtures/lab"))
    parser.add_argument("--limit", type=int, default=200, help="most problems to write")
    parser.add_argument("--shard", default="0/1", help="I/K: only every K-th question from the I-th (parallel runs)")
    args = parser.parse_args()
    rows = {}
    with gzip.open(args.lcb / "dataset.jsonl.gz", "rt") as f:
        for line in f:
            row = json.loads(line)
            rows[row["question_id"]] = row
    expected = {}
    for m in MODELS:
        with gzip.open(args.lcb / f"expected-{m}.json.gz", "rt") as f:
            expected[m] = json.load(f)
    generations = {}
    with tempfile.TemporaryDirectory() as tmp:
        for m in MODELS:
            plain = Path(tmp) / f"generations-{m}.json"
            with gzip.open(args.lcb / f"generations-{m}.json.gz", "rb") as f:
                plain.write_bytes(f.read())
            generations[m] = read_generations(plain, "python3")
    sandbox = default_sandbox()
    written = 0
    index, count = map(int, args.shard.split("/"))
    for qid in sorted(rows)[index::count]:
        if (args.out / f"lcb_{qid}" / "lab.json").exists():
            written += 1
            continue  # written by an earlier run
        wrong = [m for m in MODELS if qid in expected[m] and not expected[m][qid]["lcb_pass"]]
        if not wrong or written >= args.limit:
            continue
        try:
            problem, tests = livecodebench.to_problem(livecodebench.decode_row(rows[qid]))
        except CpbotError:
            continue
        hidden = [t for t in tests if t.name.startswith("private")]
        if not hidden:
            continue
        candidates = []
        for m in MODELS:
            verdict = expected[m].get(qid)
            gens = generations[m].get(qid) or []
            if verdict is None or not gens or gens[0].source is None:
                continue
            source = gens[0].source
            if problem.kind == "stdio":
                source = livecodebench.stdin_preamble() + source
            solution = Solution(language="python3", source=source)
            if judge_problem(solution, problem, sandbox=sandbox).verdict != Verdict.AC:
                continue  # fails a sample: not a near miss
            on_hidden = judge_problem(solution, problem, hidden, sandbox=sandbox).verdict == Verdict.AC
            if on_hidden != verdict["lcb_pass"]:
                continue  # the stored tests cannot show its label
            error = str(verdict.get("error") or "")
            kind = (
                "right" if verdict["lcb_pass"] else "re" if "Runtime" in error else "tle" if "Time" in error else "wa"
            )
            note = f"{m}; LiveCodeBench: {'passed' if verdict['lcb_pass'] else error[:120]}"
            candidates.append((m, source, kind, note))
        if not any(kind != "right" for _, _, kind, _ in candidates):
            continue
        folder = args.out / f"lcb_{qid}"
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "candidates").mkdir(parents=True)
        (folder / "hidden").mkdir()
        (folder / "problem.json").write_text(problem.model_dump_json(indent=2, exclude={"raw"}) + "\n")
        for i, test in enumerate(hidden, start=1):
            (folder / "hidden" / f"{i}.in").write_text(test.input)
            (folder / "hidden" / f"{i}.out").write_text(test.output or "")
        entries = []
        for m, source, kind, note in candidates:
            file = f"candidates/{m}.py"
            (folder / file).write_text(source)
            label = "right" if kind == "right" else "wrong"
            entries.append({"file": file, "label": label, "kind": kind, "origin": "livecodebench", "note": note})
        lab = {
            "schema_version": 1,
            "origin": "livecodebench",
            "source": f"{SOURCE}: question {qid}",
            "licence": "see tests/fixtures/SOURCES.md",
            "reference": None,
            "brute": None,
            "generator": None,
            "hidden": {"generated": [], "files": [f"hidden/{i}.in" for i in range(1, len(hidden) + 1)]},
            "candidates": entries,
        }
        (folder / "lab.json").write_text(json.dumps(lab, indent=2) + "\n")
        written += 1
        print(f"{qid}: {len(entries)} candidates", file=sys.stderr)


if __name__ == "__main__":
    main()
