"""Concurrent model calls: the per-endpoint limit, its decrease on overload, the budget across calls,
`gather`, and a server whose replies are unusable. No wall-clock windows: events and counters only."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from cpbot.agents.budget import Budget, BudgetExhausted, BudgetTracker
from cpbot.agents.inflight import EndpointLimit, endpoint_limit
from cpbot.agents.llm import UNUSABLE_IN_A_ROW
from cpbot.agents.llm_failures import LLMError
from cpbot.agents.parallel import gather, values
from cpbot.agents.tracing import LLMCallEvent
from tests.agents.support.scripted_server import HTTPFailure, RawReply, Reply, rate_limited

ASK = [{"role": "user", "content": "Sum two numbers."}]
PATIENCE_S = 20.0  # only a safety net against a hang: every wait below ends on an event


def wait_until(condition: Callable[[], bool]) -> None:
    """Return once `condition()` holds; fail the test if it never does."""
    deadline = time.monotonic() + PATIENCE_S
    while not condition():
        assert time.monotonic() < deadline, "the condition never came true"
        time.sleep(0.005)


class CountingStep:
    """A server step that counts the requests it is answering at once and holds each until `go` is set."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.current = 0
        self.peak = 0
        self.go = threading.Event()

    def __call__(self, body: dict[str, Any]) -> Reply:
        with self.lock:
            self.current += 1
            self.peak = max(self.peak, self.current)
        self.go.wait(PATIENCE_S)
        with self.lock:
            self.current -= 1
        return Reply("ok", prompt_tokens=3, completion_tokens=4)


# ---- the limit ------------------------------------------------------------------------------------


def test_never_more_requests_in_flight_than_the_endpoint_allows(scripted_server, make_client):
    step = CountingStep()
    server = scripted_server(default=step)
    client = make_client(server, max_in_flight=3)
    others = make_client(server, max_in_flight=3)  # a second client of the same endpoint shares the limit
    calls = [lambda c=c: c.complete("coder", ASK).text for c in [client, others] * 4]
    results: list[Any] = []
    runner = threading.Thread(target=lambda: results.extend(gather(calls)))
    runner.start()
    wait_until(lambda: step.current == 3 and client.limit.waiting == 5)
    assert step.current == 3 and client.limit.in_flight == 3
    step.go.set()
    runner.join()
    assert results == ["ok"] * 8
    assert step.peak == 3 and client.limit.peak == 3
    assert client.limit is others.limit


def test_one_limit_per_endpoint_in_the_process():
    a = endpoint_limit("http://127.0.0.1:1/v1", 4)
    assert endpoint_limit("http://127.0.0.1:1/v1/", 4) is a
    assert endpoint_limit("http://127.0.0.1:2/v1", 4) is not a
    assert endpoint_limit("http://127.0.0.1:1/v1", 2).limit == 2


def test_a_burst_of_overloads_halves_the_limit_once_and_successes_raise_it_again():
    limit = EndpointLimit(8)
    burst = [limit.acquire() for _ in range(4)]
    for slot in burst:
        assert slot is not None
        slot.outcome = "overloaded"
        limit.release(slot)
    assert limit.limit == 4  # the four were sent under the same limit: one decrease
    slot = limit.acquire()
    assert slot is not None
    slot.outcome = "overloaded"
    limit.release(slot)
    assert limit.limit == 2
    for _ in range(2):
        slot = limit.acquire()
        assert slot is not None
        slot.outcome = "ok"
        limit.release(slot)
    assert limit.limit == 3  # a run of `limit` successes adds one
    for _ in range(100):
        slot = limit.acquire()
        assert slot is not None
        slot.outcome = "ok"
        limit.release(slot)
    assert limit.limit == 8  # never above the configured maximum


def test_the_limit_is_never_below_one():
    limit = EndpointLimit(1)
    slot = limit.acquire()
    assert slot is not None
    slot.outcome = "overloaded"
    limit.release(slot)
    assert limit.limit == 1
    assert limit.acquire(timeout=0) is not None


def test_a_429_lowers_the_clients_endpoint_limit(scripted_server, make_client, fake_sleep):
    server = scripted_server([rate_limited("0"), Reply("ok")])
    client = make_client(server, max_in_flight=4)
    assert client.complete("coder", ASK).text == "ok"
    assert client.limit.limit == 2
    assert fake_sleep.waits == [0.0]


def test_a_503_lowers_the_limit_and_a_400_does_not(scripted_server, make_client):
    server = scripted_server([HTTPFailure(503, "overloaded"), Reply("ok"), HTTPFailure(400, "bad")])
    client = make_client(server, max_in_flight=4)
    client.complete("coder", ASK)
    assert client.limit.limit == 2
    with pytest.raises(LLMError):
        client.complete("coder", ASK)
    assert client.limit.limit == 2


def test_retry_after_holds_back_the_other_callers_but_not_the_one_that_waits_it_out():
    now = [100.0]
    limit = EndpointLimit(4, clock=lambda: now[0])
    limit.pause(5.0)
    mine = limit.acquire(timeout=0)
    assert mine is not None  # this thread got the Retry-After and sleeps it out itself
    limit.release(mine)
    seen: list[Any] = []
    other = threading.Thread(target=lambda: seen.append(limit.acquire(timeout=0)))
    other.start()
    other.join()
    assert seen == [None]
    now[0] += 5.0
    other = threading.Thread(target=lambda: seen.append(limit.acquire(timeout=0)))
    other.start()
    other.join()
    assert seen[1] is not None


def test_no_free_slot_before_the_budgets_time_runs_out_is_a_budget_stop(scripted_server, make_client):
    server = scripted_server(default=Reply("ok"))
    client = make_client(server, max_in_flight=1)
    held = client.limit.acquire()
    now = [0.0]
    budget = BudgetTracker(Budget(max_seconds=1.0), clock=lambda: now[0])
    now[0] = 1.0 - 1e-9  # almost no time left: the wait for the held slot cannot end in it
    try:
        with pytest.raises(BudgetExhausted, match="no free request slot"):
            client.bind(task_id="t", budget=budget).complete("coder", ASK)
    finally:
        assert held is not None
        client.limit.release(held)
    assert server.requests == []


# ---- the budget across concurrent calls -----------------------------------------------------------


def test_concurrent_calls_spend_exactly_the_budget_and_keep_the_finished_replies(scripted_server, make_client):
    server = scripted_server(default=Reply("ok", prompt_tokens=3, completion_tokens=4))
    client = make_client(server, max_in_flight=3)
    budget = BudgetTracker(Budget(max_calls=5, max_tokens=None, max_seconds=None))
    llm = client.bind(task_id="t", budget=budget)
    results = gather([lambda: llm.complete("coder", ASK).text for _ in range(8)])
    replies = [r for r in results if r == "ok"]
    stopped = [r for r in results if isinstance(r, BudgetExhausted)]
    assert (len(replies), len(stopped)) == (5, 3)
    spent = budget.snapshot()
    assert spent.calls == 5 and len(server.requests) == 5
    assert (spent.usage.prompt_tokens, spent.usage.completion_tokens) == (15, 20)


def test_every_call_records_when_it_started_and_ended(scripted_server, make_client, tracer):
    client = make_client(scripted_server(default=Reply("ok")))
    gather([lambda: client.complete("coder", ASK) for _ in range(3)])
    events = tracer.of_kind(LLMCallEvent)
    assert len(events) == 3
    for event in events:
        assert event.started_at is not None and event.started_at <= event.ts
        assert event.queued_ms >= 0


# ---- gather ---------------------------------------------------------------------------------------


def test_gather_returns_results_in_order_with_exceptions_in_place():
    started = threading.Barrier(3)

    def call(n: int) -> int:
        started.wait(PATIENCE_S)  # all three run at once, or the barrier breaks
        if n == 1:
            raise ValueError("second")
        return n * 10

    results = gather([lambda n=n: call(n) for n in range(3)])
    assert results[0] == 0 and results[2] == 20
    assert isinstance(results[1], ValueError)
    with pytest.raises(ValueError, match="second"):
        values(results)
    assert values(gather([lambda: 1, lambda: 2])) == [1, 2]
    assert gather([]) == []


# ---- unusable replies -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "what"), [(Reply("", no_choices=True), "no choices"), (Reply(None), "an empty message")]
)
def test_a_server_with_unusable_replies_is_reported_with_what_it_sent(scripted_server, make_client, reply, what):
    server = scripted_server(default=reply)
    client = make_client(server)
    for _ in range(UNUSABLE_IN_A_ROW - 1):
        assert client.complete("coder", ASK).empty
    with pytest.raises(LLMError) as e:
        client.complete("coder", ASK)
    assert e.value.kind == "bad_response"
    assert what in e.value.message and '"object": "chat.completion"' in e.value.message
    assert "--base-url" in e.value.hint
    assert len(server.requests) == UNUSABLE_IN_A_ROW


def test_a_usable_reply_starts_the_count_again(scripted_server, make_client):
    empty = Reply("", no_choices=True)
    client = make_client(scripted_server([empty, empty, Reply("fine"), empty, empty, Reply("fine")]))
    assert [client.complete("coder", ASK).text for _ in range(6)] == ["", "", "fine", "", "", "fine"]


def test_a_reply_cut_while_reasoning_is_not_unusable(scripted_server, make_client):
    cut = Reply("", finish_reason="length", reasoning_content="thinking...")
    client = make_client(scripted_server(default=cut), retry_output_tokens=None)
    for _ in range(UNUSABLE_IN_A_ROW + 1):
        assert client.complete("coder", ASK).empty


@pytest.mark.parametrize(
    ("body", "what"),
    [
        (RawReply("<html>502 Bad Gateway</html>", content_type="text/html"), "other than a chat completion"),
        (RawReply("not json at all"), "not JSON"),
    ],
)
def test_a_body_that_is_no_chat_completion_is_reported_at_once_with_what_it_was(
    scripted_server, make_client, body, what
):
    server = scripted_server(default=body)
    with pytest.raises(LLMError) as e:
        make_client(server).complete("coder", ASK)
    assert e.value.kind == "bad_response" and e.value.status == 200
    assert what in e.value.message and body.body in e.value.message
    assert len(server.requests) == 1
