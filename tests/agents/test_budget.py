"""Budgets: counting calls, tokens and seconds, the reason when they run out, the best attempt."""

from __future__ import annotations

import threading

import pytest

from cpbot.agents.budget import Attempt, BestAttempt, Budget, BudgetExhausted, BudgetTracker, Usage, efficiency
from cpbot.judge.model import JudgeReport, ProfileReport, Solution, TestResult, Verdict


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_calls_run_out_with_a_reason():
    tracker = BudgetTracker(Budget(max_calls=2, max_tokens=None, max_seconds=None))
    tracker.start_call()
    tracker.start_call()
    assert tracker.exhausted() == "LLM calls: used 2 of 2"
    with pytest.raises(BudgetExhausted) as e:
        tracker.start_call()
    assert e.value.reason == "LLM calls: used 2 of 2"
    assert "budget exhausted" in e.value.message
    assert "--max-calls" in e.value.hint
    assert tracker.snapshot().calls == 2


def test_tokens_run_out_after_the_call_that_passed_the_limit():
    tracker = BudgetTracker(Budget(max_calls=None, max_tokens=1000, max_seconds=None))
    tracker.start_call()
    tracker.charge(Usage(prompt_tokens=700, completion_tokens=400, reasoning_tokens=100))
    with pytest.raises(BudgetExhausted, match="tokens: used 1,100 of 1,000"):
        tracker.start_call()
    snap = tracker.snapshot()
    assert (snap.usage.total_tokens, snap.usage.reasoning_tokens) == (1100, 100)
    assert snap.exhausted.startswith("tokens")


def test_wall_time_runs_out_and_remaining_seconds_counts_down():
    clock = Clock()
    tracker = BudgetTracker(Budget(max_seconds=60), clock=clock)
    assert tracker.remaining_seconds() == 60
    clock.now += 45
    assert tracker.remaining_seconds() == 15
    tracker.check()
    clock.now += 20
    assert tracker.remaining_seconds() == 0
    with pytest.raises(BudgetExhausted, match=r"wall time: 65.0 s of 60 s"):
        tracker.check()


def test_unlimited_budget_never_runs_out():
    tracker = BudgetTracker(Budget(max_calls=None, max_tokens=None, max_seconds=None))
    for _ in range(100):
        tracker.start_call()
    assert tracker.exhausted() == ""
    assert tracker.remaining_seconds() is None


def test_concurrent_branches_never_exceed_the_call_limit():
    tracker = BudgetTracker(Budget(max_calls=50, max_tokens=None, max_seconds=None))
    granted = []
    lock = threading.Lock()

    def branch() -> None:
        for _ in range(20):
            try:
                tracker.start_call()
            except BudgetExhausted:
                return
            with lock:
                granted.append(1)
            tracker.charge(Usage(prompt_tokens=1))

    threads = [threading.Thread(target=branch) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(granted) == 50
    assert tracker.snapshot().usage.prompt_tokens == 50


def test_usage_adds_up():
    total = Usage(prompt_tokens=1, completion_tokens=2) + Usage(prompt_tokens=3, reasoning_tokens=1, estimated=True)
    assert (total.prompt_tokens, total.completion_tokens, total.reasoning_tokens) == (4, 2, 1)
    assert total.estimated


def attempt(iteration: int, passed: int | None, total: int = 5, tokens: int = 100) -> Attempt:
    report = None
    if passed is not None:
        verdict = Verdict.AC if passed == total else Verdict.WA
        report = JudgeReport(verdict=verdict, passed=passed, total=total)
    return Attempt(
        iteration=iteration, solution=Solution(language="cpp17", source=f"// {iteration}"), report=report, tokens=tokens
    )


def test_best_is_most_tests_passed_then_fewer_tokens_then_earliest():
    best = BestAttempt()
    assert best.offer(attempt(0, None))
    assert best.offer(attempt(1, 0))  # judged beats never judged
    assert best.offer(attempt(2, 3, tokens=500))
    assert not best.offer(attempt(3, 2, tokens=10))
    assert best.offer(attempt(4, 3, tokens=400))
    assert not best.offer(attempt(5, 3, tokens=400))
    assert best.best is not None and best.best.iteration == 4


def _profiled(a: Attempt, efficient: bool | None) -> Attempt:
    return a.model_copy(update={"profile": ProfileReport(efficient=efficient)})


def _with_results(a: Attempt, *verdicts: Verdict) -> Attempt:
    assert a.report is not None
    results = [TestResult(index=i, verdict=v) for i, v in enumerate(verdicts, start=1)]
    return a.model_copy(update={"report": a.report.model_copy(update={"results": results})})


def test_among_equally_passing_attempts_the_efficient_one_wins_even_at_more_tokens():
    best = BestAttempt()
    slow = _profiled(attempt(1, 3, total=4, tokens=10), efficient=False)
    unknown = attempt(2, 3, total=4, tokens=50)
    fast = _profiled(attempt(3, 3, total=4, tokens=900), efficient=True)
    assert best.offer(slow)
    assert best.offer(unknown)  # not known to be slow beats known to be slow
    assert best.offer(fast)
    assert efficiency(slow) == -1 and efficiency(unknown) == 0 and efficiency(fast) == 1
    # efficiency never outranks correctness: one more passed test wins over an efficient profile
    assert best.offer(_profiled(attempt(4, 4, total=4, tokens=5000), efficient=False))
    assert best.best is not None and best.best.iteration == 4


def test_a_tle_or_mle_in_the_report_counts_as_inefficient():
    wa = _with_results(attempt(1, 1, total=2), Verdict.AC, Verdict.WA)
    tle = _with_results(attempt(2, 1, total=2, tokens=0), Verdict.AC, Verdict.TLE)
    mle = _with_results(attempt(3, 1, total=2, tokens=0), Verdict.MLE, Verdict.AC)
    assert efficiency(tle) == efficiency(mle) == -1 and efficiency(wa) == 0
    best = BestAttempt()
    assert best.offer(tle)
    assert best.offer(wa)  # same count passed, but it ran within the limits
    assert not best.offer(mle)
    assert best.best is not None and best.best.iteration == 1


def test_a_strategys_preferred_attempt_wins_ties_but_never_a_better_one():
    best = BestAttempt()
    best.offer(attempt(1, 3, tokens=10))
    assert not best.offer(attempt(2, 3, tokens=50))
    assert best.offer(attempt(2, 3, tokens=50), wins_ties=True)  # e.g. the optimized version
    assert not best.offer(attempt(3, 2, tokens=60), wins_ties=True)
    assert not best.offer(_profiled(attempt(4, 3, tokens=70), efficient=False), wins_ties=True)
    assert best.best is not None and best.best.iteration == 2


def test_final_answer_when_the_budget_runs_out_returns_the_best_with_the_reason():
    tracker = BudgetTracker(Budget(max_calls=3))
    for _ in range(3):
        tracker.start_call()
        tracker.charge(Usage(prompt_tokens=10, completion_tokens=5))
    best = BestAttempt()
    best.offer(attempt(0, 2))
    best.offer(attempt(1, 4))
    answer = best.final_answer(tracker.exhausted(), tracker=tracker)
    assert answer.status == "best_effort"
    assert answer.reason == "LLM calls: used 3 of 3"
    assert answer.code_iteration == 1
    assert answer.solution == Solution(language="cpp17", source="// 1")
    assert (answer.llm_calls, answer.tokens) == (3, 45)


def test_final_answer_is_solved_when_the_best_passed_everything_and_failed_without_attempts():
    best = BestAttempt()
    assert best.final_answer("no code").status == "failed"
    best.offer(attempt(0, 5))
    assert best.final_answer("").status == "solved"
