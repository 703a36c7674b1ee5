"""An interactive problem with no interactor: the test designer writes one with the hidden data of its tests,
it is vetted against the sample dialogue, and every program is then judged through it, never by comparing
the sample as a file."""

from __future__ import annotations

from pathlib import Path

from cpbot.agents.roles.interactor_writer import WrittenInteractor, judged_through, replay, vet_interactor
from cpbot.agents.solve import solve
from cpbot.agents.tracing import NoteEvent
from cpbot.judge.model import Limits, Problem, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_problem
from tests.agents.strategies.support import by_kind, code
from tests.agents.support.scripted_server import Reply
from tests.judge.test_external import BINARY_SEARCH

# cpbot's guess-the-number interactor, allowing 30 questions (a binary search over 10^6 needs up to 20, plus the guess)
INTERACTOR = (
    (Path(__file__).parents[2] / "judge" / "data" / "guess_interactor.py")
    .read_text()
    .replace("range(1, 21)", "range(1, 32)")
)
ACCEPTS_ANY_GUESS = INTERACTOR.replace("        if x == secret:\n", "        if True:\n")
SAYS_N_ONLY = "import sys\nprint(1000000, flush=True)\nsys.stdin.read()\n"
HIDDEN = ["750000\n", "2\n", "1000000\n", "31337\n"]
# asks other questions than the sample's dialogue (the upper middle first)
UPPER_MIDDLE = BINARY_SEARCH.replace("mid = (lo + hi) // 2", "mid = (lo + hi + 1) // 2")
# its questions stay in its buffer, so nobody answers (Python's input() would flush stdout first: readline does not)
NEVER_FLUSHES = "import sys\n" + UPPER_MIDDLE.replace(", flush=True", "").replace("input()", "sys.stdin.readline()")
FAST = {"max_n": 24, "repeats": 1, "count": False, "stress_runs": 10, "stress_size": 4, "stress_seconds": 10.0}


def guess_problem() -> Problem:
    return Problem(
        id="local:guess",
        title="Guess the Number",
        kind="interactive",
        statement="The judge picks a secret integer x between 1 and n. First read n. Ask `? y` to hear `<` "
        "(x < y), `>` (x > y) or `=`; at most 30 questions. Then print `! x`.",
        limits=Limits(time_ms=500, memory_mb=64),
        samples=[TestCase(input="1000000\n>\n=\n", output="? 500000\n? 750000\n! 750000\n")],
    )


def python(source: str) -> Solution:
    return Solution(language="python3", source=source)


def written(source: str = INTERACTOR) -> WrittenInteractor:
    return WrittenInteractor(interactor=python(source), tests=HIDDEN)


def interactor_reply(source: str) -> Reply:
    blocks = "\n".join(f"```text\n{t}```" for t in HIDDEN)
    return Reply(f"## Interactor\n```python\n{source}```\n\n## Tests\n{blocks}\n")


def notes(tracer, message: str) -> list[NoteEvent]:
    return [e for e in tracer.of_kind(NoteEvent) if e.message == message]


def test_an_interactor_is_kept_only_when_it_takes_the_sample_dialogue_and_refuses_a_wrong_answer(sandbox):
    problem = guess_problem()
    assert vet_interactor(written(), problem, sandbox) == ""
    assert ACCEPTS_ANY_GUESS != INTERACTOR
    assert vet_interactor(written(ACCEPTS_ANY_GUESS), problem, sandbox) == (
        "it accepts sample 1's dialogue with its last number changed"
    )
    assert vet_interactor(written(SAYS_N_ONLY), problem, sandbox).startswith("its side of sample 1's dialogue differs")
    lies = vet_interactor(written(INTERACTOR.replace('"=" if', '"<" if')), problem, sandbox)
    assert lies.startswith("its side of sample 1's dialogue differs from the statement's")
    refused = vet_interactor(written(INTERACTOR.replace("if x == secret:", "if x == -secret:")), problem, sandbox)
    assert refused.startswith("it rejects sample 1's dialogue (WA")
    short = WrittenInteractor(interactor=python(INTERACTOR), tests=[])
    assert vet_interactor(short, problem, sandbox) == "it comes with 0 tests for 1 samples"
    assert vet_interactor(written(), problem.model_copy(update={"samples": []}), sandbox).startswith(
        "the statement shows no dialogue"
    )
    # the scripted dialogue says the program's side at once, and waits for the other side to stop
    assert "! 750000" in replay("? 500000\n? 750000\n! 750000").source


def test_programs_are_judged_through_the_interactor_not_against_the_sample_as_a_file(sandbox):
    problem = guess_problem()
    as_a_file = judge_problem(python(UPPER_MIDDLE), problem, sandbox=sandbox)
    assert as_a_file.verdict == Verdict.IE and "no interactor" in as_a_file.reason
    through = judged_through(problem, written())
    assert [t.input for t in through.samples] == HIDDEN and "? 750000" in through.notes
    right = judge_problem(python(UPPER_MIDDLE), through, sandbox=sandbox)
    assert right.accepted, "other questions than the sample's: the interactor alone decides"
    silent = judge_problem(python(NEVER_FLUSHES), through, sandbox=sandbox, stop_on_failure=True)
    assert silent.verdict == Verdict.TLE and "idle" in silent.results[0].checker_message


def test_the_solve_writes_an_interactor_and_keeps_the_program_that_flushes(
    scripted_server, make_client, tracer, sandbox
):
    model = by_kind(
        program=[code(NEVER_FLUSHES), code(UPPER_MIDDLE)],
        interactor_writer=[interactor_reply(ACCEPTS_ANY_GUESS), interactor_reply(INTERACTOR)],
    )
    server = scripted_server([], default=model)
    result = solve(
        guess_problem(), language="python3", model=make_client(server), tracer=tracer, sandbox=sandbox,
        options={**FAST, "candidates": 2},
    )  # fmt: skip
    assert [n.data["why"] for n in notes(tracer, "interactor discarded")] == [
        "it accepts sample 1's dialogue with its last number changed"
    ]
    assert [n.data["tests"] for n in notes(tracer, "interactor accepted")] == [len(HIDDEN)]
    assert result.interactor is not None and result.interactor.interactor.source == INTERACTOR
    assert result.solution is not None and result.solution.source.strip() == UPPER_MIDDLE.strip()
    assert result.report is not None and result.report.accepted and result.report.total == len(HIDDEN)


def test_without_an_interactor_nothing_is_called_solved(scripted_server, make_client, tracer, sandbox):
    model = by_kind(program=[code(UPPER_MIDDLE)] * 8, interactor_writer=[Reply("I cannot.")] * 2)
    server = scripted_server([], default=model)
    result = solve(
        guess_problem(), language="python3", model=make_client(server), tracer=tracer, sandbox=sandbox,
        options={**FAST, "candidates": 1, "plans": 0},
    )  # fmt: skip
    assert len(notes(tracer, "interactor not written")) == 2 and notes(tracer, "no interactor")
    assert result.status != "solved" and result.interactor is None
    assert result.report is not None and result.report.verdict == Verdict.IE


# right on the designer's tests (no secret there ends in 9), wrong whenever the secret ends in 9
ENDS_IN_NINE = UPPER_MIDDLE.replace('print("!", mid, flush=True)', 'print("!", mid + (mid % 10 == 9), flush=True)')
HIDDEN_GENERATOR = (
    "import sys\nn, seed = int(sys.argv[1]), int(sys.argv[2])\nprint(10 * n + 9 if seed % 2 else n + 1)\n"
)


def test_candidates_are_grouped_and_stressed_through_the_interactor_on_generated_hidden_data(
    scripted_server, make_client, tracer, sandbox
):
    from cpbot.agents.tracing import SelectionEvent

    reply = interactor_reply(INTERACTOR).text + f"\n## Generator\n```python\n{HIDDEN_GENERATOR}```\n"
    model = by_kind(
        program=[code(ENDS_IN_NINE), code(UPPER_MIDDLE), code(ENDS_IN_NINE)], interactor_writer=[Reply(reply)]
    )
    server = scripted_server([], default=model)
    result = solve(
        guess_problem(), language="python3", model=make_client(server), tracer=tracer, sandbox=sandbox,
        options={**FAST, "candidates": 3},
    )  # fmt: skip
    assert result.interactor is not None and result.interactor.generator is not None
    steps = {e.step: e for e in tracer.of_kind(SelectionEvent)}
    assert len(steps["filtered"].candidates) == 3, "all three pass the designer's tests"
    best, other = steps["grouped"].groups
    assert best.failures == 0 and other.failures > 0 and len(other.members) == 2
    assert result.solution is not None and result.solution.source.strip() == UPPER_MIDDLE.strip()
    assert result.stress is not None and result.stress.status == "clean" and result.stress.runs > 0
    # grouped, stressed and profiled through the interactor (the statement gives n no bound: up to the max_n given)
    assert result.profile is not None and result.profile.points[-1].size == FAST["max_n"]
    assert result.status == "solved", result.reason
    assert result.missing_evidence == []


def test_stress_through_the_interactor_finds_the_secret_a_program_gets_wrong(sandbox):
    from cpbot.agents import interactive_checks
    from cpbot.agents.verification import GateParams

    through = judged_through(guess_problem(), written())
    params = GateParams(stress_size=3, stress_runs=12)
    found = interactive_checks.stress(
        python(ENDS_IN_NINE), through, python(HIDDEN_GENERATOR), params, seed=1, sandbox=sandbox
    )
    assert found.status == "found" and found.failure is not None and found.failure.input == "19\n"
    assert found.failure.verdict == Verdict.WA
    clean = interactive_checks.stress(
        python(UPPER_MIDDLE), through, python(HIDDEN_GENERATOR), params, seed=1, sandbox=sandbox
    )
    assert clean.status == "clean" and clean.runs == 12
