"""Judging a score-based problem: a program scored on many seeds at once, across the sandbox's slots.

Each seed's input comes from the problem's generator, the program runs under the problem's limits,
and the scorer gives its output a score (`judge/scorer.py`). A run that fails (RE, TLE, MLE, OLE) or an
output the scorer rejects (WA) scores the problem's `failure_score` on that seed (0 where larger is
better). A seed may be run several times (`repeats`) to average the noise of programs that stop on the
clock; `judge/compare.py` compares two reports seed by seed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Literal

from pydantic import Field

from cpbot.core.errors import JudgeError
from cpbot.judge.build import build_solution
from cpbot.judge.compare import Comparison, compare_paired, mean, stdev
from cpbot.judge.execute import captured_run
from cpbot.judge.languages import BuildOptions, Program
from cpbot.judge.model import (
    SCHEMA_VERSION,
    HeuristicSpec,
    JudgeReport,
    Limits,
    Model,
    ProgramText,
    Solution,
    TestResult,
    Verdict,
    worst,
)
from cpbot.judge.scorer import ScoringTools, ToolError, read_score
from cpbot.judge.verdicts import STARVED_RETRIES, classify, is_borderline_tle, is_starved, run_limits

EXCERPT_BYTES = 1024
TESTER_EXTRA_MS = 1000  # what an interactive problem's tester may use besides the program
MAX_RERUNS = 2  # a near-limit TLE is run again (the machine's load, not the program)


class SeedScore(Model):
    """One seed: its score (the mean of its runs; a failed run scores the problem's `failure_score`), each
    run's score, and what went wrong."""

    seed: int
    score: float
    runs: list[float] = Field(default_factory=list)
    verdict: Verdict  # AC: scored; WA: the scorer rejected the output; RE/TLE/MLE/OLE: the run failed
    cpu_ms: float = 0.0  # the slowest run's
    message: ProgramText = ""


class ScoreReport(Model):
    """A program's scores on seeds: the per-seed scores, their total, mean and spread."""

    schema_version: int = SCHEMA_VERSION
    problem_id: str = ""
    language: str = ""
    objective: Literal["maximize", "minimize"] = "maximize"
    verdict: Verdict  # the worst seed's; CE when it did not build, IE when the tools failed
    seeds: list[SeedScore] = Field(default_factory=list)
    repeats: int = Field(1, ge=1)
    compile_log: ProgramText = ""
    reason: ProgramText = ""

    @property
    def scores(self) -> list[float]:
        return [s.score for s in self.seeds]

    @property
    def total(self) -> float:
        return sum(self.scores)

    @property
    def mean(self) -> float:
        return mean(self.scores)

    @property
    def stdev(self) -> float:
        return stdev(self.scores)

    @property
    def failed(self) -> int:
        """Seeds that scored 0 because the run failed or the output was rejected."""
        return sum(s.verdict != Verdict.AC for s in self.seeds)

    def score_of(self, seed: int) -> float | None:
        return next((s.score for s in self.seeds if s.seed == seed), None)

    def as_judge_report(self) -> JudgeReport:
        """The seeds as tests of a `JudgeReport` (each seed's score in `points`), for code that keeps judged
        attempts: "accepted" means every seed was scored."""
        results = [
            TestResult(
                index=i,
                name=f"seed-{s.seed}",
                verdict=s.verdict,
                cpu_ms=s.cpu_ms,
                points=s.score,
                checker_message=s.message,
            )
            for i, s in enumerate(self.seeds, start=1)
        ]
        return JudgeReport(
            verdict=self.verdict,
            results=results,
            passed=sum(r.verdict == Verdict.AC for r in results),
            total=len(results),
            compile_log=self.compile_log,
            language=self.language,
            reason=self.reason,
        )


def default_seeds(spec: HeuristicSpec, count: int | None = None, start: int = 0) -> list[int]:
    """The seeds scored when none are named: `start`, `start+1`, ... (`count`, else the problem's number)."""
    return list(range(start, start + (count or spec.seeds)))


def relative_scores(report: ScoreReport, best: dict[int, float], spec: HeuristicSpec) -> dict[int, float]:
    """Each seed's score under AHC's relative scoring: `unit * yours / best` (maximize) or `unit * best / yours`
    (minimize), rounded; 0 for a failed seed. `best` holds the best known score per seed (this report's own
    score counts when it is better)."""
    out: dict[int, float] = {}
    for s in report.seeds:
        top = best.get(s.seed)
        if s.verdict != Verdict.AC or s.score <= 0:  # a failed seed, or a score no ratio can be made of
            out[s.seed] = 0.0
            continue
        if spec.objective == "maximize":
            top = max(top or 0.0, s.score)
            out[s.seed] = round(spec.relative_unit * s.score / top)
        else:
            top = min(top if top is not None else s.score, s.score)
            out[s.seed] = round(spec.relative_unit * top / s.score)
    return out


def best_per_seed(reports: Sequence[ScoreReport], objective: Literal["maximize", "minimize"]) -> dict[int, float]:
    """The best valid score per seed among `reports` (what relative scoring divides by)."""
    pick = max if objective == "maximize" else min
    best: dict[int, float] = {}
    for report in reports:
        for s in report.seeds:
            if s.verdict == Verdict.AC:
                best[s.seed] = pick(best.get(s.seed, s.score), s.score)
    return best


def contest_score(report: ScoreReport, spec: HeuristicSpec, best: dict[int, float] | None = None) -> float:
    """The score a contest would give: the sum over seeds, of raw scores (absolute) or of relative ones."""
    if spec.scoring == "absolute":
        return report.total
    return sum(relative_scores(report, {**spec.best_known, **(best or {})}, spec).values())


def compare_reports(a: ScoreReport, b: ScoreReport) -> Comparison:
    """Paired comparison of two reports on the seeds they share (in A's order)."""
    b_by_seed = {s.seed: s.score for s in b.seeds}
    shared = [s for s in a.seeds if s.seed in b_by_seed]
    if not shared:
        raise JudgeError("the two reports share no seed: score both programs on the same seeds")
    return compare_paired([s.score for s in shared], [b_by_seed[s.seed] for s in shared], objective=a.objective)


OnSeed = Callable[[SeedScore], None]


class _Scoring:
    """One program scored with one problem's tools under its limits."""

    def __init__(self, program: Program, tools: ScoringTools, limits: Limits) -> None:
        self.program = program
        self.tools = tools
        self.limits = limits

    def run_once(self, seed: int) -> SeedScore:
        """One run on `seed` (a starved or near-limit TLE run is tried again)."""
        input_data = self.tools.input_for(seed)
        result = self._attempt(seed, input_data)
        for _ in range(MAX_RERUNS):
            if result[1] is None:
                break
            result = self._attempt(seed, input_data)
        return result[0]

    def _attempt(self, seed: int, input_data: bytes) -> tuple[SeedScore, str | None]:
        """A run and its score; the second item says why it should be run again (None: final)."""
        tester = self.tools.tester
        # an interactive program runs under its tester: the run's time is both's, so the tester gets a margin
        limits = self.limits
        if tester is not None:
            limits = limits.model_copy(update={"time_ms": limits.time_ms + TESTER_EXTRA_MS})
        argv = [*tester.argv, *self.program.argv] if tester is not None else self.program.argv
        for _ in range(1 + STARVED_RETRIES):
            with captured_run(argv, input_data, self.tools.sandbox, run_limits(limits)) as cap:
                run = cap.run
                size = cap.stdout_size()
                stderr = cap.read_stderr(EXCERPT_BYTES)
                output = cap.read_stdout() if run.ok and tester is None else b""
            if not is_starved(run):
                break
        verdict, message = classify(run, limits, stderr, size)
        if tester is not None and verdict == Verdict.RE:
            verdict = None  # the tester exits non-zero for a program that failed: its words say why
        if verdict is not None:
            again = "near-limit TLE" if is_borderline_tle(verdict, run, limits) else None
            failed = self.tools.spec.failure_score
            return SeedScore(
                seed=seed, score=failed, runs=[failed], verdict=verdict, cpu_ms=run.cpu_ms, message=message
            ), again
        if tester is not None:
            scored = read_score(stderr, ok=run.ok, who="tester")  # AHC's testers print the score last, on stderr
        else:
            scored = self.tools.score(input_data, output)
        score = scored.score if scored.valid else self.tools.spec.failure_score
        return (
            SeedScore(
                seed=seed,
                score=score,
                runs=[score],
                verdict=Verdict.AC if scored.valid else Verdict.WA,
                cpu_ms=run.cpu_ms,
                message=scored.message,
            ),
            None,
        )


def _merge(runs: list[SeedScore]) -> SeedScore:
    """A seed's runs as one: the mean score, every run's score, the worst verdict, the slowest run."""
    verdict = worst([r.verdict for r in runs])
    scores = [r.score for r in runs]
    return SeedScore(
        seed=runs[0].seed,
        score=mean(scores),
        runs=scores,
        verdict=verdict,
        cpu_ms=max(r.cpu_ms for r in runs),
        message=next((r.message for r in runs if r.verdict == verdict and r.message), ""),
    )


def score_program(
    program: Program,
    tools: ScoringTools,
    seeds: Sequence[int],
    *,
    limits: Limits,
    repeats: int = 1,
    jobs: int | None = None,
    on_seed: OnSeed | None = None,
) -> list[SeedScore]:
    """Score a built program on `seeds`, each `repeats` times, runs spread across the sandbox's slots.

    Returns one `SeedScore` per seed in the order given; `on_seed` gets each seed as its last run ends."""
    if repeats < 1:
        raise ValueError("repeats must be at least 1")
    runner = _Scoring(program, tools, limits)
    tasks = [(seed, r) for seed in seeds for r in range(repeats)]
    # a run, then the scorer on its output: two slots' worth of work in turn, so one thread per slot
    workers = max(1, min(jobs or tools.sandbox.size, len(tasks) or 1))
    done: dict[int, list[SeedScore]] = {}

    def one(task: tuple[int, int]) -> None:
        seed, _ = task
        result = runner.run_once(seed)
        finished = None
        with lock:
            done.setdefault(seed, []).append(result)
            if len(done[seed]) == repeats:
                finished = _merge(done[seed])
        if finished is not None and on_seed is not None:
            on_seed(finished)

    lock = threading.Lock()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for future in [pool.submit(one, t) for t in tasks]:
            future.result()
    return [_merge(done[seed]) for seed in dict.fromkeys(seeds)]


def score_solution(
    solution: Solution,
    problem_id: str,
    tools: ScoringTools,
    seeds: Sequence[int],
    *,
    limits: Limits,
    repeats: int = 1,
    jobs: int | None = None,
    build_options: BuildOptions | None = None,
    on_seed: OnSeed | None = None,
) -> ScoreReport:
    """Build `solution` and score it on `seeds`: CE when it does not build, IE when a tool fails."""
    base = {"problem_id": problem_id, "language": solution.language, "objective": tools.spec.objective}
    try:
        build = build_solution(solution, tools.sandbox, build_options)
        if build.program is None:
            return ScoreReport(**base, verdict=Verdict.CE, compile_log=build.log, reason="compilation failed")
        seed_scores = score_program(
            build.program, tools, seeds, limits=limits, repeats=repeats, jobs=jobs, on_seed=on_seed
        )
    except (ToolError, JudgeError) as e:
        return ScoreReport(**base, verdict=Verdict.IE, reason=e.message)
    verdict = worst([s.verdict for s in seed_scores])
    first = next((s for s in seed_scores if s.verdict == verdict and verdict != Verdict.AC), None)
    reason = f"{verdict} on seed {first.seed}: {first.message}" if first else ""
    return ScoreReport(
        **base,
        verdict=verdict,
        seeds=seed_scores,
        repeats=repeats,
        compile_log=build.log,
        reason=reason,
    )
