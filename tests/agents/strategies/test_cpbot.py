"""The default `cpbot` strategy: checker-routed guarded debugging, generated tests, stress, profile, the deep
path, and lessons carried across problems.

Verification really runs: the generated tests are judged, the stress tester compares with the brute
force on inputs of size <= 4, and the profiler runs up to `max_n` = 24 with one repeat per size; each
test switches off the part it is not about, to stay quick.
"""

from __future__ import annotations

import json

from cpbot.agents.envelopes import CheckerDecision, ComplexityVerdict, StressFeedback
from cpbot.agents.solve import solve
from cpbot.agents.strategies.base import KnowledgePool
from cpbot.agents.tracing import NoteEvent
from cpbot.judge.model import Limits, Verdict
from tests.agents.roles.helpers import sent_text, sum_problem
from tests.agents.strategies.support import RIGHT, WRONG, code, plan_reply, roles, routes
from tests.agents.support.scripted_server import Reply

FIRST_ONLY = "input()\nprint(3)\n"  # passes sample 1 (1 2 -> 3), fails sample 2
SECOND_ONLY = "input()\nprint(30)\n"  # passes sample 2, breaks sample 1
SMALL_ONLY = "a, b = map(int, input().split())\nprint(a + b if a < 100 else 0)\n"  # the samples miss it
UNEQUAL_ONLY = "a, b = map(int, input().split())\nprint(a + b if a != b else 0)\n"  # neither samples nor tests
SLOW = "a, b = map(int, input().split())\nwhile a >= 16:\n    pass\nprint(a + b)\n"  # hangs from a = 16 on

GENERATOR = (
    "import random, sys\nn, seed = int(sys.argv[1]), int(sys.argv[2])\nrandom.seed(seed)\n"
    "print(n, random.randint(1, n))\n"
)  # a = N, so the input grows with N (the profiler checks that)
BRUTE = "a, b = map(int, input().split())\nprint(sum([a, b]))\n"
FAST = {
    "max_n": 24,
    "repeats": 1,
    "count": False,
    "stress_runs": 10,
    "stress_size": 4,
    "stress_seconds": 10.0,
    "aimed": 0,  # the request aimed at the program is tested in test_cpbot_inputs.py
}
NO_STRESS = {**FAST, "stress_rounds": 0}
NO_PROFILE = {**FAST, "profile": False}


def suite_reply(*inputs: str) -> Reply:
    """A test generator's answer: inputs, the generator and the brute force under their headings."""
    blocks = "\n".join(f"```text\n{text}```" for text in inputs)
    return Reply(
        f"## Inputs\n{blocks}\n\n## Generator\n```python\n{GENERATOR}```\n\n## Brute force\n```python\n{BRUTE}```\n"
    )


def decision(kind: str, why: str = "the sum is computed wrongly") -> Reply:
    """An error checker's structured answer."""
    return Reply(json.dumps({"analysis": why, "error": why, "guidance": "", "decision": kind}))


def run(make_client, server, tracer, sandbox, problem=None, pool=None, **options):
    return solve(
        problem or sum_problem(),
        language="python3",
        model=make_client(server),
        tracer=tracer,
        sandbox=sandbox,
        knowledge=pool,
        # one program and one test designer at a time: the script answers each call in turn
        options={"candidates": 1, "brutes": 1, **options},
    )


def notes(tracer, message):
    return [e.data for e in tracer.of_kind(NoteEvent) if e.message == message]


def test_a_generated_test_catches_a_bug_the_samples_miss(scripted_server, make_client, tracer, sandbox):
    server = scripted_server([code(SMALL_ONLY), suite_reply("500 7\n", "3 4\n"), decision("FIX"), code(RIGHT)])
    result = run(make_client, server, tracer, sandbox, **FAST)
    assert roles(tracer) == ["coder", "testgen", "checker", "debugger"]
    assert routes(tracer) == ["coder", "testgen", "checker", "debug_wrong_answer", "stress", "profiler", "analyst"]
    debug_prompt = sent_text(server.requests[3])
    assert "500 7" in debug_prompt and "507" in debug_prompt  # the generated input and the brute force's answer
    assert result.status == "solved" and "print(a + b)" in (result.solution.source if result.solution else "")
    # the evidence a submit gate needs, about the returned program
    assert [(t.input, t.output, t.origin) for t in result.generated_tests] == [
        ("500 7\n", "507\n", "generated"),
        ("3 4\n", "7\n", "generated"),
    ]
    assert result.generated_report is not None and result.generated_report.verdict == Verdict.AC
    assert (result.generated_report.passed, result.generated_report.total) == (2, 2)
    assert result.report is not None and result.report.total == 4  # samples plus generated tests
    assert result.stress is not None and result.stress.status == "clean"
    assert result.profile is not None and result.profile.efficient is True
    assert result.generator is not None and "argv" in result.generator.source
    assert result.brute is not None and "sum([a, b])" in result.brute.source
    assert result.reason.startswith("accepted on 2 samples and 2 generated tests; stress clean")


def test_stress_finds_a_difference_and_the_counterexample_reaches_the_debug_prompt(
    scripted_server, make_client, tracer, sandbox
):
    server = scripted_server([code(UNEQUAL_ONLY), suite_reply("3 4\n"), decision("FIX"), code(RIGHT)])
    result = run(make_client, server, tracer, sandbox, **NO_PROFILE)
    assert roles(tracer) == ["coder", "testgen", "checker", "debugger"]
    assert routes(tracer) == [
        "coder",
        "testgen",
        "stress",  # finds a = b
        "checker",
        "debug_wrong_answer",
        "stress",  # the fixed program is stressed again
    ]
    stress = [e.payload for e in tracer.envelopes() if isinstance(e.payload, StressFeedback)]
    assert [s.found for s in stress] == [True, False]
    counterexample = stress[0].input
    a, b = counterexample.split()
    assert a == b and stress[0].got.strip() == "0"
    debug_prompt = sent_text(server.requests[3])
    assert f"Input:\n```text\n{counterexample.strip()}\n```" in debug_prompt
    assert f"Expected output:\n```text\n{int(a) * 2}\n```" in debug_prompt
    assert result.status == "unverified"
    assert [t.origin for t in result.generated_tests] == ["generated", "stress"]
    assert result.generated_tests[1].input == counterexample
    assert result.stress is not None and result.stress.status == "clean"  # the returned program's stress run
    assert result.generated_report is not None and result.generated_report.verdict == Verdict.AC


def test_a_profile_over_the_limit_sends_a_fast_class_to_the_optimizer(scripted_server, make_client, tracer, sandbox):
    server = scripted_server(
        [
            code(SLOW),
            suite_reply("3 4\n"),
            Reply(json.dumps({"complexity": "O(n)"})),  # the analyst reads the ambiguous profile
            Reply(f"OPTIMIZE: yes\nNo busy loop.\n```python\n{RIGHT}```\n"),
        ]
    )
    problem = sum_problem(limits=Limits(time_ms=200, memory_mb=256))
    result = run(make_client, server, tracer, sandbox, problem=problem, **NO_STRESS)
    assert roles(tracer) == ["coder", "testgen", "analyst", "optimizer"]
    assert routes(tracer) == [
        "coder",
        "testgen",
        "profiler",
        "analyst",
        "optimizer",  # right complexity, too slow: the coder's business, so the optimizer
        "profiler",
        "analyst",
    ]
    verdicts = [e.payload for e in tracer.envelopes() if isinstance(e.payload, ComplexityVerdict)]
    assert [(v.efficient, v.target) for v in verdicts] == [(False, "coder"), (True, None)]
    assert notes(tracer, "optimization kept") == [{"reason": "all 3 tests still pass"}]
    assert result.status == "unverified" and result.solution is not None and "while" not in result.solution.source
    assert result.profile is not None and result.profile.efficient is True


def test_an_optimization_that_breaks_a_test_is_dropped_and_the_planner_takes_over(
    scripted_server, make_client, tracer, sandbox
):
    selection = json.dumps({"branches": [{"tags": ["math"], "rationale": "arithmetic"}]})
    server = scripted_server(
        [
            code(SLOW),
            suite_reply("3 4\n"),
            Reply(json.dumps({"complexity": "O(n)"})),
            Reply(f"OPTIMIZE: yes\n```python\n{WRONG}```\n"),  # faster, and wrong
            Reply(selection),
            plan_reply(),
            code(RIGHT),
        ]
    )
    problem = sum_problem(limits=Limits(time_ms=200, memory_mb=256))
    result = run(make_client, server, tracer, sandbox, problem=problem, **NO_STRESS)
    assert roles(tracer) == ["coder", "testgen", "analyst", "optimizer", "selector", "planner", "coder"]
    dropped = notes(tracer, "optimization dropped")
    assert len(dropped) == 1 and "the optimized version fails (0/3 tests pass" in dropped[0]["reason"]
    assert routes(tracer)[4:7] == ["optimizer", "planner", "selector"]
    # the analyst's advice reaches the first plan
    assert "constant factor is too large" in sent_text(server.requests[5])
    assert (
        result.status == "unverified" and "(plan 1); unverified: not stressed: stress is switched off" in result.reason
    )
    assert result.solution is not None and "a + b" in result.solution.source


def test_a_too_slow_algorithm_goes_to_the_planner(scripted_server, make_client, tracer, sandbox):
    selection = json.dumps({"branches": [{"tags": ["math"], "rationale": "arithmetic"}]})
    server = scripted_server(
        [
            code(SLOW),
            suite_reply("3 4\n"),
            Reply(json.dumps({"complexity": "O(2^n)"})),
            Reply(selection),
            plan_reply(),
            code(RIGHT),
        ]
    )
    problem = sum_problem(limits=Limits(time_ms=200, memory_mb=256))
    result = run(make_client, server, tracer, sandbox, problem=problem, **NO_STRESS)
    assert roles(tracer) == ["coder", "testgen", "analyst", "selector", "planner", "coder"]
    assert routes(tracer)[:5] == ["coder", "testgen", "profiler", "analyst", "planner"]
    assert "grows like O(2^n)" in sent_text(server.requests[4])
    assert result.status == "unverified" and result.profile is not None and result.profile.efficient


def test_a_program_its_own_profile_calls_too_slow_is_never_returned_as_solved(
    scripted_server, make_client, tracer, sandbox
):
    # the plan brings the same slow program back: it passes every test, and no plan is left
    selection = json.dumps({"branches": [{"tags": ["math"], "rationale": "arithmetic"}]})
    server = scripted_server(
        [
            code(SLOW),
            suite_reply("3 4\n"),
            Reply(json.dumps({"complexity": "O(2^n)"})),
            Reply(selection),
            plan_reply(),
            code(SLOW),
        ]
    )
    problem = sum_problem(limits=Limits(time_ms=200, memory_mb=256))
    result = run(make_client, server, tracer, sandbox, problem=problem, plans=1, **NO_STRESS)
    assert roles(tracer) == ["coder", "testgen", "analyst", "selector", "planner", "coder"]
    assert result.solution is not None and result.solution.source == SLOW
    assert result.report is not None and result.report.accepted  # every test passes...
    assert result.profile is not None and result.profile.efficient is False  # ...and its profile says too slow
    assert result.status == "best_effort" and "its profile says it is too slow" in result.reason


def test_rethink_goes_back_to_the_planner(scripted_server, make_client, tracer, sandbox):
    selection = json.dumps({"branches": [{"tags": ["math"], "rationale": "arithmetic"}]})
    server = scripted_server(
        [code(WRONG), decision("RETHINK", "subtracting is the wrong idea"), Reply(selection), plan_reply(), code(RIGHT)]
    )
    result = run(make_client, server, tracer, sandbox, verify=False)
    assert roles(tracer) == ["coder", "checker", "selector", "planner", "coder"]
    assert routes(tracer) == ["coder", "checker", "planner", "selector", "planner", "coder"]
    decisions = [e.payload.decision for e in tracer.envelopes() if isinstance(e.payload, CheckerDecision)]
    assert decisions == ["RETHINK"]
    assert "subtracting is the wrong idea" in sent_text(server.requests[3])  # the planner hears why
    assert result.status == "unverified"


def test_a_fix_that_breaks_a_passing_test_is_rejected(scripted_server, make_client, tracer, sandbox):
    server = scripted_server([code(FIRST_ONLY), decision("FIX"), code(SECOND_ONLY), decision("FIX"), code(RIGHT)])
    pool = KnowledgePool()
    result = run(make_client, server, tracer, sandbox, pool=pool, verify=False)
    assert result.status == "unverified" and result.strategy == "cpbot"
    assert roles(tracer) == ["coder", "checker", "debugger", "checker", "debugger"]
    assert notes(tracer, "fix rejected") == [{"phase": "fast", "step": 1, "broke": [1]}]
    # the second fix works on the kept program, not the rejected one
    last = sent_text(server.requests[-1])
    assert "print(3)" in last and "print(30)" not in last
    assert len(pool.lessons) == 1 and "expected '30', got '3'" in pool.lessons[0].symptom
    assert result.generated_tests == [] and result.stress is None and result.generated_report is None


def test_deep_path_selects_plans_and_codes_from_the_template(scripted_server, make_client, tracer, sandbox):
    selection = json.dumps({"branches": [{"tags": ["math"], "rationale": "arithmetic"}]})
    server = scripted_server([code(WRONG), decision("FIX"), code(WRONG), Reply(selection), plan_reply(), code(RIGHT)])
    result = run(make_client, server, tracer, sandbox, debugs=1, plans=1, verify=False)
    assert result.status == "unverified"
    assert roles(tracer) == ["coder", "checker", "debugger", "selector", "planner", "coder"]
    assert routes(tracer) == ["coder", "checker", "debug_wrong_answer", "selector", "planner", "coder"]
    skeleton_prompt = sent_text(server.requests[-1])
    assert "skeleton" in skeleton_prompt.lower()


def test_an_unreadable_checker_reply_is_noted_and_treated_as_fix(scripted_server, make_client, tracer, sandbox):
    server = scripted_server([code(WRONG), Reply("I am not sure what to say."), code(RIGHT)])
    result = run(make_client, server, tracer, sandbox, verify=False)
    assert result.status == "unverified"
    assert roles(tracer) == ["coder", "checker", "debugger"]
    assert len(notes(tracer, "checker unreadable")) == 1


def test_lessons_reach_the_coder_of_the_next_problem(scripted_server, make_client, tracer, sandbox):
    pool = KnowledgePool()
    server = scripted_server([code(FIRST_ONLY), decision("FIX"), code(RIGHT), code(RIGHT)])
    client = make_client(server)
    for problem in (sum_problem(), sum_problem(id="local:sum2")):
        solve(
            problem,
            language="python3",
            model=client,
            tracer=tracer,
            sandbox=sandbox,
            knowledge=pool,
            options={"verify": False, "candidates": 1},
        )
    third = sent_text(server.requests[3])
    assert "Lessons from earlier problems" in third and "expected '30', got '3'" in third


def test_a_prose_only_selector_reply_falls_back_on_the_deep_path(scripted_server, make_client, tracer, sandbox):
    server = scripted_server(
        [
            code(WRONG),
            decision("RETHINK", "wrong idea"),
            Reply("Hard to say which technique."),
            plan_reply(),
            code(RIGHT),
        ]
    )
    result = run(make_client, server, tracer, sandbox, verify=False)
    assert result.status == "unverified"
    assert roles(tracer) == ["coder", "checker", "selector", "planner", "coder"]
    assert notes(tracer, "selector reply unusable")[0]["fallback"] == ["implementation"]
