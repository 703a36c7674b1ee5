"""One bench task: solve one problem with one strategy, then judge its programs on the hidden tests.

`run_task` is self-contained so any executor can run it (a thread, or a Ray worker on another node):
it takes the bench's settings and a problem key, rebuilds the problem from the dataset, and returns a
`TaskResult` (the outcome and the solve's trace events as JSON). It writes nothing; the driver puts
the result in the transcript store. LLM calls and hidden judging take this node's slots (`NodeSlots`).
"""

from __future__ import annotations

import time
from typing import Any

from pydantic import BaseModel, ConfigDict

from cpbot.agents import seeding
from cpbot.agents.budget import Budget
from cpbot.agents.chat import LLMReply
from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.llm import LLMClient
from cpbot.agents.llm_settings import LLMConfig
from cpbot.agents.solve import solve
from cpbot.agents.tracing import EnvelopeEvent, InMemoryTracer, NoteEvent, ReportEvent
from cpbot.bot.bench.cases import CaseCountingChecker
from cpbot.bot.bench.datasets import BenchProblem, Dataset
from cpbot.bot.bench.metrics import NO_DIFFICULTY, HiddenJudgement, ProblemOutcome
from cpbot.bot.bench.pickled_text import UnsafePickle
from cpbot.bot.bench.slots import NodeSlots
from cpbot.core.errors import CpbotError
from cpbot.judge.checkers import make_checker
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import Language, Problem, ProfileReport, Solution, Verdict
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import Sandbox, default_sandbox
from cpbot.judge.scorer import ScoringTools
from cpbot.judge.scoring import score_solution


class BenchSettings(BaseModel):
    """Everything a task needs besides the problem key; the same for every task of a bench."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dataset: Dataset
    language: Language = "cpp17"
    llm: LLMConfig
    budget: Budget = Budget(max_calls=20, max_tokens=200_000, max_seconds=600.0)
    k: int = 3  # SOLVED@<=k: how many of the first programs are judged on the hidden tests
    llm_slots: int = 4  # LLM calls at once on one node
    judge_slots: int = 2  # hidden judgings at once on one node
    options: dict[str, dict[str, Any]] = {}  # strategy -> its options (the plan's)


class TaskResult(BaseModel):
    """What `run_task` returns: the outcome and the solve's trace events (JSON, for the transcript)."""

    model_config = ConfigDict(extra="forbid")

    outcome: ProblemOutcome
    events: list[dict[str, Any]]


class SlottedLLMClient(LLMClient):
    """An `LLMClient` that takes one of the node's LLM slots for each call."""

    def __init__(self, config: LLMConfig, slots: NodeSlots, **kwargs: Any) -> None:
        super().__init__(config, **kwargs)
        self.slots = slots

    def complete(self, role: str, messages: Any, **kwargs: Any) -> LLMReply:  # type: ignore[override]
        """`LLMClient.complete` inside a slot."""
        with self.slots.hold():
            return super().complete(role, messages, **kwargs)


def judge_hidden(
    solution: Solution | None,
    item: BenchProblem,
    sandbox: Sandbox,
    *,
    profile: ProfileReport | None = None,
) -> HiddenJudgement:
    """`solution` judged on every hidden test of `item`, with its cases counted (a score-based problem: scored
    on its hidden seeds)."""
    if item.hidden_seeds:
        return _score_hidden(solution, item, sandbox)
    total_cases = item.total_cases
    if solution is None:
        return HiddenJudgement(total_tests=len(item.hidden), total_cases=total_cases)
    problem = item.problem
    counter = None
    if item.case_format == "case_lines" and problem_kind(problem.kind).checks_output_text:
        counter = CaseCountingChecker(make_checker(problem.checker, sandbox), problem.checker)
    report = judge_problem(solution, problem, item.hidden, checker=counter, sandbox=sandbox)
    by_index = {r.index: r for r in report.results}
    passed_cases = 0
    for index, cases in enumerate(item.case_counts, start=1):
        result = by_index.get(index)
        if result is None:
            continue
        if result.verdict == Verdict.AC:
            passed_cases += cases
        elif counter is not None and result.verdict in (Verdict.WA, Verdict.PE):
            passed_cases += min(cases - 1, counter.passed.get(index, 0))
    return HiddenJudgement(
        verdict=report.verdict,
        passed_tests=report.passed,
        total_tests=report.total,
        passed_cases=passed_cases,
        total_cases=total_cases,
        max_cpu_ms=max((r.cpu_ms for r in report.results), default=0.0),
        max_peak_kb=max((r.peak_kb for r in report.results), default=0),
        tle=any(r.verdict == Verdict.TLE for r in report.results),
        mle=any(r.verdict == Verdict.MLE for r in report.results),
        efficient=profile.efficient if profile is not None else None,
    )


def _score_hidden(solution: Solution | None, item: BenchProblem, sandbox: Sandbox) -> HiddenJudgement:
    """A score-based problem's program scored on the hidden seeds; each seed is one test and one case."""
    problem, seeds = item.problem, item.hidden_seeds
    assert problem.heuristic is not None  # the dataset gives hidden seeds to score-based problems only
    if solution is None:
        failed = problem.heuristic.failure_score
        return HiddenJudgement(total_tests=len(seeds), total_cases=len(seeds), mean_score=failed)
    tools = ScoringTools.load(problem, None, sandbox)
    report = score_solution(solution, problem.id, tools, seeds, limits=problem.limits)
    scored = sum(s.verdict == Verdict.AC for s in report.seeds)
    placing = None
    if item.standings is not None and report.seeds:
        by_seed = {s.seed: (s.score if s.verdict == Verdict.AC else None) for s in report.seeds}
        relative = problem.heuristic.scoring == "relative"
        scores = [by_seed.get(seed) for seed in seeds]
        placing = item.standings.place(scores, relative, problem.heuristic.system_inputs)
    return HiddenJudgement(
        verdict=report.verdict,
        passed_tests=scored,
        total_tests=len(seeds),
        passed_cases=scored,
        total_cases=len(seeds),
        max_cpu_ms=max((s.cpu_ms for s in report.seeds), default=0.0),
        tle=any(s.verdict == Verdict.TLE for s in report.seeds),
        mle=any(s.verdict == Verdict.MLE for s in report.seeds),
        mean_score=report.mean if report.seeds else problem.heuristic.failure_score,
        rank=placing.rank if placing is not None else None,
        participants=placing.participants if placing is not None else None,
        performance=placing.performance if placing is not None else None,
        placing_notes=placing.assumptions if placing is not None else [],
    )


def _programs(tracer: InMemoryTracer) -> list[tuple[int, Solution]]:
    """The programs the strategy wrote, in order, with their iteration numbers."""
    found = []
    for event in tracer.of_kind(EnvelopeEvent):
        payload = event.envelope.payload
        if isinstance(payload, CodeAttempt):
            found.append((event.envelope.header.iteration, payload.solution()))
    return found


def _profiles(tracer: InMemoryTracer) -> dict[int, ProfileReport]:
    """The strategy's profile reports, by the iteration of the program they profiled."""
    return {
        e.iteration: ProfileReport.model_validate(e.report)
        for e in tracer.of_kind(ReportEvent)
        if e.report_kind == "profile" and e.iteration is not None
    }


def _passes_samples(solution: Solution | None, problem: Problem, sandbox: Sandbox) -> bool:
    if solution is None:
        return False
    if not problem.samples:
        return True  # nothing public to fail
    report = judge_problem(solution, problem, sandbox=sandbox)
    return report.accepted


def run_task(
    settings: BenchSettings,
    key: str,
    strategy: str,
    *,
    sample: int = 0,
    sandbox: Sandbox | None = None,
    llm: LLMClient | None = None,
) -> TaskResult:
    """Solve problem `key` with `strategy` (its `sample`-th independent solve) and judge the programs on
    the hidden tests. A problem that cannot be made (say a LiveCodeBench type the harness lacks) is an
    `error` outcome with the reason, not the end of the bench."""
    try:
        item = settings.dataset.load(key)
    except UnsafePickle:
        raise  # a dataset that tries to run code stops the bench
    except CpbotError as e:
        unusable = ProblemOutcome(
            problem_id=key, key=key, strategy=strategy, sample=sample, status="error", reason=e.message,
            final=HiddenJudgement(),
        )  # fmt: skip
        return TaskResult(outcome=unusable, events=[])
    problem = item.problem
    sandbox = sandbox or default_sandbox()
    tracer = InMemoryTracer()
    owned = llm is None
    client = llm or SlottedLLMClient(settings.llm, NodeSlots("llm", settings.llm_slots))
    started = time.monotonic()
    outcome = ProblemOutcome(
        problem_id=problem.id,
        key=key,
        strategy=strategy,
        sample=sample,
        difficulty=(problem.difficulty or NO_DIFFICULTY).lower(),
        status="error",
        final=judge_hidden(None, item, sandbox),
    )
    try:
        with seeding.at(sample):  # independent solves of a problem draw with seeds of their own
            result = solve(
                problem,
                strategy=strategy,
                language=settings.language,
                model=client,
                budget=settings.budget,
                tracer=tracer,
                sandbox=sandbox,
                options=settings.options.get(strategy),
            )
    except CpbotError as e:
        tracer.emit(NoteEvent(task_id=problem.id, message="bench: the solve failed", data={"error": e.message}))
        outcome.reason = e.message
        outcome.seconds = round(time.monotonic() - started, 3)
        return TaskResult(outcome=outcome, events=[ev.model_dump(mode="json") for ev in tracer.events])
    finally:
        if owned:
            client.close()
    programs = _programs(tracer)
    profiles = _profiles(tracer)
    judged: dict[str, HiddenJudgement] = {}  # by source: a program sent twice is judged once

    def hidden(iteration: int | None, solution: Solution) -> HiddenJudgement:
        if solution.source not in judged:
            with NodeSlots("judge", settings.judge_slots).hold():
                judged[solution.source] = judge_hidden(solution, item, sandbox)
        profile = profiles.get(iteration) if iteration is not None else None
        found = judged[solution.source]
        return found.model_copy(update={"efficient": profile.efficient}) if profile is not None else found

    attempts = [hidden(it, sol) for it, sol in programs[: settings.k]]
    final = outcome.final
    if result.solution is not None:
        final_iteration = next((it for it, sol in programs if sol.source == result.solution.source), None)
        final = hidden(final_iteration, result.solution)
        if result.profile is not None and final.efficient is None:
            final = final.model_copy(update={"efficient": result.profile.efficient})
    outcome = outcome.model_copy(
        update={
            "status": result.status,
            "reason": result.reason,
            "public_pass": _passes_samples(result.solution, problem, sandbox),
            "final": final,
            "attempts": attempts,
            "programs": len(programs),
            "prompt_tokens": result.prompt_tokens,
            "completion_tokens": result.completion_tokens,
            "calls": result.calls,
            "seconds": result.seconds,
        }
    )
    return TaskResult(outcome=outcome, events=[ev.model_dump(mode="json") for ev in tracer.events])
