"""`cpbot judge` on a score-based problem: which seeds, the solution scored on them, and another compared.

A problem folder whose `problem.json` is of a scored kind (`heuristic`) is judged by its tools
(`judge/scorer.py`), not against expected outputs: each seed's score, their total, mean and spread,
and with `--against` a paired comparison of two programs on the same seeds.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from cpbot.bot.app.problem_folder import PROBLEM_FILE, load_problem
from cpbot.core.errors import ConfigError
from cpbot.judge.compare import Comparison
from cpbot.judge.kinds import problem_kind
from cpbot.judge.languages import get_language, language_for
from cpbot.judge.model import SCHEMA_VERSION, HeuristicSpec, Limits, Problem, Solution, Verdict
from cpbot.judge.sandbox import default_sandbox
from cpbot.judge.scorer import ScoringTools
from cpbot.judge.scoring import (
    OnSeed,
    ScoreReport,
    SeedScore,
    best_per_seed,
    compare_reports,
    contest_score,
    default_seeds,
    score_solution,
)
from cpbot.judge.testdir import read_text_exact

MAX_SEEDS = 100_000
_RANGE = re.compile(r"^(\d+)\s*(?:-|\.\.)\s*(\d+)$")


@dataclass(frozen=True)
class ScoredProblem:
    """A score-based problem and the folder its tools are in."""

    problem: Problem
    folder: Path

    @property
    def spec(self) -> HeuristicSpec:
        assert self.problem.heuristic is not None  # a scored problem without tools is refused on load
        return self.problem.heuristic


def find_scored_problem(solution: Path, problem_path: Path | None) -> ScoredProblem | None:
    """The score-based problem `solution` is judged on (`--problem`, else a problem.json beside it), or None
    when there is none or it is not score-based."""
    if problem_path is not None:
        path = problem_path / PROBLEM_FILE if problem_path.is_dir() else problem_path
    else:
        path = solution.parent / PROBLEM_FILE
    if not path.is_file():
        return None
    problem = load_problem(path)
    if not problem_kind(problem.kind).scored:
        return None
    if problem.heuristic is None:
        raise ConfigError(
            f"{path} is a {problem.kind} problem without its tools",
            hint="add `heuristic`: {generator, scorer} (or `tools`, AHC's Rust tools folder)",
        )
    return ScoredProblem(problem, path.parent)


def parse_seeds(text: str | None, spec: HeuristicSpec) -> list[int]:
    """`--seeds`: a count (`50`: seeds 0..49), a range (`100-199`), or a list (`1,5,9`); default the
    problem's count."""
    if text is None:
        return default_seeds(spec)
    text = text.strip()
    try:
        if text.isdigit():
            seeds = default_seeds(spec, int(text))
        elif m := _RANGE.match(text):
            low, high = int(m.group(1)), int(m.group(2))
            seeds = list(range(low, high + 1))
        else:
            seeds = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        seeds = []
    if not seeds or len(seeds) > MAX_SEEDS or any(s < 0 for s in seeds):
        raise ConfigError(
            f"--seeds {text!r} names no seeds",
            hint=f"a count (50), a range (100-199) or a list (1,5,9); at most {MAX_SEEDS}",
        )
    return list(dict.fromkeys(seeds))


class ScoreRun(BaseModel):
    """What `cpbot judge --json` prints for a score-based problem: the report(s) and the comparison."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    report: ScoreReport
    contest_score: float
    against: ScoreReport | None = None
    comparison: Comparison | None = None


def score_file(
    solution: Path,
    scored: ScoredProblem,
    seeds: list[int],
    *,
    language: str | None = None,
    time_s: float | None = None,
    repeats: int = 1,
    jobs: int | None = None,
    on_seed: OnSeed | None = None,
) -> tuple[ScoreReport, Limits]:
    """Score the solution file on `seeds`; returns the report and the limits it ran under."""
    limits = scored.problem.limits
    if time_s:
        limits = limits.model_copy(update={"time_ms": round(time_s * 1000)})
    tools = ScoringTools.load(scored.problem, scored.folder, default_sandbox())
    name = get_language(language or language_for(solution)).name
    code = Solution(language=name, source=read_text_exact(solution))  # type: ignore[arg-type]
    report = score_solution(
        code, scored.problem.id, tools, seeds, limits=limits, repeats=repeats, jobs=jobs, on_seed=on_seed
    )
    return report, limits


def score_run(report: ScoreReport, scored: ScoredProblem, against: ScoreReport | None = None) -> ScoreRun:
    """The JSON result: the contest's score of `report` (relative scores against the best of both programs
    and the problem's best known), and the comparison with `against`."""
    best = best_per_seed([report, *([against] if against else [])], scored.spec.objective)
    return ScoreRun(
        report=report,
        contest_score=contest_score(report, scored.spec, best),
        against=against,
        comparison=compare_reports(report, against) if against is not None and against.seeds else None,
    )


def judge_scored(
    solution: Path,
    scored: ScoredProblem,
    *,
    seeds_text: str | None,
    against: Path | None,
    language: str | None,
    time_s: float | None,
    repeats: int,
    jobs: int | None,
    as_json: bool,
) -> int:
    """`cpbot judge` on a score-based problem: prints each seed as it ends and the summary (or the JSON
    `ScoreRun`); exit 0 when every seed was scored (no run failed, no output was rejected)."""
    import click

    from cpbot.bot.report import score_view

    seeds = parse_seeds(seeds_text, scored.spec)
    lines = not as_json

    def in_order() -> OnSeed:
        """Each seed's line as soon as it and every seed before it are done, in the order asked."""
        done: dict[int, SeedScore] = {}
        pending = iter(seeds)
        waiting = [next(pending, None)]
        lock = threading.Lock()

        def on_seed(s: SeedScore) -> None:
            with lock:
                done[s.seed] = s
                while waiting[0] is not None and waiting[0] in done:
                    if lines:
                        click.echo(score_view.seed_line(done.pop(waiting[0])))
                    waiting[0] = next(pending, None)

        return on_seed

    if lines:
        click.echo(
            f"scoring {solution.name} on {len(seeds)} seeds of {scored.problem.title or scored.problem.id}", err=True
        )
    report, limits = score_file(
        solution, scored, seeds, language=language, time_s=time_s, repeats=repeats, jobs=jobs, on_seed=in_order()
    )
    other = None
    if against is not None:
        if lines:
            click.echo(f"scoring {against.name} on the same seeds", err=True)
        other, _ = score_file(against, scored, seeds, time_s=time_s, repeats=repeats, jobs=jobs, on_seed=in_order())
    run = score_run(report, scored, other)
    if as_json:
        click.echo(run.model_dump_json(indent=2))
    else:
        for line in score_view.summary(report, limits, run.contest_score):
            click.echo(line)
        if run.comparison is not None:
            for line in score_view.comparison_lines(solution.name, against.name if against else "", run.comparison):
                click.echo(line)
    return 0 if report.verdict == Verdict.AC and report.seeds else 1
