"""What judges a solve's answers, settled once before a strategy runs (`prepare`): the problem the solve
judges with is the site's, completed where the site left the judging short.

- A float answer: a statement that allows an error (`judge/checkers/tolerance.py`) while the problem's checker
  compares tokens (a site whose parser lost the tolerance) is judged with `float:EPS`.
- Several right answers and no checker: the test designer writes one (`roles/checker_writer.py`), checked on
  the samples; an accepted checker becomes the problem's checker (staged in the sandbox, its path in
  `Problem.checker`), so the strategy's judging, generated tests, stress, grouping and the final report all
  compare through it. A discarded one is said in the transcript, and outputs are compared as before.
- An interactive problem without an interactor: the test designer writes one (`roles/interactor_writer.py`),
  checked against the samples' dialogues; an accepted one becomes `Problem.interactor`, and the problem's
  tests become the hidden data the interactor reads, so every program is judged through it.

What was written is kept in the solve's `Evidence` (`checker`, `interactor`) and returned in its result.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from cpbot.agents.budget import BudgetExhausted
from cpbot.agents.roles import checker_writer, interactor_writer
from cpbot.agents.strategies.base import SolveContext
from cpbot.core.errors import CpbotError
from cpbot.core.registry import language_spec
from cpbot.judge.checkers.tolerance import statement_tolerance
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import Problem, Solution
from cpbot.judge.sandbox import Sandbox, default_sandbox

WRITER_TRIES = 2  # checkers (interactors) asked for before the solve goes on without one

Written = TypeVar("Written")


def prepare(ctx: SolveContext) -> None:
    """Complete `ctx.problem`'s judging (see the module's docstring); what was decided is noted."""
    sandbox = ctx.sandbox or default_sandbox()
    tolerance = lost_tolerance(ctx.problem) if problem_kind(ctx.problem.kind).checks_output_text else None
    if tolerance:
        ctx.problem = ctx.problem.model_copy(update={"checker": tolerance})
        ctx.note("float answers", checker=tolerance, why="the statement allows an error; outputs compared under it")
    why = checker_writer.needs_checker(ctx.problem)
    if why:
        _adopt_checker(ctx, sandbox, why)
    why = interactor_writer.needs_interactor(ctx.problem)
    if why:
        _adopt_interactor(ctx, sandbox, why)


def lost_tolerance(problem: Problem) -> str | None:
    """The statement's tolerance when the problem's checker compares tokens (None otherwise)."""
    if problem.checker != "tokens":
        return None
    return statement_tolerance("\n".join((problem.statement, problem.output_spec, problem.notes)))


def stage_checker(checker: Solution, sandbox: Sandbox) -> str:
    """`checker`'s source put in the sandbox's read-only area; its path, a spec `make_checker` builds."""
    name = f"checker{language_spec(checker.language).extension}"
    key = hashlib.sha256(f"{checker.language}\0{checker.source}".encode()).hexdigest()[:24]
    return str(sandbox.stage(f"written-checker-{key}", {name: checker.source.encode()}) / name)


def _adopt_checker(ctx: SolveContext, sandbox: Sandbox, why: str) -> None:
    vet = partial(checker_writer.vet_checker, problem=ctx.problem, sandbox=sandbox)
    checker = _written(ctx, "checker", why, partial(checker_writer.write_checker, ctx.model, ctx.problem), vet)
    if checker is None:
        ctx.note("no checker", why=f"{why}; outputs are compared with one answer")
        return
    ctx.problem = ctx.problem.model_copy(update={"checker": stage_checker(checker, sandbox)})
    ctx.evidence.checker = checker
    ctx.note("checker accepted", why="it accepts every sample's output and rejects wrong ones")


def _adopt_interactor(ctx: SolveContext, sandbox: Sandbox, why: str) -> None:
    write = partial(interactor_writer.write_interactor, ctx.model, ctx.problem)
    written = _written(
        ctx, "interactor", why, write, partial(interactor_writer.vet_interactor, problem=ctx.problem, sandbox=sandbox)
    )
    if written is None:
        ctx.note("no interactor", why=f"{why}; nothing can judge a program")
        return
    if written.generator is not None and (why_not := interactor_writer.vet_generator(written.generator, sandbox)):
        ctx.note("hidden-data generator discarded", why=why_not)
        written = written.model_copy(update={"generator": None})
    ctx.problem = interactor_writer.judged_through(ctx.problem, written)
    ctx.evidence.interactor = written
    ctx.note(
        "interactor accepted",
        tests=len(written.tests),
        why="it accepts each sample's dialogue and rejects a wrong answer",
    )


def _written(
    ctx: SolveContext, what: str, why: str, write: Callable[[], Written], vet: Callable[[Written], str]
) -> Written | None:
    """The `what` (checker, interactor) the test designer wrote (`write`) that passed its checks (`vet`: ""
    when it does), asked up to `WRITER_TRIES` times; each reply that cannot be used and each one refused is
    noted with the reason."""
    for attempt in range(1, WRITER_TRIES + 1):
        ctx.route(f"{what}_writer", attempt=attempt, why=why)
        try:
            made = write()
        except BudgetExhausted:
            raise
        except CpbotError as e:
            ctx.note(f"{what} not written", attempt=attempt, error=e.message)
            continue
        refused = vet(made)
        if refused:
            ctx.note(f"{what} discarded", attempt=attempt, why=refused)
            continue
        return made
    return None
