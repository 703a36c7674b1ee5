"""An interactive problem is called solved on the same kind of evidence as a stdio one: its candidates judged,
grouped and stressed through the interactor the test designer wrote, and the answer profiled through it on the
hidden data its generator makes, up to the statement's bound. A program too slow at the bound, or one that never
flushes, is not."""

from __future__ import annotations

from pathlib import Path

from cpbot.agents.solve import solve
from cpbot.agents.tracing import NoteEvent, ReportEvent, SelectionEvent
from cpbot.judge.model import Problem
from tests.agents.strategies.support import by_kind, code
from tests.agents.support.scripted_server import Reply

DATA = Path(__file__).parents[2] / "judge" / "data"
INTERACTOR = (DATA / "inversions_interactor.py").read_text()
GENERATOR = (DATA / "gen_permutation.py").read_text()
RIGHT = (DATA / "inversions_bit.py").read_text()  # O(n log n)
SLOW = (DATA / "inversions_pairs.py").read_text()  # right, O(n^2): far too slow at n = 10^4
# its question stays in its output buffer, so nobody ever answers it
NEVER_FLUSHES = RIGHT.replace('print("?", 1, n, flush=True)', 'print("?", 1, n)')
HIDDEN = ["3\n2 3 1\n", "1\n1\n", "5\n5 4 3 2 1\n", "6\n1 2 3 4 5 6\n"]  # the sample's data first
# quick settings for a test; the profile still climbs to the statement's bound (no max_n)
QUICK = {"repeats": 1, "stress_runs": 10, "stress_size": 4, "stress_seconds": 30.0, "aimed": 0}


def inversions_problem() -> Problem:
    """Count the inversions of a hidden permutation, n <= 10^4, 500 ms (`scripts/perf/interactive_solve.py` too)."""
    return Problem.model_validate_json((DATA / "inversions_problem.json").read_text())


def designer_reply() -> Reply:
    blocks = "\n".join(f"```text\n{t}```" for t in HIDDEN)
    return Reply(
        f"## Interactor\n```python\n{INTERACTOR}```\n\n## Tests\n{blocks}\n\n## Generator\n```python\n{GENERATOR}```\n"
    )


def test_an_interactive_answer_profiled_through_the_interactor_is_solved(scripted_server, make_client, tracer, sandbox):
    model = by_kind(program=[code(NEVER_FLUSHES), code(RIGHT)], interactor_writer=[designer_reply()])
    result = solve(
        inversions_problem(), language="python3", model=make_client(scripted_server([], default=model)),
        tracer=tracer, sandbox=sandbox, options={**QUICK, "candidates": 2, "aimed": 4},
    )  # fmt: skip
    assert result.solution is not None and result.solution.source.strip() == RIGHT.strip()
    assert result.status == "solved", (result.reason, result.missing_evidence)
    assert result.missing_evidence == []
    assert result.stress is not None and result.stress.status == "clean" and result.stress.runs > 0
    profile = result.profile
    assert profile is not None and profile.efficient is True, profile
    assert profile.points[-1].size == 10_000, "profiled on hidden data at the statement's bound"
    # the profile is in the transcript: the profiler's report, and the analyst's verdict on the chosen program
    profiles = [e.report for e in tracer.of_kind(ReportEvent) if e.report_kind == "profile"]
    assert profiles and profiles[-1]["points"][-1]["size"] == 10_000 and profiles[-1]["efficient"] is True
    routed = [e.data["to"] for e in tracer.of_kind(NoteEvent) if e.message == "route"]
    assert "profiler" in routed and "analyst" in routed
    # no inputs are aimed at it: an aimed input is run by the program alone, and hidden data is only the interactor's
    assert "aimed" not in routed
    # the designer's hidden data past the sample dialogue are its generated tests (the submit gate asks for them)
    assert [t.input for t in result.generated_tests] == HIDDEN[1:]
    assert result.generated_report is not None and result.generated_report.passed == len(HIDDEN) - 1
    # the program that never flushes was judged through the interactor and failed there (its question never left)
    filtered = next(e for e in tracer.of_kind(SelectionEvent) if e.step == "filtered")
    assert filtered.candidates == [2] and filtered.rejected[1].startswith("TLE")


def test_an_interactive_program_too_slow_at_the_bound_is_not_solved(scripted_server, make_client, tracer, sandbox):
    model = by_kind(program=[code(SLOW)], interactor_writer=[designer_reply()])
    result = solve(
        inversions_problem(), language="python3", model=make_client(scripted_server([], default=model)),
        tracer=tracer, sandbox=sandbox, options={**QUICK, "candidates": 1, "plans": 0, "optimizes": 0},
    )  # fmt: skip
    assert result.stress is not None and result.stress.status == "clean", "right on every small input"
    assert result.profile is not None and result.profile.efficient is False
    assert "TLE at n=" in result.profile.reason
    assert result.status == "best_effort" and "too slow" in result.reason


def test_without_a_hidden_data_generator_the_gap_is_named(scripted_server, make_client, tracer, sandbox):
    without = designer_reply().text.partition("## Generator")[0]
    model = by_kind(program=[code(RIGHT)], interactor_writer=[Reply(without)])
    result = solve(
        inversions_problem(), language="python3", model=make_client(scripted_server([], default=model)),
        tracer=tracer, sandbox=sandbox, options={**QUICK, "candidates": 1},
    )  # fmt: skip
    assert result.report is not None and result.report.accepted
    gap = "the test designer's interactor came without a working generator of its hidden data"
    assert result.status == "unverified" and result.generated_report is not None
    assert result.missing_evidence == [f"not stressed: {gap}", f"not profiled: {gap}"]
