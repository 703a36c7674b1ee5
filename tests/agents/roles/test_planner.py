"""The planner against the scripted server: structured plans, prose plans, replanning with feedback."""

from __future__ import annotations

import pytest

from cpbot.agents.envelopes import CheckerDecision, Plan, PruneDecision
from cpbot.agents.roles.common import RoleError
from cpbot.agents.roles.knowledge import default_knowledge
from cpbot.agents.roles.planner import plan, replan
from tests.agents.roles.helpers import GYM, as_json, codeforces, sent_text
from tests.agents.support.scripted_server import Reply

DRAFT = {
    "algorithm": "Sort the books by target position and count inversions with a Fenwick tree",
    "steps": ["read n and both arrays", "map each book to its target index", "count inversions", "print"],
    "complexity": "O(n log n)",
    "rationale": "every out-of-order pair costs one move",
    "tags": ["data structures"],
    "confidence": 80,
}


def test_a_structured_plan_becomes_a_plan_with_the_statement_bounds(scripted_server, make_client):
    server = scripted_server([Reply(as_json(DRAFT))])
    problem = codeforces(GYM, "Scarlet Witch Moves Books")
    notes = [default_knowledge().get("fenwick-tree")]
    got = plan(make_client(server), problem, language="cpp17", tags=["sortings"], knowledge=notes)
    assert got.algorithm.startswith("Sort the books")
    assert got.steps[1] == "map each book to its target index"
    assert got.complexity == "O(n log n)"
    assert got.confidence == 80
    assert got.tags == ["data structures", "sortings"]
    assert got.input_bounds == {"n": 200_000}
    request = server.requests[0]
    text = sent_text(request)
    assert "Scarlet Witch" in text and "1 2 3" in text  # the statement and a sample
    assert "sortings" in text and "Fenwick tree" in text and "C++" in text
    assert request.body["response_format"]["json_schema"]["name"] == "PlanDraft"


def test_a_prose_plan_is_still_read(scripted_server, make_client):
    prose = (
        "Algorithm: binary search on the answer with a greedy check\n\n"
        "1. Read the input.\n2. Binary search the largest feasible value.\n3. Print it.\n\n"
        "This runs in O(n log C) time.\nConfidence: 65"
    )
    server = scripted_server([Reply(prose)])
    got = plan(make_client(server), codeforces(GYM, "Young Magneto"), language="python3")
    assert got.algorithm == "binary search on the answer with a greedy check"
    assert got.steps == ["Read the input.", "Binary search the largest feasible value.", "Print it."]
    assert got.complexity == "O(n log C)"
    assert got.confidence == 65


def test_a_complexity_without_o_gets_one_and_confidence_is_clamped(scripted_server, make_client):
    server = scripted_server([Reply(as_json({**DRAFT, "complexity": "n log n", "confidence": 140}))])
    got = plan(make_client(server), codeforces(GYM, "Young Magneto"), language="cpp17")
    assert got.complexity == "O(n log n)" and got.confidence == 100


def test_an_empty_reply_is_a_role_error(scripted_server, make_client):
    server = scripted_server([Reply("   ")])
    with pytest.raises(RoleError, match="no plan"):
        plan(make_client(server), codeforces(GYM, "Young Magneto"), language="cpp17")


def test_replan_shows_the_failed_plan_and_every_piece_of_feedback(scripted_server, make_client):
    server = scripted_server([Reply(as_json({**DRAFT, "algorithm": "a different idea"}))])
    previous = Plan(algorithm="try all pairs", steps=["loop i", "loop j"], complexity="O(n^2)")
    feedback = [
        PruneDecision(accepted=False, reason="too slow: O(n^2) at n = 2.0e+05 is about 4.0e+10 operations"),
        CheckerDecision(decision="RETHINK", reason="the pair loop cannot pass", failing_tests=[3]),
    ]
    got = replan(
        make_client(server), codeforces(GYM, "Scarlet Witch Moves Books"), previous, feedback, language="cpp17"
    )
    assert got.algorithm == "a different idea"
    text = sent_text(server.requests[0])
    assert "try all pairs" in text and "Claimed complexity: O(n^2)" in text
    assert "4.0e+10 operations" in text
    assert "RETHINK" in text and "failing tests: 3" in text
    assert "plan again" in server.requests[0].body["messages"][0]["content"]
