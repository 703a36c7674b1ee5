"""The coder against the scripted server: skeletons, snippets, re-asking, revisions."""

from __future__ import annotations

import pytest

from cpbot.agents.envelopes import CodeAttempt, Patch, Plan
from cpbot.agents.extract import ExtractionError
from cpbot.agents.roles.coder import revise_code, write_code
from tests.agents.roles.helpers import codeforces, leetcode, sent_text, sum_problem
from tests.agents.support.scripted_server import Reply

PLAN = Plan(algorithm="add the two numbers", steps=["read a and b", "print a + b"], complexity="O(1)")
PY = "```python\na, b = map(int, input().split())\nprint(a + b)\n```"


def test_code_follows_the_plan_from_the_picked_skeleton(scripted_server, make_client):
    server = scripted_server([Reply("Here it is:\n" + PY)])
    problem = codeforces("cf_1702A_modern_single_line_cases")
    attempt = write_code(make_client(server), problem, PLAN, language="python3", plan_iteration=2)
    assert attempt.source == "a, b = map(int, input().split())\nprint(a + b)\n"
    assert attempt.language == "python3" and attempt.plan_iteration == 2
    assert "multi_line.py" in attempt.notes
    text = sent_text(server.requests[0])
    assert "1. read a and b" in text and "Claimed complexity: O(1)" in text
    assert "def solve(line: str)" in text  # the skeleton itself
    assert "one ```python block" in text
    assert "Round Down the Price" in text


def test_without_a_skeleton_the_coder_writes_its_own_io(scripted_server, make_client):
    server = scripted_server([Reply(PY)])
    write_code(make_client(server), sum_problem(), None, language="python3", use_skeleton=False)
    text = sent_text(server.requests[0])
    assert "There is no skeleton" in text and "no plan" in text


def test_function_problems_start_from_the_site_snippet(scripted_server, make_client):
    cpp = "```cpp\nclass Solution {\npublic:\n    int numDecodings(string s) { return 1; }\n};\n```"
    server = scripted_server([Reply(cpp)])
    problem = leetcode("lc_decode-ways_example_block")
    attempt = write_code(make_client(server), problem, PLAN, language="cpp17")
    assert "class Solution" in attempt.source
    text = sent_text(server.requests[0])
    assert "do not read input" in text
    assert problem.code_snippets["cpp"].strip()[:30] in text


def test_a_reply_without_code_is_answered_once_then_given_up(scripted_server, make_client):
    server = scripted_server([Reply("I would add them."), Reply(PY)])
    attempt = write_code(make_client(server), sum_problem(), PLAN, language="python3")
    assert "print(a + b)" in attempt.source
    second = server.requests[1].body["messages"]
    assert second[-2] == {"role": "assistant", "content": "I would add them."}
    assert "could not use that answer" in second[-1]["content"]

    server = scripted_server([Reply("no code"), Reply("still no code")])
    with pytest.raises(ExtractionError) as e:
        write_code(make_client(server), sum_problem(), PLAN, language="python3")
    assert e.value.reason == "no_code"


def test_revise_sends_the_program_and_the_patch(scripted_server, make_client):
    server = scripted_server([Reply(PY)])
    attempt = CodeAttempt(language="python3", source="print(sum(map(int, input().split())))\n", plan_iteration=1)
    patch = Patch(target="coder", instructions="read with sys.stdin for speed")
    revised = revise_code(make_client(server), sum_problem(), attempt, patch, plan=PLAN)
    assert revised.plan_iteration == 1 and revised.notes == "revised"
    text = sent_text(server.requests[0])
    assert "print(sum(map(int, input().split())))" in text
    assert "read with sys.stdin for speed" in text
