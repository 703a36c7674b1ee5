"""The `ale` strategy's best score over time, against a stand-in model serving programs of known scores.

The Dial problem (tests/fixtures/heuristic/dial/) and `cpbot.testing.score_pool_server.dial_pool`: the
model's first program, its pool of new methods and its edits of the program it is asked to improve have
known qualities. The search runs under a budget of model calls; this prints the leader's mean score at
every change of leader (seconds since the start), the first program's and the best pool program's mean
scores on the same seeds (scored here through the judge), and optionally draws the plot.

    python scripts/perf/ale_search.py [--calls 25] [--seeds 10] [--repeats 2] [--width 4] [--png search.png]
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from cpbot.agents.budget import Budget
from cpbot.agents.llm import LLMClient
from cpbot.agents.llm_settings import LLMConfig
from cpbot.agents.solve import solve
from cpbot.agents.tracing import InMemoryTracer, ScoreEvent
from cpbot.bot.report.plots import save_search_png
from cpbot.judge.model import Problem, Solution
from cpbot.judge.sandbox import default_sandbox
from cpbot.judge.scorer import ScoringTools
from cpbot.judge.scoring import default_seeds, score_solution
from cpbot.testing.score_pool_server import dial_pool
from cpbot.testing.scripted_server import ScriptedServer

ROOT = Path(__file__).resolve().parents[2]
DIAL = ROOT / "tests" / "fixtures" / "heuristic" / "dial"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=25)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--png", type=Path)
    args = parser.parse_args()
    problem = Problem.model_validate(json.loads((DIAL / "problem.json").read_text()))
    assert problem.heuristic is not None
    pool = dial_pool()
    tracer = InMemoryTracer()
    options = {"folder": str(DIAL), "seeds": args.seeds, "repeats": args.repeats, "width": args.width}
    with ScriptedServer(default=pool.answer, model="score-pool") as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, api_key="sk-pool", model="score-pool"), tracer=tracer)
        result = solve(
            problem, strategy="ale", language="python3", model=client, tracer=tracer,
            budget=Budget(max_calls=args.calls), options=options,
        )  # fmt: skip
    events = tracer.of_kind(ScoreEvent)
    start = events[0].ts if events else None
    leader = [((e.ts - start).total_seconds(), e.report.mean) for e in events if e.best and start is not None]
    tools = ScoringTools.load(problem, DIAL, default_sandbox())
    seeds = default_seeds(problem.heuristic, args.seeds)

    def mean_of(source: str) -> float:
        program = Solution(language="python3", source=source)
        return score_solution(program, problem.id, tools, seeds, limits=problem.limits).mean

    first = mean_of(pool.programs[0].source)
    best_pool = max(mean_of(p.source) for p in pool.programs)
    print(f"ale on Dial: {args.calls} model calls, {args.seeds} seeds, repeats {args.repeats}, width {args.width}")
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    print(f"stopped: {result.reason}")
    print(f"{'seconds':>8}  {'leader mean':>12}")
    for seconds, mean in leader:
        print(f"{seconds:8.1f}  {mean:12,.1f}")
    final = leader[-1][1] if leader else 0.0
    print(f"first program {first:,.1f}; best program of the pool {best_pool:,.1f}; search's best {final:,.1f}")
    print(f"the search's best is {final / first:.2f}x the first and {final / best_pool:.2f}x the pool's best")
    if args.png:
        refs = {"first program": first, "best program of the pool": best_pool}
        print(f"plot: {save_search_png(leader, refs, args.png, title='ale on Dial (stand-in model)')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
