"""The error checker: PASS / FIX / RETHINK from structured replies, from prose, and the rules without a model."""

from __future__ import annotations

import pytest

from cpbot.agents.envelopes import CodeAttempt, Plan
from cpbot.agents.roles.checker import check, parse_decision
from cpbot.agents.roles.common import RoleError
from cpbot.core.errors import JudgeError
from cpbot.judge.model import Diff, JudgeReport, TestResult, Verdict
from tests.agents.roles.helpers import as_json, sent_text, sum_problem
from tests.agents.support.scripted_server import Reply

ATTEMPT = CodeAttempt(language="cpp17", source="int main() { return 0; }\n")
PLAN = Plan(algorithm="try every pair", complexity="O(n^2)")
FAILING = JudgeReport(
    verdict=Verdict.WA,
    results=[
        TestResult(index=1, verdict=Verdict.AC),
        TestResult(index=2, verdict=Verdict.WA, stdout="31\n", diff=Diff(line=1, token=1, expected="30", got="31")),
    ],
    passed=1,
    total=2,
)
PASSING = JudgeReport(
    verdict=Verdict.AC, results=[TestResult(index=i, verdict=Verdict.AC) for i in (1, 2)], passed=2, total=2
)


@pytest.mark.parametrize("decision", ["FIX", "RETHINK"])
def test_structured_decisions(scripted_server, make_client, decision):
    reply = {"analysis": "off by one", "error": "the loop stops early", "guidance": "use <=", "decision": decision}
    server = scripted_server([Reply(as_json(reply))])
    got = check(make_client(server), sum_problem(), ATTEMPT, FAILING, plan=PLAN)
    assert got.decision == decision
    assert got.reason == "the loop stops early use <="
    assert got.failing_tests == [2]
    text = sent_text(server.requests[0])
    assert "try every pair" in text and "10 20" in text and "expected '30', got '31'" in text
    assert server.requests[0].body["response_format"]["json_schema"]["name"] == "CheckerReply"


@pytest.mark.parametrize(
    ("prose", "decision"),
    [
        ("The algorithm is fine, only the bound is off.\n\nDecision: FIX", "FIX"),
        ("Analysis: greedy cannot work here.\n**Signal:** RETHINK", "RETHINK"),
        ("This does not PASS yet. The code needs a FIX: use long long.", "FIX"),
        ("control signal = rethink", "RETHINK"),
    ],
)
def test_prose_replies_are_read(scripted_server, make_client, prose, decision):
    server = scripted_server([Reply(prose)])
    got = check(make_client(server), sum_problem(), ATTEMPT, FAILING)
    assert got.decision == decision
    assert got.reason


def test_a_structured_reply_with_a_bad_decision_falls_back_to_prose(scripted_server, make_client):
    reply = '{"analysis": "x", "decision": "maybe"}\nActually, my decision: RETHINK'
    server = scripted_server([Reply(reply)])
    assert check(make_client(server), sum_problem(), ATTEMPT, FAILING).decision == "RETHINK"


def test_pass_for_a_failing_attempt_becomes_fix(scripted_server, make_client):
    server = scripted_server([Reply(as_json({"analysis": "looks right", "decision": "PASS"}))])
    got = check(make_client(server), sum_problem(), ATTEMPT, FAILING)
    assert got.decision == "FIX"
    assert "said PASS, but the attempt fails (WA, 1/2)" in got.reason


def test_a_passing_attempt_is_pass_without_asking(scripted_server, make_client):
    server = scripted_server([])
    got = check(make_client(server), sum_problem(), ATTEMPT, PASSING)
    assert got.decision == "PASS" and got.failing_tests == []
    assert server.requests == []


def test_a_passing_attempt_can_still_be_reviewed(scripted_server, make_client):
    server = scripted_server([Reply(as_json({"error": "O(n^2) will time out", "decision": "RETHINK"}))])
    got = check(make_client(server), sum_problem(), ATTEMPT, PASSING, plan=PLAN, trust_passing=False)
    assert got.decision == "RETHINK"
    assert "All 2 tests pass." in sent_text(server.requests[0])


def test_no_decision_at_all_is_a_role_error(scripted_server, make_client):
    server = scripted_server([Reply("I am not sure what to do.")])
    with pytest.raises(RoleError, match="no PASS, FIX or RETHINK"):
        check(make_client(server), sum_problem(), ATTEMPT, FAILING)


def test_a_judge_failure_is_not_judged():
    with pytest.raises(JudgeError, match="sandbox is gone"):
        check(None, sum_problem(), ATTEMPT, JudgeReport(verdict=Verdict.IE, reason="sandbox is gone"))  # type: ignore[arg-type]


def test_parse_decision_prefers_the_labelled_one():
    assert parse_decision("RETHINK was considered, but decision: FIX") == "FIX"
    assert parse_decision("nothing here") is None
