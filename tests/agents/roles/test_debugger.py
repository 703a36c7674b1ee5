"""The debugger blocks: routing, what each prompt carries, and the variable-tracing loop."""

from __future__ import annotations

import pytest

from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.roles.common import RoleError
from cpbot.agents.roles.debugger import (
    TRACE_MARK,
    TraceRun,
    choose_block,
    debug,
    split_traces,
    strip_traces,
    trace_debug,
)
from cpbot.judge.model import Diff, JudgeReport, TestCase, TestResult, Verdict
from tests.agents.roles.helpers import sent_text, sum_problem
from tests.agents.support.scripted_server import Reply

BUGGY = CodeAttempt(language="python3", source="a, b = map(int, input().split())\nprint(a - b)\n", plan_iteration=0)
FIXED = "```python\na, b = map(int, input().split())\nprint(a + b)\n```"


def report_of(*results: TestResult, total: int | None = None, **kw) -> JudgeReport:
    verdicts = [r.verdict for r in results]
    worst = max(verdicts, key=lambda v: v.severity, default=Verdict.AC)
    return JudgeReport(
        verdict=kw.pop("verdict", worst),
        results=list(results),
        passed=sum(v == Verdict.AC for v in verdicts),
        total=total or len(results),
        **kw,
    )


WA = TestResult(index=2, verdict=Verdict.WA, stdout="-10\n", diff=Diff(line=1, token=1, expected="30", got="-10"))
RE = TestResult(
    index=1,
    verdict=Verdict.RE,
    exit_code=1,
    stderr="Traceback (most recent call last):\nValueError: invalid literal for int() with base 10: '1 2'",
)
ZERO = TestResult(index=1, verdict=Verdict.RE, exit_code=1, stderr="ZeroDivisionError: division by zero")


def test_routing_follows_the_failure():
    assert choose_block(report_of(TestResult(index=1, verdict=Verdict.AC), WA)) == "wrong_answer"
    assert choose_block(report_of(ZERO)) == "stdio", "the first failure to run goes to the STD-IO block"
    assert choose_block(report_of(ZERO), earlier_failures=1) == "runtime"
    assert choose_block(report_of(RE), earlier_failures=3) == "stdio", "a parsing error is always STD-IO"
    assert choose_block(report_of(TestResult(index=1, verdict=Verdict.TLE))) == "runtime"
    assert choose_block(JudgeReport(verdict=Verdict.CE, total=2, compile_log="error: x")) == "runtime"
    assert choose_block(report_of(TestResult(index=1, verdict=Verdict.AC))) is None
    assert choose_block(JudgeReport(verdict=Verdict.IE, reason="no sandbox")) is None
    # a C++ crash (killed by a signal) is a logic error, not a reading error, even the first time
    segfault = TestResult(index=1, verdict=Verdict.RE, signal=11, exit_code=-11)
    assert choose_block(report_of(segfault)) == "runtime"


def test_the_wrong_answer_prompt_carries_the_failing_input_and_the_difference(scripted_server, make_client):
    server = scripted_server([Reply("The sign is wrong.\n" + FIXED)])
    problem = sum_problem()
    report = report_of(TestResult(index=1, verdict=Verdict.AC), WA)
    fixed = debug(make_client(server), problem, BUGGY, report)
    assert "a + b" in fixed.source and fixed.notes.startswith("debugged (wrong_answer)")
    request = server.requests[0]
    text = sent_text(request)
    assert "runs but prints a wrong" in request.body["messages"][0]["content"]
    assert "10 20" in text, "the failing input (sample 2)"
    assert "Expected output:\n```text\n30\n```" in text
    assert "The program's output:\n```text\n-10\n```" in text
    assert "First difference: line 1, token 1: expected '30', got '-10'" in text
    assert "print(a - b)" in text
    assert "1 of 2 tests pass" in text


def test_the_stdio_block_shows_the_error_output_and_asks_to_fix_reading(scripted_server, make_client):
    server = scripted_server([Reply(FIXED)])
    debug(make_client(server), sum_problem(), BUGGY, report_of(RE))
    request = server.requests[0]
    assert "input or output handling" in request.body["messages"][0]["content"]
    text = sent_text(request)
    assert "ValueError: invalid literal" in text and "exit code 1" in text
    assert "1 2" in text


def test_the_runtime_block_shows_the_compiler_output_for_a_compile_error(scripted_server, make_client):
    server = scripted_server([Reply(FIXED)])
    report = JudgeReport(verdict=Verdict.CE, total=2, compile_log="main.cpp:3: error: 'x' was not declared")
    debug(make_client(server), sum_problem(), BUGGY, report)
    text = sent_text(server.requests[0])
    assert "does not compile" in text and "'x' was not declared" in text


def test_explicit_tests_are_used_for_the_inputs(scripted_server, make_client):
    server = scripted_server([Reply(FIXED)])
    tests = [TestCase(input="7 8\n", output="15\n", origin="generated")]
    failing = TestResult(index=1, verdict=Verdict.WA, stdout="-1\n", diff=Diff(line=1, expected="15", got="-1"))
    debug(make_client(server), sum_problem(), BUGGY, report_of(failing), tests=tests)
    assert "7 8" in sent_text(server.requests[0])


def test_nothing_to_debug_is_a_role_error(scripted_server, make_client):
    server = scripted_server([])
    with pytest.raises(RoleError, match="nothing to debug: the verdict is IE"):
        debug(make_client(server), sum_problem(), BUGGY, JudgeReport(verdict=Verdict.IE, reason="sandbox broke"))
    assert server.requests == []


def test_traces_are_split_from_the_output_and_capped():
    traces, output = split_traces(f"{TRACE_MARK} read: a=1\n3\n{TRACE_MARK} done\n")
    assert traces == ["read: a=1", "done"] and output == "3\n"
    run = TraceRun(traces=[f"step {i}" for i in range(100)], output="")
    text = run.text(limit=10)
    assert "step 0" in text and "step 99" in text and "90 trace lines left out" in text and "step 50" not in text


def test_trace_lines_left_in_a_fix_are_removed_safely():
    code = f"for i in range(3):\n    print('{TRACE_MARK} i', i)\nprint(1)\n"
    cleaned = strip_traces(code, "python3")
    assert TRACE_MARK not in cleaned and "    pass" in cleaned
    assert strip_traces(f'int x;\ncout << "{TRACE_MARK} x";\n', "cpp17") == "int x;\n"


def test_trace_debugging_instruments_runs_and_fixes(scripted_server, make_client, sandbox):
    instrumented = (
        "```python\na, b = map(int, input().split())\n"
        f"print('{TRACE_MARK} read: a =', a, 'b =', b)\n"
        "r = a - b\n"
        f"print('{TRACE_MARK} result: r =', r)\n"
        "print(r)\n```"
    )
    fixed_with_leftover = (
        "The result block is wrong: r should be a + b.\n```python\na, b = map(int, input().split())\n"
        f"print('{TRACE_MARK} result')\nprint(a + b)\n```"
    )
    server = scripted_server([Reply(instrumented), Reply(fixed_with_leftover)])
    test = TestCase(input="10 20\n", output="30\n")
    fixed, run = trace_debug(make_client(server), sum_problem(), BUGGY, test, sandbox=sandbox)
    assert run.traces == ["read: a = 10 b = 20", "result: r = -10"]
    assert run.output == "-10\n" and run.verdict is None
    assert TRACE_MARK not in fixed.source and "print(a + b)" in fixed.source
    first, second = (sent_text(r) for r in server.requests)
    assert TRACE_MARK in first and "10 20" in first
    assert "read: a = 10 b = 20\nresult: r = -10" in second
    assert "Expected output:\n```text\n30\n```" in second
    assert "print(a - b)" in second, "the fix starts from the original program"
