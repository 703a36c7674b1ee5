"""The state of one `cpbot` solve, shared by its pipeline (`agents/strategies/cpbot.py`) and its choice among
candidates (`agents/strategies/choosing.py`, with the panel of brute forces in `agents/strategies/panel.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cpbot.agents import selection
from cpbot.agents.budget import BudgetExhausted
from cpbot.agents.extract import ExtractionError
from cpbot.agents.llm_failures import LLMError
from cpbot.agents.roles import analyst
from cpbot.agents.roles.common import RoleError
from cpbot.agents.strategies.base import SolveContext
from cpbot.agents.tracing import SelectionEvent
from cpbot.judge.model import ProfileReport, Solution, TestCase

# a concurrent call of the draw that failed alone: the others go on (all of them failing ends the solve with the first)
UNUSABLE = (ExtractionError, RoleError, BudgetExhausted, LLMError)


@dataclass
class SolveRun:
    """The state of one solve: the tests known so far and what verification has used up."""

    ctx: SolveContext
    tests: list[TestCase]
    generated: bool = False
    stress_runs: int = 0
    optimizes: int = 0
    profiled: dict[str, tuple[ProfileReport, analyst.Analysis]] = field(default_factory=dict)
    previous_profile: ProfileReport | None = None
    dismissed: set[int] = field(default_factory=set)  # panel seats that lost their vote: no stress against them
    confirmed: set[int] = field(default_factory=set)  # panel seats an independent program agreed with
    tiebreaker_asked: bool = False  # a brute force was asked for to break the panel's tie (once per solve)
    comparison: selection.CheckerComparison | None = None  # the problem's checker comparing two outputs
    comparison_made: bool = False
    weighed: bool = False  # the candidates' outputs were weighed against the panel (`Panel.weigh`)


def hidden_data_generator(ctx: SolveContext) -> Solution | None:
    """The generator of hidden data of the interactor the test designer wrote, when the problem is judged
    through it (`agents/answers.py`): its inputs are stressed and grouped on through the interactor."""
    written = ctx.evidence.interactor
    return written.generator if written is not None else None


def emit(ctx: SolveContext, step: str, **fields: Any) -> None:
    """One step of the choice among candidates, as a `SelectionEvent` in the transcript."""
    ctx.tracer.emit(SelectionEvent(task_id=ctx.task_id, step=step, **fields))
