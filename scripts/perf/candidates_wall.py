"""Wall time of drawing k candidates at once against a model with a fixed per-reply latency.

The population model server (`cpbot.testing.population_server`) answers every request after
`--latency` seconds with a program drawn for the problem. k coder requests go out together through
`agents.parallel.gather` and one `LLMClient` (per-endpoint limit `--max-in-flight`), each one the
coder role's real prompt, its reply extracted into a program. The figure is the median wall time of
k candidates over the median of one; the target is at most 1.5 for every k up to the limit. With
the default limit of 4, k = 8 needs two rounds of replies, which the second table shows; a limit of 1
is the calls one after another, as every strategy made them before.

    python scripts/perf/candidates_wall.py [--latency 0.5] [--repeats 5] [--ks 1 4 8] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from cpbot.agents.llm import LLMClient
from cpbot.agents.llm_settings import LLMConfig
from cpbot.agents.parallel import gather, values
from cpbot.agents.roles.coder import write_code
from cpbot.judge.model import Limits, Problem, TestCase
from cpbot.testing.population_server import Population, PopulationModel, Program
from cpbot.testing.scripted_server import ScriptedServer

TARGET_RATIO = 1.5
PROBLEM = Problem(
    id="local:sum",
    title="Sum",
    statement="Print the sum of two integers.",
    input_spec="One line with two integers a and b (1 <= a, b <= 10^9).",
    output_spec="Print a + b.",
    limits=Limits(time_ms=1000, memory_mb=256),
    samples=[TestCase(input="1 2\n", output="3\n")],
)
POPULATION = Population(
    problem_id=PROBLEM.id,
    title=PROBLEM.title,
    statement=PROBLEM.statement,
    programs=[
        Program("right.py", "python", "a, b = map(int, input().split())\nprint(a + b)\n", True),
        Program("wrong.py", "python", "a, b = map(int, input().split())\nprint(a + b if a < 100 else 0)\n", False),
    ],
)


def candidates_seconds(client: LLMClient, k: int) -> float:
    """Seconds to get k programs written at once."""
    started = time.perf_counter()
    values(gather([lambda: write_code(client, PROBLEM, None, language="python3", use_skeleton=False)] * k))
    return time.perf_counter() - started


def measure(latency: float, ks: list[int], repeats: int, max_in_flight: int) -> dict[int, float]:
    """The median seconds for each k."""
    model = PopulationModel([POPULATION], pass_at_1=0.5, seed=1, latency_s=latency)
    with ScriptedServer(default=model) as server:
        config = LLMConfig(base_url=server.base_url, api_key="sk-x", model="m", max_in_flight=max_in_flight)
        with LLMClient(config, probe=False) as client:
            candidates_seconds(client, 1)  # warm up: connection, imports
            return {k: statistics.median(candidates_seconds(client, k) for _ in range(repeats)) for k in ks}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.5, help="seconds per reply (0.5)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per k; the median is reported (5)")
    parser.add_argument("--ks", type=int, nargs="+", default=[1, 4, 8, 9])
    parser.add_argument("--max-in-flight", type=int, default=9, help="the endpoint's limit (9)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    default = LLMConfig.model_fields["max_in_flight"].default
    limits = dict.fromkeys([args.max_in_flight, default, 1])  # the one asked, the default, one call at a time
    runs = {limit: measure(args.latency, args.ks, args.repeats, limit) for limit in limits}
    figures = {
        str(limit): {
            str(k): {"seconds": round(s, 3), "ratio": round(s / seconds[args.ks[0]], 2)} for k, s in seconds.items()
        }
        for limit, seconds in runs.items()
    }
    if args.json:
        print(json.dumps({"latency_s": args.latency, "repeats": args.repeats, "by_max_in_flight": figures}))
    else:
        for limit, rows in figures.items():
            print(f"max_in_flight {limit}, {args.latency:g} s per reply, median of {args.repeats}:")
            for k, row in rows.items():
                print(f"  k={k:>2}  {row['seconds']:6.3f} s  ratio {row['ratio']:.2f}")
    ok = all(
        row["ratio"] <= TARGET_RATIO
        for k, row in figures[str(args.max_in_flight)].items()
        if int(k) <= args.max_in_flight
    )
    print(
        f"target: k <= max_in_flight candidates in at most {TARGET_RATIO}x the time of one: {'met' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
