"""`cpbot submit`: judge a solution locally, pass it through the gate, submit it, follow the verdict."""

from __future__ import annotations

import re
from pathlib import Path

import click
from pydantic import BaseModel, ConfigDict, SecretStr

from cpbot.bot.browser import browser_option, browser_settings, tell_user
from cpbot.bot.commands.solve import load_source
from cpbot.bot.submit.base import RemoteVerdict, SubmissionRecord, source_sha256, submitter_for
from cpbot.bot.submit.credentials import SiteCredentials, load_credentials, register_secrets, session_jar
from cpbot.bot.submit.endpoints import Endpoints, site_client
from cpbot.bot.submit.gate import GateConfig, GateDecision, GateEvidence, gate
from cpbot.bot.submit.ledger import SubmissionLedger
from cpbot.bot.transcripts import TranscriptStore
from cpbot.core.errors import ConfigError
from cpbot.core.registry import LANGUAGE_NAMES
from cpbot.judge.checkers import make_checker
from cpbot.judge.languages import get_language, language_for
from cpbot.judge.model import SCHEMA_VERSION, JudgeReport, Problem, Solution, TestCase, Verdict
from cpbot.judge.profile import profile_program
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import default_sandbox
from cpbot.judge.stress import stress_programs
from cpbot.judge.testdir import load_tests_dir, read_text_exact
from cpbot.scrapers.sites import fetch_url

CHECKS = ("samples", "generated", "stress", "profile")
_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


class SubmitResult(BaseModel):
    """What `cpbot submit --json` prints."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    decision: GateDecision
    submission: SubmissionRecord | None = None
    verdict: RemoteVerdict | None = None


def build_evidence(
    problem: Problem,
    solution: Solution,
    *,
    tests_dir: Path | None,
    brute: Path | None,
    generator: Path | None,
    max_n: int,
    stress_runs: int,
    stress_seconds: float,
    skip: tuple[str, ...] = (),
) -> GateEvidence:
    """Judge `solution` locally: samples, extra tests, stress against a brute force, profile (checks
    in `skip` are not run)."""
    samples = judge_problem(solution, problem) if problem.samples else None
    generated: JudgeReport | None = None
    if tests_dir is not None:
        tests = [
            TestCase(input=t.input, output=t.output, origin="generated", name=t.name, cases=t.cases)
            for t in load_tests_dir(tests_dir)
        ]
        generated = judge_problem(solution, problem, tests)
    stress = profile = None
    if generator is not None:
        sandbox = default_sandbox()
        build = get_language(solution.language).build(solution.source, sandbox)
        gen = _build_file(generator, sandbox, "generator")
        if build.program is not None:
            if brute is not None and "stress" not in skip:
                stress = stress_programs(
                    build.program,
                    _build_file(brute, sandbox, "brute force"),
                    gen,
                    checker=make_checker(problem.checker if problem.kind == "stdio" else "tokens", sandbox),
                    limits=problem.limits,
                    sandbox=sandbox,
                    max_runs=stress_runs,
                    max_seconds=stress_seconds,
                )
            if "profile" not in skip:
                profile = profile_program(build.program, gen, max_n=max_n, limits=problem.limits, sandbox=sandbox)
    elif brute is not None:
        raise ConfigError("--brute needs --gen", hint="a stress test needs a generator of random inputs")
    return GateEvidence(
        samples=samples,
        generated=generated,
        stress=stress,
        profile=profile,
        source_sha256=source_sha256(solution.source),
    )


def _build_file(path: Path, sandbox, role: str):  # -> Program
    from cpbot.judge.build import build_program_file

    return build_program_file(path, sandbox, role=role)


def print_decision(decision: GateDecision) -> None:
    for check in decision.checks:
        mark = "ok " if check.passed else ("-- " if not check.required else "NO ")
        need = "" if check.required else " (not required)"
        click.echo(f"  {mark}{check.name:<10} {decision.summary[check.name]}{need}")
    if decision.allowed:
        click.echo("gate: allowed")
    else:
        click.echo("gate: refused")
        for reason in decision.reasons:
            click.echo(f"  - {reason}")


@click.command("submit")
@click.argument("solution_file", metavar="SOLUTION", type=_FILE)
@click.option("--problem", "problem_source", required=True, metavar="URL|FILE", help="Problem URL or problem.json.")
@click.option("--yes", is_flag=True, help="Submit without asking once the gate allows it.")
@click.option("--lang", "language", type=click.Choice(LANGUAGE_NAMES), help="Default: from the file extension.")
@click.option("--tests", "tests_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Directory of extra tests (NAME.in/NAME.out), judged as the generated tests.")  # fmt: skip
@click.option("--brute", type=_FILE, help="A slow but surely right solution, for a stress test (needs --gen).")
@click.option("--gen", "generator", type=_FILE, help="Generator run as `GEN N SEED` (stress and profile).")
@click.option("--max-n", type=click.IntRange(min=2), default=200_000, show_default=True,
              help="The problem's largest n, for the profile's extrapolation.")  # fmt: skip
@click.option("--stress-runs", type=click.IntRange(min=1), default=500, show_default=True)
@click.option("--skip", "skipped", multiple=True, type=click.Choice(CHECKS[1:]),
              help="A gate check not to require nor run (repeatable); recorded in the decision.")  # fmt: skip
@click.option("--cookies", type=click.Path(dir_okay=False, path_type=Path), envvar="CPBOT_COOKIES",
              help="Netscape cookies.txt from your browser (env CPBOT_COOKIES).")  # fmt: skip
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
    profile within the limits (--gen); what is missing is a refusal unless --skip says otherwise.
    Sessions: --cookies (your browser's cookies.txt) or credentials stored by cpbot.
    """
    endpoints = Endpoints.from_env()
    browser = browser_settings(use_browser)
    is_url = bool(re.match(r"^https?://", problem_source, re.IGNORECASE))
    lang = language or get_language(language_for(solution_file)).name
    solution = Solution(language=lang, source=read_text_exact(solution_file))  # type: ignore[arg-type]
    config = GateConfig(**{f"require_{name}": False for name in skipped})
    with TranscriptStore() as store:
        site_guess = problem_source if is_url else ""
        site = "leetcode" if "leetcode" in site_guess else "codeforces"
        creds = load_credentials(site)
        jar = session_jar(site, cookies, creds)
        register_secrets(store.add_secret, creds, jar)
        with site_client(endpoints, cookies=jar, browser=browser, notify=tell_user) as client:
            if is_url:
                problems = fetch_url(problem_source, client)
                if len(problems) != 1:
                    raise ConfigError(f"{problem_source} holds {len(problems)} problems", hint="give one problem's URL")
                problem = problems[0]
            else:
                problem = load_source(problem_source)
            if problem.site != site:
                creds = load_credentials(problem.site)
                jar = session_jar(problem.site, cookies, creds)
                register_secrets(store.add_secret, creds, jar)
                client.close()
                client = site_client(endpoints, cookies=jar, browser=browser, notify=tell_user)
            run_id = store.start_run("submit", problem_id=problem.id, config={"language": lang, "skip": list(skipped)})
            try:
                result = _run(
                    store, run_id, client, problem, solution, config, creds, handle,
                    evidence_args={"tests_dir": tests_dir, "brute": brute, "generator": generator, "max_n": max_n,
                                   "stress_runs": stress_runs, "stress_seconds": 60.0,
                                   "skip": skipped},
                    yes=yes, as_json=as_json, timeout_s=timeout_s, interval_s=interval_s, min_interval=min_interval,
                )  # fmt: skip
            except BaseException as e:
                store.finish_run(run_id, "error", reason=str(e))
                raise
            finally:
                client.close()
    if as_json:
        click.echo(result.model_dump_json(indent=2))
    return 0 if result.verdict is not None and result.verdict.verdict == Verdict.AC else 1


def _run(
    store: TranscriptStore,
    run_id: str,
    client,
    problem: Problem,
    solution: Solution,
    config: GateConfig,
    creds: SiteCredentials | None,
    handle: str | None,
    *,
    evidence_args: dict,
    yes: bool,
    as_json: bool,
    timeout_s: float,
    interval_s: float,
    min_interval: float,
) -> SubmitResult:
    say = (lambda *a, **k: None) if as_json else click.echo
    say(f"judging {problem.id} locally ({solution.language})")
    evidence = build_evidence(problem, solution, **evidence_args)
    decision = gate(problem, solution, evidence, config)
    store.append(run_id, "gate", decision.model_dump(mode="json"))
    if not as_json:
        print_decision(decision)
    if not decision.allowed:
        store.finish_run(run_id, "refused", reason="; ".join(decision.reasons))
        return SubmitResult(decision=decision)
    if not yes:
        click.confirm(f"submit {problem.id} to {problem.site}?", abort=True, err=True)
    password: SecretStr | None = creds.password if creds else None
    with SubmissionLedger(min_interval_s=min_interval) as ledger:
        submitter = submitter_for(
            problem,
            client=client,
            ledger=ledger,
            handle=handle or (creds.handle if creds else None),
            password=password.get_secret_value() if password else None,
        )
        sub_id = submitter.submit(problem, solution)
        record = SubmissionRecord(
            submission_id=sub_id,
            problem_id=problem.id,
            language=solution.language,
            source_sha256=decision.source_sha256,
            url=submitter.submission_url(problem, sub_id),
        )
        store.append(run_id, "submission", record.model_dump(mode="json"))
        say(f"submitted: {sub_id} ({record.url})")
        verdict = submitter.wait(problem, sub_id, timeout_s=timeout_s, interval_s=interval_s)
    store.append(run_id, "remote_verdict", verdict.model_dump(mode="json"))
    where = f" on test {verdict.failed_test}" if verdict.failed_test else ""
    say(f"verdict: {verdict.verdict or verdict.status_text}{where}" + ("" if verdict.final else " (not final yet)"))
    store.finish_run(run_id, "accepted" if verdict.verdict == Verdict.AC else "rejected", reason=verdict.status_text)
    return SubmitResult(decision=decision, submission=record, verdict=verdict)
