"""`cpbot solve`: fetch or load a problem, solve it with a strategy, write the solution, record the run."""

from __future__ import annotations

from pathlib import Path

import click

from cpbot.bot.cli.options import (
    cookies_option,
    language_option,
    model_endpoint_options,
    python_option,
    strategy_options,
)
from cpbot.bot.cli.site_option import site_option

# the exit code of each status of a solve (`agents.envelopes.SolveStatus`); 2 is an error, 130 Ctrl-C
EXIT_CODES = {"solved": 0, "unverified": 3, "best_effort": 1, "failed": 1}


@click.command("solve")
@python_option
@click.argument("source", metavar="URL|FILE")
@strategy_options
@language_option()
@model_endpoint_options
@click.option("--max-calls", type=click.IntRange(min=1), default=40, show_default=True, help="Budget: LLM calls.")
@click.option(
    "--budget-tokens",
    "max_tokens",
    type=click.IntRange(min=1),
    default=500_000,
    show_default=True,
    help="Budget: tokens of the whole solve (not the per-reply limit: see --max-output-tokens).",
)
@click.option(
    "--max-output-tokens",
    type=click.IntRange(min=1),
    help="Per-reply output limit, always sent (env CPBOT_MAX_OUTPUT_TOKENS; default 8192).",
)
@click.option(
    "--timeout",
    "timeout_s",
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds to wait for one reply (env CPBOT_TIMEOUT; default 600: local reasoning models are slow).",
)
@click.option("--temperature", type=click.FloatRange(0, 2), help="Sampling temperature (env CPBOT_TEMPERATURE).")
@click.option(
    "--reasoning-effort",
    type=click.Choice(["minimal", "low", "medium", "high"]),
    help="For reasoning models (env CPBOT_REASONING_EFFORT).",
)
@click.option(
    "--max-seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=900.0,
    show_default=True,
    help="Budget: wall seconds.",
)
@site_option(
    allow_local=True, help="The site, when it cannot be told from URL|FILE (local: a problem.json of no site)."
)
@cookies_option
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where to write problem.json and the solution (default: ./<problem>).",
)
@click.option("--force", is_flag=True, help="Overwrite files of the output folder that differ (your edits).")
@click.option("--json", "as_json", is_flag=True, help="Print the SolveResult as JSON.")
def solve(
    source: str,
    strategy: str,
    strategy_option: tuple[str, ...],
    candidates: int | None,
    language: str,
    model: str | None,
    base_url: str | None,
    api_key: str | None,
    max_calls: int,
    max_tokens: int,
    max_output_tokens: int | None,
    timeout_s: float | None,
    temperature: float | None,
    reasoning_effort: str | None,
    max_seconds: float,
    site: str | None,
    cookies: Path | None,
    out_dir: Path | None,
    force: bool,
    as_json: bool,
) -> int:
    """Solve one problem with a language model. Exits 0 when the answer is solved (every test tried passes, and
    it was stressed against a brute force, profiled at the bound and chosen among the candidates), 3 when it
    passes every test tried but some of that evidence is missing (unverified: the reason says which), 1
    otherwise (best effort or nothing usable)."""
    import json

    from click.core import ParameterSource

    from cpbot.agents.budget import Budget
    from cpbot.bot.app.interrupt import EXIT_INTERRUPTED, stop_on_interrupt
    from cpbot.bot.app.problem_folder import place, problem_dirname, save_solution, solution_name, with_written_judges
    from cpbot.bot.app.solving import solve_recorded
    from cpbot.bot.app.sources import load_source
    from cpbot.bot.app.strategy_options import parse_strategy_options, with_candidates
    from cpbot.bot.cli.browser import browser_settings
    from cpbot.bot.cli.config import resolve_llm
    from cpbot.bot.report.render import print_solve_result
    from cpbot.core.errors import CpbotError
    from cpbot.core.redact import Redactor, secrets_from_env
    from cpbot.core.registry import DEFAULT_SCORED_STRATEGY
    from cpbot.judge.kinds import problem_kind

    def say(line: str) -> None:
        click.echo(line, err=True)

    config = resolve_llm(
        base_url=base_url,
        api_key=api_key,
        model=model,
        max_output_tokens=max_output_tokens,
        timeout_s=timeout_s,
        temperature=temperature,
        reasoning_effort=reasoning_effort,
    )
    given = click.get_current_context().get_parameter_source("strategy")
    try:  # options the strategy does not take are refused before anything is fetched
        parse_strategy_options(strategy, with_candidates(strategy_option, candidates))
    except CpbotError as refused:
        if given is not ParameterSource.DEFAULT:
            raise
        try:  # the default: a score-based problem will get its own strategy, which may take them
            parse_strategy_options(DEFAULT_SCORED_STRATEGY, with_candidates(strategy_option, candidates))
        except CpbotError:
            raise refused from None
    problem = load_source(source, site=site, cookies=cookies, browser=browser_settings(None))
    if problem_kind(problem.kind).scored and given in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP):
        strategy = DEFAULT_SCORED_STRATEGY  # a score-based problem: the default strategy is the one made for it
    options = parse_strategy_options(strategy, with_candidates(strategy_option, candidates))
    budget = Budget(max_calls=max_calls, max_tokens=max_tokens, max_seconds=max_seconds)
    with stop_on_interrupt() as interrupt:
        try:
            say(f"solving {problem.id} with {strategy} ({language}, {config.model})")
            result, run_id = solve_recorded(
                problem, strategy=strategy, language=language, options=options, config=config, budget=budget,
                say=say,
            )  # fmt: skip
        except BaseException:  # Ctrl-C, or the sandbox dying under a run after it
            if not interrupt.happened:
                raise
        if interrupt.happened:  # solve_recorded stored the run as interrupted and said its id
            say("interrupted")
            return EXIT_INTERRUPTED
    path = None
    if result.solution is not None:
        wanted = out_dir or Path(problem_dirname(problem))
        # a checker or interactor the test designer wrote is kept beside it, named in problem.json
        kept_problem, judges = with_written_judges(problem, result.checker, result.interactor)
        source_file = {solution_name(language): result.solution.source.encode(), **judges}
        directory, kept = place(kept_problem, wanted, force=force, extra=source_file)
        if kept:
            say(f"{wanted} kept ({', '.join(kept)} would change); wrote to {directory} (--force overwrites)")
        path = save_solution(kept_problem, result.solution.source, language, directory, extra=judges)
    if as_json:
        # what a model wrote (a reason, a solution, a test) may quote a key or a cookie: never print one
        redactor = Redactor([config.api_key.get_secret_value(), *secrets_from_env()])
        click.echo(json.dumps(redactor.value(result.model_dump(mode="json")), indent=2))
    else:
        print_solve_result(result, path)
    say(f"transcript: {run_id}")
    return EXIT_CODES[result.status]
