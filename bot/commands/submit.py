"""`cpbot submit`: judge a solution locally, pass it through the gate, submit it, follow the verdict."""

from __future__ import annotations

from pathlib import Path

import click

from cpbot.bot.cli.browser import browser_option
from cpbot.bot.cli.options import cookies_option, language_option
from cpbot.bot.submit.checks import CHECKS

_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


@click.command("submit")
@click.argument("solution_file", metavar="SOLUTION", type=_FILE)
@click.option("--problem", "problem_source", required=True, metavar="URL|FILE", help="Problem URL or problem.json.")
@click.option("--yes", is_flag=True, help="Submit without asking once the gate allows it.")
@language_option(default=None)
@click.option("--tests", "tests_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Directory of extra tests (NAME.in/NAME.out), judged as the generated tests.")  # fmt: skip
@click.option("--brute", type=_FILE, help="A slow but surely right solution, for a stress test (needs --gen).")
@click.option("--gen", "generator", type=_FILE, help="Generator run as `GEN N SEED` (stress and profile).")
@click.option("--max-n", type=click.IntRange(min=2), default=200_000, show_default=True,
              help="The problem's largest n, for the profile's extrapolation.")  # fmt: skip
@click.option("--stress-runs", type=click.IntRange(min=1), default=500, show_default=True)
@click.option("--skip", "skipped", multiple=True, type=click.Choice(CHECKS[1:]),
              help="A gate check not to require nor run (repeatable); recorded in the decision.")  # fmt: skip
@click.option("--samples-only", is_flag=True,
              help=f"Require only the samples: the same as --skip for {', '.join(CHECKS[1:])}.")  # fmt: skip
@cookies_option
@click.option("--handle", envvar="CPBOT_CF_HANDLE", help="Codeforces handle for a password login.")
@click.option("--timeout", "timeout_s", type=click.FloatRange(min=0), default=600.0, show_default=True,
              help="Seconds to follow the remote verdict.")  # fmt: skip
@click.option("--interval", "interval_s", type=click.FloatRange(min=0), default=2.0, show_default=True,
              help="Seconds between verdict polls (grows up to 4x).")  # fmt: skip
@click.option("--min-interval", type=click.FloatRange(min=0), default=10.0, show_default=True,
              help="Least seconds between two submissions to one site.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the decision, submission and verdict as JSON.")
@browser_option
def submit(
    solution_file: Path,
    problem_source: str,
    yes: bool,
    language: str | None,
    tests_dir: Path | None,
    brute: Path | None,
    generator: Path | None,
    max_n: int,
    stress_runs: int,
    skipped: tuple[str, ...],
    samples_only: bool,
    cookies: Path | None,
    handle: str | None,
    timeout_s: float,
    interval_s: float,
    min_interval: float,
    as_json: bool,
    use_browser: bool | None,
) -> int:
    """Judge SOLUTION locally, and submit it only if the gate allows; exits 0 only on a remote AC.

    The gate wants AC on the samples and on --tests, a clean stress run (--brute with --gen) and a
    profile within the limits (--gen); what is missing is a refusal unless --skip (or --samples-only) says
    otherwise.
    Sessions: --cookies (your browser's cookies.txt) or credentials stored by cpbot.
    """
    from cpbot.bot.app.sources import is_url, load_source
    from cpbot.bot.app.submission import run_submission
    from cpbot.bot.cli.browser import browser_settings, tell_user
    from cpbot.bot.store.transcripts import TranscriptStore
    from cpbot.bot.submit.credentials import load_credentials, register_secrets, session_jar
    from cpbot.bot.submit.gate import GateConfig
    from cpbot.judge.languages import get_language, language_for
    from cpbot.judge.model import Solution, Verdict
    from cpbot.judge.testdir import read_text_exact
    from cpbot.scrapers.endpoints import Endpoints, site_client
    from cpbot.scrapers.sites import find_site, site_for_url

    def say(line: str) -> None:
        if not as_json:
            click.echo(line)

    def confirm(question: str) -> None:
        click.confirm(question, abort=True, err=True)

    if samples_only:
        skipped = tuple(dict.fromkeys([*skipped, *CHECKS[1:]]))
    endpoints = Endpoints.from_env()
    lang = language or get_language(language_for(solution_file)).name
    solution = Solution(language=lang, source=read_text_exact(solution_file))  # type: ignore[arg-type]
    config = GateConfig.requiring(c for c in CHECKS if c not in skipped)
    with TranscriptStore() as store:
        # a URL's site is known before fetching (its session may be needed to fetch); a file's after
        problem = None if is_url(problem_source) else load_source(problem_source)
        site = site_for_url(problem_source).name if problem is None else problem.site
        creds = load_credentials(site) if find_site(site) else None  # a local problem has no session
        jar = session_jar(site, cookies, creds)
        register_secrets(store.add_secret, creds, jar)
        with site_client(endpoints, cookies=jar, browser=browser_settings(use_browser), notify=tell_user) as client:
            if problem is None:
                problem = load_source(problem_source, client=client)
            run_id = store.start_run("submit", problem_id=problem.id, config={"language": lang, "skip": list(skipped)})
            try:
                result = run_submission(
                    store, run_id, client, problem, solution, config, creds, handle,
                    evidence_args={"tests_dir": tests_dir, "brute": brute, "generator": generator, "max_n": max_n,
                                   "stress_runs": stress_runs, "stress_seconds": 60.0,
                                   "skip": skipped},
                    say=say, confirm=None if yes else confirm, source_name=solution_file.name,
                    timeout_s=timeout_s, interval_s=interval_s, min_interval=min_interval,
                )  # fmt: skip
            except BaseException as e:
                store.finish_run(run_id, "error", reason=str(e))
                raise
            finally:
                client.close()
    if as_json:
        click.echo(result.model_dump_json(indent=2))
    return 0 if result.verdict is not None and result.verdict.verdict == Verdict.AC else 1
