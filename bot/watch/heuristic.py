"""`cpbot watch` of a heuristic contest (an AtCoder Heuristic Contest): one search until the end, then the rank.

A score-based contest has no verdict to wait for: cpbot fetches the task and the contest's tools into a folder
of its own (`<data dir>/heuristic/<contest>/<task>/`: problem.json, tools/, best.<ext>), runs the scored
strategy (`ale`, unless a scored one is named) until shortly before the end, and keeps the leader's program in
`best.<ext>` at every moment (the strategy's `best_file`), which a person can submit by hand. The transcript
holds every program's seeds and scores (the strategy's score events).

- Shadow by default: AtCoder restricts highly automated use in AHC (2025-06-16). Only a contest the user lists
  in `ai_allowed_contests` with `--submit` is submitted to, the leader each time it changed, never sooner
  than the contest's interval after the last post (`SubmitPacer`; AHC: 5 minutes, 30 in long contests).
- A restarted watch of a live contest goes on from the program kept on disk: the strategy scores it again on the
  same seeds and starts from it (`Ale.start_from`) rather than from a new first program; `best.json` beside it
  holds the leader's mean at every moment, so the result says what it scored before the restart and again.
- After the search the kept program is scored on fresh seeds; after the end the site's final standings rank
  its estimated total (that mean times the system test's inputs) and give the performance it would have had,
  and once AtCoder's results are out the published performance of that rank (`heuristic_rank.Ranking`): the
  contest's standing in the state and a `standing` event, and `result.json` beside the program. The last
  leader is not posted when it came within the interval of the last post.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cpbot.agents.budget import Budget
from cpbot.agents.strategies.base import KnowledgePool
from cpbot.agents.tracing import ScoreEvent, TraceEvent, Tracer
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.watch.events import ContestStateEvent, RulesEvent
from cpbot.bot.watch.heuristic_rank import HeuristicResult, Later, Ranking, read_result, summary, write_result
from cpbot.bot.watch.ports import LoopOptions, Solver, SubmitPort
from cpbot.bot.watch.rules import Participation, decide
from cpbot.bot.watch.state import ContestRow, WatchState
from cpbot.core.bounds import TEST_FILE
from cpbot.core.dirs import data_dir
from cpbot.core.errors import ConfigError, CpbotError, ParseError
from cpbot.core.registry import (
    DEFAULT_SCORED_STRATEGY,
    LANGUAGE_BY_EXTENSION,
    language_for_path,
    language_spec,
    strategy_spec,
)
from cpbot.core.safe_paths import component, read_file, write_inside
from cpbot.judge.model import SCHEMA_VERSION, Model, Problem, Solution
from cpbot.judge.sandbox import default_sandbox
from cpbot.judge.scorer import ScoringTools
from cpbot.judge.scoring import ScoreReport, default_seeds, score_solution
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.sites import fetch_url, get_site

FRESH_SEEDS_FROM = 1_000_000  # the estimate's seeds: far from the search's own (0, 1, ...)
MARGIN_S = 60.0  # the search stops this long before the end (less in short contests), for the last post
BEST_RECORD = "best.json"


class BestRecord(Model):
    """The leader's scores as the search last saw them (`best.json` beside the kept program)."""

    schema_version: int = SCHEMA_VERSION
    iteration: int
    mean: float
    seeds: list[int]


class SubmitPacer:
    """When the next post may go: never sooner than `interval_s` after the last one."""

    def __init__(self, interval_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval_s = interval_s
        self.clock = clock
        self.last: float | None = None

    def due(self) -> bool:
        return self.last is None or self.clock() - self.last >= self.interval_s

    def posted(self) -> None:
        self.last = self.clock()


class LeaderWatch:
    """A tracer that passes every event on, keeps the first score event and the last that named a leader, and
    writes the leader's scores to `record` (a `BestRecord`) each time."""

    def __init__(self, inner: Tracer, record: Path | None = None) -> None:
        self.inner = inner
        self.record = record
        self.first: ScoreEvent | None = None
        self.leader: ScoreEvent | None = None
        self.resumed = False  # the search went on from a kept program (its first score event is that program's)

    def emit(self, event: TraceEvent) -> None:
        self.inner.emit(event)
        if isinstance(event, ScoreEvent):
            self.first = self.first or event
            if event.best:
                self.leader = event
                if self.record is not None:
                    seeds = [s.seed for s in event.report.seeds]
                    kept = BestRecord(iteration=event.iteration, mean=event.report.mean, seeds=seeds)
                    write_inside(self.record.parent, self.record.name, kept.model_dump_json().encode())


def read_best_record(path: Path) -> BestRecord | None:
    """The `best.json` an earlier search left. None when there is none or it cannot be read: it only informs (the
    kept program is scored again either way), so a damaged one does not stop the watch."""
    if not path.is_file():
        return None
    try:
        return BestRecord.model_validate_json(read_file(path, TEST_FILE))
    except ValueError:
        return None


class HeuristicContest:
    """One heuristic contest, from its start to its ranked result."""

    def __init__(
        self,
        state: WatchState,
        store: TranscriptStore,
        key: str,
        *,
        client: HttpClient,
        solver_for: Callable[[str, dict[str, Any]], Solver],
        submitter: SubmitPort | None,
        options: LoopOptions,
        stop: threading.Event,
        say: Callable[[str], None],
        root: Path | None = None,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
        later: Later | None = None,
    ) -> None:
        self.state, self.store, self.key = state, store, key
        self.client, self.solver_for, self.submitter = client, solver_for, submitter
        self.options, self.stop, self.say, self.now, self.later = options, stop, say, now, later
        self.root = root or data_dir() / "heuristic"
        self._searching_done = threading.Event()  # the poster's signal to make its last post and stop
        self._post_error: CpbotError | None = None

    def run(self) -> HeuristicResult:
        """The search until shortly before the end, then the rank; or, for a contest already over whose kept
        program still waits for AtCoder's results (a restart), the rank only."""
        return self._with_run(self._run)

    def rank_only(self) -> HeuristicResult:
        """The program an earlier search kept, ranked now against the final standings and results (one look)."""
        return self._with_run(self._rank_only)

    def _with_run(self, body: Callable[[ContestRow, str], HeuristicResult]) -> HeuristicResult:
        contest = self.state.contest(self.key)
        run_id = self.store.start_run(
            "contest", problem_id=self.key, strategy=self._strategy(), model=self.options.model or None,
            config={"contest": contest.model_dump(mode="json"), "options": self.options.model_dump(mode="json")},
        )  # fmt: skip
        self.state.set_contest(self.key, status="running", run_id=run_id)
        try:
            result = body(contest, run_id)
        except CpbotError as e:
            self.state.set_contest(self.key, status="done", detail=f"error: {e.message}")
            self.store.finish_run(run_id, "error", reason=e.message)
            raise
        self.store.finish_run(run_id, "done", reason=self.state.contest(self.key).detail)
        return result

    def _strategy(self) -> str:
        chosen = self.options.strategy
        return chosen if strategy_spec(chosen).scored else DEFAULT_SCORED_STRATEGY

    def _step(self, run_id: str, state: str, detail: str) -> None:
        self.store.record(run_id, ContestStateEvent(contest_id=self.key, state=state, detail=detail))
        self.state.set_contest(self.key, detail=detail)
        self.say(f"{self.key}: {detail}")

    def _ranking(self, contest: ContestRow, run_id: str, folder: Path, result: HeuristicResult) -> Ranking:
        return Ranking(
            contest, folder, result, run_id=run_id, state=self.state, store=self.store, client=self.client,
            options=self.options, stop=self.stop.is_set, wait=self.stop.wait, say=self.say, now=self.now,
            later=self.later,
        )  # fmt: skip

    def _folders(self, contest: ContestRow) -> list[Path]:
        """The task folders of this contest's earlier searches."""
        contest_folder = self.root / component(contest.contest_id, "contest")
        return sorted(f for f in contest_folder.iterdir() if f.is_dir()) if contest_folder.is_dir() else []

    def _kept(self, contest: ContestRow) -> tuple[Path, HeuristicResult] | None:
        """The folder and `result.json` of an earlier search of this contest (the latest), if any."""
        found = [(f, r) for f in self._folders(contest) if (r := read_result(f)) is not None]
        return max(found, key=lambda fr: (fr[0] / "result.json").stat().st_mtime) if found else None

    def _rank_only(self, contest: ContestRow, run_id: str) -> HeuristicResult:
        kept = self._kept(contest)
        if kept is None or kept[1].estimated_total is None:
            kept = self._estimate_kept(contest, run_id)  # a search stopped before its estimate (the watch was killed)
        if kept is None:
            raise ConfigError(
                f"no program kept for {self.key} in {self.root / component(contest.contest_id, 'contest')}",
                hint="cpbot watch --contest ID (without --rank-only) searches it first",
            )
        folder, result = kept
        self._ranking(contest, run_id, folder, result).once()
        return result

    def _estimate_kept(self, contest: ContestRow, run_id: str) -> tuple[Path, HeuristicResult] | None:
        """A kept program without a `result.json` estimate, estimated now from its folder's problem.json."""
        ext = language_spec(self.options.language).extension
        for folder in self._folders(contest):
            programs = [folder / f"best{ext}", *sorted(folder.glob("best.*"))]
            best = next((b for b in programs if b.is_file() and b.suffix in LANGUAGE_BY_EXTENSION), None)
            if best is None or not (folder / "problem.json").is_file():
                continue
            try:
                problem = Problem.model_validate_json(read_file(folder / "problem.json", TEST_FILE))
            except ValueError as e:
                raise ParseError(f"{folder / 'problem.json'} is not a cpbot problem file: {e}") from None
            participation = contest.participation or Participation.SHADOW
            result = HeuristicResult(
                contest_id=contest.contest_id, task=problem.id, participation=participation, best_file=str(best)
            )
            self._estimate(run_id, problem, folder, best, result)
            return folder, result
        return None

    def _estimate(self, run_id: str, problem: Problem, folder: Path, best: Path, result: HeuristicResult) -> None:
        """`result`'s estimate: the kept program's mean on fresh seeds times the system test's inputs."""
        spec = problem.heuristic
        assert spec is not None
        self._step(run_id, "estimating", f"the best program scored on {spec.seeds} seeds the search never used")
        fresh = self._fresh_report(problem, folder, best)
        result.relative = spec.scoring == "relative"
        result.seeds = [s.seed for s in fresh.seeds]
        result.mean = fresh.mean if fresh.seeds else spec.failure_score
        result.system_inputs = spec.system_inputs or spec.seeds
        result.estimated_total = result.mean * result.system_inputs

    def _run(self, contest: ContestRow, run_id: str) -> HeuristicResult:
        running = contest.end is not None and self.now() < contest.end
        kept = self._kept(contest)
        if kept is not None and kept[1].awaits_results and not running:  # a restart while the results are awaited
            self.say(f"{self.key}: the kept program waits for AtCoder's results; looking for them again")
            self._ranking(contest, run_id, *kept).after_end()
            return kept[1]
        decision = decide(
            contest.site, contest.contest_id, running=running, gym=contest.gym, submit=self.options.submit,
            allowed=self.options.ai_allowed, name=contest.name,
        )  # fmt: skip
        self.store.record(run_id, RulesEvent(**dict(decision)))
        self.state.set_contest(self.key, participation=decision.participation)
        for line in decision.reminders:
            self.say(f"{self.key}: {line}")
        live = decision.participation is Participation.LIVE and self.options.submit and self.submitter is not None
        problem, folder = self._fetch(contest)
        best = folder / f"best{language_spec(self.options.language).extension}"
        before = read_best_record(folder / BEST_RECORD) if best.is_file() else None
        if best.is_file():  # a search before a restart: the new one goes on from its program
            was = f" (mean {before.mean:,.1f} on its {len(before.seeds)} seeds)" if before is not None else ""
            self.say(f"{self.key}: going on from the program an earlier search kept in {best}{was}")
        self._step(run_id, "solving", f"searching {problem.id}; the best program so far is kept in {best}")
        watch, posts = self._search(contest, run_id, problem, folder, best, live)
        result = HeuristicResult(
            contest_id=contest.contest_id,
            task=problem.id,
            participation=decision.participation,
            best_file=str(best),
            posts=posts,
        )
        spec = problem.heuristic
        assert spec is not None
        result.relative = spec.scoring == "relative"
        if before is not None or watch.resumed:
            result.kept_mean_before = before.mean if before is not None else None
            result.kept_mean_again = watch.first.report.mean if watch.first is not None else None
        if watch.leader is not None and best.is_file():
            result.search_mean = watch.leader.report.mean
            self._estimate(run_id, problem, folder, best, result)
        ranking = self._ranking(contest, run_id, folder, result)
        if result.estimated_total is not None and running:
            ranking.after_end()
        else:
            write_result(folder, result)
            self.state.set_contest(self.key, status="done", detail=summary(result))
            self.say(f"{self.key}: {summary(result)}")
        return result

    def _fresh_report(self, problem: Problem, folder: Path, best: Path) -> ScoreReport:
        """The best program scored on seeds no version was chosen on: the search's own mean is biased upwards
        (the leader is the version that did best on those very seeds)."""
        spec = problem.heuristic
        assert spec is not None
        tools = ScoringTools.load(problem, folder, default_sandbox())
        seeds = default_seeds(spec, start=FRESH_SEEDS_FROM)
        chosen = self.options.language
        language = chosen if language_spec(chosen).extension == best.suffix else language_for_path(best)
        solution = Solution(language=language, source=best.read_text(encoding="utf-8"))
        return score_solution(solution, problem.id, tools, seeds, limits=problem.limits)

    def _fetch(self, contest: ContestRow) -> tuple[Problem, Path]:
        """The contest's (first) task with its tools unpacked in the task's folder, and that folder."""
        site = get_site(contest.site)
        tasks = site.contest_problems(contest.contest_id, self.client, self.now())
        if not tasks:
            raise ParseError(f"{contest.url} lists no task yet")
        problem = fetch_url(tasks[0].url, self.client)[0]
        if problem.heuristic is None:
            raise ParseError(f"{tasks[0].url} is not a score-based task")
        folder = self.root / component(contest.contest_id, "contest") / component(problem.id.split(":")[-1], "task")
        folder.mkdir(parents=True, exist_ok=True)
        problem = site.fetch_tools(problem, folder, self.client)
        write_inside(folder, "problem.json", problem.model_dump_json(indent=2, exclude={"raw"}).encode())
        return problem, folder

    def _search(
        self, contest: ContestRow, run_id: str, problem: Problem, folder: Path, best: Path, live: bool
    ) -> tuple[LeaderWatch, int]:
        """The strategy's search until shortly before the end; with `live`, the leader posted as it changes."""
        left = (contest.end - self.now()).total_seconds() if contest.end else None
        margin = min(MARGIN_S, 0.1 * left) if left else 0.0
        limits = self.options.budget
        seconds = [s for s in (limits.seconds, (left - margin) if left else None) if s is not None]
        budget = Budget(max_calls=limits.calls, max_tokens=limits.tokens, max_seconds=min(seconds) if seconds else None)
        strategy = self._strategy()
        options: dict[str, Any] = dict(self.options.strategy_options) if strategy == self.options.strategy else {}
        options.update(folder=str(folder), best_file=str(best))
        resumed = best.is_file()
        if resumed:
            options["start_from"] = str(best)
        child = self.store.start_run(
            "solve", problem_id=problem.id, strategy=strategy, model=self.options.model or None,
            config={"language": self.options.language, "strategy_options": options, "budget": budget.model_dump()},
            parent=run_id,
        )  # fmt: skip
        watch = LeaderWatch(self.store.tracer(child), folder / BEST_RECORD)
        watch.resumed = resumed
        posts = [0]
        poster = None
        if live:
            interval = get_site(contest.site).submit_interval_s(contest.duration_s)
            poster = threading.Thread(
                target=self._post_leader, args=(problem, best, SubmitPacer(interval), posts), daemon=True
            )
            poster.start()
        solver = self.solver_for(strategy, options)
        try:
            result = solver(problem, budget, watch, KnowledgePool())
        except CpbotError as e:
            self.store.finish_run(child, "error", reason=e.message)
            raise
        finally:
            self._searching_done.set()
        self.store.finish_run(child, result.status, reason=result.reason)
        if poster is not None:
            poster.join()
        if self._post_error is not None:
            raise self._post_error
        return watch, posts[0]

    def _post_leader(self, problem: Problem, best: Path, pacer: SubmitPacer, posts: list[int]) -> None:
        """Post the leader whenever it changed and the contest's interval allows, until the search ends; a
        failed post stops the posting and is raised once the search is over."""
        try:
            self._post_loop(problem, best, pacer, posts)
        except CpbotError as e:
            self._post_error = e

    def _post_loop(self, problem: Problem, best: Path, pacer: SubmitPacer, posts: list[int]) -> None:
        assert self.submitter is not None
        posted = ""
        while not self.stop.is_set():
            finished = self._searching_done.is_set()
            source = best.read_text(encoding="utf-8") if best.is_file() else ""
            if source and source != posted and pacer.due():
                self.submitter.submit(problem, Solution(language=self.options.language, source=source))
                pacer.posted()
                posted = source
                posts[0] += 1
            if finished:
                return
            self._searching_done.wait(0.2)
