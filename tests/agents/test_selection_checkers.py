"""Selection on problems whose checker accepts more than one output (agents/selection.py `as_judged`): right
programs printing different accepted answers group together and agree with the oracle, wrong ones do not, on
two fixtures of tests/fixtures/selection (a float tolerance, and a special judge accepting any valid pair)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpbot.agents.selection import (
    Accepts,
    Group,
    Probe,
    as_judged,
    group_by_behaviour,
    normalize,
    observe,
    oracle_tiebreak,
    rank_groups,
    unjudged_answers,
    unsupported,
)
from cpbot.judge.build import build_solution
from cpbot.judge.checkers import CheckInput
from cpbot.judge.execute import execute
from cpbot.judge.generator import generate
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import Problem, Solution, Verdict

FIXTURES = Path(__file__).parents[1] / "fixtures" / "selection"


def problem_of(name: str) -> Problem:
    folder = FIXTURES / name
    problem = Problem.model_validate_json((folder / "problem.json").read_text())
    if (folder / problem.checker).is_file():  # the special judge beside problem.json
        problem = problem.model_copy(update={"checker": str(folder / problem.checker)})
    return problem


def program(name: str, file: str) -> Solution:
    return Solution(language="python3", source=(FIXTURES / name / file).read_text())


def candidates(name: str) -> dict[str, int]:
    """File -> an iteration number, right programs first (in lab.json's order)."""
    spec = json.loads((FIXTURES / name / "lab.json").read_text())
    return {c["file"]: i for i, c in enumerate(spec["candidates"], start=1)}


def make_probes(name: str, inputs: list[tuple[int, int]], sandbox) -> list[Probe]:
    """Generator inputs (size, seed) answered by the fixture's brute force, as the strategy makes probes."""
    generator = build_solution(program(name, "gen.py"), sandbox).program
    brute = build_solution(program(name, "brute.py"), sandbox).program
    assert generator is not None and brute is not None
    made = []
    for size, seed in inputs:
        data = generate(generator, size, seed, sandbox)
        answer = execute(brute, data, sandbox, limits=problem_of(name).limits).stdout.decode()
        made.append(
            Probe(input=data.decode(), origin="small", size=size, oracle=normalize(answer), oracle_from="brute")
        )
    return made


def checker_accepts(problem: Problem, sandbox) -> Accepts:
    checker = problem_kind(problem.kind).checker(problem, sandbox)
    return lambda probe, output, answer: (
        checker.check(CheckInput(probe.input.encode(), output.encode(), answer.encode())).verdict == Verdict.AC
    )


def members(names: dict[str, int], *files: str) -> set[int]:
    return {names[f"candidates/{f}"] for f in files}


@pytest.fixture(scope="module")
def float_case(request):
    sandbox = request.getfixturevalue("sandbox")
    name = "mean_inverse"
    problem, names = problem_of(name), candidates(name)
    probes = make_probes(name, [(8, 5), (32, 4), (128, 5)], sandbox)
    behaviours = {it: observe(program(name, file), problem, probes, sandbox) for file, it in names.items()}
    return problem, names, probes, behaviours, checker_accepts(problem, sandbox)


@pytest.fixture(scope="module")
def pairs_case(request):
    sandbox = request.getfixturevalue("sandbox")
    name = "pair_sum"
    problem, names = problem_of(name), candidates(name)
    probes = make_probes(name, [(16, 1), (32, 1), (8, 5)], sandbox)  # two inputs with many pairs, one with none
    behaviours = {it: observe(program(name, file), problem, probes, sandbox) for file, it in names.items()}
    return problem, names, probes, behaviours, checker_accepts(problem, sandbox)


def test_right_programs_printing_the_mean_to_different_digits_are_one_group_agreeing_with_the_oracle(float_case):
    _, names, probes, behaviours, accepts = float_case
    right = members(names, "right_repr.py", "right_six_decimals.py", "right_running.py")
    exact = group_by_behaviour(behaviours)
    assert not any(set(g.members) >= right for g in exact), "as exact tokens the right programs split"
    ranked = rank_groups(group_by_behaviour(as_judged(probes, behaviours, accepts)), probes)
    best = ranked[0]
    assert set(best.members) == right and best.oracle_disagreed == 0 and best.oracle_agreed == len(probes)
    assert all(g.oracle_disagreed > 0 for g in ranked[1:]), "every wrong program is off by more than 1e-6 somewhere"
    assert unsupported(ranked) == "", "three right programs against one wrong one each, with the oracle on their side"


def test_a_program_within_the_tolerance_wins_the_oracle_tiebreak_only_when_the_checker_compares(float_case):
    _, names, probes, behaviours, accepts = float_case
    six, five = names["candidates/right_six_decimals.py"], names["candidates/wrong_five_decimals.py"]
    judged = as_judged(probes, behaviours, accepts)
    assert oracle_tiebreak(judged[six], judged[five], probes) == "a"
    # compared as exact tokens, six decimals "disagree" with the brute force's full digits as often as five do
    assert oracle_tiebreak(behaviours[six], behaviours[five], probes) is None


def test_right_programs_printing_different_valid_pairs_are_one_group_agreeing_with_the_oracle(pairs_case):
    _, names, probes, behaviours, accepts = pairs_case
    right = members(names, "right_first_pair.py", "right_last_pair.py", "right_two_pointers.py")
    assert len({behaviours[it][0].output for it in right}) == 3, "the right programs print different pairs"
    ranked = rank_groups(group_by_behaviour(as_judged(probes, behaviours, accepts)), probes)
    # the quadratic one is right on small inputs (it is only too slow): the probes cannot tell it apart
    assert set(ranked[0].members) == right | members(names, "wrong_quadratic.py")
    assert ranked[0].oracle_agreed == len(probes) and ranked[0].oracle_disagreed == 0
    assert {it for g in ranked[1:] for it in g.members} == members(
        names, "wrong_same_index.py", "wrong_sorted_positions.py"
    )
    assert all(g.oracle_disagreed > 0 for g in ranked[1:])
    exact = group_by_behaviour(behaviours)
    assert not any(set(g.members) >= right for g in exact), "as exact tokens the right programs split"


def test_a_pair_checker_is_not_symmetric_and_grouping_asks_it_both_ways(pairs_case):
    _, names, probes, behaviours, accepts = pairs_case
    same, first = names["candidates/wrong_same_index.py"], names["candidates/right_first_pair.py"]
    i = next(k for k, p in enumerate(probes) if not accepts(p, behaviours[same][k].output, p.oracle))
    invalid, valid = behaviours[same][i].output, behaviours[first][i].output
    # the checker reads the jury's answer only for whether a pair exists: an invalid "answer" accepts a valid output
    assert accepts(probes[i], valid, invalid) and not accepts(probes[i], invalid, valid)
    without_oracle = [p.model_copy(update={"oracle": None, "oracle_from": None}) for p in probes]
    drawn_first = {1: behaviours[same], 2: behaviours[first]}  # the invalid output is its class's first
    groups = group_by_behaviour(as_judged(without_oracle, drawn_first, accepts))
    assert [g.members for g in groups] == [[1], [2]]
    judged = as_judged(probes, behaviours, accepts)
    assert oracle_tiebreak(judged[first], judged[same], probes) == "a"


def test_several_answers_with_a_checker_that_compares_to_one_answer_are_unjudged(pairs_case):
    problem = pairs_case[0]
    assert unjudged_answers(problem) == "", "its special judge checks any pair"
    tokens = problem.model_copy(update={"checker": "tokens"})
    assert "several answers" in unjudged_answers(tokens)
    assert unjudged_answers(problem_of("mean_inverse")) == ""
    assert unjudged_answers(problem_of("equal_pairs")) == ""
    # two programs against one: a majority by exact outputs, which cannot tell two right answers apart
    three, one = Group(members=[1, 2], signature=["1 2"]), Group(members=[3], signature=["3 4"])
    assert unsupported([three, one]) == ""
    assert "several answers" in unsupported([three, one], votes=False)
