"""`solve(problem, strategy=..., ...)`: run one strategy on one problem under a budget and trace it all.

The model may be an `LLMClient` (bound here to the solve's task id, budget and tracer), an already
bound `BoundLLM`, or any other `ChatModel` (metered here, so the budget still counts its calls). The
result is a `SolveResult`: the best attempt (accepted or not), its report, why the solve stopped, and
what it spent. When the budget runs out the best attempt so far is returned with that reason; a model
failure after some attempt was judged does the same, and before any attempt it is raised.

The result also carries the evidence about the returned program, for a submit gate: the generated
tests (validated ones, then stress counterexamples) and the program's report on them, its stress and
profile reports, and the generator and brute force behind them. Evidence about any other program is
left out; when the returned program was never judged on the final generated tests, it is judged on
them here (no model call), so `generated_report` always describes it.

This is the one entry every path takes (`cpbot solve`, `watch`, `bench`, the perf scripts), and it always
judges in a sandbox: the caller's, else the process-wide `default_sandbox()`, so selection among
candidates, stress and profile run the same whichever command asked.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cpbot.agents import seeding
from cpbot.agents.answers import prepare
from cpbot.agents.budget import Attempt, BestAttempt, Budget, BudgetExhausted, BudgetTracker
from cpbot.agents.chat import ChatModel, LLMReply, Message
from cpbot.agents.dialect import with_note
from cpbot.agents.envelopes import SolveStatus, Task
from cpbot.agents.extract import ExtractionError
from cpbot.agents.inputs import InputsReport
from cpbot.agents.llm import BoundLLM, LLMClient
from cpbot.agents.roles.common import RoleError
from cpbot.agents.roles.interactor_writer import WrittenInteractor
from cpbot.agents.strategies import get_strategy
from cpbot.agents.strategies.base import KnowledgePool, SolveContext, source_key, tests_key
from cpbot.agents.tracing import BudgetEvent, NoteEvent, NullTracer, ReportEvent, Tracer
from cpbot.core.errors import ConfigError, ModelError
from cpbot.core.registry import DEFAULT_STRATEGY, STRATEGY_SPECS, strategy_spec
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import (
    JudgeReport,
    Language,
    Problem,
    ProfileReport,
    Solution,
    StressReport,
    TestCase,
    Verdict,
    worst,
)
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import Sandbox, default_sandbox

# 2: generated_tests, generated_report, stress, generator, brute; 3: checker, interactor, judged_with;
# 4: status "unverified", missing_evidence
SCHEMA_VERSION = 4


class SolveResult(BaseModel):
    """How one solve ended: `cpbot solve --json` prints this."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    problem_id: str
    strategy: str
    language: Language
    status: SolveStatus  # see `agents.envelopes.SolveStatus`
    verdict: Verdict | None = None  # the best attempt's verdict on the tests it was judged on
    reason: str = ""
    missing_evidence: list[str] = []  # why an answer that passed every test is unverified, one line a gap
    solution: Solution | None = None
    report: JudgeReport | None = None
    profile: ProfileReport | None = None
    generated_tests: list[TestCase] = []  # beyond the samples: generated, then stress counterexamples
    generated_report: JudgeReport | None = None  # the solution on `generated_tests`, in that order
    stress: StressReport | None = None  # the solution against the brute force
    generator: Solution | None = None
    brute: Solution | None = None
    inputs: InputsReport | None = None  # validated or not, dropped inputs, bound coverage (agents/inputs.py)
    # what judged the answers: the checker spec (`float:1e-6`, `tokens`, `written` for the test designer's)
    judged_with: str = "tokens"
    checker: Solution | None = None  # the checker the test designer wrote (`agents/answers.py`), when it did
    interactor: WrittenInteractor | None = None  # the interactor it wrote and its tests' hidden data, when it did
    calls: int = Field(0, ge=0)
    tokens: int = Field(0, ge=0)
    prompt_tokens: int = Field(0, ge=0)
    completion_tokens: int = Field(0, ge=0)
    seconds: float = Field(0.0, ge=0)


class _Metered:
    """A `ChatModel` whose calls are counted and charged to a budget (for models that are not `LLMClient`s)."""

    def __init__(self, model: ChatModel, tracker: BudgetTracker) -> None:
        self.model = model
        self.tracker = tracker

    def complete(self, role: str, messages: Sequence[Message], **kwargs: Any) -> LLMReply:
        self.tracker.start_call()
        reply = self.model.complete(role, messages, **kwargs)
        self.tracker.charge(reply.usage)
        return reply


def _bind(model: ChatModel, task_id: str, tracker: BudgetTracker, tracer: Tracer) -> ChatModel:
    if isinstance(model, LLMClient):
        return model.bind(task_id=task_id, budget=tracker, tracer=tracer)
    if isinstance(model, BoundLLM):
        return model  # already charged to its own budget
    return _Metered(model, tracker)


def solve(
    problem: Problem,
    *,
    strategy: str = DEFAULT_STRATEGY,
    language: Language = "cpp17",
    model: ChatModel,
    budget: Budget | BudgetTracker | None = None,
    tracer: Tracer | None = None,
    sandbox: Sandbox | None = None,
    knowledge: KnowledgePool | None = None,
    options: dict[str, Any] | None = None,
) -> SolveResult:
    """Solve `problem` with `strategy` in `language`; see the module's docstring."""
    _check_fits(problem, strategy)
    tracker = budget if isinstance(budget, BudgetTracker) else BudgetTracker(budget)
    tracer = tracer or NullTracer()
    chosen = get_strategy(strategy, **(options or {}))
    task_id = problem.id
    ctx = SolveContext(
        problem=problem,
        language=language,
        model=_bind(model, task_id, tracker, tracer),
        tracker=tracker,
        tracer=tracer,
        task_id=task_id,
        strategy=strategy,
        sandbox=sandbox or default_sandbox(),
        knowledge=knowledge if knowledge is not None else KnowledgePool(),
    )
    started = time.monotonic()
    task = Task(
        problem_id=problem.id,
        language=language,
        strategy=strategy,
        statement=problem.statement,
        time_ms=problem.limits.time_ms,
        memory_mb=problem.limits.memory_mb,
    )
    ctx.send(task, sender="", iteration=0)
    with seeding.one_solve():
        reason = _prepared(ctx) or _run_rounds(chosen, ctx)
    _rank_on_all_tests(ctx)
    _refute_unsupported(ctx)
    best = ctx.best.best
    if best is not None and best.refuted:
        reason = f"{reason}; not solved: {best.refuted}"
    final = ctx.best.final_answer(reason, tracker=tracker)
    generated = generated_tests(ctx, len(problem.samples))
    missing = missing_evidence(ctx, final.solution, reason, generated) if final.status == "solved" else []
    if missing:
        reason = f"{reason}; unverified: {'; '.join(missing)}"
        final = final.model_copy(update={"status": "unverified", "reason": reason})
        ctx.note("unverified", missing=missing)
    ctx.send(final, sender="controller")
    spent = tracker.snapshot()
    evidence = ctx.evidence
    inputs = evidence.inputs.report(problem)
    if inputs.admitted or inputs.dropped:  # the inputs side of the gate, for the transcript (agents/inputs.py)
        ctx.note("inputs", summary=inputs.summary(), bounds=[b.line() for b in inputs.coverage])
    key = source_key(final.solution) if final.solution is not None else ""
    return SolveResult(
        problem_id=problem.id,
        strategy=strategy,
        language=language,
        status=final.status,
        missing_evidence=missing,
        verdict=final.report.verdict if final.report is not None else None,
        reason=reason,
        solution=final.solution,
        report=final.report,
        profile=evidence.profiles.get(key, final.profile),
        generated_tests=generated,
        generated_report=_generated_report(ctx, final.solution, generated),
        stress=evidence.stress.get(key),
        generator=evidence.generator,
        brute=evidence.brute,
        inputs=inputs,
        judged_with="written" if evidence.checker is not None else ctx.problem.checker,
        checker=evidence.checker,
        interactor=evidence.interactor,
        calls=spent.calls,
        tokens=spent.usage.total_tokens,
        prompt_tokens=spent.usage.prompt_tokens,
        completion_tokens=spent.usage.completion_tokens,
        seconds=round(time.monotonic() - started, 3),
    )


def _prepared(ctx: SolveContext) -> str:
    """What judges the answers settled before the strategy runs (`agents.answers.prepare`); "" when the solve
    goes on, else why it stopped (the budget ran out)."""
    try:
        prepare(ctx)
    except BudgetExhausted as e:
        ctx.tracer.emit(BudgetEvent(task_id=ctx.task_id, reason=e.reason, spent=ctx.tracker.snapshot()))
        return f"budget exhausted: {e.reason}"
    return ""


def _check_fits(problem: Problem, strategy: str) -> None:
    """A score-based problem needs a strategy made for scores, and such a strategy needs one."""
    scored = problem_kind(problem.kind).scored
    if scored != strategy_spec(strategy).scored:
        fits = [s.name for s in STRATEGY_SPECS if s.scored == scored]
        what = "a score-based problem" if scored else "a problem judged by expected outputs"
        raise ConfigError(f"the {strategy} strategy does not solve {what}", hint=f"use --strategy {' or '.join(fits)}")


MAX_ROUNDS = 8  # strategy runs per solve when replies keep being unusable (the budget usually ends it first)
# rounds in a row that end on the same unusable reply (say C++ when Python was asked) before the solve stops
SAME_FAILURE_ROUNDS = 3


class _Insisting:
    """The solve's model, asking differently after a round ended on an unusable reply: every request
    says what went wrong before."""

    def __init__(self, model: ChatModel, problems: list[str]) -> None:
        self.model = model
        self.problems = problems

    def complete(self, role: str, messages: Sequence[Message], **kwargs: Any) -> LLMReply:
        note = (
            "An earlier answer to this request could not be used ("
            + "; ".join(self.problems[-2:])
            + "). Keep the reasoning short and give the complete answer in the form asked for."
        )
        return self.model.complete(role, with_note(messages, note), **kwargs)


def _run_rounds(strategy: Any, ctx: SolveContext) -> str:
    """Run the strategy; an unusable reply (empty, cut, no code, no JSON) is a failed attempt, and the
    strategy runs again, asking differently, up to its `rounds` (default `MAX_ROUNDS`; `direct` has one),
    until `SAME_FAILURE_ROUNDS` rounds in a row failed the same way, or until the budget ends it. Other
    model failures end the solve (raised when nothing was judged yet)."""
    base_model = ctx.model
    problems: list[str] = []
    reasons: list[str] = []
    rounds = int(getattr(strategy, "rounds", MAX_ROUNDS))
    for round_number in range(1, rounds + 1):
        try:
            return strategy.run(ctx)
        except BudgetExhausted as e:
            ctx.tracer.emit(BudgetEvent(task_id=ctx.task_id, reason=e.reason, spent=ctx.tracker.snapshot()))
            return f"budget exhausted: {e.reason}"
        except (ExtractionError, RoleError) as e:
            problems.append(e.message)
            reasons.append(str(getattr(e, "reason", e.message)))
            same = len(reasons) >= SAME_FAILURE_ROUNDS and len(set(reasons[-SAME_FAILURE_ROUNDS:])) == 1
            again = round_number < rounds and not same
            ctx.note("attempt failed", round=round_number, error=e.message, asking_again=again)
            ctx.model = _Insisting(base_model, problems)
            left = ctx.tracker.exhausted()
            if left:
                return f"budget exhausted: {left} (the last reply could not be used: {e.message})"
            if same:
                return f"{SAME_FAILURE_ROUNDS} rounds in a row ended on the same unusable reply ({e.message})"
        except ModelError as e:
            if ctx.best.best is None:
                raise
            # the model failed part-way: what was judged so far is still worth returning
            ctx.tracer.emit(NoteEvent(task_id=ctx.task_id, message="model failed", data={"error": e.message}))
            return f"stopped: {e.message}"
    if rounds == 1:
        return f"no usable program: {problems[-1]}"
    return f"{rounds} rounds ended on unusable replies (the last: {problems[-1]})"


def _rank_on_all_tests(ctx: SolveContext) -> None:
    """When tests were added after some programs were judged, judge the programs that passed every test
    they saw on all the tests known now and rank them on those same tests (a stress counterexample counts
    against its program too): a program is never called solved on evidence older than the tests that
    fail it. The kept attempt's report stays the one the strategy made (a new choice gets its report on
    the samples); what refutes it is in `Attempt.refuted`."""
    evidence = ctx.evidence
    if not evidence.tests:
        return
    samples = list(ctx.problem.samples)
    tests = [*samples, *evidence.tests]
    passing = {src for (src, _), report in evidence.reports.items() if report.accepted}
    current = ctx.best.best
    first = source_key(current.solution) if current is not None else ""
    ranking = BestAttempt()
    # the strategy's own choice is offered first, so that it wins ties (e.g. its optimized version)
    for key, (solution, iteration) in sorted(evidence.programs.items(), key=lambda item: item[0] != first):
        if key not in passing:
            continue
        full = _report_on(ctx, solution, tests, iteration)
        stress = evidence.stress.get(key)
        refuted = ""
        if not full.accepted:
            refuted = f"it fails on the samples and generated tests ({full.verdict}, {full.passed}/{full.total})"
        elif stress is not None and stress.failure is not None:
            refuted = "a stress run found an input where it differs from the brute force"
        profile = evidence.profiles.get(key)
        ranking.offer(Attempt(iteration=iteration, solution=solution, report=full, profile=profile, refuted=refuted))
    chosen = ranking.best
    if chosen is None:
        return
    if current is not None and source_key(chosen.solution) == first:
        kept = current.model_copy(update={"refuted": chosen.refuted})
    else:
        ctx.note("best attempt chosen on all tests", tests=len(tests), iteration=chosen.iteration)
        kept = chosen.model_copy(update={"report": _report_on(ctx, chosen.solution, samples, chosen.iteration)})
    ctx.best = BestAttempt()
    ctx.best.offer(kept)


def _refute_unsupported(ctx: SolveContext) -> None:
    """The kept attempt is not called solved when the evidence does not support it: its own profile says it is
    too slow for the limits (whatever the tests said), or the solve found its evidence in conflict
    (`Evidence.doubt`: selection outvoted the brute force, or chose between candidates on a guess)."""
    best = ctx.best.best
    if best is None or not best.accepted:
        return
    profile = ctx.evidence.profiles.get(source_key(best.solution), best.profile)
    why = ""
    if profile is not None and profile.efficient is False:
        why = "its profile says it is too slow" + (f": {profile.reason}" if profile.reason else "")
    elif ctx.evidence.doubt:
        why = ctx.evidence.doubt
    if why:
        ctx.best = BestAttempt()
        ctx.best.offer(best.model_copy(update={"refuted": why}))


def generated_tests(ctx: SolveContext, dialogues: int) -> list[TestCase]:
    """The solve's tests beyond the samples: generated ones, then stress counterexamples. An interactive problem
    judged through the interactor the test designer wrote has the hidden data it wrote past the `dialogues`
    (the statement's sample dialogues) first: the designer's tests, as a stdio problem's generated inputs are."""
    designed = ctx.problem.samples[dialogues:] if ctx.evidence.interactor is not None else []
    return [*designed, *ctx.evidence.tests]


def missing_evidence(
    ctx: SolveContext, solution: Solution | None, reason: str, generated: Sequence[TestCase] | None = None
) -> list[str]:
    """What the gate's evidence lacks about `solution`, an answer that passed every test it was judged on: it is
    called solved only when it was tested beyond the samples, stressed against a brute force, profiled at the
    statement's bound, and (when several candidates passed the samples) chosen among them by behaviour. One
    line per gap; none means solved. An interactive problem is stressed and profiled through its interactor on
    generated hidden data: without an interactor or a generator of that data, the gap says which is missing (the
    answer is not called solved on less evidence)."""
    evidence, kind = ctx.evidence, problem_kind(ctx.problem.kind)
    generated = evidence.tests if generated is None else generated  # see `generated_tests`
    if solution is None or kind.scored:
        return []  # a score-based problem has no right answer to stress against: its score is its evidence
    key = source_key(solution)
    skipped = evidence.skipped
    no_hidden_data = _no_hidden_data(ctx) if kind.needs_interactor else ""
    gaps = []
    if (kind.stress_applies or kind.needs_interactor) and not generated:
        gaps.append("no generated tests: judged on the samples only")
    stress = evidence.stress.get(key)
    if stress is not None and stress.runs - stress.starved <= 0:
        gaps.append("not stressed: no stress run compared it with the brute force (starved of CPU)")
    elif stress is None and kind.needs_interactor:
        gaps.append(f"not stressed: {no_hidden_data or skipped.get('stress', 'the gate did not reach it')}")
    elif stress is None and not kind.stress_applies:
        gaps.append(f"not stressed: {skipped.get('stress', kind.why_not_stressed)}")
    elif stress is None and (evidence.brute is None or evidence.generator is None):
        gaps.append(f"not stressed: no {'brute force' if evidence.brute is None else 'generator'} was written")
    elif stress is None:
        gaps.append(f"not stressed: {skipped.get('stress', 'the gate did not reach it')}")
    profile = evidence.profiles.get(key)
    if profile is None and not kind.profile_applies:
        gaps.append(f"not profiled: a {ctx.problem.kind} problem is not profiled")
    elif profile is None and kind.needs_interactor:
        gaps.append(f"not profiled: {no_hidden_data or skipped.get('profile', 'the gate did not reach it')}")
    elif profile is None:
        why = "no generator was written" if evidence.generator is None else "the gate did not reach it"
        gaps.append(f"not profiled: {skipped.get('profile', why)}")
    elif profile.efficient is None:
        gaps.append(f"the profile is inconclusive{': ' + profile.reason if profile.reason else ''}")
    if profile is not None and evidence.inputs.generator_ignores_n:  # agents/inputs.py: it measured small inputs
        gaps.append(f"not profiled at the bound: the generator ignores N ({evidence.inputs.generator_ignores_n})")
    if evidence.no_agreeing_oracle:  # agents/oracle.py: the brute forces did not agree
        gaps.append(f"no agreeing oracle: {evidence.no_agreeing_oracle}")
    if "selection" in skipped:
        gaps.append(f"no selection: {skipped['selection']}")
    if gaps and reason.startswith("budget exhausted"):
        gaps.insert(0, "the budget ran out before the gate finished")
    return gaps


def _no_hidden_data(ctx: SolveContext) -> str:
    """Why an interactive problem has no generated hidden data to stress and profile its programs on, through its
    interactor ("" when it has: the test designer wrote the interactor with a generator that works)."""
    written = ctx.evidence.interactor
    if ctx.problem.interactor is None:
        return "no interactor: the problem names none and the test designer wrote none that takes the sample dialogues"
    if written is None:
        return "the problem's interactor comes with no generator of its hidden data"
    if written.generator is None:
        return "the test designer's interactor came without a working generator of its hidden data"
    return ""


def _report_on(ctx: SolveContext, solution: Solution, tests: list[TestCase], iteration: int) -> JudgeReport:
    """The report of `solution` on exactly `tests`: the one made already, else a new judge run."""
    report = ctx.evidence.report_for(solution, tests)
    if report is None:
        report = judge_problem(solution, ctx.problem, tests, sandbox=ctx.sandbox)
        ctx.evidence.reports[(source_key(solution), tests_key(tests))] = report
        ctx.tracer.emit(ReportEvent.of(report, task_id=ctx.task_id, iteration=iteration))
    return report


def _generated_report(ctx: SolveContext, solution: Solution | None, tests: list[TestCase]) -> JudgeReport | None:
    """`solution` judged on the generated `tests` (`generated_tests`): cut from the strategy's own report on the
    problem's tests plus the solve's when it made one, else a new judge run."""
    if solution is None or not tests:
        return None
    report = ctx.evidence.report_for(solution, tests)
    if report is not None:
        return report
    samples = [t for t in ctx.problem.samples if t not in tests]  # an interactive problem's: its dialogues' data
    combined = ctx.evidence.report_for(solution, [*samples, *tests])
    if combined is not None and combined.verdict not in (Verdict.CE, Verdict.IE):
        return tail_report(combined, len(samples))
    report = judge_problem(solution, ctx.problem, list(tests), sandbox=ctx.sandbox)
    ctx.tracer.emit(ReportEvent.of(report, task_id=ctx.task_id))
    return report


def tail_report(report: JudgeReport, skip: int) -> JudgeReport:
    """`report` without its first `skip` tests, the rest renumbered from 1."""
    results = [r.model_copy(update={"index": r.index - skip}) for r in report.results if r.index > skip]
    verdict = worst([r.verdict for r in results]) if results else Verdict.AC
    first = next((r for r in results if r.verdict != Verdict.AC), None)
    return report.model_copy(
        update={
            "results": results,
            "verdict": verdict,
            "passed": sum(r.verdict == Verdict.AC for r in results),
            "total": report.total - skip,
            "reason": f"{first.verdict} on test {first.index} ({first.name}): {first.checker_message}" if first else "",
        }
    )
