"""`cpbot solve`: fetch or load a problem, solve it with a strategy, write the solution, record the run."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import click

from cpbot.agents.budget import Budget
from cpbot.agents.llm import LLMClient
from cpbot.agents.solve import SolveResult
from cpbot.agents.solve import solve as run_solve
from cpbot.agents.strategies import get_strategy
from cpbot.agents.tracing import FanoutTracer, LLMCallEvent, ReportEvent, TraceEvent
from cpbot.bot.commands.fetch import load_problems, problem_dirname, save_problem
from cpbot.bot.commands.judge_cmd import load_problem
from cpbot.bot.config import resolve_llm
from cpbot.bot.transcripts import TranscriptStore
from cpbot.core.errors import ConfigError
from cpbot.core.registry import DEFAULT_LANGUAGE, DEFAULT_STRATEGY, LANGUAGE_NAMES, STRATEGY_NAMES, language_spec
from cpbot.judge.model import Problem
from cpbot.scrapers.sites import SITES


def load_source(source: str, *, site: str | None = None, cookies: Path | None = None) -> Problem:
    """The one problem at a URL, in a problem.json, a Competitive Companion JSON or a saved page."""
    path = Path(source)
    if path.suffix == ".json" and path.is_file():
        data = path.read_bytes()
        if b'"schema_version"' in data and b'"samples"' in data:
            return load_problem(path)  # cpbot's own problem.json
    problems = load_problems(source, site=site, cookies=cookies)
    if len(problems) != 1:
        raise ConfigError(
            f"{source} holds {len(problems)} problems; `cpbot solve` takes one",
            hint="give the URL of one problem (…/problem/A), or `cpbot fetch` the contest first",
        )
    return problems[0]


def parse_strategy_options(strategy: str, items: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """`--strategy-option key=value` (repeatable) -> the strategy's options, each value converted to the
    type of the strategy's own field (`max_n=24`, `count=false`, `stress_seconds=2.5`, `max_n=none`)."""
    made = get_strategy(strategy)
    # every strategy is a dataclass whose fields are its options ("name" is its registry name, not one)
    known = dataclasses.is_dataclass(made)
    fields = {f.name: str(f.type) for f in dataclasses.fields(made) if f.name != "name"} if known else {}  # type: ignore[arg-type]
    hint = f"{strategy} takes: {', '.join(sorted(fields)) or '(no options)'}"
    options: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise ConfigError(f"--strategy-option {item!r} is not key=value", hint=hint)
        if known and key not in fields:
            raise ConfigError(f"strategy {strategy} has no option {key!r}", hint=hint)
        options[key] = _option_value(key, text.strip(), fields.get(key, ""), hint)
    try:
        get_strategy(strategy, **options)
    except TypeError as e:
        raise ConfigError(f"--strategy-option for {strategy}: {e}", hint=hint) from e
    return options


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _option_value(key: str, text: str, annotation: str, hint: str) -> Any:
    """`text` as the field's type (`annotation` as written, e.g. "int | None"); guessed when unknown."""
    lowered = text.lower()
    if lowered == "none" and ("None" in annotation or not annotation):
        return None
    if "bool" in annotation or (not annotation and lowered in ("true", "false")):
        if lowered in _TRUE or lowered in _FALSE:
            return lowered in _TRUE
        raise ConfigError(f"--strategy-option {key}={text}: expected true or false", hint=hint)
    for kind, convert in (("int", int), ("float", float)):
        if kind in annotation or not annotation:
            try:
                return convert(text)
            except ValueError:
                pass
    if "str" in annotation or not annotation:
        return text
    raise ConfigError(f"--strategy-option {key}={text}: expected {annotation}", hint=hint)


class Progress:
    """A tracer that prints one line per LLM call and per judge report, to stderr."""

    def emit(self, event: TraceEvent) -> None:
        """Print a short line for the events a user follows."""
        if isinstance(event, LLMCallEvent):
            state = f"error: {event.error}" if event.error else f"{event.usage.total_tokens} tokens"
            if event.finish_reason and event.finish_reason != "stop":
                state += f", finish {event.finish_reason}"
            click.echo(f"  {event.role:<9} {state} ({event.latency_ms / 1000:.1f} s)", err=True)
            for warning in event.warnings:
                click.echo(f"            note: {warning}", err=True)
        elif isinstance(event, ReportEvent) and event.report_kind == "judge":
            r = event.report
            click.echo(f"  judge     {r['verdict']} {r['passed']}/{r['total']}", err=True)


def print_result(result: SolveResult, path: Path | None) -> None:
    """The verdict, what was spent, and where the solution went."""
    verdict = result.verdict or "no program"
    click.echo(f"{result.status}: {verdict} ({result.reason})")
    click.echo(f"{result.calls} LLM calls, {result.tokens:,} tokens, {result.seconds:.1f} s")
    if path is not None:
        click.echo(f"solution: {path}")


@click.command("solve")
@click.argument("source", metavar="URL|FILE")
@click.option("--strategy", type=click.Choice(STRATEGY_NAMES), default=DEFAULT_STRATEGY, show_default=True)
@click.option("--lang", "language", type=click.Choice(LANGUAGE_NAMES), default=DEFAULT_LANGUAGE, show_default=True)
@click.option(
    "--strategy-option",
    "strategy_option",
    multiple=True,
    metavar="KEY=VALUE",
    help="A strategy option, repeatable (e.g. max_n=1000, count=false for cpbot).",
)
@click.option("--model", help="Model name (env CPBOT_MODEL).")
@click.option("--base-url", help="OpenAI-compatible API root, e.g. http://127.0.0.1:8000/v1 (env CPBOT_BASE_URL).")
@click.option("--api-key", help="API key (env CPBOT_API_KEY or OPENAI_API_KEY); never stored.")
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
@click.option("--site", type=click.Choice(SITES), help="The site, when it cannot be told from URL|FILE.")
@click.option(
    "--cookies",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="CPBOT_COOKIES",
    help="A Netscape cookies.txt for fetching.",
)
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where to write problem.json and the solution (default: ./<problem>).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the SolveResult as JSON.")
def solve_cmd(
    source: str,
    strategy: str,
    language: str,
    strategy_option: tuple[str, ...],
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
    as_json: bool,
) -> int:
    """Solve one problem with a language model; exits 0 only when the answer passes every test tried."""
    config = resolve_llm(
        base_url=base_url,
        api_key=api_key,
        model=model,
        max_output_tokens=max_output_tokens,
        timeout_s=timeout_s,
        temperature=temperature,
        reasoning_effort=reasoning_effort,
    )
    options = parse_strategy_options(strategy, strategy_option)
    problem = load_source(source, site=site, cookies=cookies)
    budget = Budget(max_calls=max_calls, max_tokens=max_tokens, max_seconds=max_seconds)
    click.echo(f"solving {problem.id} with {strategy} ({language}, {config.model})", err=True)
    with TranscriptStore() as store, LLMClient(config) as client:
        store.add_secret(config.api_key.get_secret_value())
        run_id = store.start_run(
            "solve",
            problem_id=problem.id,
            strategy=strategy,
            model=config.model,
            config={
                "llm": config.public(),
                "budget": budget.model_dump(),
                "language": language,
                "strategy_options": options,
            },
        )
        tracer = FanoutTracer(store.tracer(run_id), Progress())
        try:
            result = run_solve(
                problem,
                strategy=strategy,
                language=language,  # type: ignore[arg-type]
                model=client,
                budget=budget,
                tracer=tracer,
                options=options,
            )
        except BaseException as e:
            store.finish_run(run_id, "error", reason=str(e))
            # the failed run is stored: say where, so that `cpbot transcripts show` can explain it
            click.echo(f"transcript: {run_id}", err=True)
            raise
        store.finish_run(
            run_id,
            result.status,
            reason=result.reason,
            totals={"calls": result.calls, "tokens": result.tokens, "seconds": result.seconds},
        )
    path = None
    if result.solution is not None:
        directory = out_dir or Path(problem_dirname(problem))
        save_problem(problem, directory)
        path = directory / f"solution{language_spec(language).extension}"
        path.write_text(result.solution.source, encoding="utf-8")
    if as_json:
        click.echo(result.model_dump_json(indent=2))
    else:
        print_result(result, path)
    click.echo(f"transcript: {run_id}", err=True)
    return 0 if result.status == "solved" else 1


solve = solve_cmd  # the name bot/cli.py registers
