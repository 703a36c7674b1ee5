"""Generations graded per minute: `cpbot grade` against LiveCodeBench's own grading code, same data, one run.

Both graders grade the same generations of the same LiveCodeBench release file with the same number of
processes, in alternating rounds (LiveCodeBench, cpbot, LiveCodeBench, cpbot, ...), so that machine noise
hits both alike; the script prints every round, the median rate of each and their ratio, and where the
verdicts differ (with each other, and with a file of LiveCodeBench's recorded verdicts when given).

- LiveCodeBench: `codegen_metrics` of `lcb_runner/evaluation/compute_code_generation_metrics.py`, run
  unchanged from a checkout of https://github.com/LiveCodeBench/LiveCodeBench with
  `num_process_evaluate=JOBS` and its 6 s timeout, in a fresh interpreter (`--lcb-python`: one with numpy
  and tqdm, which that module imports). Its samples are built as its `get_evaluation_sample` builds
  them (public then private tests, `fn_name` from the metadata). Only the two modules it needs are
  loaded (the package's `__init__` would import pandas and more for other scenarios).
- cpbot: `cpbot grade DATASET GENERATIONS -j JOBS --lcb-preamble` (plus `--cpbot-arg`s), a fresh
  process each round.

Each rate is the command's whole wall time (start-up and loading included) over the generations. The
CPU time of each command with all its processes (the sandboxed programs too) is printed beside it: on a
machine busy with other work it shows the cost of each grader better than the wall time does.

Getting LiveCodeBench's code (not part of cpbot):

    git clone https://github.com/LiveCodeBench/LiveCodeBench /tmp/lcb
    python3 -m venv /tmp/lcb-venv && /tmp/lcb-venv/bin/pip install numpy tqdm

    python scripts/perf/grade_speed.py --lcb /tmp/lcb --lcb-python /tmp/lcb-venv/bin/python \\
        DATASET.jsonl[.gz] GENERATIONS.json[.gz] [--expected EXPECTED.json.gz] [--runs 3] [--jobs 2]

EXPECTED maps question ids to `{"lcb_pass": bool}` (LiveCodeBench's recorded verdicts). `--limit N`
grades the first N problems of the generations file only (a quick look; the figures are for all).
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cpbot.bot.bench import livecodebench

# Run by --lcb-python: LiveCodeBench's grader on the samples file, its verdicts written as JSON.
LCB_DRIVER = r"""
import json, sys, time, types
checkout, samples_path, out_path, jobs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.path.insert(0, checkout)
for name, path in (("lcb_runner", "lcb_runner"), ("lcb_runner.evaluation", "lcb_runner/evaluation")):
    package = types.ModuleType(name)  # the folder as a package, without running its __init__
    package.__path__ = [checkout + "/" + path]
    sys.modules[name] = package
from lcb_runner.evaluation.compute_code_generation_metrics import codegen_metrics
data = json.load(open(samples_path))
started = time.perf_counter()
metrics, results, metadata = codegen_metrics(
    data["samples"], data["generations"], k_list=[1], num_process_evaluate=jobs, timeout=6
)
seconds = time.perf_counter() - started
passed = {qid: [all(r is True for r in res) and len(res) > 0 for res in results[i]]
          for i, qid in enumerate(data["question_ids"])}
json.dump({"seconds": seconds, "passed": passed}, open(out_path, "w"))
"""


def read_json(path: Path) -> Any:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def plain_copy(path: Path, tmp: Path) -> Path:
    """The file itself, or an uncompressed copy of a .gz (cpbot grade reads plain files)."""
    if path.suffix != ".gz":
        return path
    target = tmp / path.name.removesuffix(".gz")
    with gzip.open(path, "rb") as src, open(target, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return target


def lcb_samples(dataset: Path, generations: list[dict[str, Any]]) -> dict[str, Any]:
    """LiveCodeBench's evaluation samples for the generations, as its `get_evaluation_sample` makes them."""
    samples, codes, qids = [], [], []
    for item in generations:
        problem = livecodebench.read_problem(dataset, item["question_id"])
        tests = [*problem.public_test_cases, *problem.private_test_cases]
        io = {
            "inputs": [t.input for t in tests],
            "outputs": [t.output for t in tests],
            "fn_name": problem.metadata.get("func_name"),
        }
        samples.append({"input_output": json.dumps(io)})
        codes.append(list(item["code_list"]))
        qids.append(item["question_id"])
    return {"samples": samples, "generations": codes, "question_ids": qids}


def children_cpu() -> float:
    """CPU seconds of the finished child processes (and theirs) so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_lcb(args: argparse.Namespace, samples: Path, tmp: Path) -> tuple[float, dict[str, list[bool]]]:
    out = tmp / "lcb-result.json"
    argv = [args.lcb_python, "-c", LCB_DRIVER, str(args.lcb), str(samples), str(out), str(args.jobs)]
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    return seconds, json.loads(out.read_text())["passed"]


def run_cpbot(args: argparse.Namespace, dataset: Path, gens: Path, tmp: Path) -> tuple[float, dict[str, list[bool]]]:
    out = tmp / "cpbot-eval.json"
    argv = [args.cpbot, "grade", str(dataset), str(gens), "-j", str(args.jobs), "--lcb-preamble", "-o", str(out)]
    argv += args.cpbot_arg
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    return seconds, {e["question_id"]: e["graded_list"] for e in json.loads(out.read_text())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("dataset", type=Path, help="LiveCodeBench release file (.jsonl or .jsonl.gz)")
    parser.add_argument("generations", type=Path, help="LiveCodeBench generations file (.json or .json.gz)")
    parser.add_argument("--lcb", type=Path, required=True, help="a checkout of LiveCodeBench/LiveCodeBench")
    parser.add_argument("--lcb-python", default=sys.executable, help="Python with numpy and tqdm for LCB's code")
    parser.add_argument("--cpbot", default=shutil.which("cpbot") or "cpbot", help="the cpbot command")
    parser.add_argument("--cpbot-arg", action="append", default=[], help="extra argument to cpbot grade")
    parser.add_argument("--expected", type=Path, help="LiveCodeBench's recorded verdicts by question id")
    parser.add_argument("--runs", type=int, default=3, help="rounds of each grader (alternating)")
    parser.add_argument("--jobs", type=int, default=2, help="processes of each grader")
    parser.add_argument("--limit", type=int, help="only the first N problems of the generations file")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not (args.lcb / "lcb_runner" / "evaluation" / "testing_util.py").is_file():
        parser.error(f"{args.lcb} is not a LiveCodeBench checkout (no lcb_runner/evaluation/testing_util.py)")
    with tempfile.TemporaryDirectory(prefix="grade-speed-") as name:
        tmp = Path(name)
        dataset = plain_copy(args.dataset, tmp)
        items = read_json(args.generations)[: args.limit]
        total = sum(len(i["code_list"]) for i in items)
        gens = tmp / "generations.json"
        gens.write_text(json.dumps(items), encoding="utf-8")
        samples = tmp / "lcb-samples.json"
        samples.write_text(json.dumps(lcb_samples(dataset, items)), encoding="utf-8")
        rounds: dict[str, list[float]] = {"lcb": [], "cpbot": []}
        cpu: dict[str, list[float]] = {"lcb": [], "cpbot": []}
        lcb_passed: dict[str, list[bool]] = {}
        cpbot_passed: dict[str, list[bool]] = {}
        for n in range(args.runs):
            before = children_cpu()
            seconds, lcb_passed = run_lcb(args, samples, tmp)
            rounds["lcb"].append(seconds)
            cpu["lcb"].append(children_cpu() - before)
            before = children_cpu()
            seconds, cpbot_passed = run_cpbot(args, dataset, gens, tmp)
            rounds["cpbot"].append(seconds)
            cpu["cpbot"].append(children_cpu() - before)
            if not args.json:
                print(
                    f"round {n + 1}: LiveCodeBench {rounds['lcb'][-1]:6.1f} s ({cpu['lcb'][-1]:6.1f} s CPU), "
                    f"cpbot {rounds['cpbot'][-1]:6.1f} s ({cpu['cpbot'][-1]:6.1f} s CPU)"
                )
    rate = {k: 60 * total / statistics.median(v) for k, v in rounds.items()}
    differ = sorted(q for q in lcb_passed if lcb_passed[q] != cpbot_passed.get(q))
    figures: dict[str, Any] = {
        "generations": total,
        "jobs": args.jobs,
        "rounds_seconds": {k: [round(s, 2) for s in v] for k, v in rounds.items()},
        "rounds_cpu_seconds": {k: [round(s, 2) for s in v] for k, v in cpu.items()},
        "ratio_cpu_lcb_to_cpbot": round(statistics.median(cpu["lcb"]) / statistics.median(cpu["cpbot"]), 2),
        "lcb_per_minute": round(rate["lcb"], 1),
        "cpbot_per_minute": round(rate["cpbot"], 1),
        "ratio_cpbot_to_lcb": round(rate["cpbot"] / rate["lcb"], 2),
        "passed": {"lcb": sum(map(sum, lcb_passed.values())), "cpbot": sum(map(sum, cpbot_passed.values()))},
        "differ": {q: {"lcb": lcb_passed[q], "cpbot": cpbot_passed.get(q)} for q in differ},
    }
    if args.expected:
        recorded = {q: v["lcb_pass"] for q, v in read_json(args.expected).items() if q in lcb_passed}
        figures["differ_from_recorded"] = {
            name: sorted(q for q, want in recorded.items() if all(passed[q]) != want)
            for name, passed in (("lcb", lcb_passed), ("cpbot", cpbot_passed))
        }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{total} generations, {args.jobs} processes each, median of {args.runs} alternating rounds")
    print(f"LiveCodeBench: {figures['lcb_per_minute']:8.1f} per minute")
    print(f"cpbot grade  : {figures['cpbot_per_minute']:8.1f} per minute")
    print(f"ratio (cpbot / LiveCodeBench): {figures['ratio_cpbot_to_lcb']:.2f}")
    print(f"CPU time, LiveCodeBench's over cpbot's (median): {figures['ratio_cpu_lcb_to_cpbot']:.2f}")
    print(f"passed: LiveCodeBench {figures['passed']['lcb']}, cpbot {figures['passed']['cpbot']}")
    print(f"verdicts differ on {len(differ)} problems: {', '.join(differ) or 'none'}")
    for name, qids in figures.get("differ_from_recorded", {}).items():
        print(f"{name} differs from the recorded verdicts on {len(qids)}: {', '.join(qids) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
