"""What one bench problem came to (`ProblemOutcome`) and the seeds' metrics over many (`Metrics`).

All rates are fractions in [0, 1] over the N problems of a group (a strategy, or a strategy and a
difficulty). A problem the strategy could not answer (no program, or an error) counts as failed with
none of its hidden cases passed. "Hidden" means the tests the agents never saw, judged after the
strategy returned. Definitions, with the paper each comes from:

- pass@1 (SwiftSolve PASS@1, "first attempt"): the strategy's first program passes every hidden test.
- SOLVED@<=k (SwiftSolve): one of the strategy's first k programs passes every hidden test.
- EFF@1 (SwiftSolve, k = 1): the first program passes every hidden test (so no TLE or MLE on them) and
  it is not known to be inefficient: when the strategy profiled that program, the profile must not
  extrapolate beyond the limits (`ProfileReport.efficient` is not False).
- AC rate (MAS-Algorithm): the program the strategy finally returns passes every hidden test.
- case pass rate (MAS): sum of passed hidden cases / sum of hidden cases, over all problems.
- weighted case pass rate (MAS): mean over problems of passed_i / total_i.
- case pass score, CPS (BlockChain Coder): mean over problems of (passed_i / total_i) * I_i, where
  I_i = 1 when the returned program passes every public test (the samples), else 0.
- mean time / memory of accepted (MAS "time aver", "mem aver"): over problems whose returned program
  is AC, the mean of its largest CPU time (ms) and peak memory (KB) over the hidden tests.
- TLE rate / MLE rate (SwiftSolve, per task): the share of problems whose returned program exceeds the
  time (memory) limit on at least one hidden test.
- tokens, calls, seconds: means per problem of prompt and completion tokens, LLM calls and wall time
  of the solve (the hidden judging is not included).
- mean score (score-based problems, AtCoder Heuristic Contests): the returned program's mean score over
  the problem's hidden seeds (a failed seed, or no program, at the problem's failure score), averaged over
  the score-based problems of the group; its tests are the seeds (AC: every seed scored).
- pass@k as LiveCodeBench reports it: with n independent solves ("samples") of each problem, c of
  whose returned programs pass every hidden test, the unbiased estimate 1 - C(n-c, k) / C(n, k),
  averaged over problems; for the k (1, 5, 10) every problem has samples for. With one sample a
  problem, pass@1 here is the AC rate.

With several samples a problem, every other metric is over all (problem, sample) solves.

A case is one hidden test, except in Kick Start's multi-case files, where it is one `Case #i:` answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from cpbot.agents.tracing import TraceEvent
from cpbot.bot.bench.passk import mean_pass_at_k
from cpbot.judge.model import Verdict, is_accepted

SCHEMA_VERSION = 1
NO_DIFFICULTY = "unrated"


class HiddenJudgement(BaseModel):
    """One program judged on a problem's hidden tests."""

    model_config = ConfigDict(extra="forbid")

    verdict: Verdict | None = None  # None: there was no program
    passed_tests: int = 0
    total_tests: int = 0
    passed_cases: int = 0
    total_cases: int = 0
    max_cpu_ms: float = 0.0
    max_peak_kb: int = 0
    tle: bool = False
    mle: bool = False
    efficient: bool | None = None  # from the strategy's profile of this very program, when it made one
    mean_score: float | None = None  # score-based problems: the mean over the hidden seeds (tests: seeds)
    # score-based problems with recorded final standings: where the program's total would have ranked
    rank: int | None = None
    participants: int | None = None
    performance: int | None = None
    placing_notes: list[str] = []  # how the rank and performance were reached (a scaled total, the method)

    @property
    def accepted(self) -> bool:
        """Every hidden test passed."""
        return is_accepted(self.verdict, self.passed_tests, self.total_tests)


class ProblemOutcome(BaseModel):
    """One (problem, strategy) pair of a bench: what the solve spent and how its programs fared."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    problem_id: str
    key: str
    strategy: str
    sample: int = 0  # which independent solve of the problem (0 .. samples-1)
    difficulty: str = NO_DIFFICULTY
    status: str  # solved, unverified, best_effort, failed (the solve's), or error
    reason: str = ""
    public_pass: bool = False  # the returned program passes every sample
    final: HiddenJudgement
    attempts: list[HiddenJudgement] = []  # the first k programs written, in order
    programs: int = 0  # how many programs the strategy wrote in all
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    seconds: float = 0.0
    run_id: str = ""  # the transcript run of this solve

    def solved_within(self, k: int) -> bool:
        """One of the first `k` programs passes every hidden test."""
        return any(a.accepted for a in self.attempts[:k])


class BenchResultEvent(ProblemOutcome, TraceEvent):
    """A bench's result for one (problem, strategy, sample), on the bench run: the `ProblemOutcome`'s fields, flat
    (as the store held them before they were typed)."""

    kind: Literal["bench_result"] = "bench_result"

    @classmethod
    def of(cls, outcome: ProblemOutcome) -> BenchResultEvent:
        """The event that records `outcome`."""
        return cls(**dict(outcome))

    def outcome(self) -> ProblemOutcome:
        """The recorded outcome, without the event's own fields."""
        return ProblemOutcome(**{name: getattr(self, name) for name in ProblemOutcome.model_fields})


class Metrics(BaseModel):
    """The seeds' metrics over a group of problems (see the module's docstring)."""

    model_config = ConfigDict(extra="forbid")

    problems: int
    pass_at_1: float
    solved_at: dict[int, float] = Field(description="SOLVED@<=k for k = 1..K")
    eff_at_1: float
    ac_rate: float
    case_pass_rate: float
    weighted_case_pass_rate: float
    case_pass_score: float
    mean_time_ms_ac: float | None
    mean_memory_kb_ac: float | None
    tle_rate: float
    mle_rate: float
    prompt_tokens: float
    completion_tokens: float
    calls: float
    seconds: float
    errors: int
    # share of problems returned solved whose program fails a hidden test (the gate's claim was wrong), and share
    # returned unverified (it passed every test tried but part of the gate's evidence was missing)
    wrong_solved_rate: float = 0.0
    unverified_rate: float = 0.0
    # LiveCodeBench's pass@k over the samples of each problem ("pass@1", "pass@5", ...)
    pass_at: dict[str, float] = {}
    # score-based problems: the mean over problems of the returned program's mean score on the hidden seeds
    mean_score: float | None = None
    # score-based problems with recorded standings: the mean rank (as a percentile, 100 = first) and the
    # mean performance of the returned programs
    mean_rank_percentile: float | None = None
    mean_performance: float | None = None


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _ratio(passed: int, total: int) -> float:
    return passed / total if total else 0.0


def compute(outcomes: Sequence[ProblemOutcome], k: int = 3) -> Metrics:
    """The metrics of a group of outcomes (one per problem)."""
    n = len(outcomes)
    finals = [o.final for o in outcomes]
    accepted = [f for f in finals if f.accepted]
    first = [o.attempts[0] if o.attempts else HiddenJudgement() for o in outcomes]
    fractions = [_ratio(f.passed_cases, f.total_cases) for f in finals]
    return Metrics(
        problems=n,
        pass_at_1=_mean([float(a.accepted) for a in first]),
        solved_at={j: _mean([float(o.solved_within(j)) for o in outcomes]) for j in range(1, k + 1)},
        eff_at_1=_mean([float(a.accepted and a.efficient is not False) for a in first]),
        ac_rate=_mean([float(f.accepted) for f in finals]),
        case_pass_rate=_ratio(sum(f.passed_cases for f in finals), sum(f.total_cases for f in finals)),
        weighted_case_pass_rate=_mean(fractions),
        case_pass_score=_mean([x * o.public_pass for x, o in zip(fractions, outcomes, strict=True)]),
        mean_time_ms_ac=_mean([f.max_cpu_ms for f in accepted]) if accepted else None,
        mean_memory_kb_ac=_mean([f.max_peak_kb for f in accepted]) if accepted else None,
        tle_rate=_mean([float(f.tle) for f in finals]),
        mle_rate=_mean([float(f.mle) for f in finals]),
        prompt_tokens=_mean([o.prompt_tokens for o in outcomes]),
        completion_tokens=_mean([o.completion_tokens for o in outcomes]),
        calls=_mean([o.calls for o in outcomes]),
        seconds=_mean([o.seconds for o in outcomes]),
        errors=sum(o.status == "error" for o in outcomes),
        wrong_solved_rate=_mean([float(o.status == "solved" and not o.final.accepted) for o in outcomes]),
        unverified_rate=_mean([float(o.status == "unverified") for o in outcomes]),
        pass_at=sampled_pass_at(outcomes),
        mean_score=_mean(scores) if (scores := [f.mean_score for f in finals if f.mean_score is not None]) else None,
        mean_rank_percentile=_mean(ranks) if (ranks := [_percentile(f) for f in finals if f.rank]) else None,
        mean_performance=_mean(perfs) if (perfs := [f.performance for f in finals if f.performance]) else None,
    )


def _percentile(f: HiddenJudgement) -> float:
    """The share of the participants at or behind the rank, cpbot counted among them, in percent."""
    assert f.rank is not None
    total = (f.participants or 0) + 1
    return 100.0 * (total - f.rank + 1) / total


def sampled_pass_at(outcomes: Sequence[ProblemOutcome]) -> dict[str, float]:
    """LiveCodeBench's pass@k: per problem n samples, c of them with an accepted returned program."""
    counts: dict[str, list[int]] = {}
    for o in outcomes:
        n_c = counts.setdefault(o.key, [0, 0])
        n_c[0] += 1
        n_c[1] += o.final.accepted
    pairs = [(n, c) for n, c in counts.values()]
    every = range(1, min((n for n, _ in pairs), default=0) + 1)  # every k all problems have samples for
    return {f"pass@{k}": mean_pass_at_k(pairs, k) for k in every}


class StrategyMetrics(BaseModel):
    """One strategy's metrics, overall and by difficulty."""

    model_config = ConfigDict(extra="forbid")

    strategy: str
    overall: Metrics
    by_difficulty: dict[str, Metrics]


def difficulty_order(names: Iterable[str]) -> list[str]:
    """easy, medium, hard first (in any case), then the others alphabetically."""
    rank = {"easy": 0, "medium": 1, "hard": 2}
    return sorted(set(names), key=lambda d: (rank.get(d.lower(), 3), d))


def by_strategy(outcomes: Sequence[ProblemOutcome], strategies: Sequence[str], k: int = 3) -> list[StrategyMetrics]:
    """Metrics for each strategy (in the order given), overall and per difficulty."""
    result = []
    for strategy in strategies:
        mine = [o for o in outcomes if o.strategy == strategy]
        groups = {d: [o for o in mine if o.difficulty == d] for d in difficulty_order(o.difficulty for o in mine)}
        result.append(
            StrategyMetrics(
                strategy=strategy,
                overall=compute(mine, k),
                by_difficulty={d: compute(group, k) for d, group in groups.items()},
            )
        )
    return result
