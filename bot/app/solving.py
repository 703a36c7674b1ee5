"""One solve of `cpbot solve`: a run in the transcript store, the model client, progress lines as it goes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cpbot.agents.budget import Budget
from cpbot.agents.llm import LLMClient
from cpbot.agents.llm_settings import LLMConfig
from cpbot.agents.solve import SolveResult, solve
from cpbot.agents.tracing import FanoutTracer, TraceEvent
from cpbot.bot.report.render import trace_line
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.judge.model import Problem

Say = Callable[[str], None]


class ProgressTracer:
    """A tracer that says one line per LLM call and per judge report (see `bot.report.render.trace_line`)."""

    def __init__(self, say: Say) -> None:
        self.say = say

    def emit(self, event: TraceEvent) -> None:
        line = trace_line(event)
        if line is not None:
            self.say(line)


def solve_recorded(
    problem: Problem,
    *,
    strategy: str,
    language: str,
    options: dict[str, Any],
    config: LLMConfig,
    budget: Budget,
    say: Say,
) -> tuple[SolveResult, str]:
    """Solve `problem` and record it as a `solve` run; returns the result and the run's id. A run that
    fails is stored as failed and its id said before the error goes on (`cpbot transcripts show` explains it);
    one stopped by Ctrl-C is stored as interrupted."""
    with TranscriptStore() as store, LLMClient(config) as client:
        store.add_secret(config.api_key.get_secret_value())
        run_id = store.start_run(
            "solve",
            problem_id=problem.id,
            strategy=strategy,
            model=config.model,
            config={
                "llm": config.public(),
                "budget": budget.model_dump(),
                "language": language,
                "strategy_options": options,
            },
        )
        tracer = FanoutTracer(store.tracer(run_id), ProgressTracer(say))
        try:
            result = solve(
                problem,
                strategy=strategy,
                language=language,  # type: ignore[arg-type]
                model=client,
                budget=budget,
                tracer=tracer,
                options=options,
            )
        except KeyboardInterrupt:
            store.finish_run(run_id, "interrupted", reason="stopped by the user (Ctrl-C)")
            say(f"transcript: {run_id}")
            raise
        except BaseException as e:
            store.finish_run(run_id, "error", reason=str(e))
            say(f"transcript: {run_id}")
            raise
        store.finish_run(
            run_id,
            result.status,
            reason=result.reason,
            totals={"calls": result.calls, "tokens": result.tokens, "seconds": result.seconds},
        )
    return result, run_id
