"""`ale`: score-based problems (AtCoder Heuristic Contests), in the spirit of Sakana AI's ALE-Agent.

A first greedy program, then rounds: each round asks the model for `width` programs at once, some
new methods (`fresh`) and the rest improvements of the best versions so far (best-first over a tree of
versions, each node holding its idea and its scores). Every program is scored on the same seeds with
the problem's generator and scorer (`judge/scoring.py`); a program that beats the leader on one run
per seed is run `repeats` times per seed before it takes the lead, so noise of programs that stop on
the clock does not crown a lucky one. The leader is the solve's best attempt at every moment, so the
solve always has a program to return; it runs until the budget (calls, tokens, seconds) or
`max_rounds` ends it, and stops early when the time left would not hold another round.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from cpbot.agents.budget import Attempt, BestAttempt, BudgetExhausted
from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.extract import ExtractionError
from cpbot.agents.parallel import gather
from cpbot.agents.prompts import clip
from cpbot.agents.roles import heuristic as writer
from cpbot.agents.roles.common import RoleError
from cpbot.agents.strategies.base import SolveContext
from cpbot.agents.tracing import ScoreEvent
from cpbot.core.errors import ConfigError, ModelError
from cpbot.judge.compare import compare_paired
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import HeuristicSpec, Verdict
from cpbot.judge.sandbox import default_sandbox
from cpbot.judge.scorer import ScoringTools
from cpbot.judge.scoring import ScoreReport, best_per_seed, default_seeds, relative_scores, score_solution

Purpose = Literal["candidate", "repeat"]
COMPILE_LOG_CHARS = 1500  # of a version that did not build, shown to the request that improves it
KEPT_IDEA = "the best program of an earlier search, kept on disk"


@dataclass
class Version:
    """A node of the tree: a program, what it was made from and why, and how it scored."""

    iteration: int
    parent: int | None
    idea: str
    attempt: CodeAttempt
    report: ScoreReport
    children: int = 0


@dataclass
class VersionTree:
    """Every version tried, best first as the contest would rank them: by mean score, or under relative
    scoring (AHC's `10^9 x yours / best` per input) by the sum of each seed's score relative to the best
    of every version so far. A version that scored no seed ranks last."""

    spec: HeuristicSpec
    versions: list[Version] = field(default_factory=list)

    @property
    def objective(self) -> Literal["maximize", "minimize"]:
        return self.spec.objective

    def _ranker(self, *extra: ScoreReport) -> Callable[[ScoreReport], tuple[bool, float]]:
        """The rank of a report among the versions (and `extra` reports), larger is better."""
        best = {}
        if self.spec.scoring == "relative":
            best = best_per_seed([*(v.report for v in self.versions), *extra], self.objective)

        def rank(report: ScoreReport) -> tuple[bool, float]:
            scored = bool(report.seeds) and report.verdict not in (Verdict.CE, Verdict.IE)
            if self.spec.scoring == "relative":
                return scored, sum(relative_scores(report, best, self.spec).values())
            return scored, report.mean if self.objective == "maximize" else -report.mean

        return rank

    def ordered(self) -> list[Version]:
        rank = self._ranker()
        return sorted(self.versions, key=lambda v: rank(v.report), reverse=True)

    def frontier(self, count: int, max_children: int) -> list[Version]:
        """The best `count` versions that may still be expanded (fewer than `max_children` children)."""
        ordered = self.ordered()
        open_ = [v for v in ordered if v.children < max_children]
        return open_[:count] or ordered[:count]

    def better(self, a: ScoreReport, b: ScoreReport) -> bool:
        rank = self._ranker(a, b)
        return rank(a) > rank(b)


@dataclass
class Ale:
    """Rounds of parallel variants scored on the same seeds; the leader kept and confirmed by repeats."""

    name: str = "ale"
    # strategy runs when the first program's replies are unusable (later ones are caught inside a run)
    rounds: int = 3
    width: int = 4  # programs asked for at once in a round
    fresh: int = 1  # of them, new methods (the rest improve the best versions)
    expand: int = 2  # best-first: the top versions improved in a round
    max_children: int = 6  # a version improved this often leaves the frontier
    seeds: int = 10  # seeds every program is scored on (the same for all)
    repeats: int = 3  # runs per seed of a program about to take the lead
    max_rounds: int = 100
    folder: str = ""  # the problem's folder, when its tools are named relative to it
    # where the leader's program is kept: replaced (never half written) each time another version takes the
    # lead, so a person can submit it by hand at any moment ("" keeps none)
    best_file: str = ""
    # a program file to start from instead of asking for a first one (a restarted search continues from the
    # best program the earlier one kept): scored on the same seeds, it is the first version
    start_from: str = ""
    tree: VersionTree | None = field(default=None, init=False, repr=False)
    leader: Version | None = field(default=None, init=False, repr=False)

    def run(self, ctx: SolveContext) -> str:
        """Search until the budget or `max_rounds` ends it; the leader is always `ctx.best`."""
        if not problem_kind(ctx.problem.kind).scored or ctx.problem.heuristic is None:
            raise ConfigError(f"{ctx.problem.id} is not a score-based problem", hint="use another strategy")
        spec = ctx.problem.heuristic
        tools = ScoringTools.load(
            ctx.problem, Path(self.folder) if self.folder else None, ctx.sandbox or default_sandbox()
        )
        seeds = default_seeds(spec, self.seeds)
        self.tree = VersionTree(spec)
        goal = "larger" if spec.objective == "maximize" else "smaller"

        def score(written: writer.Written, parent: Version | None) -> Version:
            attempt, iteration = ctx.code(written.attempt, sender=writer.ROLE)
            report = score_solution(attempt.solution(), ctx.problem.id, tools, seeds, limits=ctx.problem.limits)
            version = Version(iteration, parent.iteration if parent else None, written.idea, attempt, report)
            assert self.tree is not None
            self.tree.versions.append(version)
            if parent is not None:
                parent.children += 1
            if self.repeats > 1:  # its single run first, then the repeated runs of a challenger
                self._emit(ctx, version, "candidate")
                self._consider(ctx, version, tools, seeds)
            else:  # no repeated runs: its own event says whether it took the lead
                self._consider(ctx, version, tools, seeds)
                self._emit(ctx, version, "candidate")
            return version

        kept = Path(self.start_from) if self.start_from else None
        first: Version | None = None
        if kept is not None and kept.is_file():
            ctx.route(writer.ROLE, why="the program an earlier search kept", file=str(kept))
            attempt = CodeAttempt(language=ctx.language, source=kept.read_text(encoding="utf-8"), notes=KEPT_IDEA)
            first = score(writer.Written(attempt, KEPT_IDEA), None)
        if first is None or not first.report.seeds:  # none kept, or it no longer scores
            ctx.route(writer.ROLE, why="a first greedy program")
            score(writer.first_program(ctx.model, ctx.problem, language=ctx.language), None)
        round_seconds = 0.0
        for number in range(1, self.max_rounds + 1):
            left = ctx.tracker.exhausted()
            if left:
                return f"budget exhausted: {left}; {self._summary()}"
            remaining = ctx.tracker.remaining_seconds()
            if remaining is not None and round_seconds > remaining:
                return f"stopped: the {remaining:.0f} s left would not hold another round; {self._summary()}"
            round_started = time.monotonic()
            asks = self._asks(ctx, goal, len(seeds))
            ctx.route(writer.ROLE, round=number, variants=len(asks))
            results = gather([ask for ask, _ in asks])
            failures: list[Exception] = []
            for (_, parent), result in zip(asks, results, strict=True):
                if isinstance(result, Exception):
                    failures.append(result)
                    ctx.note("variant failed", round=number, error=str(result))
                    continue
                score(result, parent)
            for error in failures:
                if not isinstance(error, ModelError | BudgetExhausted):  # a bug of cpbot's, not the model's
                    raise error
            if failures and len(failures) == len(asks):
                budget = next((e for e in failures if isinstance(e, BudgetExhausted)), None)
                if budget is not None:
                    return f"budget exhausted: {budget.reason}; {self._summary()}"
                if not all(isinstance(e, ExtractionError | RoleError) for e in failures):
                    raise failures[0]  # the model failed: the solve returns the leader
            round_seconds = time.monotonic() - round_started
        return f"ran {self.max_rounds} rounds; {self._summary()}"

    def _asks(
        self, ctx: SolveContext, goal: str, seeds: int
    ) -> list[tuple[Callable[[], writer.Written], Version | None]]:
        """This round's requests: `fresh` new methods, then improvements of the frontier in turn."""
        assert self.tree is not None
        tried = [writer.Tried(v.idea, v.report.mean) for v in self.tree.ordered()[:12]]
        seconds_left = ctx.tracker.remaining_seconds()
        asks: list[tuple[Callable[[], writer.Written], Version | None]] = []
        for _ in range(min(self.fresh, self.width)):
            asks.append(
                (
                    lambda: writer.new_method(
                        ctx.model, ctx.problem, language=ctx.language, seeds=seeds, goal=goal, tried=tried,
                        seconds_left=seconds_left,
                    ),
                    None,
                )
            )  # fmt: skip
        frontier = self.tree.frontier(self.expand, self.max_children)
        for i in range(self.width - len(asks)):
            parent = frontier[i % len(frontier)]
            asks.append((self._improve(ctx, parent, goal, seeds, tried, seconds_left), parent))
        return asks

    def _improve(
        self, ctx: SolveContext, parent: Version, goal: str, seeds: int, tried: list[writer.Tried], left: float | None
    ) -> Callable[[], writer.Written]:
        scores = _scores_text(parent.report)
        return lambda: writer.improve_program(
            ctx.model, ctx.problem, parent.attempt, idea=parent.idea, scores=scores, seeds=seeds, goal=goal,
            tried=tried, seconds_left=left,
        )  # fmt: skip

    def _consider(self, ctx: SolveContext, version: Version, tools: ScoringTools, seeds: list[int]) -> None:
        """Make `version` the leader if it beats the leader, once its repeated runs confirm it."""
        assert self.tree is not None
        leader = self.leader
        if leader is not None and not self.tree.better(version.report, leader.report):
            return
        if self.repeats > 1 and version.report.seeds:
            # the challenger (or the first program) run again on every seed: its mean is then the average
            version.report = score_solution(
                version.attempt.solution(), ctx.problem.id, tools, seeds, limits=ctx.problem.limits,
                repeats=self.repeats,
            )  # fmt: skip
            beats = leader is None or self.tree.better(version.report, leader.report)
            if leader is not None:
                comparison = compare_paired(version.report.scores, leader.report.scores, objective=self.tree.objective)
                ctx.note(
                    "leader challenged", iteration=version.iteration, leader=leader.iteration, takes_lead=beats,
                    mean_diff=comparison.mean_diff, ci=[comparison.ci_low, comparison.ci_high],
                )  # fmt: skip
            if not beats:
                self._emit(ctx, version, "repeat", best=False)
                return
        self.leader = version
        if self.best_file:  # before the event that names the new leader: the file already holds it then
            keep_best(Path(self.best_file), version.attempt.solution().source)
        if self.repeats > 1 and version.report.seeds:
            self._emit(ctx, version, "repeat", best=True)
        ctx.best = BestAttempt()
        tokens = ctx.tracker.snapshot().usage.total_tokens
        ctx.best.offer(
            Attempt(
                iteration=version.iteration,
                solution=version.attempt.solution(),
                report=version.report.as_judge_report(),
                tokens=tokens,
                branch=version.idea,
            )
        )

    def _emit(self, ctx: SolveContext, version: Version, purpose: Purpose, *, best: bool | None = None) -> None:
        is_best = best if best is not None else self.leader is version
        ctx.tracer.emit(
            ScoreEvent(
                task_id=ctx.task_id,
                iteration=version.iteration,
                parent=version.parent,
                idea=version.idea,
                purpose=purpose,
                report=version.report,
                best=is_best,
            )
        )

    def _summary(self) -> str:
        assert self.tree is not None
        if self.leader is None:
            return f"{len(self.tree.versions)} versions, none scored"
        return (
            f"{len(self.tree.versions)} versions; the best, #{self.leader.iteration}, "
            f"mean {self.leader.report.mean:,.1f} ({self.leader.idea or 'no idea stated'})"
        )


def keep_best(path: Path, source: str) -> None:
    """Write `source` to `path` through a file beside it and a rename: a reader sees the old program or the
    new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(source, encoding="utf-8")
    os.replace(partial, path)


def _scores_text(report: ScoreReport) -> str:
    """A version's scores as the improver reads them: mean, spread and what failed."""
    if not report.seeds:  # it did not build, or the tools failed: what the compiler said is the lead
        log = f"\n{clip(report.compile_log.strip(), COMPILE_LOG_CHARS)}" if report.compile_log.strip() else ""
        return f"none: {report.verdict} ({report.reason}){log}"
    text = f"mean {report.mean:,.1f}, sd {report.stdev:,.1f}, total {report.total:,.0f}"
    if report.failed:
        text += f"; {report.failed} inputs failed ({report.reason})"
    return text


def make(**options: Any) -> Ale:
    """The registry's constructor."""
    return Ale(**options)
