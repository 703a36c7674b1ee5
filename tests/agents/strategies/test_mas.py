"""`mas`: the checker's FIX goes back to the implementer, RETHINK to the reasoner on the next branch."""

from __future__ import annotations

import json

from cpbot.agents.envelopes import CheckerDecision
from cpbot.agents.solve import solve
from cpbot.agents.tracing import NoteEvent
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
            verdict("PASS", "no risk found"),
        ]
    )
    result = run(make_client, server, tracer, sandbox)
    assert result.status == "unverified" and result.reason.startswith("the checker passed iteration 3")
    roles_seen = ["selector", "planner", "coder", "checker", "coder", "checker", "planner", "coder", "checker"]
    assert roles(tracer) == roles_seen
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


def notes(tracer, message):
    return [e.data for e in tracer.of_kind(NoteEvent) if e.message == message]


def test_a_prose_only_selector_reply_falls_back_and_the_solve_goes_on(scripted_server, make_client, tracer, sandbox):
    server = scripted_server(
        [Reply("This looks like a simple problem to me."), plan_reply(), code(RIGHT), verdict("PASS", "fine")]
    )
    result = run(make_client, server, tracer, sandbox)
    assert result.status == "unverified" and result.solution is not None
    assert roles(tracer) == ["selector", "planner", "coder", "checker"]
    (unusable,) = notes(tracer, "selector reply unusable")
    assert unusable["fallback"] == ["implementation"]
    assert "no known technique" in unusable["error"]
    assert "implementation" in sent_text(server.requests[1])  # the fallback branch reached the reasoner


def test_the_fallback_uses_the_problems_own_tags_when_it_has_them(scripted_server, make_client, tracer, sandbox):
    server = scripted_server([Reply("No idea, honestly."), plan_reply(), code(RIGHT)])
    result = solve(
        sum_problem(tags=["math", "not-a-tag"]),
        strategy="mas",
        language="python3",
        model=make_client(server),
        tracer=tracer,
        sandbox=sandbox,
    )
    assert result.status == "unverified"
    assert notes(tracer, "selector reply unusable")[0]["fallback"] == ["math"]


def test_unreadable_planner_and_checker_replies_do_not_end_the_solve(scripted_server, make_client, tracer, sandbox):
    server = scripted_server(
        [
            SELECTION,
            Reply(""),
            code(WRONG),
            Reply("Looks questionable, not sure what to do."),
            code(RIGHT),
            Reply("Seems fine but I cannot say."),
        ]
    )
    result = run(make_client, server, tracer, sandbox)
    assert result.status == "unverified"
    assert roles(tracer) == ["selector", "planner", "coder", "checker", "coder", "checker"]
    assert "statement" in notes(tracer, "planner reply unusable")[0]["fallback"]
    assert notes(tracer, "checker reply unusable")[0]["fallback"] == "FIX"
    decisions = [e.payload.decision for e in tracer.envelopes() if isinstance(e.payload, CheckerDecision)]
    assert decisions == ["FIX", "PASS"]


def test_a_role_with_no_fallback_still_returns_the_best_attempt(scripted_server, make_client, tracer, sandbox):
    # the implementer answers twice without code after a judged attempt: nothing can stand in for a program
    server = scripted_server(
        [SELECTION, plan_reply(), code(WRONG), verdict("FIX", "use plus"), Reply("Sorry."), Reply("Still no.")]
    )
    result = run(make_client, server, tracer, sandbox)
    assert result.status == "best_effort"
    assert result.solution is not None and "a - b" in result.solution.source
    assert result.reason.startswith("stopped: ")


def test_the_checker_reviews_a_passing_program_and_its_fix_is_judged(scripted_server, make_client, tracer, sandbox):
    # the paper's checker looks at passing programs too: here it asks for 64-bit arithmetic
    server = scripted_server(
        [
            SELECTION,
            plan_reply(),
            code(RIGHT),
            verdict("FIX", "guard against overflow"),
            code(RIGHT),
            verdict("PASS", "fine now"),
        ]
    )
    result = run(make_client, server, tracer, sandbox)
    assert result.status == "unverified"
    assert "All 2 tests pass" in sent_text(server.requests[3])  # the review saw the passing report
    assert "hidden" in sent_text(server.requests[3])  # and its checklist of risks
    decisions = [e.payload.decision for e in tracer.envelopes() if isinstance(e.payload, CheckerDecision)]
    assert decisions == ["FIX", "PASS"]


def test_without_review_a_passing_program_ends_the_solve_at_once(scripted_server, make_client, tracer, sandbox):
    server = scripted_server([SELECTION, plan_reply(), code(RIGHT)])
    result = run(make_client, server, tracer, sandbox, review=False)
    assert result.status == "unverified"
    assert roles(tracer) == ["selector", "planner", "coder"]
