"""The complexity analyst: verdicts and routing from profiles, the model's tie-break, real profiling."""

from __future__ import annotations

import pytest

from cpbot.agents.envelopes import CodeAttempt, Plan
from cpbot.agents.roles.analyst import analyse, claimed_class, diminishing, normalize_class, perf_gain, profile_attempt
from cpbot.agents.roles.common import RoleError
from cpbot.judge.model import Limits, ProfilePoint, ProfileReport, Solution
from tests.agents.roles.helpers import as_json, sent_text, sum_problem
from tests.agents.support.scripted_server import Reply


def profile(complexity: str, *, efficient: bool, predicted: float = 5000.0, ambiguous: bool = False, **kw):
    points = kw.pop("points", [ProfilePoint(size=n, cpu_ms=n / 100, peak_kb=4000) for n in (1, 1000, 2000, 4000)])
    return ProfileReport(
        points=points,
        complexity=complexity,
        efficient=efficient,
        ambiguous=ambiguous,
        predicted_ms_at_max=predicted,
        reason=f"{complexity}: about {predicted:.0f} ms at n=200000 against a limit of 1000 ms",
        **kw,
    )


@pytest.mark.parametrize(
    ("claim", "cls"),
    [
        ("O(1)", "O(1)"),
        ("O(log n)", "O(log n)"),
        ("O(n + m)", "O(n)"),
        ("O(n log n)", "O(n log n)"),
        ("O((n + q) log n)", "O(n log n)"),
        ("O(n^2)", "O(n^2)"),
        ("O(n * m)", "O(n^2)"),
        ("O(n^3)", "O(n^3)"),
        ("O(2^n * n)", "O(2^n)"),
        ("O(n sqrt n)", "O(n log n)"),
        ("whatever", None),
    ],
)
def test_claimed_complexities_map_to_growth_classes(claim, cls):
    assert claimed_class(claim) == cls


def test_an_efficient_profile_needs_nothing():
    analysis = analyse(profile("O(n log n)", efficient=True, predicted=120), plan=Plan(algorithm="x"))
    assert analysis.verdict.efficient is True and analysis.patch is None and analysis.verdict.target is None


def test_code_slower_than_its_plan_goes_to_the_coder():
    analysis = analyse(
        profile("O(n^2)", efficient=False), plan=Plan(algorithm="x", complexity="O(n log n)"), code_iteration=3
    )
    assert analysis.verdict.target == "coder"
    assert analysis.patch is not None and analysis.patch.target == "coder" and analysis.patch.code_iteration == 3
    assert "plan promises O(n log n)" in analysis.patch.instructions
    assert "5000 ms" in analysis.patch.instructions


def test_a_plan_that_is_slow_by_design_goes_to_the_planner():
    analysis = analyse(profile("O(n^2)", efficient=False), plan=Plan(algorithm="x", complexity="O(n^2)"))
    assert analysis.verdict.target == "planner"
    assert "lower complexity" in analysis.verdict.advice


def test_a_fast_class_that_is_still_too_slow_is_a_constant_factor_for_the_coder():
    analysis = analyse(profile("O(n log n)", efficient=False), plan=Plan(algorithm="x", complexity="O(n log n)"))
    assert analysis.verdict.target == "coder" and "constant factor" in analysis.verdict.advice


def test_an_answer_the_interactor_rejects_at_a_large_size_goes_to_the_coder():
    points = [ProfilePoint(size=1, cpu_ms=1, peak_kb=1), ProfilePoint(size=4096, cpu_ms=5, peak_kb=1, status="wrong")]
    analysis = analyse(ProfileReport(points=points, complexity="O(n^2)", efficient=False, reason="WRONG at n=4096"))
    assert analysis.verdict.target == "coder" and "interactor rejects the program's answer at n=4096" in (
        analysis.verdict.advice
    )


def test_a_crash_at_a_large_size_goes_to_the_coder():
    points = [ProfilePoint(size=1, cpu_ms=1, peak_kb=1), ProfilePoint(size=10**5, cpu_ms=5, peak_kb=1, status="crash")]
    analysis = analyse(profile("O(n)", efficient=False, points=points))
    assert analysis.verdict.target == "coder" and "crashes at n=100000" in analysis.verdict.advice


def test_an_ambiguous_profile_is_settled_by_the_model(scripted_server, make_client):
    server = scripted_server([Reply(as_json({"complexity": "O(n^2)", "why": "time quadruples"}))])
    attempt = CodeAttempt(language="cpp17", source="int main() {}\n")
    report = profile("O(n log n)", efficient=False, ambiguous=True)
    analysis = analyse(report, plan=Plan(algorithm="x", complexity="O(n)"), attempt=attempt, model=make_client(server))
    assert analysis.measured == "O(n^2)"
    assert analysis.verdict.target == "coder"
    text = sent_text(server.requests[0])
    assert "n=4000: 40.0 ms (ok)" in text and "int main()" in text and "O(2^n)" in text


def test_an_unambiguous_profile_never_asks_the_model(scripted_server, make_client):
    server = scripted_server([])
    analyse(profile("O(n^2)", efficient=False), model=make_client(server))
    assert server.requests == []


def test_perf_gain_and_diminishing_returns():
    before = profile("O(n^2)", efficient=False, predicted=1000)
    assert perf_gain(before, profile("O(n^2)", efficient=False, predicted=980)) == pytest.approx(0.02)
    assert perf_gain(before, profile("O(n^2)", efficient=False, predicted=1500)) == 0.0
    assert diminishing(analyse(profile("O(n^2)", efficient=False, predicted=980), previous=before))
    assert not diminishing(analyse(profile("O(n^2)", efficient=False, predicted=500), previous=before))
    assert perf_gain(None, before) is None


def test_class_names_are_read_from_loose_text():
    assert normalize_class("I think O(N²).") == "O(n^2)"
    assert normalize_class("n log n") == "O(n log n)"
    assert normalize_class("O(n*log n)") == "O(n log n)"
    assert normalize_class("cubic") is None


GENERATOR = Solution(
    language="python3",
    source="import sys\nn, seed = int(sys.argv[1]), int(sys.argv[2])\nprint(n)\nprint(' '.join(['7'] * n))\n",
)
LINEAR = CodeAttempt(
    language="python3", source="import sys\nd = sys.stdin.buffer.read().split()\nprint(sum(map(int, d[1:])))\n"
)


def test_profile_attempt_runs_the_profiler_on_generated_inputs(sandbox):
    problem = sum_problem(limits=Limits(time_ms=2000), input_spec="$1 \\le n \\le 200000$")
    report = profile_attempt(LINEAR, GENERATOR, problem, sandbox=sandbox, repeats=1, count=False)
    assert report.points[-1].size == 200_000
    assert report.efficient is True
    assert all(p.status == "ok" for p in report.points)


def test_profile_attempt_needs_a_size_and_a_program_that_compiles(sandbox):
    with pytest.raises(RoleError, match="no size bound"):
        profile_attempt(LINEAR, GENERATOR, sum_problem(input_spec="", statement=""), sandbox=sandbox)
    broken = CodeAttempt(language="python3", source="def (:\n")
    with pytest.raises(RoleError, match="does not compile"):
        profile_attempt(broken, GENERATOR, sum_problem(), max_n=100, sandbox=sandbox)
