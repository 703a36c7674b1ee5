"""`cpbot watch`: notice contests, solve them as they start, submit what passes the gate, follow verdicts."""

from __future__ import annotations

from typing import Any

import click

from cpbot.bot.cli.browser import browser_option
from cpbot.bot.cli.options import (
    cookies_option,
    language_option,
    model_endpoint_options,
    python_option,
    strategy_options,
)
from cpbot.bot.cli.site_option import ALL_SITES, chosen_sites, site_option
from cpbot.bot.submit.checks import CHECKS

RESULTS_POLL_HELP = (
    "Heuristic contests: seconds after the final standings before the first look for AtCoder's results (each "
    "later wait twice the last, at most 6 hours)."
)
RESULTS_WAIT_HELP = (
    "Heuristic contests: hours the results are looked for (0: the estimated performance stands; rank again later "
    "with --rank-only). Default: 48, or 0 with --once, which exits when the contest ends."
)
DEFAULT_RESULTS_WAIT_H = 48.0


@click.command("watch")
@python_option
@site_option("--site", "site_name", allow_all=True, default=ALL_SITES, show_default=True)
@click.option("--contest", "contest_id", metavar="ID", help="Work on this contest only (live, finished or virtual).")
@strategy_options
@language_option()
@click.option(
    "--submit",
    is_flag=True,
    help="Submit what passes the gate (without it: a dry run, nothing posted). During a live rated round or a "
    "LeetCode contest nothing is posted whatever the flags: cpbot takes part in the shadow and, with --submit, "
    "posts as practice after the round.",
)
@click.option(
    "--ai-allowed",
    "ai_allowed_contests",
    multiple=True,
    metavar="SITE:ID",
    help="A contest whose rules allow AI-written code (repeatable; config: [watch] ai_allowed_contests), "
    "submitted to live. Codeforces only: LeetCode allows no exception.",
)
@click.option("--budget", metavar="K=V,...", help="Contest budget, e.g. tokens=2000000,calls=300,attempts=4.")
@click.option("--gate", default=",".join(CHECKS), show_default=True, help="The local checks a solution must pass.")
@click.option(
    "--allow-unverified",
    is_flag=True,
    help="Let the gate pass an answer its solve returned unverified (it passed every test tried, but was not "
    "stressed, profiled or chosen among candidates); config: [watch] allow_unverified. Off: never posted.",
)
@model_endpoint_options
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
@click.option("--results-poll", type=click.FloatRange(0.01), default=600.0, show_default=True, help=RESULTS_POLL_HELP)
@click.option("--results-wait", type=click.FloatRange(0), default=None, help=RESULTS_WAIT_HELP)
@click.option(
    "--rank-only",
    is_flag=True,
    help="With --contest (a heuristic contest): rank the program its search kept against the final standings "
    "and results now, without searching.",
)
@click.option("--once", is_flag=True, help="Exit when the contests found (or --contest) are done.")
@cookies_option
@click.option("--json", "as_json", is_flag=True, help="At exit, print the contests and problems as JSON.")
@browser_option
def watch(
    site_name: str,
    contest_id: str | None,
    once: bool,
    as_json: bool,
    within: float,
    poll: float,
    rank_only: bool,
    **opts: Any,
) -> int:
    """Watch contests: at each start fetch, solve, gate and (with --submit) submit every problem."""
    import threading
    from contextlib import ExitStack
    from datetime import UTC, datetime, timedelta

    from cpbot.bot.app.strategy_options import parse_strategy_options, with_candidates
    from cpbot.bot.watch.render import follow, print_final, report
    from cpbot.bot.watch.rules import contest_key
    from cpbot.bot.watch.scheduler import Watcher, contest_row
    from cpbot.bot.watch.session import ListingError, Session, WatchOptions, join_loops, plan_line, stop_on_signals
    from cpbot.core.errors import ConfigError, CpbotError
    from cpbot.scrapers.listing import Contest
    from cpbot.scrapers.sites import get_site

    sites = chosen_sites(site_name)
    if contest_id is not None and len(sites) != 1:
        raise ConfigError("--contest needs one site", hint="add --site cf, --site lc or --site ac")
    if rank_only and contest_id is None:
        raise ConfigError("--rank-only needs --contest", hint="e.g. cpbot watch --site ac --contest ahc001 --rank-only")
    stop = threading.Event()
    list_failures: list[CpbotError] = []  # since the last listing that worked
    listed_once = threading.Event()  # some listing worked (with --contest: the contest was found)
    with ExitStack() as stack, stop_on_signals(stop):
        if opts["results_wait"] is None:
            opts["results_wait"] = 0.0 if once else DEFAULT_RESULTS_WAIT_H
        items = with_candidates(opts.pop("strategy_option"), opts.pop("candidates"))
        strategy_options = parse_strategy_options(opts["strategy"], items)
        session = Session(stack, WatchOptions(**opts, strategy_options=strategy_options), stop)
        click.echo(plan_line(session), err=True)
        now = datetime.now(UTC)
        if contest_id is not None:
            target = contest_key(sites[0], contest_id)
            contest = get_site(sites[0]).find_contest(contest_id, session.client, now)
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

            listed_once.set()
            if rank_only:
                session.rank_only(target)
                final = report(session.state, [target], store=session.store)
                if as_json:
                    click.echo(final.model_dump_json(indent=2))
                else:
                    print_final(final, within_h=None)
                return 0

            def lister() -> list[Contest]:
                return [contest]

            def wanted(c: Contest) -> bool:
                return contest_key(c.site, c.id) == target
        else:
            horizon = timedelta(hours=within)

            def lister() -> list[Contest]:
                try:
                    listed = [
                        c for s in sites for c in get_site(s).upcoming_contests(session.client, datetime.now(UTC))
                    ]
                except CpbotError as e:
                    list_failures.append(e)  # the watcher logs it and tries again at the next poll
                    raise
                list_failures.clear()
                listed_once.set()
                return listed

            def wanted(c: Contest) -> bool:
                soon = c.start is None or c.start - datetime.now(UTC) <= horizon
                return c.site in sites and soon and get_site(c.site).solvable(c)

        watcher = Watcher(
            session.state,
            lister=lister,
            run_contest=session.run_contest,
            select=wanted,
            keep=lambda r: r.site in sites and (contest_id is None or r.key == contest_key(sites[0], contest_id)),
            poll_s=poll,
        )
        session.later = watcher.later
        watcher.start()
        try:
            follow(watcher, session.state, session.store, once=once, stop=stop, live=not as_json)
        finally:
            stop.set()
            watcher.shutdown()
            join_loops(watcher, timeout_s=30.0)
        final = report(session.state, watcher.seen(), store=session.store)
    never_read = not listed_once.is_set()
    if never_read and not list_failures:
        # stopped (e.g. Ctrl-C) before the first listing finished: "no contest" would be a guess
        raise ListingError(
            "the contest lists were never read: cpbot watch stopped before the first listing finished",
            hint="let it run until the lists are read (they are polled at start, then every --poll seconds)",
        )
    if never_read or (once and list_failures and not final.contests):
        # the lists were never read (or, with --once, the last try failed and nothing polls any more):
        # an error whatever stopped the watch, with the last failure's reason and hint
        failure = list_failures[-1]
        what = "were never read" if never_read else "could not be read"
        raise ListingError(
            f"the contest lists {what}: {failure.message}",
            hint=failure.hint or "check the network and the site's address (CPBOT_CODEFORCES_URL / CPBOT_LEETCODE_URL)",
        )
    if as_json:
        click.echo(final.model_dump_json(indent=2))
    else:
        print_final(final, within_h=None if contest_id is not None else within)
    errors = [e for e in watcher.errors if isinstance(e, CpbotError)]
    if errors:
        raise errors[0]
    if watcher.errors:
        raise watcher.errors[0]
    return 0
