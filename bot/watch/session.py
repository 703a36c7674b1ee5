"""What one `cpbot watch` process sets up and shares between its contests (the model client, the sandbox,
the stores, the HTTP client, the solver and the submitter), and how it stops.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from cpbot.agents.budget import Budget
from cpbot.agents.llm import LLMClient
from cpbot.agents.llm_settings import LLMConfig
from cpbot.agents.solve import SolveResult
from cpbot.agents.strategies.base import KnowledgePool
from cpbot.agents.tracing import Tracer
from cpbot.bot.cli.browser import browser_settings, tell_user
from cpbot.bot.cli.config import resolve_llm
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.submit.checks import CHECKS
from cpbot.bot.submit.credentials import jar_secrets
from cpbot.bot.submit.gate import GateConfig
from cpbot.bot.watch.adapters import AgentSolver, ScrapedSite
from cpbot.bot.watch.heuristic import HeuristicContest
from cpbot.bot.watch.heuristic_rank import Later
from cpbot.bot.watch.loop import ContestLoop
from cpbot.bot.watch.ports import ContestBudget, LoopOptions, SubmitPort
from cpbot.bot.watch.rules import normalise_allowed
from cpbot.bot.watch.scheduler import Watcher
from cpbot.bot.watch.state import WatchState
from cpbot.bot.watch.submitting import open_submitter
from cpbot.core.errors import ConfigError, CpbotError
from cpbot.judge.model import Problem
from cpbot.judge.sandbox import Sandbox
from cpbot.scrapers.cookies import load_cookies_txt
from cpbot.scrapers.endpoints import Endpoints, site_client
from cpbot.scrapers.sites import get_site


class WatchOptions(BaseModel):
    """What `cpbot watch` was asked to do, as its options resolved them (command line, environment,
    config); `strategy_options` already parsed into the strategy's typed values."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    strategy: str
    strategy_options: dict[str, Any] = {}
    language: str
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = None
    cookies: Path | None = None
    use_browser: bool | None = None
    submit: bool = False
    jobs: int = 2
    budget: str | None = None
    gate: str = ""
    allow_unverified: bool = False  # the gate passes an answer the solve returned unverified
    fetch_retry: float = 10.0
    verdict_poll: float = 2.0
    submit_interval: float = 10.0
    ai_allowed_contests: tuple[str, ...] = ()
    results_poll: float = 600.0  # seconds before the first look for a heuristic contest's results (then doubled)
    results_wait: float = 48.0  # hours the results are looked for after the final standings


class ListingError(CpbotError):
    """`cpbot watch` could not read any contest list, so it had nothing to do."""


class ModelMissing(Exception):
    """Carries the model's `ConfigError` out of the contest loop, which retries `CpbotError`s from a solve:
    a missing model does not heal by retrying, so it fails the contest (see `Session.run_contest`)."""

    def __init__(self, error: ConfigError) -> None:
        super().__init__(error.message)
        self.error = error


class LazySolver:
    """The solver, asking for a model only when the first problem must be solved: a dry run that only
    lists contests (or waits for one) needs none; the first solve without one fails with the
    configuration's hint. A configured client is made at once, in the main thread: making it imports
    the HTTP client and the agents, which a contest's first solve after every restart should not wait for."""

    def __init__(
        self, stack: ExitStack, options: WatchOptions, config: LLMConfig | ConfigError, sandbox: Sandbox
    ) -> None:
        self._stack = stack
        self._sandbox = sandbox
        self._options = options
        self._config = config
        self._lock = threading.Lock()
        self._solver: AgentSolver | None = None
        if isinstance(config, LLMConfig):
            self._built()  # no request is made: the client only connects at its first call

    def _built(self) -> AgentSolver:
        with self._lock:
            if self._solver is None:
                if isinstance(self._config, ConfigError):
                    raise ModelMissing(self._config)
                llm = self._stack.enter_context(LLMClient(self._config))
                self._solver = AgentSolver(
                    llm,
                    strategy=self._options.strategy,
                    language=self._options.language,
                    sandbox=self._sandbox,
                    options=self._options.strategy_options,
                )
            return self._solver

    def __call__(self, problem: Problem, budget: Budget, tracer: Tracer, knowledge: KnowledgePool) -> SolveResult:
        return self._built()(problem, budget, tracer, knowledge)

    def for_strategy(self, strategy: str, options: dict[str, Any]) -> AgentSolver:
        """A solver with the same model, language and sandbox and another strategy (a heuristic contest's)."""
        base = self._built()
        return AgentSolver(base.model, strategy=strategy, language=base.language, sandbox=base.sandbox, options=options)


def gate_config(text: str) -> GateConfig:
    """`--gate samples,generated,stress,profile` (the default: all four) -> the checks required."""
    wanted = {c.strip() for c in text.split(",") if c.strip()}
    if not wanted:
        raise ConfigError(f"--gate {text!r}: no check named", hint=f"use some of {', '.join(CHECKS)}")
    try:
        return GateConfig.requiring(wanted)
    except ConfigError as e:
        raise ConfigError(f"--gate {text!r}: {e.message}", hint=e.hint) from None


@contextmanager
def stop_on_signals(stop: threading.Event) -> Iterator[None]:
    """SIGTERM and SIGINT ask the loops to stop at their next step (a restart resumes them)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}

    def handler(signum: int, frame: Any) -> None:
        stop.set()

    for s in previous:
        signal.signal(s, handler)
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


class Session:
    """Everything one `cpbot watch` process shares between its contests."""

    def __init__(self, stack: ExitStack, opts: WatchOptions, stop: threading.Event) -> None:
        self.stop = stop
        self.model_problem: ConfigError | None = None  # why no model could be resolved (asked at the first solve)
        config: LLMConfig | ConfigError
        try:
            config = resolve_llm(base_url=opts.base_url, api_key=opts.api_key, model=opts.model)
        except ConfigError as e:
            config = self.model_problem = e  # asked for when a problem must be solved, not before
        cookies = load_cookies_txt(opts.cookies) if opts.cookies else None
        self.endpoints = Endpoints.from_env()
        self.state = stack.enter_context(WatchState())
        self.store = stack.enter_context(TranscriptStore())
        if isinstance(config, LLMConfig):
            self.store.add_secret(config.api_key.get_secret_value())
        for secret in jar_secrets(cookies):
            self.store.add_secret(secret)
        self.store.mark_stale()
        browser = browser_settings(opts.use_browser)
        self.client = stack.enter_context(
            site_client(self.endpoints, cookies=cookies, browser=browser, notify=tell_user)
        )
        self.site = ScrapedSite(self.client)
        self.solver = LazySolver(stack, opts, config, stack.enter_context(Sandbox()))
        self.options = LoopOptions(
            strategy=opts.strategy,
            strategy_options=opts.strategy_options,
            language=opts.language,
            model=config.model if isinstance(config, LLMConfig) else "",
            submit=opts.submit,
            jobs=opts.jobs,
            budget=ContestBudget.parse(opts.budget) if opts.budget else ContestBudget(),
            gate=gate_config(opts.gate).model_copy(update={"allow_unverified": opts.allow_unverified}),
            fetch_retry_s=opts.fetch_retry,
            ai_allowed=normalise_allowed(opts.ai_allowed_contests),
            results_poll_s=opts.results_poll,
            results_wait_s=opts.results_wait * 3600.0,
        )
        # the watcher's scheduler, once there is one (a heuristic contest's looks for its results): (delay, job, key)
        self.later: Callable[[float, Callable[[], None], str], None] | None = None
        for key in sorted(self.options.ai_allowed):
            tell_user(
                f"{key} is listed as allowing AI-written code: it is submitted to live where its site's rules "
                "leave room for that; check its rules say so"
            )
        self.submitter: SubmitPort | None = None
        if self.options.submit:
            self.submitter = open_submitter(
                stack,
                store=self.store,
                endpoints=self.endpoints,
                cookies=opts.cookies,
                browser=browser,
                min_interval_s=opts.submit_interval,
                poll_interval_s=opts.verdict_poll,
                stop=stop,
            )

    def run_contest(self, key: str) -> None:
        """One contest's loop (called by the scheduler at the contest's start); a heuristic contest's search."""
        row = self.state.contest(key)
        if get_site(row.site).scored_contest(row.contest_id, row.name):
            try:
                self._heuristic(key).run()
            except ModelMissing as e:
                raise e.error from None
            return
        loop = ContestLoop(
            self.state,
            self.store,
            key,
            site=self.site,
            solver=self.solver,
            submitter=self.submitter,
            options=self.options,
            stop=self.stop,
            say=tell_user,
        )
        try:
            loop.run()
        except ModelMissing as e:
            raise e.error from None  # the CLI shows its message and hint

    def rank_only(self, key: str) -> None:
        """`--rank-only`: the program a heuristic contest's search kept, ranked now (no search)."""
        row = self.state.contest(key)
        if not get_site(row.site).scored_contest(row.contest_id, row.name):
            raise ConfigError(f"{key} is not a score-based contest", hint="--rank-only ranks a heuristic contest")
        self._heuristic(key).rank_only()

    def _heuristic(self, key: str) -> HeuristicContest:
        scheduler = self.later
        later: Later | None = None if scheduler is None else (lambda delay_s, job: scheduler(delay_s, job, key))
        return HeuristicContest(
            self.state, self.store, key, client=self.client, solver_for=self.solver.for_strategy,
            submitter=self.submitter, options=self.options, stop=self.stop, say=tell_user, later=later,
        )  # fmt: skip


def plan_line(session: Session) -> str:
    """One line saying what this watch will do with the contests it finds (before any is found)."""
    if session.options.submit:
        what = "each contest is fetched, solved and gated at its start; what passes the gate is submitted"
    else:
        what = "dry run: each contest is fetched, solved and gated at its start; nothing is submitted (--submit posts)"
    if session.model_problem is not None:
        what += (
            "; no model is configured, which the first solve needs "
            "(--base-url and --model, or CPBOT_BASE_URL and CPBOT_MODEL)"
        )
    return f"cpbot watch: {what}"


def join_loops(watcher: Watcher, timeout_s: float) -> None:
    """Give running contest loops a moment to reach their next step and stop there."""
    deadline = time.monotonic() + timeout_s
    while watcher.active() and time.monotonic() < deadline:
        time.sleep(0.05)
