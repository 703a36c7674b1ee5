"""Each fault of a model server ends a solve with a clear outcome and a complete transcript."""

from __future__ import annotations

import pytest

from cpbot.agents.budget import Budget, BudgetTracker
from cpbot.bot.store.transcripts import TranscriptStore
from tests.agents.support.mini_solve import mini_solve
from tests.agents.support.scripted_server import Delay, HTTPFailure, Reply, rate_limited

GOOD = "```python\na, b = map(int, input().split())\nprint(a + b)\n```"
WRONG = "```python\na, b = map(int, input().split())\nprint(a - b)\n```"


@pytest.fixture
def store(tmp_path):
    with TranscriptStore(tmp_path / "t.sqlite3") as s:
        yield s


def run(store, client, *, budget=None, task_id="local:sum"):
    run_id = store.start_run("solve", problem_id=task_id, strategy="mini", model=client.config.model)
    budget = budget or BudgetTracker(Budget(max_calls=10))
    final = mini_solve(client, task_id=task_id, language="python3", tracer=store.tracer(run_id), budget=budget)
    store.finish_run(run_id, final.status, reason=final.reason)
    return final, store.transcript(run_id)


def kinds(transcript):
    """The event kinds in order, with the envelope type or note text for detail."""
    out = []
    for e in transcript.events:
        if e.kind == "envelope":
            out.append(f"envelope:{e.payload['envelope']['header']['type']}")
        elif e.kind == "note":
            out.append(f"note:{e.payload['message']}")
        elif e.kind == "report":
            out.append(f"report:{e.payload['report']['verdict']}")
        else:
            out.append(e.kind)
    return out


def test_a_clean_solve_is_recorded_start_to_end(scripted_server, make_client, store):
    final, t = run(store, make_client(scripted_server([Reply(GOOD)])))
    assert (final.status, final.reason) == ("solved", "accepted on every test")
    assert kinds(t) == [
        "run_start",
        "envelope:task",
        "llm_call",
        "envelope:code",
        "report:AC",
        "envelope:final_answer",
        "run_end",
    ]
    assert t.run.status == "solved"
    assert t.run.llm_calls == 1
    assert [e.seq for e in t.events] == list(range(1, 8))


@pytest.mark.parametrize(
    ("bad", "note"),
    [
        (Reply(""), "note:unusable reply: empty"),
        (Reply("Just add the two numbers and print them."), "note:unusable reply: no_code"),
        (
            Reply('```cpp\n#include <cstdio>\nint main(){int a,b;scanf("%d%d",&a,&b);printf("%d",a+b);}\n```'),
            "note:unusable reply: wrong_language",
        ),
        (
            Reply("```python\na, b = map(int, input().split(\n", finish_reason="length"),
            "note:unusable reply: truncated",
        ),
    ],
    ids=["empty", "prose", "wrong-language", "truncated"],
)
def test_an_unusable_reply_is_noted_and_asked_again(scripted_server, make_client, store, bad, note):
    server = scripted_server([bad, Reply(GOOD)])
    # no second try with a higher output limit inside the call: the role's own re-ask is under test
    final, t = run(store, make_client(server, retry_output_tokens=None))
    assert final.status == "solved"
    assert kinds(t) == [
        "run_start",
        "envelope:task",
        "llm_call",
        note,
        "llm_call",
        "envelope:code",
        "report:AC",
        "envelope:final_answer",
        "run_end",
    ]
    # the second request tells the model what was wrong
    assert server.requests[1].body["messages"][-1]["role"] == "user"
    assert t.llm_calls[0].reply == bad.text


def test_429_then_success_is_one_call_with_two_tries(scripted_server, make_client, store, fake_sleep):
    final, t = run(store, make_client(scripted_server([rate_limited("2"), Reply(GOOD)])))
    assert final.status == "solved"
    assert fake_sleep.waits == [2.0]
    (call,) = t.llm_calls
    assert call.attempts == 2
    tries = next(e for e in t.events if e.kind == "llm_call").payload["tries"]
    assert [x["status"] for x in tries] == [429, 200]


def test_repeated_500s_fail_the_solve_with_the_server_error(scripted_server, make_client, store):
    server = scripted_server(default=HTTPFailure(503, "overloaded"))
    final, t = run(store, make_client(server, max_retries=2))
    assert final.status == "failed"
    assert "kept failing after 3 tries" in final.reason
    assert "overloaded" in final.reason
    assert kinds(t) == [
        "run_start",
        "envelope:task",
        "llm_call",
        "note:model failed: server",
        "envelope:final_answer",
        "run_end",
    ]
    assert t.llm_calls[0].error and t.llm_calls[0].attempts == 3
    assert t.run.status == "failed"


def test_a_hung_server_times_out_and_the_solve_fails_clearly(scripted_server, make_client, store):
    server = scripted_server(default=Delay(5.0, Reply(GOOD)))
    final, t = run(store, make_client(server, timeout_s=0.1, max_retries=1))
    assert final.status == "failed"
    assert "did not answer within 0.1 s" in final.reason
    assert t.llm_calls[0].error
    assert "note:model failed: timeout" in kinds(t)


def test_the_budget_running_out_mid_run_returns_the_best_attempt_with_the_reason(scripted_server, make_client, store):
    server = scripted_server(default=Reply(WRONG, prompt_tokens=100, completion_tokens=50))
    final, t = run(store, make_client(server), budget=BudgetTracker(Budget(max_calls=2)))
    assert final.status == "best_effort"
    assert final.reason == "budget exhausted: LLM calls: used 2 of 2"
    assert final.solution is not None and "a - b" in final.solution.source
    assert (final.llm_calls, final.tokens) == (2, 300)
    assert kinds(t) == [
        "run_start",
        "envelope:task",
        "llm_call",
        "envelope:code",
        "report:WA",
        "envelope:judge_feedback",
        "llm_call",
        "envelope:code",
        "report:WA",
        "envelope:judge_feedback",
        "budget",
        "envelope:final_answer",
        "run_end",
    ]
    assert t.run.status == "best_effort"
    assert t.run.reason == final.reason
    assert len(server.requests) == 2


def test_a_token_budget_running_out_mid_run(scripted_server, make_client, store):
    server = scripted_server(default=Reply(WRONG, prompt_tokens=400, completion_tokens=200))
    final, _ = run(store, make_client(server), budget=BudgetTracker(Budget(max_tokens=1000)))
    assert final.status == "best_effort"
    assert final.reason == "budget exhausted: tokens: used 1,200 of 1,000"
