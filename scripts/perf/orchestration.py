"""The agent pipeline's own time per LLM call and per solve, with a model server that answers instantly.

Calls go through `LLMClient` (openai client, HTTP on 127.0.0.1), the budget, the tracer and the SQLite
transcript store (redaction included) to the scripted OpenAI-compatible server (`cpbot.testing`). The
server's own handling time is subtracted, so what is left is cpbot's overhead. Solves use a three-round
solve loop (`perfkit.three_round_solve`: two wrong programs, then a right one) with a stand-in judge, so
"per solve" is everything but the judge. Target: a median under 20 ms per call.

    python scripts/perf/orchestration.py [--calls 200] [--solves 20] [--prompt-chars 4000] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from perfkit import three_round_solve

from cpbot.agents.budget import Budget, BudgetTracker
from cpbot.agents.llm import LLMClient
from cpbot.agents.llm_settings import LLMConfig
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.testing.scripted_server import Reply, ScriptedServer

TARGET_MS = 20.0
PROGRAM = "a, b = map(int, input().split())\nprint(a {op} b)\n" + "# padding to a typical reply size\n" * 40
WRONG = Reply(f"Here is my program.\n```python\n{PROGRAM.format(op='-')}```\nIt reads two numbers.", 900, 300)
RIGHT = Reply(f"Fixed.\n```python\n{PROGRAM.format(op='+')}```", 1100, 300)


def percentile(values: list[float], q: float) -> float:
    """The q-th quantile (0..1) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_calls(client: LLMClient, server: ScriptedServer, store: TranscriptStore, n: int, prompt: str) -> list[float]:
    """Own milliseconds of each of `n` calls: client wall time minus the server's handling time."""
    run_id = store.start_run("bench", strategy="orchestration-calls", model=client.config.model)
    tracer = store.tracer(run_id)
    budget = BudgetTracker(Budget(max_calls=None, max_tokens=None, max_seconds=None))
    messages = [{"role": "system", "content": "You write Python."}, {"role": "user", "content": prompt}]
    own = []
    for _ in range(n):
        server.add(RIGHT)
        before = len(server.requests)
        started = time.perf_counter()
        client.complete("coder", messages, budget=budget, tracer=tracer, task_id="bench")
        elapsed = time.perf_counter() - started
        served = sum(r.server_seconds for r in server.requests[before:])
        own.append((elapsed - served) * 1000)
    store.finish_run(run_id, "done")
    return own


def bench_solves(client: LLMClient, server: ScriptedServer, store: TranscriptStore, n: int) -> list[float]:
    """Own milliseconds of each of `n` three-round solves, judge and server time excluded."""
    own = []
    for i in range(n):
        server.add(WRONG, WRONG, RIGHT)
        run_id = store.start_run("bench", problem_id=f"bench:{i}", strategy="orchestration-solve")
        before = len(server.requests)
        budget = BudgetTracker(Budget(max_calls=10))
        started = time.perf_counter()
        final = three_round_solve(client, task_id=f"bench:{i}", tracer=store.tracer(run_id), budget=budget)
        store.finish_run(run_id, final.status, reason=final.reason)
        elapsed = time.perf_counter() - started
        assert final.status == "solved", final.reason
        served = sum(r.server_seconds for r in server.requests[before:])
        own.append((elapsed - served) * 1000)
    return own


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures; exit 0 when the median per call meets the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--solves", type=int, default=20)
    parser.add_argument("--prompt-chars", type=int, default=4000, help="size of the user prompt")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    prompt = ("Given n numbers, print the sum of each pair. " * (args.prompt_chars // 45 + 1))[: args.prompt_chars]
    with tempfile.TemporaryDirectory() as tmp, ScriptedServer() as server, TranscriptStore(Path(tmp) / "t.db") as store:
        config = LLMConfig(base_url=server.base_url, api_key="sk-bench-not-a-real-key", model="bench-model")
        with LLMClient(config) as client:
            bench_calls(client, server, store, 10, prompt)  # warm up: imports, connections, SQLite pages
            calls = bench_calls(client, server, store, args.calls, prompt)
            solves = bench_solves(client, server, store, args.solves) if args.solves else []
        server_ms = statistics.median(r.server_seconds for r in server.requests) * 1000
    figures = {
        "calls": len(calls),
        "call_own_ms_median": round(statistics.median(calls), 3),
        "call_own_ms_p90": round(percentile(calls, 0.9), 3),
        "server_ms_median": round(server_ms, 3),
        "solves": len(solves),
        "solve_own_ms_median": round(statistics.median(solves), 3) if solves else None,
        "target_ms_per_call": TARGET_MS,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(
            f"LLM calls: {len(calls)}, own time per call: median {figures['call_own_ms_median']:.2f} ms, "
            f"p90 {figures['call_own_ms_p90']:.2f} ms (server: {server_ms:.2f} ms, excluded)"
        )
        if solves:
            print(
                f"solves: {len(solves)} x 3 calls, own time per solve: median {figures['solve_own_ms_median']:.2f} ms"
            )
        verdict = "meets" if figures["call_own_ms_median"] < TARGET_MS else "MISSES"
        print(f"{verdict} the target of {TARGET_MS:g} ms per call")
    return 0 if figures["call_own_ms_median"] < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
