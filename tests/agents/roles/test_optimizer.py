"""The optimizer: a candidate only when worth it, kept only when the tests still pass."""

from __future__ import annotations

import pytest

from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.extract import ExtractionError
from cpbot.agents.roles.optimizer import keep_if_passing, propose_optimization
from cpbot.judge.model import JudgeReport, ProfileReport, TestCase, TestResult, Verdict
from tests.agents.roles.helpers import sent_text, sum_problem
from tests.agents.support.scripted_server import Reply

SLOW = CodeAttempt(
    language="python3", source="a, b = map(int, input().split())\nprint(sum([a] + [b]))\n", plan_iteration=1
)
FAST_REPLY = "OPTIMIZE: yes\nNo list needed.\n```python\na, b = map(int, input().split())\nprint(a + b)\n```"
WRONG = CodeAttempt(language="python3", source="a, b = map(int, input().split())\nprint(a * b)\n")


def test_a_proposed_version_carries_the_profile_in_its_prompt(scripted_server, make_client):
    server = scripted_server([Reply(FAST_REPLY)])
    profile = ProfileReport(complexity="O(n^2)", reason="O(n^2): about 9000 ms at n=200000 against 1000 ms")
    candidate = propose_optimization(make_client(server), sum_problem(), SLOW, profile=profile)
    assert candidate is not None and "print(a + b)" in candidate.source
    assert candidate.notes == "optimized" and candidate.plan_iteration == 1
    text = sent_text(server.requests[0])
    assert "about 9000 ms" in text and "print(sum([a] + [b]))" in text


@pytest.mark.parametrize(
    "answer",
    [
        "OPTIMIZE: no\nIt is already linear and fast enough.",
        "**Optimize:** No",
        "OPTIMIZE: yes\n```python\na, b = map(int, input().split())\nprint(sum([a] + [b]))\n```",  # unchanged
    ],
)
def test_no_change_worth_making_means_no_candidate(scripted_server, make_client, answer):
    server = scripted_server([Reply(answer)])
    assert propose_optimization(make_client(server), sum_problem(), SLOW) is None


def test_a_change_without_code_is_an_extraction_error(scripted_server, make_client):
    server = scripted_server([Reply("OPTIMIZE: yes, use a Fenwick tree.")])
    with pytest.raises(ExtractionError):
        propose_optimization(make_client(server), sum_problem(), SLOW)


def test_a_candidate_that_passes_is_kept(sandbox):
    fast = CodeAttempt(language="python3", source="a, b = map(int, input().split())\nprint(a + b)\n")
    outcome = keep_if_passing(SLOW, fast, sum_problem(), sandbox=sandbox)
    assert outcome.accepted is True and outcome.kept == fast
    assert outcome.reason == "all 2 tests still pass"


def test_a_candidate_that_breaks_a_test_is_thrown_away(sandbox):
    outcome = keep_if_passing(SLOW, WRONG, sum_problem(), sandbox=sandbox)
    assert outcome.accepted is False and outcome.kept == SLOW
    assert "fails (0/2 tests pass" in outcome.reason
    assert outcome.report is not None and outcome.report.verdict == Verdict.WA


def test_extra_tests_are_used_when_given(sandbox):
    tests = [TestCase(input="2 2\n", output="4\n")]  # a * b happens to be right here
    assert keep_if_passing(SLOW, WRONG, sum_problem(), tests, sandbox=sandbox).accepted is True


def test_require_faster_compares_cpu_time():
    def fake_judge(cpu: float):
        def judge(solution, problem, tests):
            result = TestResult(index=1, verdict=Verdict.AC, cpu_ms=cpu)
            return JudgeReport(verdict=Verdict.AC, results=[result], passed=1, total=1)

        return judge

    before = JudgeReport(
        verdict=Verdict.AC, results=[TestResult(index=1, verdict=Verdict.AC, cpu_ms=50)], passed=1, total=1
    )
    fast = CodeAttempt(language="python3", source="print(3)\n")
    slower = keep_if_passing(
        SLOW, fast, sum_problem(), require_faster=True, original_report=before, judge=fake_judge(80)
    )
    assert slower.accepted is False and "not faster (80 ms against 50 ms)" in slower.reason
    quicker = keep_if_passing(
        SLOW, fast, sum_problem(), require_faster=True, original_report=before, judge=fake_judge(20)
    )
    assert quicker.accepted is True


def test_no_candidate_keeps_the_original():
    outcome = keep_if_passing(SLOW, None, sum_problem())
    assert outcome.kept == SLOW and outcome.accepted is False and outcome.reason == "no optimization proposed"
