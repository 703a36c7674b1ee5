"""Where the CPU of LiveCodeBench's own grader goes: inside `run_test` (the programs and its in-process test
loop) against everything around it (a manager process and a forked process per generation, the pool).

LiveCodeBench's `codegen_metrics` runs unchanged from a checkout (as in grade_speed.py), with its `run_test`
wrapped to read the process's CPU clock around each generation; prints wall, the grader's CPU with all its
processes, the CPU inside `run_test` for passing and failing generations and the rest per generation.
Its timeouts are wall-clock: on a busy machine a slow program is stopped after less CPU than on a quiet one.

    python scripts/perf/lcb_cost.py --lcb CHECKOUT --lcb-python PY DATASET.jsonl[.gz] GENERATIONS.json[.gz] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from grade_speed import lcb_samples, plain_copy, read_json

DRIVER = r"""
import json, resource, sys, time, types
checkout, samples_path, jobs, out_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sys.path.insert(0, checkout)
for name, path in (("lcb_runner", "lcb_runner"), ("lcb_runner.evaluation", "lcb_runner/evaluation")):
    package = types.ModuleType(name)
    package.__path__ = [checkout + "/" + path]
    sys.modules[name] = package
import lcb_runner.evaluation.compute_code_generation_metrics as metrics
run_test = metrics.run_test
def timed(sample, test=None, debug=False, timeout=6):
    started = time.process_time()
    results, meta = run_test(sample, test=test, debug=debug, timeout=timeout)
    return results, {**meta, "_cpu": time.process_time() - started, "_tests": len(results)}
metrics.run_test = timed
data = json.load(open(samples_path))
def cpu(who):
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime
started, own, children = time.perf_counter(), cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
_, results, metadata = metrics.codegen_metrics(
    data["samples"], data["generations"], k_list=[1], num_process_evaluate=jobs, timeout=6
)
wall = time.perf_counter() - started
own, children = cpu(resource.RUSAGE_SELF) - own, cpu(resource.RUSAGE_CHILDREN) - children
inside = {"passing": 0.0, "failing": 0.0}
tests = {"passing": 0, "failing": 0}
for i in range(len(data["question_ids"])):
    for res, meta in zip(results[i], metadata[i]):
        meta = json.loads(meta) if isinstance(meta, str) else meta
        key = "passing" if res and all(r is True for r in res) else "failing"
        inside[key] += meta.get("_cpu", 0.0)
        tests[key] += meta.get("_tests", 0)
n = sum(len(g) for g in data["generations"])
json.dump({
    "generations": n, "jobs": jobs, "wall_s": round(wall, 2), "cpu_s": round(own + children, 2),
    "cores_busy": round((own + children) / wall, 2),
    "inside_run_test_cpu_s": {k: round(v, 2) for k, v in inside.items()}, "tests_run": tests,
    "around_ms_per_generation": round(1000 * (own + children - sum(inside.values())) / n, 2),
}, open(out_path, "w"), indent=2)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("generations", type=Path)
    parser.add_argument("--lcb", type=Path, required=True, help="a checkout of LiveCodeBench/LiveCodeBench")
    parser.add_argument("--lcb-python", default=sys.executable, help="Python with numpy and tqdm for LCB's code")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lcb-cost-") as name:
        tmp = Path(name)
        samples = tmp / "samples.json"
        samples.write_text(json.dumps(lcb_samples(plain_copy(args.dataset, tmp), read_json(args.generations))))
        out = tmp / "figures.json"
        argv = [args.lcb_python, "-c", DRIVER, str(args.lcb), str(samples), str(args.jobs), str(out)]
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
