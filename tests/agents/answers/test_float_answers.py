"""A float answer whose tolerance the site's checker lost (tokens): the solve judges under the statement's
tolerance everywhere it compares answers: the samples, the generated tests, the oracle and the grouping."""

from __future__ import annotations

from pathlib import Path

from cpbot.agents.solve import solve
from cpbot.agents.tracing import NoteEvent, SelectionEvent
from cpbot.judge.model import Problem
from tests.agents.strategies.support import by_kind, code
from tests.agents.support.scripted_server import Reply

MEAN = Path(__file__).parents[2] / "fixtures" / "selection" / "mean_inverse"
FAST = {"max_n": 24, "repeats": 1, "count": False, "stress_runs": 10, "stress_size": 4, "stress_seconds": 10.0}


def read(name: str) -> str:
    return (MEAN / name).read_text()


def tokens_problem() -> Problem:
    """Mean of inverses as a site whose parser lost the tolerance gives it: compared by tokens."""
    problem = Problem.model_validate_json(read("problem.json"))
    return problem.model_copy(update={"checker": "tokens"})


def suite(brute: str) -> Reply:
    return Reply(
        "## Inputs\n```text\n2\n3 7\n```\n\n"
        f"## Generator\n```python\n{read('gen.py')}```\n\n## Brute force\n```python\n{brute}```\n"
    )


def run(tracer, make_client, server, sandbox, problem: Problem):
    return solve(
        problem, language="python3", model=make_client(server), tracer=tracer, sandbox=sandbox,
        options={**FAST, "candidates": 2},
    )  # fmt: skip


def test_a_lost_tolerance_is_read_from_the_statement_and_right_programs_agree_under_it(
    scripted_server, make_client, tracer, sandbox
):
    six, full = read("candidates/right_six_decimals.py"), read("candidates/right_repr.py")
    model = by_kind(program=[code(six), code(full)], tests=[suite(read("brute.py"))])
    server = scripted_server([], default=model)
    result = run(tracer, make_client, server, sandbox, tokens_problem())
    noted = [e for e in tracer.of_kind(NoteEvent) if e.message == "float answers"]
    assert [n.data["checker"] for n in noted] == ["float:1e-6"] and result.judged_with == "float:1e-6"
    grouped = next(e for e in tracer.of_kind(SelectionEvent) if e.step == "grouped")
    assert len(grouped.groups) == 1 and grouped.groups[0].oracle_disagreed == 0, "six decimals are within 1e-6"
    assert result.status == "solved", result.reason
    assert result.generated_report is not None and result.generated_report.accepted


def test_a_brute_force_printing_four_decimals_is_judged_under_the_tolerance_not_by_tokens(
    scripted_server, make_client, tracer, sandbox
):
    six, full = read("candidates/right_six_decimals.py"), read("candidates/right_repr.py")
    four = read("brute.py").replace("print(float(", 'print("%.4f" % float(')
    model = by_kind(program=[code(six), code(full)], tests=[suite(four)])
    server = scripted_server([], default=model)
    result = run(tracer, make_client, server, sandbox, tokens_problem())
    steps = {e.step: e for e in tracer.of_kind(SelectionEvent)}
    # the two right programs print different digits and agree under 1e-6; the brute force's four decimals are
    # not within 1e-6 of their answer, so the two outvote it (compared as tokens, the three would all differ)
    assert len(steps["grouped"].groups) == 1
    assert len(steps["doubted"].candidates) == 2
    assert steps["grouped"].groups[0].oracle_disagreed == 0
    assert result.solution is not None and result.solution.source.strip() in (six.strip(), full.strip())


def test_a_recorded_codeforces_statement_whose_parser_lost_the_tolerance_is_judged_under_it():
    from cpbot.agents.answers import lost_tolerance
    from tests.agents.roles.helpers import codeforces

    page = codeforces("cf_630B_old_br_0.5s_64mb_tex_span")  # "The relative error ... not greater than 10^{-6}"
    assert page.checker == "tokens" and lost_tolerance(page) == "float-rel:1e-6"
    assert lost_tolerance(page.model_copy(update={"checker": "float:1e-9"})) is None, "a stated checker stays"
    assert lost_tolerance(codeforces("cf_1702A_modern_single_line_cases")) is None
