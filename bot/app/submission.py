"""`cpbot submit`'s work: the local evidence (samples, extra tests, stress, profile), the gate, one
submission and its verdict, each recorded in the submit run's transcript."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, SecretStr

from cpbot.bot.report.render import decision_lines
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.submit.base import RemoteVerdict, SubmissionRecord, source_sha256, submitter_for
from cpbot.bot.submit.credentials import SiteCredentials
from cpbot.bot.submit.events import GateEvent, RemoteVerdictEvent, SubmissionEvent
from cpbot.bot.submit.gate import GateConfig, GateDecision, GateEvidence, gate
from cpbot.bot.submit.ledger import SubmissionLedger
from cpbot.core.errors import ConfigError
from cpbot.core.registry import SITE_NAMES, site_spec
from cpbot.judge.build import build_program_file
from cpbot.judge.kinds import problem_kind
from cpbot.judge.languages import get_language
from cpbot.judge.model import SCHEMA_VERSION, JudgeReport, Problem, Solution, TestCase, Verdict
from cpbot.judge.profile import profile_program
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import default_sandbox
from cpbot.judge.stress import stress_programs
from cpbot.judge.testdir import load_tests_dir
from cpbot.scrapers.http import HttpClient
from cpbot.scrapers.submission import Post

Say = Callable[[str], None]


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
        gen = build_program_file(generator, sandbox, role="generator")
        if build.program is not None:
            if brute is not None and "stress" not in skip:
                stress = stress_programs(
                    build.program,
                    build_program_file(brute, sandbox, role="brute force"),
                    gen,
                    checker=problem_kind(problem.kind).checker(problem, sandbox),
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


def submit_question(problem: Problem, solution: Solution, post: Post, source_name: str) -> str:
    """What a person is asked before the post: the file, the problem, the site's language option and the
    account it goes from."""
    title = site_spec(problem.site).title if problem.site in SITE_NAMES else problem.site
    option = post.option or get_language(solution.language).name
    account = f"as {post.account}" if post.account else "with your saved session (the site did not name the account)"
    return f"submit {source_name or 'the solution'} to {problem.id} on {title}, language {option!r}, {account}?"


def run_submission(
    store: TranscriptStore,
    run_id: str,
    client: HttpClient,
    problem: Problem,
    solution: Solution,
    config: GateConfig,
    creds: SiteCredentials | None,
    handle: str | None,
    *,
    evidence_args: dict,
    say: Say,
    confirm: Callable[[str], None] | None,
    source_name: str = "",
    timeout_s: float,
    interval_s: float,
    min_interval: float,
) -> SubmitResult:
    """Judge locally, gate, and - when the gate allows and `confirm` (if given) does not abort - submit and
    follow the verdict, recording each step in run `run_id`. `say` receives the progress lines."""
    say(f"judging {problem.id} locally ({solution.language})")
    evidence = build_evidence(problem, solution, **evidence_args)
    decision = gate(problem, solution, evidence, config)
    store.record(run_id, GateEvent.of(decision))
    for line in decision_lines(decision):
        say(line)
    if not decision.allowed:
        store.finish_run(run_id, "refused", reason="; ".join(decision.reasons))
        return SubmitResult(decision=decision)
    password: SecretStr | None = creds.password if creds else None
    with SubmissionLedger(min_interval_s=min_interval) as ledger:
        submitter = submitter_for(
            problem,
            client=client,
            ledger=ledger,
            handle=handle or (creds.handle if creds else None),
            password=password.get_secret_value() if password else None,
        )
        ask = None
        if confirm is not None:
            ask = lambda post: confirm(submit_question(problem, solution, post, source_name))  # noqa: E731
        # a person asks: a source posted before is refused
        sub_id = submitter.submit(problem, solution, confirm=ask)
        record = SubmissionRecord(
            submission_id=sub_id,
            problem_id=problem.id,
            language=solution.language,
            source_sha256=decision.source_sha256,
            url=submitter.submission_url(problem, sub_id),
        )
        store.record(run_id, SubmissionEvent(**dict(record)))
        say(f"submitted: {sub_id} ({record.url})")
        verdict = submitter.wait(problem, sub_id, timeout_s=timeout_s, interval_s=interval_s)
    store.record(run_id, RemoteVerdictEvent(**dict(verdict)))
    where = f" on test {verdict.failed_test}" if verdict.failed_test else ""
    say(f"verdict: {verdict.verdict or verdict.status_text}{where}" + ("" if verdict.final else " (not final yet)"))
    store.finish_run(run_id, "accepted" if verdict.verdict == Verdict.AC else "rejected", reason=verdict.status_text)
    return SubmitResult(decision=decision, submission=record, verdict=verdict)
