"""`cpbot` with a panel of brute forces: the test designer is asked twice, independently, and an expected answer is
believed only when independent programs agree (agents/oracle.py). The three ways a model's brute force goes wrong:
it shares the candidates' mistake, it is simply wrong, it is too slow to answer at all."""

from __future__ import annotations

from cpbot.agents.tracing import NoteEvent, SelectionEvent
from tests.agents.strategies.support import RIGHT, by_kind, code, roles
from tests.agents.strategies.test_cpbot_selection import GUARDED_BRUTE, MID_BUG, RIGHT_TOO, suite
from tests.agents.strategies.test_cpbot_selection import run as run_selection
from tests.agents.support.scripted_server import Reply

MID_BUG_TOO = "a, b = map(int, input().split())\nprint(a + b + (1 if a >= 12 else 0))\n"  # the same mistake
SLOW_BRUTE = "while True:\n    pass\n"  # cannot answer even the samples within their limit


def run(make_client, server, tracer, sandbox, **options):
    return run_selection(make_client, server, tracer, sandbox, brutes=2, **options)


def notes(tracer, message):
    return [e.data for e in tracer.of_kind(NoteEvent) if e.message == message]


def test_a_brute_force_sharing_the_candidates_mistake_is_outvoted_by_a_third_and_the_right_program_is_solved(
    scripted_server, make_client, tracer, sandbox
):
    # two different programs add one from a = 12 on, like the first brute force; the second brute force is right
    model = by_kind(
        program=[code(MID_BUG), code(MID_BUG_TOO), code(RIGHT)],
        tests=[suite("3 4\n", brute=MID_BUG), suite("3 4\n"), suite("5 6\n", brute=RIGHT_TOO)],
    )
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=3)
    assert sorted(roles(tracer)[:5]) == ["coder"] * 3 + ["testgen"] * 2
    assert roles(tracer)[5] == "testgen"  # the brute forces split with candidates on both sides: a third is asked
    assert result.status == "solved" and result.solution is not None and result.solution.source == RIGHT
    outvoted = notes(tracer, "brute force outvoted")  # the replies arrive in any order: which seat is not fixed
    assert len(outvoted) == 1 and "of 3 outvoted" in outvoted[0]["reason"]
    shown = next(s for s in tracer.of_kind(SelectionEvent) if s.step == "doubted").disagreements[0]
    assert int(shown.oracle) == sum(map(int, shown.input.split())) + 1  # the answer set aside is MID_BUG's
    assert result.stress is not None and result.stress.failure is None and result.stress.contested == 0


def test_with_no_third_brute_force_a_shared_mistake_leaves_no_agreeing_oracle_and_nothing_is_solved(
    scripted_server, make_client, tracer, sandbox
):
    model = by_kind(
        program=[code(MID_BUG), code(MID_BUG_TOO), code(RIGHT)],
        tests=[suite("3 4\n", brute=MID_BUG), suite("3 4\n")],  # the third request gets no usable reply
    )
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=3)
    assert result.status != "solved"
    assert "no agreeing oracle" in result.reason and "the brute forces disagree" in result.reason
    # the right program is never judged wrong on the contested inputs: no test holds either brute force's answer there
    assert all(t.output is None or int(t.output) == sum(map(int, t.input.split())) for t in result.generated_tests)


def test_a_simply_wrong_brute_force_loses_its_vote_and_fails_no_program(scripted_server, make_client, tracer, sandbox):
    # the first brute force prints 0 from a = 12 on; no candidate does, the other brute force and two programs agree
    model = by_kind(
        program=[code(RIGHT), code(RIGHT_TOO), code(MID_BUG)],
        tests=[suite("3 4\n", brute=GUARDED_BRUTE), suite("3 4\n")],
    )
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=3)
    assert result.status == "solved", result.reason
    assert result.solution is not None and result.solution.source in (RIGHT, RIGHT_TOO)
    doubted = next(s for s in tracer.of_kind(SelectionEvent) if s.step == "doubted")
    assert "of 2 outvoted" in doubted.reason and doubted.disagreements[0].oracle == "0"
    assert result.stress is not None and result.stress.failure is None  # stressed against the other one only
    assert all(t.output != "0\n" for t in result.generated_tests)


def test_brute_forces_too_slow_to_answer_give_no_oracle(scripted_server, make_client, tracer, sandbox):
    model = by_kind(
        program=[code(RIGHT), code(RIGHT_TOO)],
        tests=[suite("3 4\n", brute=SLOW_BRUTE), suite("3 4\n", brute=SLOW_BRUTE)],
    )
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=2)
    assert result.status != "solved" and result.solution is not None
    assert "no brute force passed the samples" in result.reason
    assert result.stress is None


def test_when_every_brute_force_loses_its_vote_one_more_is_asked_for_and_the_right_program_is_solved(
    scripted_server, make_client, tracer, sandbox
):
    # both designer replies hold the same brute force, wrong from a = 12 on: two right programs outvote it, and with no
    # brute force left the choice would rest on the candidates alone; a third reply's brute force is right
    model = by_kind(
        program=[code(RIGHT), code(RIGHT_TOO), code(MID_BUG)],
        tests=[suite("3 4\n", brute=GUARDED_BRUTE), suite("3 4\n", brute=GUARDED_BRUTE), suite("5 6\n", brute=RIGHT)],
    )
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=3)
    assert roles(tracer).count("testgen") == 3
    assert {"to": "testgen", "phase": "candidates", "why": "every brute force lost its vote"} in notes(tracer, "route")
    assert result.status == "solved", result.reason
    assert result.solution is not None and result.solution.source in (RIGHT, RIGHT_TOO)
    assert result.stress is not None and result.stress.failure is None


MEMORIZED_SLOW_BRUTE = (  # answers the samples (1 2, 10 20) and never finishes on any other input
    "import sys\ndata = sys.stdin.read().split()\n"
    "if data in (['1', '2'], ['10', '20']):\n    print(int(data[0]) + int(data[1]))\n"
    "else:\n    while True:\n        pass\n"
)


def test_a_brute_force_that_never_answers_a_probe_is_left_out_and_said_so(
    scripted_server, make_client, tracer, sandbox, monkeypatch
):
    import cpbot.agents.roles.testgen as testgen
    import cpbot.agents.strategies.cpbot as strategy
    from cpbot.judge.model import Limits

    monkeypatch.setattr(testgen, "BRUTE_TIME_MS", 300)  # its time-outs come fast
    monkeypatch.setattr(strategy, "ORACLE_LIMITS", Limits(time_ms=300, memory_mb=256))
    model = by_kind(
        program=[code(RIGHT), code(RIGHT_TOO), code(MID_BUG)],
        tests=[suite("3 4\n", brute=MEMORIZED_SLOW_BRUTE), suite("3 4\n")],
    )
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=3)
    left_out = notes(tracer, "brute force left out")
    assert len(left_out) == 1 and "answered no input in time" in left_out[0]["reason"]
    assert notes(tracer, "brute force outvoted") == []  # it lost no vote: it never gave one
    assert result.status == "solved", result.reason  # the other brute force, confirmed by the candidates, is the oracle
    assert result.solution is not None and result.solution.source in (RIGHT, RIGHT_TOO)


def test_inputs_aimed_at_the_program_are_answered_by_a_brute_force_that_kept_its_vote(
    scripted_server, make_client, tracer, sandbox
):
    # both first replies hold the brute force that prints 0 from a = 12 on (the solve's first brute force); it is
    # outvoted and a third reply's right one joins. The aimed input 20 3 must be answered 23 (the third's), not 0.
    aimed = Reply("It may fail for a large a:\n```text\n20 3\n```\n## Slow input generator\nnone\n")
    model = by_kind(
        program=[code(RIGHT), code(RIGHT_TOO), code(MID_BUG)],
        tests=[suite("3 4\n", brute=GUARDED_BRUTE), suite("3 4\n", brute=GUARDED_BRUTE), suite("5 6\n", brute=RIGHT)],
        aimed=[aimed],
    )
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=3, aimed=1, profile=False)
    assert roles(tracer).count("testgen") == 4  # two designer replies, the third, the aimed request
    assert [(t.input, t.output) for t in result.generated_tests if t.name.startswith("aimed")] == [("20 3\n", "23\n")]
    assert result.solution is not None and result.solution.source in (RIGHT, RIGHT_TOO)
    assert "fails on" not in result.reason, result.reason


FIXED_GENERATOR = "print('3 4')\n"  # ignores N and the seed: discarded by the generator's checks


def test_when_no_designer_reply_has_a_usable_generator_one_more_is_asked_for_before_the_probes(
    scripted_server, make_client, tracer, sandbox
):
    def without_generator(*inputs: str) -> Reply:
        blocks = "\n".join(f"```text\n{text}```" for text in inputs)
        return Reply(
            f"## Inputs\n{blocks}\n\n## Generator\n```python\n{FIXED_GENERATOR}```\n\n"
            f"## Brute force\n```python\n{RIGHT_TOO}```\n"
        )

    model = by_kind(
        program=[code(RIGHT), code(RIGHT_TOO), code(MID_BUG)],
        tests=[without_generator("3 4\n"), without_generator("5 6\n"), suite("7 8\n", brute=RIGHT)],
    )
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=3)
    assert {"to": "testgen", "phase": "candidates", "why": "no generator passed its checks"} in notes(tracer, "route")
    grouped = next(s for s in tracer.of_kind(SelectionEvent) if s.step == "grouped")
    assert grouped.probes > 3, "the third reply's generator made probes beyond the generated tests"
    assert result.stress is not None, "and the chosen program was stressed"
    assert result.solution is not None and result.solution.source in (RIGHT, RIGHT_TOO)


def test_a_lone_brute_force_no_independent_program_confirms_brings_a_third_and_is_never_stressed_against(
    scripted_server, make_client, tracer, sandbox
):
    # both replies hold MID_BUG as the brute force; the candidate MID_BUG is the same program (no independent vote)
    # and RIGHT prints another answer from a = 12 on: one against one, nothing confirms the brute force
    third = [suite("5 6\n", brute=RIGHT_TOO)]
    for replies, solved in ((third, True), ([], False)):  # a right third reply; none (the request fails)
        model = by_kind(
            program=[code(RIGHT), code(MID_BUG)],
            tests=[suite("3 4\n", brute=MID_BUG), suite("3 4\n", brute=MID_BUG), *replies],
            distinguisher=[Reply("I see no difference.")],
            arbiter=[Reply("I cannot tell.")],
        )
        server = scripted_server([], default=model)
        result = run(make_client, server, tracer, sandbox, candidates=2)
        assert {"to": "testgen", "phase": "candidates", "why": "no agreeing oracle"} in notes(tracer, "route")
        assert not any(t.origin == "stress" for t in result.generated_tests), "no counterexample of MID_BUG's"
        if solved:
            assert result.status == "solved" and result.solution is not None and result.solution.source == RIGHT
        else:
            assert result.status != "solved" and "not stressed" in result.reason
        tracer.events.clear()
