"""Which answer is believed: a panel of brute forces, weighed with the candidates' outputs (agents/oracle.py)."""

from __future__ import annotations

from pathlib import Path

from cpbot.agents.oracle import Consensus, agree, no_agreeing_oracle, weigh, weigh_panel
from cpbot.agents.selection import Outcome, Probe


def test_two_brute_forces_that_agree_are_believed_whatever_the_candidates_print():
    consensus = agree(["7", "7"], {"8": 5})
    assert consensus.answer == "7" and consensus.brutes_for == [0, 1] and consensus.by == "brute forces"


def test_a_brute_force_sharing_the_candidates_mistake_against_a_right_one_leaves_no_answer():
    # seat 0 overflows like three wrong candidates, seat 1 is right like two right ones: nothing decides
    consensus = agree(["-294967296", "4000000000"], {"-294967296": 3, "4000000000": 2})
    assert consensus.answer is None and consensus.outvoted == []
    assert "the brute forces disagree" in consensus.reason


def test_a_third_brute_force_breaks_the_tie_and_the_one_sharing_the_mistake_loses_its_vote():
    consensus = agree(["-294967296", "4000000000", "4000000000"], {"-294967296": 3})
    assert consensus.answer == "4000000000" and consensus.outvoted == [0]


def test_a_simply_wrong_brute_force_loses_its_vote_to_the_other_one_and_the_candidates():
    # seat 0 prints 4 decimals where the others agree (as the checker compares them) on another answer
    consensus = agree(["0.3333", "0.333333333"], {"0.333333333": 2, "0.5": 1})
    assert consensus.answer == "0.333333333" and consensus.outvoted == [0]
    assert consensus.by == "brute force and candidates" and consensus.candidates_for == 2


def test_one_brute_force_needs_an_independent_program_to_agree():
    assert agree(["7", None], {"7": 1}).answer == "7"
    alone = agree(["7", "!TLE"], {})
    assert alone.answer is None and "no independent program confirms it" in alone.reason


def test_candidates_that_outvote_the_only_brute_force_take_its_vote_but_make_no_answer():
    consensus = agree(["0"], {"7": 2})
    assert consensus.answer is None and consensus.outvoted == [0]


def test_a_brute_force_too_slow_to_answer_gives_no_oracle():
    consensus = agree(["!TLE", "!TLE"], {"7": 3})
    assert consensus.answer is None and consensus.reason.startswith("no brute force answered")
    assert no_agreeing_oracle(0, weigh_panel([])) == "no brute force passed the samples"


def test_the_panel_verdict_names_who_lost_its_vote_and_whether_an_agreeing_oracle_is_left():
    believed = Consensus(answer="7", seats=[0, 1], brutes_for=[1], outvoted=[0], candidates_for=2)
    split = Consensus(seats=[0, 1], reason="the brute forces disagree (2 answers) and no answer has a majority")
    verdict = weigh_panel([believed])
    assert verdict.dismissed == [0] and verdict.confirmed == [1] and no_agreeing_oracle(2, verdict) == ""
    verdict = weigh_panel([believed, split])
    assert verdict.unsettled == 1 and no_agreeing_oracle(2, verdict).startswith("no agreeing oracle on 1 inputs")
    assert no_agreeing_oracle(1, weigh_panel([agree(["7"], {})])).startswith("no agreeing oracle")


def test_weigh_makes_the_believed_answer_the_probes_oracle_and_a_copy_of_a_brute_force_no_extra_vote():
    probes = [
        Probe(input="1 2\n", origin="small", size=2, answers=["3\n", "3\n"]),
        Probe(input="20 3\n", origin="small", size=4, answers=["0\n", "23\n"]),
        Probe(input="9 9\n", origin="small", size=8, answers=["18\n", None]),
    ]
    behaviours = {
        1: [Outcome(output="3"), Outcome(output="23"), Outcome(output="18")],
        2: [Outcome(output="3"), Outcome(output="0"), Outcome(output="18")],  # the same program as seat 0
        3: [Outcome(output="3"), Outcome(output="23"), Outcome(failure="TLE")],
    }
    sources = {1: "right", 2: "guarded", 3: "right too"}
    weighed, consensus = weigh(probes, behaviours, sources, ["guarded", "brute"], accepts=None)
    assert [p.oracle for p in weighed] == ["3", "23", "18"]
    assert [p.expected for p in weighed] == ["3\n", "23\n", "18\n"]
    assert consensus[1].outvoted == [0] and weighed[1].doubted == "0"
    assert consensus[2].brutes_for == [0] and consensus[2].candidates_for == 1  # candidate 2 is seat 0's program


def test_only_independent_programs_outvote_a_brute_force():
    probe = [Probe(input="5\n", origin="small", size=2, answers=["0\n"])]
    twice = {1: [Outcome(output="9")], 2: [Outcome(output="9")]}
    # one program drawn twice is one vote, a crash is no answer, and the brute force drawn as a candidate no vote
    assert weigh(probe, twice, {1: "same", 2: "same"}, ["brute"], None)[1][0].outvoted == []
    crashed = {1: [Outcome(failure="TLE")], 2: [Outcome(failure="TLE")]}
    assert weigh(probe, crashed, {1: "a", 2: "b"}, ["brute"], None)[1][0].outvoted == []
    assert weigh(probe, twice, {1: "a", 2: "b"}, ["brute"], None)[1][0].outvoted == [0]


def test_a_brute_force_that_crashes_where_another_answers_leaves_the_panel_and_a_slow_one_does_not():
    crashed = agree(["!MLE", "7"], {"7": 1})
    slow = agree(["!TLE", "7"], {"7": 1})
    assert crashed.answer == slow.answer == "7"
    small = agree(["5", "5"], {})  # both answered a smaller input
    assert weigh_panel([small, crashed]).dismissed == [0] and weigh_panel([small, slow]).dismissed == []
    # an input no brute force runs on is probably invalid: it costs none of them its seat
    assert weigh_panel([agree(["!RE", "!RE"], {}), agree(["7", "7"], {})]).dismissed == []


def test_an_answer_the_checker_shows_wrong_is_out_and_its_seats_lose_their_vote():
    # seats 0 and 1 print two pairs of one wrong difference (the checker groups them); seat 2's answer beats it
    consensus = agree(["1 2", "1 2", "3 4"], {"3 4": 2, "1 2": 1}, refuted={"1 2"})
    assert consensus.answer == "3 4" and consensus.by == "brute force and candidates"
    assert consensus.outvoted == consensus.refuted == [0, 1]
    every = agree(["1 2", "1 2"], {"3 4": 1}, refuted={"1 2"})
    assert (
        every.answer is None and every.outvoted == [0, 1] and "shows every brute force's answer wrong" in every.reason
    )
    assert weigh_panel([every]).dismissed == [0, 1]


def test_weigh_asks_the_checker_whether_another_output_beats_the_brute_forces_answer(sandbox):
    """On closest_values (a 'print any pair' problem with a testlib checker), two wrong brute forces printing
    different pairs of one wrong difference would outvote the right one: the checker's FAIL (the output beats the
    jury's) refutes their answer, and the right brute force with the candidates is believed."""
    from cpbot.agents.selection import checker_comparison
    from cpbot.judge.model import Problem

    folder = Path(__file__).parents[1] / "fixtures" / "lab" / "closest_values"
    problem = Problem.model_validate_json((folder / "problem.json").read_text())
    problem = problem.model_copy(update={"checker": str(folder / problem.checker)})
    comparison = checker_comparison(problem, sandbox)
    assert comparison is not None
    # least difference 2 (indices 3, 4); the wrong brute forces print two pairs of difference 3
    probe = Probe(input="6\n1 4 10 12 20 23\n", origin="small", size=6, answers=["1 2\n", "5 6\n", "3 4\n"])
    behaviours = {1: [Outcome(output="3 4")], 2: [Outcome(output="3 4")], 3: [Outcome(output="5 6")]}
    sources = {1: "right", 2: "right too", 3: "wrong"}
    trusting, before = weigh([probe], behaviours, sources, ["a", "b", "c"], comparison.accepts)
    # without refutation the wrong difference wins (its class is named by its first output, seat 1's)
    assert trusting[0].oracle == "5 6" and before[0].outvoted == [2]
    weighed, after = weigh([probe], behaviours, sources, ["a", "b", "c"], comparison.accepts, comparison.refutes)
    assert weighed[0].oracle == "3 4" and weighed[0].expected == "3 4\n"
    assert after[0].refuted == after[0].outvoted == [0, 1]
    assert comparison.refutes(probe, "3 4", "1 2") and not comparison.refutes(probe, "1 2", "3 4")
