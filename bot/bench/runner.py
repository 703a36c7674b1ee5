"""The bench driver: plan the (problem, strategy) pairs, run them on an executor, record, resume, report.

A bench is one transcript run of kind `bench` whose config holds the `BenchPlan` (dataset, strategies,
the problem keys fixed at the start, language, budget, k; never the API key). Every finished pair
becomes a child run of kind `solve` (its trace events, linked to the bench run) and then one
`bench_result` event of the bench run holding its `ProblemOutcome`. Those events are the only source
of results: `--resume RUN` skips the pairs that have one and counts each pair once, so a bench killed
at any point (even between the two writes) resumes without redoing or double counting a problem.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from cpbot.agents.budget import Budget
from cpbot.agents.tracing import load_event
from cpbot.bot.bench.datasets import Dataset
from cpbot.bot.bench.executors import Executor
from cpbot.bot.bench.livecodebench import Selection
from cpbot.bot.bench.metrics import BenchResultEvent, ProblemOutcome, StrategyMetrics, by_strategy
from cpbot.bot.bench.task import BenchSettings, TaskResult
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.core.errors import ConfigError
from cpbot.judge.model import Language

SCHEMA_VERSION = 1
RESULT_EVENT: str = BenchResultEvent.model_fields["kind"].default

Progress = Callable[[ProblemOutcome, int, int], None]


class BenchPlan(BaseModel):
    """What a bench does, stored with its run so `--resume` does exactly the same."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    dataset: Dataset
    keys: list[str]
    strategies: list[str]
    language: Language
    model: str
    budget: Budget
    k: int = 3
    samples: int = 1  # independent solves of each (problem, strategy), for LiveCodeBench's pass@k
    selection: Selection = Selection()  # how the keys were chosen (LiveCodeBench files), for the record


class BenchReport(BaseModel):
    """`cpbot bench --json`: the metrics per strategy (overall and by difficulty) and every outcome."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    run_id: str
    dataset: str
    model: str
    language: Language
    k: int
    problems: int
    samples: int = 1
    strategies: list[StrategyMetrics]
    outcomes: list[ProblemOutcome]


def make_plan(
    dataset: Dataset,
    strategies: Sequence[str],
    *,
    language: Language,
    model: str,
    budget: Budget,
    k: int = 3,
    limit: int | None = None,
    selection: Selection | None = None,
    samples: int = 1,
) -> BenchPlan:
    """A new bench over the first `limit` problems of `dataset` that `selection` takes."""
    keys = dataset.problem_keys(selection)[:limit]
    if not keys:
        hint = "widen --since/--until/--platform/--difficulty" if selection and not selection.empty else ""
        raise ConfigError(f"{dataset.path} holds no problems" + (" in the selection" if hint else ""), hint=hint)
    return BenchPlan(
        dataset=dataset,
        keys=keys,
        strategies=list(strategies),
        language=language,
        model=model,
        budget=budget,
        k=k,
        samples=samples,
        selection=selection or Selection(),
    )


def stored_plan(store: TranscriptStore, run: str) -> tuple[str, BenchPlan]:
    """The id and plan of the bench run `run` (an id, a prefix, or "last")."""
    run_id = store.resolve(run)
    summary = store.run(run_id)
    if summary.kind != "bench" or "bench" not in summary.config:
        raise ConfigError(f"run {run_id} is a {summary.kind} run, not a bench", hint="`cpbot transcripts list`")
    return run_id, BenchPlan.model_validate(summary.config["bench"])


def check_same_dataset(plan: BenchPlan, dataset: Dataset) -> None:
    """Refuse to resume a bench on another dataset than the one it started on."""
    if plan.dataset.kind != dataset.kind or Path(plan.dataset.path).resolve() != Path(dataset.path).resolve():
        raise ConfigError(
            f"the bench ran on {plan.dataset.path}, not {dataset.path}",
            hint="give the same DATASET with --resume",
        )


Done = dict[tuple[str, str, int], ProblemOutcome]


def finished_outcomes(store: TranscriptStore, run_id: str) -> Done:
    """The recorded results of a bench run, by (problem key, strategy, sample); the first record of one wins."""
    found: Done = {}
    for event in store.events(run_id):
        if event.kind == RESULT_EVENT:
            outcome = BenchResultEvent.model_validate(event.fields()).outcome()
            found.setdefault((outcome.key, outcome.strategy, outcome.sample), outcome)
    return found


def _child_runs(store: TranscriptStore, run_id: str) -> list[Any]:
    return [r for r in store.list_runs(limit=None, kind="solve") if r.config.get("bench_run") == run_id]


def _close_orphans(store: TranscriptStore, run_id: str, done: Done) -> None:
    """Solve runs of an interrupted bench that never got a result are closed as interrupted."""
    recorded = {o.run_id for o in done.values()}
    for child in _child_runs(store, run_id):
        if child.status == "running" and child.id not in recorded:
            store.finish_run(child.id, "interrupted", reason="the bench stopped before its result was recorded")


def _start_child(store: TranscriptStore, run_id: str, plan: BenchPlan, outcome: ProblemOutcome) -> str:
    config = {
        "bench_run": run_id,
        "language": plan.language,
        "budget": plan.budget.model_dump(),
        "key": outcome.key,
        "sample": outcome.sample,
    }
    kwargs: dict[str, Any] = {}
    # the store learns real parent links in a later change; until then the link lives in the config
    if "parent" in inspect.signature(store.start_run).parameters:
        kwargs["parent"] = run_id
    return store.start_run(
        "solve", problem_id=outcome.problem_id, strategy=outcome.strategy, model=plan.model, config=config, **kwargs
    )


def record_result(store: TranscriptStore, run_id: str, plan: BenchPlan, result: TaskResult) -> ProblemOutcome:
    """Write one finished task: its solve run (events, end) and then its result event on the bench run."""
    outcome = result.outcome
    child = _start_child(store, run_id, plan, outcome)
    try:
        for data in result.events:
            store.record(child, load_event(data))
    except BaseException:
        store.finish_run(child, "error", reason="the trace could not be stored")
        raise
    store.finish_run(
        child,
        outcome.status,
        reason=outcome.reason,
        totals={"calls": outcome.calls, "tokens": outcome.prompt_tokens + outcome.completion_tokens},
    )
    outcome = outcome.model_copy(update={"run_id": child})
    store.record(run_id, BenchResultEvent.of(outcome))
    return outcome


def start_bench(store: TranscriptStore, plan: BenchPlan, llm_public: dict[str, Any]) -> str:
    """Open the bench run."""
    return store.start_run(
        "bench",
        strategy=",".join(plan.strategies),
        model=plan.model,
        config={"bench": plan.model_dump(mode="json"), "llm": llm_public},
    )


def run_bench(
    store: TranscriptStore,
    run_id: str,
    plan: BenchPlan,
    settings: BenchSettings,
    executor: Executor,
    *,
    progress: Progress | None = None,
) -> BenchReport:
    """Run every pair of `plan` without a recorded result, record each, and report on all of them."""
    done = finished_outcomes(store, run_id)
    _close_orphans(store, run_id, done)
    samples = range(plan.samples)
    pairs = [(key, s, n) for key in plan.keys for s in plan.strategies for n in samples if (key, s, n) not in done]
    total = len(plan.keys) * len(plan.strategies) * plan.samples
    try:
        for result in executor.run(settings, pairs):
            outcome = record_result(store, run_id, plan, result)
            done[(outcome.key, outcome.strategy, outcome.sample)] = outcome
            if progress is not None:
                progress(outcome, len(done), total)
    except BaseException as e:
        store.finish_run(run_id, "interrupted", reason=f"{type(e).__name__}: {e}"[:500])
        raise
    report = build_report(run_id, plan, done)
    store.finish_run(run_id, "done", totals={"pairs": total, "problems": len(plan.keys), "samples": plan.samples})
    return report


def build_report(run_id: str, plan: BenchPlan, done: Done) -> BenchReport:
    """The report over the plan's tasks, in plan order (strategies, then problems, then samples)."""
    outcomes = [
        done[(key, s, n)]
        for s in plan.strategies
        for key in plan.keys
        for n in range(plan.samples)
        if (key, s, n) in done
    ]
    return BenchReport(
        run_id=run_id,
        dataset=plan.dataset.name,
        model=plan.model,
        language=plan.language,
        k=plan.k,
        problems=len(plan.keys),
        samples=plan.samples,
        strategies=by_strategy(outcomes, plan.strategies, plan.k),
        outcomes=outcomes,
    )
