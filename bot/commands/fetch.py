"""`cpbot fetch`: download (or parse a saved copy of) a problem and lay it out for the judge."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click

from cpbot.bot.browser import browser_option, browser_settings, tell_user
from cpbot.bot.submit.endpoints import site_client
from cpbot.core.errors import ConfigError
from cpbot.judge.model import Problem
from cpbot.scrapers.browser_settings import BrowserSettings
from cpbot.scrapers.cookies import load_cookies_txt
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.sites import SITES, fetch_url, parse_content

_UNSAFE = re.compile(r"[^\w.-]+")


def problem_dirname(problem: Problem) -> str:
    """A directory name for a problem: its id without the site ("1873B", "two-sum")."""
    name = problem.id.split(":", 1)[-1]
    return _UNSAFE.sub("_", name).strip("._") or "problem"


def save_problem(problem: Problem, directory: Path) -> Path:
    """Write `problem.json` and `tests/sample-N.in|.out` into `directory`; returns the json's path.

    Sample files left by an earlier fetch are replaced; other tests in `tests/` are kept.
    """
    tests = directory / "tests"
    tests.mkdir(parents=True, exist_ok=True)
    for old in list(tests.glob("sample-*.in")) + list(tests.glob("sample-*.out")):
        old.unlink()
    for n, case in enumerate(problem.samples, start=1):
        name = case.name or f"sample-{n}"
        (tests / f"{name}.in").write_text(case.input, encoding="utf-8", newline="")
        if case.output is not None:
            (tests / f"{name}.out").write_text(case.output, encoding="utf-8", newline="")
    path = directory / "problem.json"
    path.write_text(problem.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return path


def open_client(cookies: Path | None, browser: BrowserSettings | None = None) -> HttpClient:
    """The HTTP client of a command (sites at their `CPBOT_*_URL` base), with the user's browser cookies when
    given, and the browser transport for sites behind a challenge page with `browser`."""
    jar = load_cookies_txt(cookies) if cookies else None
    return site_client(cookies=jar, browser=browser, notify=tell_user)


def load_problems(
    source: str,
    *,
    site: str | None = None,
    cookies: Path | None = None,
    page_url: str | None = None,
    browser: BrowserSettings | None = None,
) -> list[Problem]:
    """The problems at a URL, or in a saved page, LeetCode GraphQL answer or Competitive Companion JSON."""
    if re.match(r"^https?://", source, re.IGNORECASE):
        with open_client(cookies, browser) as client:
            return fetch_url(source, client, site)
    path = Path(source)
    if not path.is_file():
        what = "is a directory, not a file" if path.is_dir() else "does not exist"
        raise ConfigError(f"{source} {what}", hint="give a problem URL (https://...) or a saved page")
    return parse_content(path.read_bytes(), site, page_url)


def describe(problem: Problem) -> str:
    """One line about a problem for the terminal."""
    name = f"{problem.index}. {problem.title}" if problem.index else problem.title
    count = len(problem.samples)
    limits = f"{problem.limits.time_ms / 1000:g} s, {problem.limits.memory_mb} MB"
    return f"{problem.id}  {name}  ({problem.kind}, {limits}, {count} sample{'s' if count != 1 else ''})"


@click.command("fetch")
@click.argument("source", metavar="URL|FILE")
@click.option("--site", type=click.Choice(SITES), help="The site, when it cannot be told from URL|FILE.")
@click.option("--url", "page_url", metavar="URL", help="The address of a saved page (gives the problem id).")
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where to write (default: ./<problem> for one problem, ./ with a folder per problem for many).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the parsed Problem as JSON.")
@click.option(
    "--cookies",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="CPBOT_COOKIES",
    help="A Netscape cookies.txt exported from your browser (env CPBOT_COOKIES).",
)
@browser_option
def fetch(
    source: str,
    site: str | None,
    page_url: str | None,
    out_dir: Path | None,
    as_json: bool,
    cookies: Path | None,
    use_browser: bool | None,
) -> None:
    """Fetch a problem from Codeforces or LeetCode, or parse one saved from the browser.

    URL|FILE is a problem URL (a Codeforces contest URL fetches all its problems), a Codeforces page
    saved from the browser (one problem or the all-problems page), a LeetCode GraphQL answer, or a
    Competitive Companion JSON. Writes problem.json and tests/sample-N.in|.out.
    """
    problems = load_problems(
        source, site=site, cookies=cookies, page_url=page_url, browser=browser_settings(use_browser)
    )
    if len(problems) == 1:
        targets = [(problems[0], out_dir or Path(problem_dirname(problems[0])))]
    else:
        root = out_dir or Path(".")
        targets = [(p, root / problem_dirname(p)) for p in problems]
    for problem, directory in targets:
        save_problem(problem, directory)
        if not as_json:
            click.echo(f"{describe(problem)} -> {directory}")
    if as_json:
        dumped = [json.loads(p.model_dump_json()) for p in problems]
        click.echo(json.dumps(dumped[0] if len(dumped) == 1 else dumped, indent=2, ensure_ascii=False))
