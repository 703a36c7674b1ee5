"""`swiftsolve`: the pruner rejects a slow plan, the analyst routes patches, small gains stop the loop.

The profiler really runs: a tiny Python generator, `max_n` = 24 and one repeat per size keep it fast; a
slow program hangs from n = 16 on, so its profile has a TLE whatever the machine's speed.
"""

from __future__ import annotations

import json

from cpbot.agents.envelopes import ComplexityVerdict, PruneDecision
from cpbot.agents.solve import solve
from cpbot.judge.model import Limits, Solution
from tests.agents.roles.helpers import sent_text, sum_problem
from tests.agents.strategies.support import RIGHT, code, plan_reply, roles, routes
from tests.agents.support.scripted_server import Reply

GENERATOR = Solution(language="python3", source="import sys\nn = int(sys.argv[1])\nprint(n, n)\n")
SLOW = "a, b = map(int, input().split())\nwhile a >= 16:\n    pass\nprint(a + b)\n"
EXPONENTIAL = Reply(json.dumps({"complexity": "O(2^n)"}))


def run(make_client, server, tracer, sandbox, **options):
    return solve(
        sum_problem(limits=Limits(time_ms=200, memory_mb=256)),
        strategy="swiftsolve",
        language="python3",
        model=make_client(server),
        tracer=tracer,
        sandbox=sandbox,
        options={"generator": GENERATOR, "max_n": 24, "repeats": 1, "count": False, **options},
    )


def test_pruned_plan_then_analyst_patch_goes_to_the_coder(scripted_server, make_client, tracer, sandbox):
    server = scripted_server(
        [plan_reply(complexity="O(a * b)"), plan_reply(complexity="O(1)"), code(SLOW), EXPONENTIAL, code(RIGHT)]
    )
    result = run(make_client, server, tracer, sandbox)
    assert roles(tracer) == ["planner", "planner", "coder", "analyst", "coder"]
    assert routes(tracer) == [
        "planner",
        "pruner",
        "planner",  # rejected: O(a * b) at a = b = 10^9
        "pruner",
        "coder",
        "profiler",
        "analyst",
        "coder",  # measured O(2^n) against the plan's O(1): the code is at fault
        "coder",
        "profiler",
        "analyst",
    ]
    prunes = [e.payload.accepted for e in tracer.envelopes() if isinstance(e.payload, PruneDecision)]
    assert prunes == [False, True]
    assert "O(1)" in sent_text(server.requests[4]) and result.reason.startswith("accepted and efficient at attempt 2")


def test_too_slow_algorithm_goes_to_the_planner_and_small_gains_stop(scripted_server, make_client, tracer, sandbox):
    server = scripted_server(
        [plan_reply(complexity=""), code(SLOW), EXPONENTIAL, plan_reply(complexity=""), code(SLOW), EXPONENTIAL]
    )
    result = run(make_client, server, tracer, sandbox, threshold=1.01)  # any gain is below 101%
    assert roles(tracer) == ["planner", "coder", "analyst", "planner", "coder", "analyst"]
    assert routes(tracer)[4:] == ["analyst", "planner", "planner", "pruner", "coder", "profiler", "analyst"]
    verdicts = [e.payload for e in tracer.envelopes() if isinstance(e.payload, ComplexityVerdict)]
    assert [v.target for v in verdicts] == ["planner", "planner"] and verdicts[1].perf_gain is not None
    assert "stopped at attempt 2: the last change gained" in result.reason
    # the samples pass, but its own profile says it is too slow: returned, never called solved
    assert result.status == "best_effort" and "its profile says it is too slow" in result.reason
