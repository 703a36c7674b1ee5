"""Choosing among candidates by behaviour (agents/selection.py): grouping, ranking, the oracle, the arbiter."""

from __future__ import annotations

from cpbot.agents.selection import (
    Group,
    Outcome,
    Probe,
    differing,
    disagreements,
    fastest_first,
    group_by_behaviour,
    normalize,
    oracle_tiebreak,
    rank_groups,
    read_choice,
    settled_by_evidence,
    unsupported,
    why_chosen,
)


def out(*outputs: str) -> list[Outcome]:
    """Outcomes from outputs; "!TLE" stands for a run that ran out of time."""
    return [Outcome(failure=o[1:]) if o.startswith("!") else Outcome(output=o) for o in outputs]


def probes(*oracles: str | None) -> list[Probe]:
    return [
        Probe(input=f"{i}\n", origin="small", oracle=o, oracle_from="brute" if o is not None else None)
        for i, o in enumerate(oracles)
    ]


def test_candidates_with_the_same_outputs_on_every_probe_form_one_group_in_draw_order():
    groups = group_by_behaviour({7: out("1", "2"), 3: out("1", "2"), 5: out("1", "3"), 9: out("!TLE", "2")})
    assert [g.members for g in groups] == [[3, 7], [5], [9]]
    assert groups[0].signature == ["1", "2"] and groups[2].signature == ["!TLE", "2"]


def test_a_failed_run_never_groups_with_a_program_that_printed_the_failure_name():
    groups = group_by_behaviour({1: out("!TLE"), 2: out("!TLE"), 3: [Outcome(output="!TLE"[1:])]})
    assert [g.members for g in groups] == [[1, 2], [3]]


def test_output_is_kept_as_its_tokens_and_the_checker_decides_what_else_is_the_same_answer():
    assert normalize("1  2\n3 \n") == normalize("1 2 3")
    assert normalize("0.3333333333") != normalize("0.33333334"), "a tolerance is the checker's (as_judged)"


def test_agreement_with_the_oracle_outranks_a_larger_group():
    behaviours = {1: out("5", "9"), 2: out("5", "9"), 3: out("5", "9"), 4: out("5", "10")}
    ranked = rank_groups(group_by_behaviour(behaviours), probes("5", "10"))
    assert [g.members for g in ranked] == [[4], [1, 2, 3]]
    assert (ranked[0].oracle_agreed, ranked[0].oracle_disagreed) == (2, 0)
    assert (ranked[1].oracle_agreed, ranked[1].oracle_disagreed) == (1, 1)
    assert settled_by_evidence(ranked[0], ranked[1])


def test_without_oracle_evidence_fewer_failed_runs_then_the_larger_group_then_the_first_drawn_wins():
    behaviours = {1: out("5", "!TLE"), 2: out("5", "!TLE"), 3: out("5", "7"), 4: out("6", "8"), 5: out("6", "8")}
    ranked = rank_groups(group_by_behaviour(behaviours), probes(None, None))
    assert [g.members for g in ranked] == [[4, 5], [3], [1, 2]]
    assert ranked[2].failures == 1
    assert not settled_by_evidence(ranked[0], ranked[1])  # only size separates them: worth distinguishing
    tied = rank_groups(group_by_behaviour({2: out("1"), 1: out("2")}), probes(None))
    assert [g.members for g in tied] == [[1], [2]]


def test_a_lead_by_numbers_alone_needs_twice_the_independent_programs():
    sources = {1: "a", 2: "b", 3: "c", 4: "c", 5: "d"}
    # a clear majority: 2 programs against 1
    behaviours = {1: out("5"), 2: out("5"), 3: out("6")}
    assert unsupported(rank_groups(group_by_behaviour(behaviours, sources), probes(None))) == ""
    # one program drawn twice is no majority over another program
    behaviours = {3: out("6"), 4: out("6"), 5: out("5")}
    ranked = rank_groups(group_by_behaviour(behaviours, sources), probes(None))
    assert ranked[0].members == [3, 4] and ranked[0].independent == 1
    assert "nothing tells which is right" in unsupported(ranked)
    # evidence wins whatever the numbers
    behaviours = {1: out("5"), 2: out("6"), 3: out("6")}
    assert unsupported(rank_groups(group_by_behaviour(behaviours, sources), probes("5"))) == ""
    assert unsupported(rank_groups(group_by_behaviour({1: out("5")}, sources), probes(None))) == ""


def test_disagreements_show_the_smallest_inputs_where_the_two_best_groups_differ():
    ps = [
        Probe(input="3\n1 2 3\n", origin="small", size=3, oracle="6", oracle_from="brute"),
        Probe(input="1\n5\n", origin="small", size=1, oracle="5", oracle_from="brute"),
        Probe(input="2\n1 1\n", origin="small", size=2, oracle="2", oracle_from="brute"),
    ]
    a = Group(members=[1], signature=["6", "5", "2"])
    b = Group(members=[2], signature=["7", "5", "3"])
    assert differing(a, b) == [0, 2]
    shown = disagreements([a, b], ps)
    assert [d.probe for d in shown] == [2, 0]  # the shorter input first
    assert shown[0].outputs == ["2", "3"] and shown[0].oracle == "2" and shown[0].size == 2


def test_the_oracle_breaks_a_tie_only_on_inputs_where_the_two_programs_differ():
    ps = probes("1", "2", None, "4")
    assert oracle_tiebreak(out("1", "2", "3", "4"), out("1", "9", "3", "4"), ps) == "a"
    assert oracle_tiebreak(out("1", "9", "3", "4"), out("1", "2", "3", "4"), ps) == "b"
    assert oracle_tiebreak(out("1", "2", "3", "4"), out("1", "2", "8", "4"), ps) is None  # no oracle there
    assert oracle_tiebreak(out("1", "!RE", "3", "4"), out("1", "!TLE", "3", "4"), ps) is None


def test_the_arbiters_answer_is_read_from_its_last_line_naming_one_output():
    assert read_choice("A is off by one, so...\nAnswer: B") == "b"
    assert read_choice("The answer is 12.\n**Answer: A**") == "a"
    assert read_choice("Both A and B could be right.") is None
    assert read_choice("I cannot tell.") is None
    assert read_choice("So it is\nB") == "b"
    # a letter in code is no answer (a model that replies with a program says nothing)
    assert read_choice("```cpp\nint a, b;\ncout << a << endl;\n```") is None
    assert read_choice("answer is output a, I think") is None  # the letter must be capital


def test_the_reason_names_the_winning_group_and_what_set_it_apart():
    ranked = rank_groups(group_by_behaviour({1: out("5"), 2: out("6"), 3: out("6")}), probes("5"))
    assert why_chosen(ranked) == (
        "group of 1 (candidates 1); agrees with the oracle on 1 of 1 inputs; no failed run; "
        "the next group disagrees with the oracle on 1 and failed 0 runs"
    )
    alone = rank_groups(group_by_behaviour({4: out("5"), 6: out("5")}), probes(None))
    assert "every candidate behaves the same" in why_chosen(alone)


def test_a_selection_step_reads_as_one_line_in_transcripts_show():
    from datetime import UTC, datetime

    from cpbot.agents.tracing import SelectionEvent
    from cpbot.bot.report.render import event_lines
    from cpbot.bot.store.transcripts import StoredEvent

    event = SelectionEvent(step="chosen", candidates=[3], reason="group of 2 (candidates 3, 5)")
    stored = StoredEvent(seq=1, ts=datetime.now(UTC), kind=event.kind, payload=event.model_dump(mode="json"))
    assert isinstance(stored.trace_event(), SelectionEvent)
    assert event_lines(stored, full=False) == ["selection chosen [3]: group of 2 (candidates 3, 5)"]


def test_within_a_group_the_program_that_used_the_least_cpu_time_comes_first():
    # the same outputs: one group, whatever the times; the slow one (a missing optimisation) goes last
    slow = [Outcome(output="5", cpu_ms=10.0), Outcome(output="9", cpu_ms=900.0)]
    quick = [Outcome(output="5", cpu_ms=12.0), Outcome(output="9", cpu_ms=40.0)]
    behaviours = {1: slow, 2: quick, 3: quick}
    assert [g.members for g in group_by_behaviour(behaviours)] == [[1, 2, 3]]
    assert fastest_first([1, 2, 3], behaviours) == [2, 3, 1]  # ties by draw order
    assert fastest_first([3, 1], {}) == [1, 3]  # nothing observed: draw order


def test_a_program_out_of_cpu_time_at_the_statements_size_is_not_run_on_more_inputs_that_large(monkeypatch, sandbox):
    from types import SimpleNamespace

    import cpbot.judge.execute as execute_module
    from cpbot.agents.selection import observe
    from cpbot.judge.model import Limits, Problem, Solution, TestCase

    problem = Problem(
        id="t", title="t", statement="", samples=[TestCase(input="1\n", output="1\n")], limits=Limits(time_ms=1000)
    )
    real, ran, slow = execute_module.execute, [], [True]

    def execute(program, stdin, box, **kwargs):  # type: ignore[no-untyped-def]
        ran.append(stdin)
        if slow[0] and stdin.startswith(b"big"):  # the whole CPU time spent at the statement's size (no waiting)
            return SimpleNamespace(verdict="TLE", message="CPU time", run=SimpleNamespace(cpu_ms=1030.0), stdout=b"")
        return real(program, stdin, box, **kwargs)

    monkeypatch.setattr(execute_module, "execute", execute)
    probes = [
        Probe(input="1\n", origin="small", size=1),
        Probe(input="big 1\n", origin="large", size=1000),
        Probe(input="big 2\n", origin="large", size=1000),
    ]
    program = Solution(language="python3", source="print(1)\n")
    assert [o.key for o in observe(program, problem, probes, sandbox)] == ["1", "!TLE", "!TLE"]
    assert ran == [b"1\n", b"big 1\n"], "the second statement-size input is not run: it would be TLE again"
    ran.clear()
    slow[0] = False  # in time at the statement's size: every input runs
    assert [o.key for o in observe(program, problem, probes, sandbox)] == ["1", "1", "1"]
    assert len(ran) == 3
