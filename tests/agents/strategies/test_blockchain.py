"""`blockchain`: BlockChain Coder's two approaches, the unit-test-guarded optimizer, the tracing debugger and
its knowledge pool, with a scripted model and the real judge."""

from __future__ import annotations

from cpbot.agents.solve import solve
from cpbot.agents.strategies.base import KnowledgePool
from cpbot.agents.tracing import NoteEvent
from tests.agents.roles.helpers import sent_text, sum_problem
from tests.agents.strategies.support import roles, routes
from tests.agents.support.scripted_server import Reply

MAIN = "a, b = map(int, input().split())\nprint(add(a, b))\n"
ADD_TEST = "assert add(1, 2) == 3\nassert add(10, 20) == 30\n"


def chain(add_body: str, *, test: str | None = ADD_TEST, plan: str = "1. add the numbers\n2. read and print") -> Reply:
    """A planner's or debugger's reply: a plan, the `add` block (with its unit test) and `main`."""
    unit = f"```python\n# test: add\n{test}```\n" if test is not None else ""
    return Reply(
        f"## Diagnosis\nThe add block was wrong.\n## Plan\n{plan}\n## Blocks\n"
        f"```python\n# block: add\ndef add(a, b):\n    return {add_body}\n```\n{unit}"
        f"```python\n# block: main\n{MAIN}```\n"
    )


def change(add_body: str) -> Reply:
    return Reply(
        f"OPTIMIZE: yes\nA different add.\n```python\n# block: add\ndef add(a, b):\n    return {add_body}\n```\n"
    )


NO = Reply("OPTIMIZE: no\nThe blocks are already simple.")
INSTRUMENTED = Reply(
    "```python\ndef add(a, b):\n    r = a - b\n    print('@@TRACE add: r =', r)\n    return r\n"
    "a, b = map(int, input().split())\nprint(add(a, b))\n```\n"
)


def run(make_client, server, tracer, sandbox, pool=None, **options):
    return solve(
        sum_problem(),
        strategy="blockchain",
        language="python3",
        model=make_client(server),
        tracer=tracer,
        sandbox=sandbox,
        knowledge=pool,
        options=options,
    )


def notes(tracer, message):
    return [e.data for e in tracer.of_kind(NoteEvent) if e.message == message]


def test_an_optimizer_change_that_breaks_its_unit_test_is_dropped(scripted_server, make_client, tracer, sandbox):
    server = scripted_server([chain("a + b"), change("a - b"), change("sum((a, b))"), NO])
    result = run(make_client, server, tracer, sandbox, approach="unit_test", samples=1)
    assert roles(tracer) == ["planner", "optimizer", "optimizer", "optimizer"]
    dropped = notes(tracer, "optimizer change dropped")
    assert len(dropped) == 1 and dropped[0]["block"] == "add"
    assert "fails (0/1 tests pass: RE" in dropped[0]["reason"]  # the assert in the unit test
    assert notes(tracer, "optimizer change kept") == [{"block": "add", "reason": "its unit test still passes"}]
    assert result.status == "unverified" and result.solution is not None
    assert "return sum((a, b))" in result.solution.source and "a - b" not in result.solution.source
    # the prompt shows the blocks with their unit tests, and the blocks tried so far
    assert "# test: add" in sent_text(server.requests[1]) and "(none)" in sent_text(server.requests[1])
    assert "already tried" in sent_text(server.requests[2]) and ": add" in sent_text(server.requests[2])


def test_unit_test_approach_plans_from_each_sample_and_keeps_the_best(scripted_server, make_client, tracer, sandbox):
    server = scripted_server([chain("3"), chain("a + b"), NO])  # the first plan only fits sample 1
    result = run(make_client, server, tracer, sandbox, approach="unit_test", samples=3)
    assert roles(tracer) == ["planner", "planner", "optimizer"]
    assert [r.get("sample") for r in _route_data(tracer) if r["to"] == "planner"] == [1, 2]
    first, second = sent_text(server.requests[0]), sent_text(server.requests[1])
    work_from = "The example to work from:\nInput:\n```text\n"
    assert f"{work_from}1 2\n```" in first and f"{work_from}10 20\n```" in second
    assert result.status == "unverified" and result.reason.startswith(
        "accepted on the samples (unit-test approach); unverified: "
    )


def test_question_approach_debugs_with_traces_and_the_knowledge_pool(scripted_server, make_client, tracer, sandbox):
    pool = KnowledgePool()
    server = scripted_server(
        [chain("a - b", test=None), NO, INSTRUMENTED, chain("a * b"), INSTRUMENTED, chain("a + b")]
    )
    result = run(make_client, server, tracer, sandbox, pool=pool, approach="question", debugs=3)
    assert roles(tracer) == ["planner", "optimizer", "debugger", "debugger", "debugger", "debugger"]
    assert routes(tracer) == ["planner", "optimizer", "debugger", "debugger"]
    assert "## Keywords" in sent_text(server.requests[0])
    first_fix = sent_text(server.requests[3])
    assert "add: r = -1" in first_fix  # the traced value reaches the debugger
    assert "from the last back to the first" in first_fix and "(none yet)" in first_fix
    second_fix = sent_text(server.requests[5])
    assert "The add block was wrong.: did not help (then WA, 0/2 tests)" in second_fix  # the pool's lesson
    assert [lesson.fix.rsplit(": ", 1)[-1] for lesson in pool.lessons] == [
        "did not help (then WA, 0/2 tests)",
        "fixed it",
    ]
    assert "expected '3', got '-1'" in pool.lessons[0].symptom
    assert result.status == "unverified" and result.reason.startswith(
        "accepted on the samples (question approach); unverified: "
    )


def test_both_approaches_question_first_and_a_simplification_that_breaks_a_sample_is_dropped(
    scripted_server, make_client, tracer, sandbox
):
    simpler = Reply(
        "OPTIMIZE: yes\nShorter.\n```python\n# block: main\nprint(0)\n```\n"
    )  # breaks sample 1, which the original passes
    server = scripted_server([chain("3", test=None), simpler, chain("a + b"), NO])
    result = run(make_client, server, tracer, sandbox, debugs=0, samples=1)
    assert roles(tracer) == ["planner", "optimizer", "planner", "optimizer"]
    assert [(r["to"], r.get("approach")) for r in _route_data(tracer)] == [
        ("planner", "question"),
        ("optimizer", "question"),
        ("planner", "unit_test"),
        ("optimizer", "unit_test"),
    ]
    assert notes(tracer, "optimizer change dropped") == [{"approach": "question", "broke": [1]}]
    assert result.status == "unverified" and "(unit-test approach); unverified" in result.reason


def _route_data(tracer):
    return [e.data for e in tracer.of_kind(NoteEvent) if e.message == "route"]
