"""The default `cpbot` strategy: guarded debugging, the deep path, and lessons carried across problems."""

from __future__ import annotations

import json

from agents.solve import solve
from agents.strategies.base import KnowledgePool
from agents.tracing import NoteEvent
from tests.agents.roles.helpers import sum_problem
from tests.agents.strategies.support import RIGHT, WRONG, code, plan_reply, roles, routes
from tests.agents.support.scripted_server import Reply

FIRST_ONLY = "input()\nprint(3)\n"  # passes sample 1 (1 2 -> 3), fails sample 2
SECOND_ONLY = "input()\nprint(30)\n"  # passes sample 2, breaks sample 1


def test_a_fix_that_breaks_a_passing_test_is_rejected(scripted_server, make_client, tracer, sandbox):
    server = scripted_server([code(FIRST_ONLY), code(SECOND_ONLY), code(RIGHT)])
    pool = KnowledgePool()
    result = solve(
        sum_problem(), language="python3", model=make_client(server), tracer=tracer, sandbox=sandbox, knowledge=pool
    )
    assert result.status == "solved" and result.strategy == "cpbot"
    assert roles(tracer) == ["coder", "debugger", "debugger"]
    rejected = [e.data for e in tracer.of_kind(NoteEvent) if e.message == "fix rejected"]
    assert rejected == [{"phase": "fast", "step": 1, "broke": [1]}]
    # the third call debugs the kept program, not the rejected one
    last = "\n".join(m["content"] for m in server.requests[-1].body["messages"])
    assert "print(3)" in last and "print(30)" not in last
    assert len(pool.lessons) == 1 and "expected '30', got '3'" in pool.lessons[0].symptom


def test_deep_path_selects_plans_and_codes_from_the_template(scripted_server, make_client, tracer, sandbox):
    selection = json.dumps({"branches": [{"tags": ["math"], "rationale": "arithmetic"}]})
    server = scripted_server([code(WRONG), code(WRONG), Reply(selection), plan_reply(), code(RIGHT)])
    result = solve(
        sum_problem(),
        language="python3",
        model=make_client(server),
        tracer=tracer,
        sandbox=sandbox,
        options={"debugs": 1, "plans": 1},
    )
    assert result.status == "solved"
    assert roles(tracer) == ["coder", "debugger", "selector", "planner", "coder"]
    assert routes(tracer) == ["coder", "debug_wrong_answer", "selector", "planner", "coder"]
    skeleton_prompt = "\n".join(m["content"] for m in server.requests[-1].body["messages"])
    assert "skeleton" in skeleton_prompt.lower()


def test_lessons_reach_the_coder_of_the_next_problem(scripted_server, make_client, tracer, sandbox):
    pool = KnowledgePool()
    server = scripted_server([code(FIRST_ONLY), code(RIGHT), code(RIGHT)])
    client = make_client(server)
    solve(sum_problem(), language="python3", model=client, tracer=tracer, sandbox=sandbox, knowledge=pool)
    solve(
        sum_problem(id="local:sum2"), language="python3", model=client, tracer=tracer, sandbox=sandbox, knowledge=pool
    )
    third = "\n".join(m["content"] for m in server.requests[2].body["messages"])
    assert "Lessons from earlier problems" in third and "expected '30', got '3'" in third
