"""`cpbot` with `candidates=K`: programs drawn at once, filtered on the samples, grouped by behaviour, and the
right one chosen among wrong ones that pass the samples (by the brute force, the distinguisher or the arbiter).

The K coder requests and the test designer's go out together: the scripted model answers each kind of
request from its own queue, in whatever order they arrive, so the tests assert which program was chosen,
never which iteration it had, and count the first calls' roles rather than order them.
"""

from __future__ import annotations

from pathlib import Path

from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.solve import solve
from cpbot.agents.tracing import SelectionEvent, load_event
from cpbot.judge.model import Problem
from cpbot.testing.population_server import PopulationModel, load_lab
from tests.agents.roles.helpers import sent_text, sum_problem
from tests.agents.strategies.support import RIGHT, WRONG, by_kind, code, roles
from tests.agents.strategies.test_cpbot import BRUTE, FAST, GENERATOR
from tests.agents.support.scripted_server import Reply

MID_BUG = "a, b = map(int, input().split())\nprint(a + b if a < 12 else a + b + 1)\n"  # a >= 12 (samples: 1, 10)
BIG_BUG = "a, b = map(int, input().split())\nprint(a + b if a < 1000 else (a + b) % 1024)\n"  # like an overflow
BAD_BRUTE = "print(0)\n"  # fails the samples, so it is discarded: no oracle


def suite(*inputs: str, brute: str = BRUTE) -> Reply:
    blocks = "\n".join(f"```text\n{text}```" for text in inputs)
    return Reply(
        f"## Inputs\n{blocks}\n\n## Generator\n```python\n{GENERATOR}```\n\n## Brute force\n```python\n{brute}```\n"
    )


def selection_steps(tracer) -> list[SelectionEvent]:
    return tracer.of_kind(SelectionEvent)


def run(make_client, server, tracer, sandbox, **options):
    return solve(
        sum_problem(),
        language="python3",
        model=make_client(server),
        tracer=tracer,
        sandbox=sandbox,
        # one test designer (the panel of two: tests/agents/strategies/test_cpbot_oracle.py)
        options={**FAST, "stress_runs": 5, "brutes": 1, **options},
    )


def first_roles(tracer, k: int) -> list[str]:
    """The roles of the first k + 1 calls (the candidates and the test designer, at once), sorted."""
    return sorted(roles(tracer)[: k + 1])


def request_of(server, kind: str) -> str:
    """What the first request of a kind (as `by_kind` names it) sent."""
    from cpbot.testing.population_server import request_kind

    return next(sent_text(r) for r in server.requests if request_kind(sent_text(r)) == kind)


def iteration_of(tracer, source: str) -> list[int]:
    return [
        e.header.iteration
        for e in tracer.envelopes()
        if isinstance(e.payload, CodeAttempt) and e.payload.source == source
    ]


def test_the_brute_force_chooses_the_right_program_over_a_larger_group_of_wrong_ones(
    scripted_server, make_client, tracer, sandbox
):
    model = by_kind(program=[code(MID_BUG), code(RIGHT), code(MID_BUG), code(WRONG)], tests=[suite("3 4\n")])
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=4)
    assert result.status == "solved" and result.solution is not None and result.solution.source == RIGHT
    assert sorted(roles(tracer)) == ["coder"] * 4 + ["testgen"]  # no distinguisher: the oracle settled it
    steps = selection_steps(tracer)
    assert [s.step for s in steps] == ["drawn", "filtered", "grouped", "chosen"]
    drawn, filtered, grouped, chosen = steps
    assert len(drawn.candidates) == 4
    assert list(filtered.rejected) == iteration_of(tracer, WRONG)  # a - b fails the samples
    assert [g.members for g in grouped.groups] == [iteration_of(tracer, RIGHT), iteration_of(tracer, MID_BUG)]
    assert grouped.groups[1].oracle_disagreed > 0 and grouped.groups[0].oracle_disagreed == 0
    shown = grouped.disagreements[0]
    a = int(shown.input.split()[0])
    assert a >= 12 and shown.outputs[1] == str(int(shown.oracle) + 1)  # where MID_BUG adds one
    assert chosen.candidates == iteration_of(tracer, RIGHT)
    assert "agrees with the oracle" in chosen.reason and "chosen among 4 candidates" in result.reason
    # the inputs that told the groups apart are tests now: the answer is gated on them
    assert any(t.name.startswith("probe-") for t in result.generated_tests)
    assert result.generated_report is not None and result.generated_report.accepted
    # every step survives the transcript's round trip
    assert load_event(chosen.model_dump(mode="json")) == chosen


def test_inputs_written_to_tell_two_groups_apart_are_judged_by_the_brute_force(
    scripted_server, make_client, tracer, sandbox
):
    # BIG_BUG agrees with RIGHT up to a = 999: only the statement-size probe (no oracle there) shows it
    distinguishing = Reply("They differ for large a.\n```text\n1500 3\n```\n")
    model = by_kind(
        program=[code(BIG_BUG), code(RIGHT), code(BIG_BUG)], tests=[suite("3 4\n")], distinguisher=[distinguishing]
    )
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=3, max_n=2000)
    assert first_roles(tracer, 3) == ["coder"] * 3 + ["testgen"] and roles(tracer)[4:] == ["distinguisher"]
    prompt = request_of(server, "distinguisher")
    assert BIG_BUG.strip() in prompt and RIGHT.strip() in prompt and "2000" in prompt  # the input where they differ
    steps = {s.step: s for s in selection_steps(tracer)}
    assert [g.members for g in steps["grouped"].groups] == [iteration_of(tracer, BIG_BUG), iteration_of(tracer, RIGHT)]
    assert steps["distinguished"].probes == 1
    assert steps["distinguished"].groups[0].members == iteration_of(tracer, RIGHT)
    assert result.status == "solved" and result.solution is not None and result.solution.source == RIGHT
    assert ("1500 3\n", "1503\n") in [(t.input, t.output) for t in result.generated_tests]


def test_without_a_brute_force_the_model_says_which_output_is_right(scripted_server, make_client, tracer, sandbox):
    model = by_kind(
        program=[code(BIG_BUG), code(RIGHT), code(BIG_BUG)],
        tests=[suite("3 4\n", brute=BAD_BRUTE)],
        arbiter=[Reply("2000+x...\nAnswer: B")],
    )
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=3, max_n=2000)
    assert first_roles(tracer, 3) == ["coder"] * 3 + ["testgen"] and roles(tracer)[4:] == ["arbiter"]
    arbitrated = next(s for s in selection_steps(tracer) if s.step == "arbitrated")
    assert arbitrated.disagreements[0].outputs[0] != arbitrated.disagreements[0].outputs[1]
    assert "is right" in arbitrated.reason
    assert result.status == "unverified" and result.solution is not None and result.solution.source == RIGHT


def test_when_no_candidate_passes_the_samples_the_best_one_is_debugged(scripted_server, make_client, tracer, sandbox):
    fix = Reply('{"analysis": "subtracts", "error": "subtracts", "guidance": "", "decision": "FIX"}')
    model = by_kind(program=[code(WRONG), code(WRONG), code(RIGHT)], tests=[suite("3 4\n")], checker=[fix])
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=2, profile=False)
    assert first_roles(tracer, 2) == ["coder", "coder", "testgen"] and roles(tracer)[3:5] == ["checker", "debugger"]
    filtered = next(s for s in selection_steps(tracer) if s.step == "filtered")
    assert filtered.candidates == [] and len(filtered.rejected) == 2
    assert result.status == "unverified" and result.solution is not None and result.solution.source == RIGHT


def test_the_candidates_share_the_solves_call_budget(scripted_server, make_client, tracer, sandbox):
    from cpbot.agents.budget import Budget

    server = scripted_server([], default=by_kind(program=[code(RIGHT)] * 5, tests=[suite("3 4\n")]))
    result = solve(
        sum_problem(),
        language="python3",
        model=make_client(server),
        tracer=tracer,
        sandbox=sandbox,
        budget=Budget(max_calls=3),
        options={**FAST, "candidates": 5},
    )
    assert result.calls == 3 and len(server.requests) == 3
    assert result.solution is not None and result.solution.source == RIGHT


POPULATION = Path(__file__).parents[2] / "fixtures" / "selection"


def test_against_a_population_the_right_program_is_chosen_over_an_equally_large_wrong_group(
    scripted_server, make_client, tracer, sandbox
):
    # seed 4 draws, in some order: 2 x a 16-bit counter (wrong only on answers >= 65536: from 363 equal values,
    # so at the statement size 400 only, where no brute force answers), 2 x dropping values
    # above 10^6 (the brute force sees it at size 2), and 2 right programs that agree with each other
    population = PopulationModel(load_lab(POPULATION), pass_at_1=0.5, seed=4)
    separating = "400\n" + " ".join(["7"] * 400) + "\n"  # 79,800 equal pairs: the 16-bit counter wraps

    def model(body: dict) -> Reply:
        text = "\n".join(str(m.get("content") or "") for m in body["messages"])
        if "You are the tester of a" in text:
            return Reply(f"A counter that wraps shows on many equal values.\n```text\n{separating}```\n")
        return population(body)

    server = scripted_server([], default=model)
    problem = Problem.model_validate_json((POPULATION / "equal_pairs" / "problem.json").read_text())
    result = solve(
        problem,
        language="python3",
        model=make_client(server),
        tracer=tracer,
        sandbox=sandbox,
        options={**FAST, "stress_runs": 5, "profile": False, "max_n": 400, "candidates": 6},
    )
    right = {
        (POPULATION / "equal_pairs" / "candidates" / name).read_text() for name in ("right_counter.py", "right_sort.py")
    }
    assert sorted(d.program.split("/")[-1] for d in population.draws[:6]) == sorted(
        ["wrong_wrap.py"] * 2 + ["wrong_small_values.py"] * 2 + ["right_sort.py", "right_counter.py"]
    )
    steps = {s.step: s for s in selection_steps(tracer)}
    grouped = steps["grouped"]
    assert len(grouped.groups) == 3 and grouped.groups[2].oracle_disagreed > 0  # the dropped values, by the oracle
    assert {len(g.members) for g in grouped.groups[:2]} == {2}  # a tie the outputs alone cannot break
    assert steps["distinguished"].probes == 1
    assert result.status == "unverified" and result.solution is not None and result.solution.source in right
    assert (separating, "79800\n") in [(t.input, t.output) for t in result.generated_tests]


def test_when_every_candidate_is_wrong_the_same_way_the_best_is_debugged_on_the_oracles_answers(
    scripted_server, make_client, tracer, sandbox
):
    fix = Reply('{"analysis": "adds one", "error": "adds one from 12 on", "guidance": "", "decision": "FIX"}')
    # two brute forces agree against the one program drawn (twice): one brute force against one program is a tie
    model = by_kind(
        program=[code(MID_BUG), code(MID_BUG), code(RIGHT)],
        tests=[suite("3 4\n"), suite("3 4\n", brute=RIGHT_TOO)],
        checker=[fix],
    )
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=2, profile=False, brutes=2)
    assert sorted(roles(tracer)[:4]) == ["coder", "coder", "testgen", "testgen"]
    assert roles(tracer)[4:] == ["checker", "debugger"]
    grouped = next(s for s in selection_steps(tracer) if s.step == "grouped")
    assert len(grouped.groups) == 1 and grouped.groups[0].oracle_disagreed > 0
    debug_prompt = sent_text(server.requests[5])
    probe = next(t for t in result.generated_tests if t.name.startswith("probe-"))
    assert int(probe.input.split()[0]) >= 12 and probe.input.strip() in debug_prompt
    assert result.status == "unverified" and result.solution is not None and result.solution.source == RIGHT


GUARDED_BRUTE = "a, b = map(int, input().split())\nprint(a + b if a < 12 else 0)\n"  # wrong from a = 12 on
RIGHT_TOO = "print(sum(map(int, input().split())))\n"


def test_a_brute_force_the_candidates_outvote_is_set_aside_and_the_answer_is_not_called_solved(
    scripted_server, make_client, tracer, sandbox
):
    # the brute force passes the samples (a = 1, 10) and prints 0 from a = 12 on: the generator's probes of
    # size 16 show it; two different right programs agree with each other there, MID_BUG adds one
    distinguishing = Reply("They differ for a >= 12.\n```text\n20 3\n```\n")
    model = by_kind(
        program=[code(RIGHT), code(RIGHT_TOO), code(MID_BUG)],
        tests=[suite("3 4\n", brute=GUARDED_BRUTE)],
        distinguisher=[distinguishing],
        arbiter=[Reply("I cannot tell.")],
    )
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=3)
    steps = {s.step: s for s in selection_steps(tracer)}
    doubted = next(s for s in selection_steps(tracer) if s.step == "doubted")  # then again on the distinguisher's
    assert sorted(doubted.candidates) == sorted(iteration_of(tracer, RIGHT) + iteration_of(tracer, RIGHT_TOO))
    assert doubted.disagreements[0].oracle == "0" and doubted.disagreements[0].size == 16
    assert "outvoted" in doubted.reason
    grouped = steps["grouped"]
    assert all(g.oracle_disagreed == 0 for g in grouped.groups)  # the wrong answers no longer count
    assert grouped.groups[0].members == sorted(iteration_of(tracer, RIGHT) + iteration_of(tracer, RIGHT_TOO))
    # the right program is the answer, but the evidence conflicts: not solved, and never gated on the wrong answers
    assert result.solution is not None and result.solution.source in (RIGHT, RIGHT_TOO)
    assert result.status == "unverified" and "no agreeing oracle" in result.reason and "outvoted" in result.reason
    assert all(t.output != "0\n" for t in result.generated_tests)
    assert result.stress is None or result.stress.failure is None


def test_a_choice_between_two_single_programs_on_draw_order_alone_is_not_called_solved(
    scripted_server, make_client, tracer, sandbox
):
    # BIG_BUG differs from RIGHT only at the statement size, where no brute force answers; the distinguisher's
    # input is one the brute force answers the same for both, and the arbiter cannot tell
    model = by_kind(
        program=[code(BIG_BUG), code(RIGHT)],
        tests=[suite("3 4\n")],
        distinguisher=[Reply("```text\n5 6\n```\n")],
        arbiter=[Reply("I cannot tell.")],
    )
    server = scripted_server([], default=model)
    # no ladder: whichever is chosen passes every check (the size ladder would catch BIG_BUG alone)
    result = run(make_client, server, tracer, sandbox, candidates=2, max_n=2000, ladder_seconds=0)
    assert first_roles(tracer, 2) == ["coder"] * 2 + ["testgen"] and roles(tracer)[3:] == ["distinguisher", "arbiter"]
    chosen = next(s for s in selection_steps(tracer) if s.step == "chosen")
    assert "nothing tells which is right" in chosen.reason
    assert result.status == "best_effort" and "on a guess" in result.reason


def test_with_several_answers_and_a_checker_that_compares_with_one_a_larger_group_is_not_called_solved(
    scripted_server, make_client, tracer, sandbox
):
    # the statement accepts any of several answers but the checker compares tokens: two programs printing one
    # output and a third printing another may all be right, so neither the brute force's answer nor the
    # numbers decide (without the sentence, the oracle and the 2:1 majority make this solved)
    problem = sum_problem().model_copy(update={"output_spec": "If there are several answers, print any of them."})
    # the test designer is asked for a checker first (agents/answers.py) and writes none usable
    no_checker = [Reply("I cannot write one.")] * 2
    model = by_kind(
        program=[code(RIGHT), code(RIGHT_TOO), code(MID_BUG)], tests=[suite("3 4\n")], checker_writer=no_checker
    )
    server = scripted_server([], default=model)
    result = solve(
        problem,
        language="python3",
        model=make_client(server),
        tracer=tracer,
        sandbox=sandbox,
        options={**FAST, "stress_runs": 5, "candidates": 3, "profile": False, "brutes": 1},
    )
    assert roles(tracer)[:2] == ["checker_writer"] * 2
    assert sorted(roles(tracer)[2:6]) == ["coder"] * 3 + ["testgen"]
    assert "distinguisher" not in roles(tracer) and "arbiter" not in roles(tracer)
    grouped = next(s for s in selection_steps(tracer) if s.step == "grouped")
    assert len(grouped.groups) == 2 and all(g.oracle_agreed == g.oracle_disagreed == 0 for g in grouped.groups)
    assert not any(t.name.startswith("probe-") for t in result.generated_tests)
    assert result.solution is not None and result.solution.source in (RIGHT, RIGHT_TOO)
    assert result.status == "best_effort" and "several answers" in result.reason


def test_a_candidate_call_that_fails_for_good_is_a_missing_draw_not_the_end_of_the_solve(
    scripted_server, make_client, tracer, sandbox
):
    from cpbot.testing.scripted_server import HTTPFailure

    model = by_kind(
        program=[HTTPFailure(400, "the server gave up"), code(RIGHT), code(RIGHT_TOO)], tests=[suite("3 4\n")]
    )
    server = scripted_server([], default=model)
    result = run(make_client, server, tracer, sandbox, candidates=3, profile=False)
    drawn = next(s for s in selection_steps(tracer) if s.step == "drawn")
    assert len(drawn.candidates) == 2 and drawn.reason.startswith("2 of 3 replies held a program")
    assert (
        result.status == "unverified" and result.solution is not None and result.solution.source in (RIGHT, RIGHT_TOO)
    )
