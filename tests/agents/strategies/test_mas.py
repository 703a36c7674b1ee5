"""`mas`: the checker's FIX goes back to the implementer, RETHINK to the reasoner on the next branch."""

from __future__ import annotations

import json

from agents.envelopes import CheckerDecision
from agents.solve import solve
from tests.agents.roles.helpers import sent_text, sum_problem
from tests.agents.strategies.support import RIGHT, WRONG, code, plan_reply, roles, routes
from tests.agents.support.scripted_server import Reply

SELECTION = Reply(
    json.dumps(
        {
            "branches": [
                {"tags": ["greedy"], "rationale": "pick the best locally"},
                {"tags": ["math"], "rationale": "a formula"},
            ]
        }
    )
)


def verdict(decision: str, guidance: str) -> Reply:
    return Reply(json.dumps({"decision": decision, "error": f"{decision.lower()} needed", "guidance": guidance}))


def run(make_client, server, tracer, sandbox, **options):
    return solve(
        sum_problem(),
        strategy="mas",
        language="python3",
        model=make_client(server),
        tracer=tracer,
        sandbox=sandbox,
        options=options,
    )


def test_fix_goes_to_the_implementer_and_rethink_to_the_reasoner(scripted_server, make_client, tracer, sandbox):
    server = scripted_server(
        [
            SELECTION,
            plan_reply(algorithm="subtract"),
            code(WRONG),
            verdict("FIX", "use plus, not minus"),
            code(WRONG),
            verdict("RETHINK", "the plan itself is wrong"),
            plan_reply(),
            code(RIGHT),
        ]
    )
    result = run(make_client, server, tracer, sandbox)
    assert result.status == "solved" and result.reason.startswith("the checker passed iteration 3")
    assert roles(tracer) == ["selector", "planner", "coder", "checker", "coder", "checker", "planner", "coder"]
    assert routes(tracer) == [
        "selector",
        "knowledge",
        "reasoner",
        "implementer",
        "checker",
        "implementer",  # FIX
        "checker",
        "knowledge",  # RETHINK: the next branch's knowledge, then the reasoner
        "reasoner",
        "implementer",
        "checker",
    ]
    decisions = [e.payload.decision for e in tracer.envelopes() if isinstance(e.payload, CheckerDecision)]
    assert decisions == ["FIX", "RETHINK", "PASS"]
    # FIX reached the implementer as a revision of the failing program; RETHINK reached the reasoner
    assert "use plus, not minus" in sent_text(server.requests[4]) and "a - b" in sent_text(server.requests[4])
    replan = sent_text(server.requests[6])
    assert "the plan itself is wrong" in replan and "math" in replan


def test_the_iteration_cap_ends_a_run_of_fixes(scripted_server, make_client, tracer, sandbox):
    server = scripted_server([SELECTION, plan_reply()])
    for _ in range(2):
        server.add(code(WRONG), verdict("FIX", "try again"))
    result = run(make_client, server, tracer, sandbox, iterations=2)
    assert roles(tracer) == ["selector", "planner", "coder", "checker", "coder", "checker"]
    assert result.status == "best_effort" and result.reason.startswith("no PASS after 2 iterations")
