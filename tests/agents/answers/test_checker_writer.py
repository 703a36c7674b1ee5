"""A checker written by the test designer for a "print any" problem: noticed, vetted on the samples, and once
accepted the problem's checker for the whole solve (grouping, stress, generated tests, the final report)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.agents.roles.checker_writer import needs_checker, perturbations, vet_checker
from cpbot.agents.selection import unjudged_answers
from cpbot.agents.solve import solve
from cpbot.agents.tracing import NoteEvent, SelectionEvent
from cpbot.judge.model import Problem, Solution
from tests.agents.strategies.support import by_kind, code
from tests.agents.support.scripted_server import Reply

PAIRS = Path(__file__).parents[2] / "fixtures" / "selection" / "pair_sum"
CHECKER = (PAIRS / "checker.py").read_text()
ACCEPTS_ALL = "import sys\nsys.exit(0)\n"
CRASHES = "import sys\nraise ValueError(sys.argv)\n"
# compares with the jury's answer as text: vetted (the samples cannot tell), but other valid pairs are refused
SAME_TEXT = "import sys\nsys.exit(0 if open(sys.argv[2]).read().split() == open(sys.argv[3]).read().split() else 1)\n"
FAST = {"max_n": 24, "repeats": 1, "count": False, "stress_runs": 10, "stress_size": 4, "stress_seconds": 10.0}


def pairs_problem() -> Problem:
    """Pair Sum as a site gives it: "print any of them", and no checker (tokens)."""
    problem = Problem.model_validate_json((PAIRS / "problem.json").read_text())
    return problem.model_copy(update={"checker": "tokens"})


def program(name: str) -> str:
    return (PAIRS / name).read_text()


def python(source: str) -> Solution:
    return Solution(language="python3", source=source)


def checker_reply(source: str) -> Reply:
    return Reply(f"Here is the checker.\n```python\n{source}```\n")


def suite() -> Reply:
    return Reply(
        "## Inputs\n```text\n5 6\n1 5 2 4 3\n```\n\n"
        f"## Generator\n```python\n{program('gen.py')}```\n\n## Brute force\n```python\n{program('brute.py')}```\n"
    )


def notes(tracer, message: str) -> list[NoteEvent]:
    return [e for e in tracer.of_kind(NoteEvent) if e.message == message]


@pytest.mark.parametrize(
    "text",
    [
        "Print two indices. If there are multiple answers, print any of them.",
        "Output any valid permutation.",
        "条件を満たす組が複数存在する場合、そのいずれかを出力してください。",
        "答えが複数ある場合、どれを出力しても正解とみなされます。",
    ],
)
def test_a_statement_accepting_several_answers_needs_a_checker_when_none_is_given(text):
    problem = Problem(id="local:x", statement=text, samples=[])
    assert needs_checker(problem)
    assert not needs_checker(problem.model_copy(update={"checker": str(PAIRS / "checker.py")}))
    assert not needs_checker(Problem(id="local:y", statement="Print the sum. いずれの入力でも1行出力せよ。"))


def test_a_right_output_is_perturbed_into_wrong_ones():
    made = dict(perturbations("YES\n1 2\n"))
    assert made == {"a changed number": "YES\n1 1000005\n", "a missing line": "YES\n", "an empty output": ""}
    assert dict(perturbations("-1 -1\n"))["a changed number"] == "-1 1000002\n"
    assert [what for what, _ in perturbations("NO\n")] == ["an empty output"]


def test_a_checker_is_kept_only_when_it_accepts_the_samples_and_rejects_their_perturbations(sandbox):
    problem = pairs_problem()
    assert vet_checker(python(CHECKER), problem, sandbox) == ""
    assert "accepts sample 1's output with a changed number" in vet_checker(python(ACCEPTS_ALL), problem, sandbox)
    assert "rejects the expected output of sample 1" in vet_checker(python("raise SystemExit(1)\n"), problem, sandbox)
    assert "rejects the expected output" in vet_checker(python(CRASHES), problem, sandbox)
    assert "does not build" in vet_checker(python("def (:\n"), problem, sandbox)


def test_right_programs_printing_different_pairs_are_one_group_and_solved_through_the_written_checker(
    scripted_server, make_client, tracer, sandbox
):
    first, last = program("candidates/right_first_pair.py"), program("candidates/right_last_pair.py")
    model = by_kind(
        program=[code(last), code(first), code(last)], tests=[suite()], checker_writer=[checker_reply(CHECKER)]
    )
    server = scripted_server([], default=model)
    problem = pairs_problem()
    assert unjudged_answers(problem), "as the site gives it, different pairs cannot be told right"
    result = solve(
        problem, language="python3", model=make_client(server), tracer=tracer, sandbox=sandbox,
        options={**FAST, "candidates": 3},
    )  # fmt: skip
    assert len(notes(tracer, "checker accepted")) == 1 and not notes(tracer, "checker discarded")
    assert result.checker is not None and result.checker.source == CHECKER and result.judged_with == "written"
    grouped = next(e for e in tracer.of_kind(SelectionEvent) if e.step == "grouped")
    assert len(grouped.groups) == 1, "the two right programs print different pairs, and the checker takes both"
    assert grouped.groups[0].oracle_disagreed == 0
    assert result.status == "solved", result.reason
    assert result.stress is not None and result.stress.status == "clean"
    assert result.generated_report is not None and result.generated_report.accepted


def test_a_checker_failing_the_samples_is_discarded_and_said_so(scripted_server, make_client, tracer, sandbox):
    first, last = program("candidates/right_first_pair.py"), program("candidates/right_last_pair.py")
    model = by_kind(
        program=[code(last), code(first)],
        tests=[suite()],
        checker_writer=[checker_reply(ACCEPTS_ALL), checker_reply(SAME_TEXT.replace("0 if", "1 if"))],
    )
    server = scripted_server([], default=model)
    result = solve(
        pairs_problem(), language="python3", model=make_client(server), tracer=tracer, sandbox=sandbox,
        options={**FAST, "candidates": 2},
    )  # fmt: skip
    discarded = notes(tracer, "checker discarded")
    assert [n.data["why"] for n in discarded] == [
        "it accepts sample 1's output with a changed number",
        "it rejects the expected output of sample 1 (WA: rejected)",
    ]
    assert notes(tracer, "no checker") and result.checker is None and result.judged_with == "tokens"
    assert result.status != "solved", "without a checker, two different pairs cannot be told right"
