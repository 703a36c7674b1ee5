"""Shared pieces of the strategy tests: programs for the sum problem, replies, and what a solve traced."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from cpbot.agents.tracing import InMemoryTracer, LLMCallEvent, NoteEvent
from tests.agents.support.scripted_server import HTTPFailure, Reply

RIGHT = "a, b = map(int, input().split())\nprint(a + b)\n"
WRONG = "a, b = map(int, input().split())\nprint(a - b)\n"
CRASH = "raise SystemExit(3)\n"  # exits non-zero with nothing on stderr: a plain runtime error
PLAN = {"algorithm": "add the two numbers", "steps": ["read a and b", "print a + b"], "complexity": "O(1)"}


def code(source: str) -> Reply:
    """A reply holding one Python program."""
    return Reply(f"Here it is.\n```python\n{source}```\n")


def plan_reply(**changes: Any) -> Reply:
    """A planner's structured answer."""
    return Reply(json.dumps({**PLAN, **changes}))


def roles(tracer: InMemoryTracer) -> list[str]:
    """The roles of the LLM calls, in order."""
    return [e.role for e in tracer.of_kind(LLMCallEvent)]


def routes(tracer: InMemoryTracer) -> list[str]:
    """Where the strategy routed, in order."""
    return [e.data["to"] for e in tracer.of_kind(NoteEvent) if e.message == "route"]


def by_kind(**replies: list[Reply]) -> Callable[[dict], Reply]:
    """A scripted model answering each kind of request from its own queue (kinds as
    `population_server.request_kind` names them: program, tests, checker, distinguisher, arbiter, ...), for
    requests that go out together and so arrive in no fixed order (the candidates and the test designer)."""
    from cpbot.testing.population_server import request_kind

    left = {kind: list(queue) for kind, queue in replies.items()}
    lock = threading.Lock()

    def answer(body: dict) -> Reply | HTTPFailure:
        kind = request_kind("\n".join(str(m.get("content") or "") for m in body["messages"]))
        with lock:
            queue = left.get(kind)
            if queue:
                return queue.pop(0)
        # a request the test scripted no reply for fails at once (a 400 is not retried), not after the
        # client's backoff on a dropped connection
        return HTTPFailure(400, f"no scripted reply for a {kind} request")

    return answer
