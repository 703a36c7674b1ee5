"""The gate refuses what the local evidence does not back, and says why."""

from __future__ import annotations

from cpbot.bot.submit.gate import GateConfig, GateEvidence, gate
from cpbot.judge.model import (
    Diff,
    JudgeReport,
    Limits,
    Problem,
    ProfilePoint,
    ProfileReport,
    Solution,
    StressFailure,
    StressReport,
    TestResult,
    Verdict,
)

PROBLEM = Problem(id="codeforces:1873B", site="codeforces", limits=Limits(time_ms=1000, memory_mb=256))
SOL = Solution(language="cpp17", source="int main() {}\n")


def ac(n: int) -> JudgeReport:
    results = [TestResult(index=i, verdict=Verdict.AC) for i in range(1, n + 1)]
    return JudgeReport(verdict=Verdict.AC, results=results, passed=n, total=n)


def good_profile() -> ProfileReport:
    return ProfileReport(
        points=[ProfilePoint(size=1000, cpu_ms=2, peak_kb=3000)],
        complexity="O(n log n)",
        predicted_ms_at_max=180,
        predicted_kb_at_max=20000,
        efficient=True,
    )


def full() -> GateEvidence:
    return GateEvidence(
        samples=ac(2), generated=ac(20), stress=StressReport(status="clean", runs=300), profile=good_profile()
    )


def test_all_evidence_good_is_allowed():
    d = gate(PROBLEM, SOL, full())
    assert d.allowed and d.reasons == []
    assert d.summary["samples"] == "AC 2/2" and "O(n log n)" in d.summary["profile"]


def test_passes_samples_but_fails_a_generated_test_is_refused_with_the_test():
    failed = TestResult(index=4, name="gen-4", verdict=Verdict.WA, diff=Diff(line=1, expected="3", got="2"))
    generated = JudgeReport(
        verdict=Verdict.WA, results=[TestResult(index=i, verdict=Verdict.AC) for i in (1, 2, 3)] + [failed],
        passed=3, total=4,
    )  # fmt: skip
    d = gate(PROBLEM, SOL, full().model_copy(update={"generated": generated}))
    assert not d.allowed and len(d.reasons) == 1
    assert d.reasons[0].startswith("generated: WA") and "gen-4" in d.reasons[0] and "'3'" in d.reasons[0]


def test_profile_over_the_time_limit_is_refused():
    slow = good_profile().model_copy(update={"complexity": "O(n^2)", "predicted_ms_at_max": 9500, "efficient": False})
    d = gate(PROBLEM, SOL, full().model_copy(update={"profile": slow}))
    assert not d.allowed and "9500 ms" in d.reasons[0] and "1000 ms limit" in d.reasons[0]


def test_profile_over_the_memory_limit_is_refused():
    fat = good_profile().model_copy(update={"predicted_kb_at_max": 400 * 1024})
    d = gate(PROBLEM, SOL, full().model_copy(update={"profile": fat}))
    assert not d.allowed and "400 MB" in d.reasons[0] and "256 MB limit" in d.reasons[0]


def test_stress_difference_is_refused():
    fail = StressFailure(size=3, seed=7, input="3\n1 2 3\n", expected="6", got="5", verdict=Verdict.WA)
    d = gate(PROBLEM, SOL, full().model_copy(update={"stress": StressReport(status="found", runs=12, failure=fail)}))
    assert not d.allowed and "size 3" in d.reasons[0]


def test_missing_required_evidence_is_a_refusal_not_a_pass():
    d = gate(PROBLEM, SOL, GateEvidence(samples=ac(2)))
    assert not d.allowed
    assert [r.split(":")[0] for r in d.reasons] == ["generated", "stress", "profile"]
    assert d.summary["stress"].startswith("missing")


def test_config_can_drop_checks_but_not_weaken_present_failures():
    config = GateConfig(require_stress=False, require_profile=False)
    assert gate(PROBLEM, SOL, GateEvidence(samples=ac(2), generated=ac(5)), config).allowed
    wa = JudgeReport(verdict=Verdict.WA, results=[TestResult(index=1, verdict=Verdict.WA)], passed=0, total=1)
    assert not gate(PROBLEM, SOL, GateEvidence(samples=wa, generated=ac(5)), config).allowed


def test_zero_judged_tests_and_judge_failure_are_refused():
    empty = JudgeReport(verdict=Verdict.AC, passed=0, total=0)
    ie = JudgeReport(verdict=Verdict.IE, passed=0, total=3, reason="no compiler")
    assert "only 0 generated tests" in gate(PROBLEM, SOL, full().model_copy(update={"generated": empty})).reasons[0]
    assert "no compiler" in gate(PROBLEM, SOL, full().model_copy(update={"samples": ie})).reasons[0]


def test_evidence_for_another_source_is_refused():
    ev = full().model_copy(update={"source_sha256": "0" * 64})
    d = gate(PROBLEM, SOL, ev)
    assert not d.allowed and "different source" in d.reasons[0]


def test_from_solve_result_reads_the_named_fields():
    class Result:  # the SolveResult fields the gate reads
        solution = SOL
        report = ac(2)
        generated_report = ac(10)
        stress = StressReport(status="clean", runs=50)
        profile = good_profile()

    ev = GateEvidence.from_solve_result(Result())
    assert ev.generated is not None and ev.generated.total == 10
    assert gate(PROBLEM, SOL, ev).allowed


def test_generated_tests_without_answers_count_as_run_not_as_failures():
    results = [TestResult(index=1, verdict=Verdict.AC), TestResult(index=2, verdict=Verdict.RAN)]
    mixed = JudgeReport(verdict=Verdict.AC, results=results, passed=1, total=2, unchecked=1)
    assert gate(PROBLEM, SOL, full().model_copy(update={"generated": mixed})).allowed
    only_ran = JudgeReport(verdict=Verdict.RAN, results=results[1:], passed=0, total=1, unchecked=1)
    d = gate(PROBLEM, SOL, full().model_copy(update={"generated": only_ran}))
    assert not d.allowed and d.reasons[0].startswith("generated: RAN")


def test_stress_inputs_skipped_for_want_of_cpu_do_not_count_as_runs():
    starved = StressReport(status="clean", runs=5, starved=5)
    d = gate(PROBLEM, SOL, full().model_copy(update={"stress": starved}))
    assert not d.allowed and "only 0 stress runs compared" in d.reasons[0] and "5 skipped" in d.reasons[0]
    partly = StressReport(status="clean", runs=5, starved=2)
    d = gate(PROBLEM, SOL, full().model_copy(update={"stress": partly}), GateConfig(min_stress_runs=3))
    assert d.allowed and d.summary["stress"] == "clean after 3 runs (2 skipped: starved of CPU)"


def test_an_answer_the_solve_returned_unverified_is_refused_unless_allowed():
    ev = full().model_copy(update={"solve_status": "unverified", "solve_reason": "no selection: 3 candidates"})
    d = gate(PROBLEM, SOL, ev)
    # every check passed, but the solve itself did not call it solved
    assert not d.allowed and d.reasons == [
        "solve: returned unverified (--allow-unverified submits it): no selection: 3 candidates"
    ]
    assert gate(PROBLEM, SOL, ev, GateConfig(allow_unverified=True)).allowed
    best_effort = ev.model_copy(update={"solve_status": "best_effort", "solve_reason": "the brute force was outvoted"})
    refused = gate(PROBLEM, SOL, best_effort, GateConfig(allow_unverified=True))
    assert not refused.allowed and refused.reasons == ["solve: returned best_effort: the brute force was outvoted"]
    assert gate(PROBLEM, SOL, full().model_copy(update={"solve_status": "solved"})).allowed


def test_from_solve_result_carries_the_solves_status():
    class Result:
        solution = SOL
        report = ac(2)
        generated_report = ac(10)
        stress = StressReport(status="clean", runs=50)
        profile = good_profile()
        status = "unverified"
        reason = "not profiled: no generator was written"

    ev = GateEvidence.from_solve_result(Result())
    assert (ev.solve_status, ev.solve_reason) == ("unverified", "not profiled: no generator was written")
    assert not gate(PROBLEM, SOL, ev).allowed
