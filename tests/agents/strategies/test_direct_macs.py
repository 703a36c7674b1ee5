"""`direct` and `macs` against the scripted server: the roles called, the routes taken, the caps."""

from __future__ import annotations

from cpbot.agents.budget import Budget
from cpbot.agents.envelopes import FinalAnswer
from cpbot.agents.solve import solve
from cpbot.judge.model import Verdict
from tests.agents.roles.helpers import sum_problem
from tests.agents.strategies.support import CRASH, RIGHT, WRONG, code, plan_reply, roles, routes
from tests.agents.support.scripted_server import Reply


def run(make_client, server, tracer, sandbox, strategy, **kwargs):
    client = make_client(server)
    return solve(
        sum_problem(), strategy=strategy, language="python3", model=client, tracer=tracer, sandbox=sandbox, **kwargs
    )


def test_direct_makes_one_call_and_reports_the_samples_verdict(scripted_server, make_client, tracer, sandbox):
    server = scripted_server([code(WRONG)])
    result = run(make_client, server, tracer, sandbox, "direct")
    assert roles(tracer) == ["coder"]
    assert result.status == "best_effort" and result.verdict == Verdict.WA
    assert result.calls == 1 and result.tokens == 30
    assert "single attempt fails" in result.reason
    assert tracer.envelopes()[-1].expect(FinalAnswer).status == "best_effort"


CPP_SUM = Reply("```cpp\n#include <iostream>\nint main(){long long a,b;std::cin>>a>>b;std::cout<<a+b;}\n```")


def test_direct_asked_for_python_and_answered_in_cpp_stops_after_one_program(
    scripted_server, make_client, tracer, sandbox
):
    # it once made 24 calls: 8 rounds of a first ask and 2 re-asks, every one answered in C++
    server = scripted_server(default=CPP_SUM)
    result = run(make_client, server, tracer, sandbox, "direct", budget=Budget(max_calls=40))
    assert result.status == "failed" and result.calls == 3 == len(server.requests)
    assert result.reason.startswith("no usable program") and "C++" in result.reason


def test_a_strategy_stops_after_rounds_in_a_row_that_failed_the_same_way(scripted_server, make_client, tracer, sandbox):
    server = scripted_server(default=CPP_SUM)
    result = run(make_client, server, tracer, sandbox, "macs", budget=Budget(max_calls=40))
    assert result.status == "failed" and result.calls == 9  # 3 rounds of a first ask and 2 re-asks
    assert "3 rounds in a row" in result.reason and "C++" in result.reason


def test_macs_fast_path_that_passes_returns_at_once(scripted_server, make_client, tracer, sandbox):
    server = scripted_server([code(RIGHT)])
    result = run(make_client, server, tracer, sandbox, "macs")
    assert result.status == "unverified" and result.verdict == Verdict.AC
    assert roles(tracer) == ["coder"] and routes(tracer) == ["coder"]
    assert result.solution is not None and result.solution.source == RIGHT
    assert server.remaining == 0 and result.reason.startswith("fast path accepted on the samples; unverified: ")
    # tested on the samples alone: passing them is not the gate's evidence, and the result says what is missing
    assert result.missing_evidence == [
        "no generated tests: judged on the samples only",
        "not stressed: no brute force was written",
        "not profiled: no generator was written",
    ]


def test_macs_debug_blocks_follow_the_paper_order(scripted_server, make_client, tracer, sandbox):
    # fast path wrong; planned program crashes (-> STD-IO), crashes again (-> runtime), then answers
    # wrongly (-> wrong answer), then is right
    server = scripted_server([code(WRONG), plan_reply(), code(CRASH), code(CRASH), code(WRONG), code(RIGHT)])
    result = run(make_client, server, tracer, sandbox, "macs")
    assert result.status == "unverified"
    assert roles(tracer) == ["coder", "planner", "coder", "debugger", "debugger", "debugger"]
    assert routes(tracer) == ["coder", "planner", "coder", "debug_stdio", "debug_runtime", "debug_wrong_answer"]
    # the wrong-answer block was shown the failing input and the first difference
    last = server.requests[-1].body["messages"][-1]["content"]
    assert "1 2" in last and "expected '3', got '-1'" in last


def test_macs_stops_at_p_plans_times_d_debug_steps(scripted_server, make_client, tracer, sandbox):
    server = scripted_server(default=code(WRONG))
    server.add(code(WRONG), plan_reply(), code(WRONG), code(WRONG), code(WRONG), plan_reply(algorithm="b"))
    result = run(make_client, server, tracer, sandbox, "macs", options={"plans": 2, "debugs": 2})
    # 1 fast + 2 x (1 plan + 1 code + 2 debug)
    assert roles(tracer) == ["coder"] + ["planner", "coder", "debugger", "debugger"] * 2
    assert result.calls == 9 and result.status == "best_effort" and result.verdict == Verdict.WA
    assert result.reason == "no program passed the samples after 2 plans x 2 debug steps"


def test_budget_exhaustion_returns_the_best_attempt_with_the_reason(scripted_server, make_client, tracer, sandbox):
    server = scripted_server(default=code(WRONG))
    result = run(make_client, server, tracer, sandbox, "macs", budget=Budget(max_calls=3))
    assert result.calls == 3 and result.status == "best_effort"
    assert result.reason.startswith("budget exhausted: LLM calls: used 3 of 3")
    assert result.solution is not None and result.solution.source == WRONG
