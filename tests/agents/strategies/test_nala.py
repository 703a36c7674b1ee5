"""`nala`: two generation tries, then a debugger that is shown only the failing tests."""

from __future__ import annotations

from cpbot.agents.envelopes import GeneratedTests
from cpbot.agents.solve import solve
from cpbot.judge.model import Verdict
from tests.agents.roles.helpers import sent_text, sum_problem
from tests.agents.strategies.support import RIGHT, WRONG, code, roles, routes
from tests.agents.support.scripted_server import Reply

FIRST_ONLY = "input()\nprint(3)\n"  # passes sample 1 (1 2 -> 3), fails sample 2 (10 20 -> 30)
BRUTE = "a, b = map(int, input().split())\nprint(a + b)\n"


def run(make_client, server, tracer, sandbox, **options):
    return solve(
        sum_problem(),
        strategy="nala",
        language="python3",
        model=make_client(server),
        tracer=tracer,
        sandbox=sandbox,
        options=options,
    )


def test_only_the_failing_case_reaches_the_debugger(scripted_server, make_client, tracer, sandbox):
    server = scripted_server([code(FIRST_ONLY), code(FIRST_ONLY), code(RIGHT)])
    result = run(make_client, server, tracer, sandbox)
    assert result.status == "unverified" and result.reason.startswith(
        "accepted after debug step 1 on 2 tests; unverified: "
    )
    assert roles(tracer) == ["coder", "coder", "debugger"]
    assert routes(tracer) == ["coder", "coder", "debug_wrong_answer"]
    # the second try is told it failed, but not which test
    retry = sent_text(server.requests[1])
    assert "failed at least one" in retry and "expected '30'" not in retry
    debug = sent_text(server.requests[2])
    assert "0 of 1 tests pass" in debug and "test 2: WA" in debug and "expected '30', got '3'" in debug
    assert "test 1:" not in debug


def test_a_second_try_that_passes_skips_the_debugger(scripted_server, make_client, tracer, sandbox):
    server = scripted_server([code(WRONG), code(RIGHT)])
    result = run(make_client, server, tracer, sandbox)
    assert result.status == "unverified" and roles(tracer) == ["coder", "coder"]
    assert server.remaining == 0


def test_the_debug_cap_ends_the_solve(scripted_server, make_client, tracer, sandbox):
    server = scripted_server(default=code(WRONG))
    result = run(make_client, server, tracer, sandbox, debugs=2)
    assert roles(tracer) == ["coder", "coder", "debugger", "debugger"]
    assert result.status == "best_effort" and result.verdict == Verdict.WA
    assert result.reason.startswith("no program passed after two tries and 2 debug steps")


def test_extra_tests_are_kept_only_when_they_parse(scripted_server, make_client, tracer, sandbox):
    inputs = "\n".join(f"```text\n{text}```" for text in ["3 4\n", "x y\n", "5 6 7\n"])
    testgen = f"## Inputs\n{inputs}\n\n## Brute force\n```python\n{BRUTE}```\n"
    server = scripted_server([Reply(testgen), code(RIGHT)])
    result = run(make_client, server, tracer, sandbox, extra_tests=True)
    assert roles(tracer) == ["testgen", "coder"]
    generated = [e.payload for e in tracer.envelopes() if isinstance(e.payload, GeneratedTests)]
    assert [t.input for t in generated[0].tests] == ["3 4\n"] and generated[0].tests[0].output == "7\n"
    assert result.status == "unverified" and result.report is not None and result.report.total == 3
