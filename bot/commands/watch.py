"""`cpbot watch`: notice contests, solve them as they start, submit what passes the gate, follow verdicts."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import click

from cpbot.agents.llm import LLMClient
from cpbot.bot.browser import browser_option, browser_settings, tell_user
from cpbot.bot.commands.solve import parse_strategy_options
from cpbot.bot.config import resolve_llm
from cpbot.bot.submit.credentials import jar_secrets
from cpbot.bot.submit.endpoints import Endpoints, site_client
from cpbot.bot.submit.gate import GateConfig
from cpbot.bot.transcripts import TranscriptStore
from cpbot.bot.watch.adapters import AgentSolver, ScrapedSite
from cpbot.bot.watch.loop import ContestLoop
from cpbot.bot.watch.ports import ContestBudget, LoopOptions, SubmitPort
from cpbot.bot.watch.render import WatchReport, changes, report, view
from cpbot.bot.watch.scheduler import Watcher, contest_row
from cpbot.bot.watch.state import WatchState, contest_key
from cpbot.bot.watch.submitting import open_submitter
from cpbot.core.errors import ConfigError, CpbotError
from cpbot.core.registry import DEFAULT_LANGUAGE, DEFAULT_STRATEGY, LANGUAGE_NAMES, STRATEGY_NAMES
from cpbot.judge.sandbox import Sandbox
from cpbot.scrapers import leetcode_contests
from cpbot.scrapers.codeforces_api import CodeforcesApi
from cpbot.scrapers.contests import SITES, upcoming_contests
from cpbot.scrapers.cookies import load_cookies_txt
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.listing import Contest

SITE_NAMES = {"cf": "codeforces", "lc": "leetcode", "codeforces": "codeforces", "leetcode": "leetcode"}
CHECKS = ("samples", "generated", "stress", "profile")


class ListingError(CpbotError):
    """`cpbot watch --once` could not read any contest list, so it had nothing to do."""


def gate_config(text: str) -> GateConfig:
    """`--gate samples,generated,stress,profile` (the default: all four) -> the checks required."""
    wanted = {c.strip() for c in text.split(",") if c.strip()}
    unknown = wanted - set(CHECKS)
    if unknown or not wanted:
        raise ConfigError(f"--gate {text!r}: unknown check(s) {sorted(unknown)}", hint=f"use some of {CHECKS}")
    return GateConfig(**{f"require_{c}": c in wanted for c in CHECKS})


def find_contest(site: str, contest_id: str, client: HttpClient, now: datetime) -> Contest:
    """A contest by id (Codeforces) or slug (LeetCode), finished ones included."""
    if site == "codeforces":
        found = [c for c in CodeforcesApi(client).contests() if c.id == contest_id]
    else:
        listed = leetcode_contests.fetch_upcoming(client, now) + leetcode_contests.fetch_recent(client, now, 1000)
        found = [c for c in listed if c.id == contest_id]
    if not found:
        raise ConfigError(f"{site} lists no contest {contest_id!r}", hint="`cpbot contests --site ...` shows them")
    return found[0]


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

    def __init__(self, stack: ExitStack, opts: dict[str, Any], stop: threading.Event) -> None:
        self.opts = opts
        self.stop = stop
        config = resolve_llm(base_url=opts["base_url"], api_key=opts["api_key"], model=opts["model"])
        cookies = load_cookies_txt(opts["cookies"]) if opts["cookies"] else None
        self.endpoints = Endpoints.from_env()
        self.state = stack.enter_context(WatchState())
        self.store = stack.enter_context(TranscriptStore())
        self.store.add_secret(config.api_key.get_secret_value())
        for secret in jar_secrets(cookies):
            self.store.add_secret(secret)
        self.store.mark_stale()
        browser = browser_settings(opts["use_browser"])
        self.client = stack.enter_context(
            site_client(self.endpoints, cookies=cookies, browser=browser, notify=tell_user)
        )
        llm = stack.enter_context(LLMClient(config))
        sandbox = stack.enter_context(Sandbox())
        self.site = ScrapedSite(self.client)
        strategy_options = parse_strategy_options(opts["strategy"], opts["strategy_option"])
        self.solver = AgentSolver(
            llm, strategy=opts["strategy"], language=opts["language"], sandbox=sandbox, options=strategy_options
        )
        self.options = LoopOptions(
            strategy=opts["strategy"],
            strategy_options=strategy_options,
            language=opts["language"],
            model=config.model,
            submit=opts["submit"],
            jobs=opts["jobs"],
            budget=ContestBudget.parse(opts["budget"]) if opts["budget"] else ContestBudget(),
            gate=gate_config(opts["gate"]),
            fetch_retry_s=opts["fetch_retry"],
        )
        self.submitter: SubmitPort | None = None
        if self.options.submit:
            self.submitter = open_submitter(
                stack,
                store=self.store,
                endpoints=self.endpoints,
                cookies=opts["cookies"],
                browser=browser,
                min_interval_s=opts["submit_interval"],
                poll_interval_s=opts["verdict_poll"],
                stop=stop,
            )

    def run_contest(self, key: str) -> None:
        """One contest's loop (called by the scheduler at the contest's start)."""
        loop = ContestLoop(
            self.state,
            self.store,
            key,
            site=self.site,
            solver=self.solver,
            submitter=self.submitter,
            options=self.options,
            stop=self.stop,
        )
        loop.run()


@click.command("watch")
@click.option("--site", "site_name", type=click.Choice((*SITE_NAMES, "all")), default="all", show_default=True)
@click.option("--contest", "contest_id", metavar="ID", help="Work on this contest only (live, finished or virtual).")
@click.option("--strategy", type=click.Choice(STRATEGY_NAMES), default=DEFAULT_STRATEGY, show_default=True)
@click.option("--lang", "language", type=click.Choice(LANGUAGE_NAMES), default=DEFAULT_LANGUAGE, show_default=True)
@click.option(
    "--strategy-option",
    "strategy_option",
    multiple=True,
    metavar="KEY=VALUE",
    help="A strategy option, repeatable (e.g. max_n=1000, count=false for cpbot).",
)
@click.option("--submit", is_flag=True, help="Submit what passes the gate (without it: a dry run, nothing posted).")
@click.option("--budget", metavar="K=V,...", help="Contest budget, e.g. tokens=2000000,calls=300,attempts=4.")
@click.option("--gate", default=",".join(CHECKS), show_default=True, help="The local checks a solution must pass.")
@click.option("--model", help="Model name (env CPBOT_MODEL).")
@click.option("--base-url", help="OpenAI-compatible API root (env CPBOT_BASE_URL).")
@click.option("--api-key", help="API key (env CPBOT_API_KEY or OPENAI_API_KEY); never stored.")
@click.option("--jobs", type=click.IntRange(1), default=2, show_default=True, help="Problems solved at once.")
@click.option("--within", type=click.FloatRange(0), default=24.0, show_default=True, help="Hours ahead to watch.")
@click.option("--poll", type=click.FloatRange(0.1), default=600.0, show_default=True, help="Seconds between lists.")
@click.option(
    "--fetch-retry",
    type=click.FloatRange(0.01),
    default=10.0,
    show_default=True,
    help="Seconds between tries while the problems are not published yet.",
)
@click.option(
    "--verdict-poll", type=click.FloatRange(0.01), default=2.0, show_default=True, help="Seconds between verdict polls."
)
@click.option(
    "--submit-interval", type=click.FloatRange(0), default=10.0, show_default=True, help="Min seconds between posts."
)
@click.option("--once", is_flag=True, help="Exit when the contests found (or --contest) are done.")
@click.option(
    "--cookies",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="CPBOT_COOKIES",
    help="A Netscape cookies.txt with the sites' session (env CPBOT_COOKIES).",
)
@click.option("--json", "as_json", is_flag=True, help="At exit, print the contests and problems as JSON.")
@browser_option
def watch(
    site_name: str, contest_id: str | None, once: bool, as_json: bool, within: float, poll: float, **opts: Any
) -> int:
    """Watch contests: at each start fetch, solve, gate and (with --submit) submit every problem."""
    sites = SITES if site_name == "all" else (SITE_NAMES[site_name],)
    if contest_id is not None and len(sites) != 1:
        raise ConfigError("--contest needs --site cf or --site lc")
    stop = threading.Event()
    list_failures: list[CpbotError] = []  # since the last listing that worked
    with ExitStack() as stack, stop_on_signals(stop):
        session = Session(stack, opts, stop)
        now = datetime.now(UTC)
        if contest_id is not None:
            target = contest_key(sites[0], contest_id)
            contest = find_contest(sites[0], contest_id, session.client, now)
            fresh = contest_row(contest, now)
            row = session.state.add_contest(fresh)
            if fresh.mode == "virtual" and row.mode == "live":
                # watched while it ran, asked for by id after its end: from now on it is practice
                row = session.state.set_contest(target, mode="virtual")
                session.state.reopen_ended(target)
            if row.status == "done" and any(
                p.status not in ("solved", "given_up") for p in session.state.problems(target)
            ):
                row = session.state.set_contest(target, status="running")  # e.g. a dry run, now with --submit

            def lister() -> list[Contest]:
                return [contest]

            def wanted(c: Contest) -> bool:
                return contest_key(c.site, c.id) == target
        else:
            horizon = timedelta(hours=within)

            def lister() -> list[Contest]:
                try:
                    listed = [c for s in sites for c in upcoming_contests(s, session.client, datetime.now(UTC))]
                except CpbotError as e:
                    list_failures.append(e)  # the watcher logs it and tries again at the next poll
                    raise
                list_failures.clear()
                return listed

            def wanted(c: Contest) -> bool:
                return c.site in sites and (c.start is None or c.start - datetime.now(UTC) <= horizon)

        watcher = Watcher(
            session.state,
            lister=lister,
            run_contest=session.run_contest,
            select=wanted,
            keep=lambda r: r.site in sites and (contest_id is None or r.key == contest_key(sites[0], contest_id)),
            poll_s=poll,
        )
        watcher.start()
        try:
            _follow(watcher, session, once=once, stop=stop, live=not as_json)
        finally:
            stop.set()
            watcher.shutdown()
            _join(watcher, timeout_s=30.0)
        final = report(session.state, watcher.seen(), store=session.store)
    if once and list_failures and not final.contests:
        # nothing polls after --once: a listing that failed leaves nothing done, which is an error
        failure = list_failures[-1]
        raise ListingError(
            f"the contest lists could not be read: {failure.message}",
            hint=failure.hint or "check the network and the site's address (CPBOT_CODEFORCES_URL / CPBOT_LEETCODE_URL)",
        )
    if as_json:
        click.echo(final.model_dump_json(indent=2))
    else:
        _print_final(final, within_h=None if contest_id is not None else within)
    errors = [e for e in watcher.errors if isinstance(e, CpbotError)]
    if errors:
        raise errors[0]
    if watcher.errors:
        raise watcher.errors[0]
    return 0


def _follow(watcher: Watcher, session: Session, *, once: bool, stop: threading.Event, live: bool) -> None:
    """Show the live view until stopped (or, with --once, until every contest seen is done); it is cleared
    at the end, when the final table is printed."""
    from rich.console import Console
    from rich.live import Live

    console = Console(stderr=True)

    def finished() -> bool:
        return once and watcher.polled.is_set() and not watcher.pending() and not watcher.active()

    def render() -> Any:
        return view(report(session.state, watcher.seen(), store=session.store))

    if live and console.is_terminal:
        with Live(render(), console=console, refresh_per_second=2, transient=True) as screen:
            while not stop.is_set() and not finished():
                watcher.changed.wait(0.5)
                watcher.changed.clear()
                screen.update(render())
        return
    seen: dict[tuple[str, str], str] = {}

    def log_changes() -> None:
        if live:  # stderr is a log or a pipe: one line per change instead of the table
            for line in changes(report(session.state, watcher.seen()), seen):
                click.echo(line, err=True)

    while not stop.is_set() and not finished():
        log_changes()
        watcher.changed.wait(0.5)
        watcher.changed.clear()
    log_changes()


def _join(watcher: Watcher, timeout_s: float) -> None:
    """Give running contest loops a moment to reach their next step and stop there."""
    deadline = time.monotonic() + timeout_s
    while watcher.active() and time.monotonic() < deadline:
        time.sleep(0.05)


def _print_final(final: WatchReport, *, within_h: float | None) -> None:
    from rich.console import Console

    console = Console()
    if not console.is_terminal:
        console.width = 160  # a log or a file: room for whole names rather than the 80-column default
    if not final.contests:
        # the live view's placeholder says the lists are polled; at exit nothing polls any more
        ahead = f" starting within {within_h:g} h" if within_h is not None else ""
        console.print(f"cpbot watch: no contest{ahead} to work on", style="dim")
        return
    console.print(view(final))
