"""Roles through a solve's bound model: every call charged to the budget and traced under the role's name."""

from __future__ import annotations

import pytest

from cpbot.agents.budget import Budget, BudgetExhausted, BudgetTracker
from cpbot.agents.envelopes import Envelope
from cpbot.agents.roles import coder, selector
from cpbot.agents.tracing import LLMCallEvent, send
from tests.agents.roles.helpers import as_json, sum_problem
from tests.agents.support.scripted_server import Reply


def test_role_calls_are_traced_under_the_role_and_counted(scripted_server, make_client, tracer):
    server = scripted_server(
        [
            Reply(as_json({"branches": [{"tags": ["math"]}]})),
            Reply("```python\nprint(sum(map(int, input().split())))\n```"),
        ]
    )
    budget = BudgetTracker(Budget(max_calls=5))
    llm = make_client(server).bind(task_id="local:sum", budget=budget, tracer=tracer)
    selection = selector.select_algorithms(llm, sum_problem())
    attempt = coder.write_code(llm, sum_problem(), None, language="python3", plan_iteration=0)
    send(tracer, Envelope.wrap(attempt, task_id="local:sum", iteration=1, sender=coder.ROLE))
    calls = tracer.of_kind(LLMCallEvent)
    assert [c.role for c in calls] == ["selector", "coder"]
    assert all(c.task_id == "local:sum" for c in calls)
    assert budget.snapshot().calls == 2
    assert selection.tags == ["math"]
    assert tracer.envelopes()[-1].header.sender == "coder"


def test_a_spent_budget_stops_a_role_before_it_calls(scripted_server, make_client, tracer):
    server = scripted_server([])
    budget = BudgetTracker(Budget(max_calls=1))
    llm = make_client(server).bind(task_id="t", budget=budget, tracer=tracer)
    server.add(Reply(as_json({"branches": [{"tags": ["dp"]}]})))
    selector.select_algorithms(llm, sum_problem())
    with pytest.raises(BudgetExhausted):
        selector.select_algorithms(llm, sum_problem())
    assert len(server.requests) == 1
