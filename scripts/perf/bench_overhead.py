"""Bench throughput on one machine: problems per minute with the local executor and with Ray, side by side.

The model is the scripted OpenAI-compatible server of `cpbot.testing` on 127.0.0.1, answering at once with each
LeetCodeDataset problem's reference solution (found by the title in the prompt), so what is measured
is cpbot's own work per problem: rebuilding the problem, one `direct` solve (LLM call, sample
judging, tracing), judging the hidden cases, and recording the transcript. Ray's cluster start-up is
timed apart and left out of its rate.

    python scripts/perf/bench_overhead.py [--problems 12] [--cases 20] [-j 2] [--json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from perfkit import LEETCODE_DATASET

from cpbot.agents.budget import Budget
from cpbot.agents.llm_settings import LLMConfig
from cpbot.bot.bench.datasets import open_dataset
from cpbot.bot.bench.executors import LocalExecutor, RayExecutor
from cpbot.bot.bench.runner import make_plan, run_bench, start_bench
from cpbot.bot.bench.task import BenchSettings
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.judge.harness.dataset import iter_rows
from cpbot.testing.scripted_server import Reply, ScriptedServer


def small_dataset(path: Path, problems: int, cases: int) -> dict[str, str]:
    """The first `problems` easy rows cut to `cases` recorded cases; returns title -> reference program."""
    rows = [r for r in iter_rows(LEETCODE_DATASET) if r["difficulty"] == "Easy"][:problems]
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps({**row, "input_output": row["input_output"][:cases]}) + "\n")
    return {r["task_id"].replace("-", " ").title(): r["completion"] for r in rows}


def instant_model(references: dict[str, str]) -> Any:
    def answer(body: dict[str, Any]) -> Reply:
        text = "\n".join(str(m.get("content") or "") for m in body.get("messages", []))
        for title, source in references.items():
            if f"# {title}\n" in text:
                return Reply(f"```python\n{source}\n```\n")
        return Reply("no idea")

    return answer


def one_bench(executor: Any, dataset_path: Path, server: ScriptedServer, db: Path) -> tuple[float, float, int]:
    """Seconds, AC rate and problems of one bench of `direct` on the dataset."""
    dataset = open_dataset(str(dataset_path))
    llm = LLMConfig(base_url=server.base_url, api_key="sk-overhead", model="instant", max_retries=0)
    settings = BenchSettings(dataset=dataset, language="python3", llm=llm, budget=Budget(max_calls=4), k=1)
    plan = make_plan(dataset, ["direct"], language="python3", model="instant", budget=settings.budget, k=1)
    with TranscriptStore(db) as store:
        run_id = start_bench(store, plan, llm.public())
        started = time.perf_counter()
        report = run_bench(store, run_id, plan, settings, executor)
        seconds = time.perf_counter() - started
    return seconds, report.strategies[0].overall.ac_rate, report.problems


def main(argv: list[str] | None = None) -> int:
    """Run the same bench on both executors and print problems per minute side by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=12)
    parser.add_argument("--cases", type=int, default=20, help="recorded cases kept per problem")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="cpbot-bench-overhead-"))
    path = work / "leetcode.jsonl.gz"
    references = small_dataset(path, args.problems, args.cases)
    rows: dict[str, dict[str, float]] = {}
    with ScriptedServer(default=instant_model(references)) as server:
        local = LocalExecutor(args.jobs)
        seconds, ac, n = one_bench(local, path, server, work / "local.sqlite3")
        rows["local"] = {"seconds": seconds, "per_minute": 60 * n / seconds, "ac_rate": ac, "startup_s": 0.0}
        started = time.perf_counter()
        ray_exec = RayExecutor(num_cpus=args.jobs)
        startup = time.perf_counter() - started
        try:
            seconds, ac, n = one_bench(ray_exec, path, server, work / "ray.sqlite3")
        finally:
            ray_exec.close()
        rows["ray"] = {"seconds": seconds, "per_minute": 60 * n / seconds, "ac_rate": ac, "startup_s": startup}
    if args.json:
        print(json.dumps({"problems": n, "cases": args.cases, "jobs": args.jobs, "executors": rows}, indent=2))
        return 0
    print(f"{n} LeetCodeDataset problems (<= {args.cases} hidden cases each), strategy direct, -j {args.jobs}")
    print(f"{'':<22}{'local':>12}{'ray':>12}")
    print(f"{'problems per minute':<22}{rows['local']['per_minute']:>12.1f}{rows['ray']['per_minute']:>12.1f}")
    print(f"{'bench seconds':<22}{rows['local']['seconds']:>12.1f}{rows['ray']['seconds']:>12.1f}")
    print(f"{'cluster start-up s':<22}{'-':>12}{rows['ray']['startup_s']:>12.1f}")
    print(f"{'AC rate (sanity)':<22}{rows['local']['ac_rate']:>12.2f}{rows['ray']['ac_rate']:>12.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
