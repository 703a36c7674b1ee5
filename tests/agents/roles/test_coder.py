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


def test_a_reply_without_code_is_answered_then_given_up(scripted_server, make_client):
    server = scripted_server([Reply("I would add them."), Reply(PY)])
    attempt = write_code(make_client(server), sum_problem(), PLAN, language="python3")
    assert "print(a + b)" in attempt.source
    second = server.requests[1].body["messages"]
    assert second[-2] == {"role": "assistant", "content": "I would add them."}
    assert "had no program in it" in second[-1]["content"]

    server = scripted_server([Reply("no code"), Reply("still no code"), Reply("never code")])
    with pytest.raises(ExtractionError) as e:
        write_code(make_client(server), sum_problem(), PLAN, language="python3")
    assert e.value.reason == "no_code"
    assert len(server.requests) == 3


def test_a_cut_reply_is_not_sent_back_and_the_reask_says_why(scripted_server, make_client):
    cut = "```python\n" + "x = 1\n" * 400 + "for i in range(\n"
    server = scripted_server([Reply(cut, finish_reason="length"), Reply(PY)])
    attempt = write_code(make_client(server, retry_output_tokens=None), sum_problem(), PLAN, language="python3")
    assert "print(a + b)" in attempt.source
    first, second = (r.body["messages"] for r in server.requests)
    # the same conversation, with the reason added to its last user message: no cut reply resent
    assert [m["role"] for m in second] == [m["role"] for m in first]
    assert all(m["role"] != "assistant" for m in second)
    assert second[-1]["content"].startswith(first[-1]["content"])
    assert "cut off by the output limit" in second[-1]["content"]


def test_revise_sends_the_program_and_the_patch(scripted_server, make_client):
    server = scripted_server([Reply(PY)])
    attempt = CodeAttempt(language="python3", source="print(sum(map(int, input().split())))\n", plan_iteration=1)
    patch = Patch(target="coder", instructions="read with sys.stdin for speed")
    revised = revise_code(make_client(server), sum_problem(), attempt, patch, plan=PLAN)
    assert revised.plan_iteration == 1 and revised.notes == "revised"
    text = sent_text(server.requests[0])
    assert "print(sum(map(int, input().split())))" in text
    assert "read with sys.stdin for speed" in text
