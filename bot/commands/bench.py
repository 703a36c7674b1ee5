"""`cpbot bench`: strategies side by side on an offline dataset, judged on hidden tests, with the seeds' metrics."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cpbot.bot.cli.options import language_option, lcb_selection_options, model_endpoint_options, python_option
from cpbot.core.errors import ConfigError
from cpbot.core.registry import DEFAULT_STRATEGY, STRATEGY_NAMES

if TYPE_CHECKING:
    from cpbot.bot.bench.metrics import ProblemOutcome


def parse_strategies(text: str) -> list[str]:
    """`a,b` -> ["a", "b"], each a registered strategy, no repeats."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    known = STRATEGY_NAMES
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise ConfigError(f"unknown strategy {', '.join(unknown) or '(none)'}", hint=f"use some of: {', '.join(known)}")
    return list(dict.fromkeys(names))


def _progress(outcome: ProblemOutcome, done: int, total: int) -> None:
    verdict = outcome.final.verdict or "no program"
    cases = f"{outcome.final.passed_cases}/{outcome.final.total_cases} cases"
    sample = f" #{outcome.sample}" if outcome.sample else ""
    click.echo(f"[{done}/{total}] {outcome.strategy:<10} {outcome.key}{sample}: {verdict}, {cases}", err=True)


@click.command("bench")
@python_option
@click.argument("dataset", required=False)
@click.option(
    "--strategy", "strategies", default=f"direct,{DEFAULT_STRATEGY}", show_default=True, help="Comma-separated."
)
@model_endpoint_options
@language_option()
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N problems.")
@lcb_selection_options
@click.option(
    "--time-limit",
    "time_limit_ms",
    type=click.IntRange(min=1),
    help="LiveCodeBench files: CPU milliseconds per test (default 6000; LiveCodeBench waits 6 s).",
)
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Problems at once.")
@click.option("--executor", type=click.Choice(["local", "ray"]), default="local", show_default=True)
@click.option("--address", help="Ray cluster address (default: start a local cluster).")
@click.option("--resume", "resume", metavar="RUN", help="Continue the bench run RUN (id, prefix or 'last').")
@click.option("--k", "k", type=click.IntRange(min=1, max=10), default=3, show_default=True, help="SOLVED@<=k.")
@click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Independent solves per problem and strategy (LiveCodeBench's pass@k uses n of them).",
)
@click.option("--max-calls", type=click.IntRange(min=1), default=20, show_default=True, help="Budget per solve.")
@click.option("--budget-tokens", "max_tokens", type=click.IntRange(min=1), default=200_000, show_default=True)
@click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True), default=600.0, show_default=True)
@click.option(
    "--llm-slots", type=click.IntRange(min=1), default=4, show_default=True, help="LLM calls at once per node."
)
@click.option(
    "--judge-slots", type=click.IntRange(min=1), default=os.cpu_count() or 1, help="Hidden judgings at once per node."
)
@click.option(
    "--strategy-option",
    "strategy_option",
    multiple=True,
    metavar="[STRATEGY:]KEY=VALUE",
    help="A strategy option, repeatable: for the named strategy, or for every one of the bench that takes it.",
)
@click.option(
    "--candidates",
    type=click.IntRange(min=1),
    help="cpbot: programs drawn at once and chosen among (default 8; 1: one at a time); cpbot:candidates=K.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the BenchReport as JSON.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, path_type=Path), help="Write a PNG here.")
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the metrics table here as CSV (a row per strategy and difficulty).",
)
def bench(
    dataset: str | None,
    strategies: str,
    model: str | None,
    base_url: str | None,
    api_key: str | None,
    language: str,
    limit: int | None,
    since: str | None,
    until: str | None,
    platforms: tuple[str, ...],
    difficulties: tuple[str, ...],
    time_limit_ms: int | None,
    jobs: int,
    executor: str,
    address: str | None,
    resume: str | None,
    k: int,
    samples: int,
    max_calls: int,
    max_tokens: int,
    max_seconds: float,
    llm_slots: int,
    judge_slots: int,
    strategy_option: tuple[str, ...],
    candidates: int | None,
    as_json: bool,
    plot_path: Path | None,
    csv_path: Path | None,
) -> int:
    """Run strategies on DATASET (a folder of problems, the Kick Start folder, LeetCodeDataset's .jsonl.gz, or
    LiveCodeBench's release files); `--resume RUN` continues a stopped bench on the dataset it started on."""
    from cpbot.agents.budget import Budget
    from cpbot.bot.app.strategy_options import bench_options
    from cpbot.bot.bench.datasets import open_dataset
    from cpbot.bot.bench.executors import make_executor
    from cpbot.bot.bench.grade import ends_on_failure
    from cpbot.bot.bench.livecodebench import make_selection
    from cpbot.bot.bench.report import csv_text, markdown, metric_table
    from cpbot.bot.bench.runner import check_same_dataset, make_plan, run_bench, start_bench, stored_plan
    from cpbot.bot.bench.task import BenchSettings
    from cpbot.bot.cli.config import resolve_llm
    from cpbot.bot.report.plots import save_bench_png
    from cpbot.bot.store.transcripts import TranscriptStore

    if dataset is None and not resume:
        raise ConfigError("bench needs a DATASET", hint="or --resume RUN to continue a bench")
    data = open_dataset(dataset) if dataset is not None else None
    if data is not None and time_limit_ms is not None:
        if data.kind != "livecodebench":
            raise ConfigError("--time-limit applies to LiveCodeBench files", hint="other datasets carry their limits")
        data = data.model_copy(update={"time_limit_ms": time_limit_ms})
    with TranscriptStore() as store:
        if resume:
            if strategy_option or candidates is not None:
                raise ConfigError("--resume keeps the bench's own strategy options", hint="drop --strategy-option")
            run_id, plan = stored_plan(store, resume)
            if data is not None:
                check_same_dataset(plan.dataset, data)
            click.echo(f"resuming bench {run_id}", err=True)
        else:
            plan = None
        config = resolve_llm(base_url=base_url, api_key=api_key, model=model or (plan.model if plan else None))
        store.add_secret(config.api_key.get_secret_value())
        if plan is None:
            budget = Budget(max_calls=max_calls, max_tokens=max_tokens, max_seconds=max_seconds)
            names = parse_strategies(strategies)
            items = (*strategy_option, *([f"cpbot:candidates={candidates}"] if candidates is not None else []))
            if candidates is not None and "cpbot" not in names:
                raise ConfigError("--candidates is an option of the cpbot strategy", hint="add cpbot to --strategy")
            assert data is not None  # a new bench names its dataset (checked above)
            plan = make_plan(
                data,
                names,
                language=language,  # type: ignore[arg-type]
                model=config.model,
                budget=budget,
                k=k,
                limit=limit,
                selection=make_selection(since, until, platforms, difficulties),
                samples=samples,
                options=bench_options(names, items),
            )
            run_id = start_bench(store, plan, config.public())
            click.echo(f"bench {run_id}: {len(plan.keys)} problems x {len(plan.strategies)} strategies", err=True)
        settings = BenchSettings(
            dataset=plan.dataset,
            language=plan.language,
            llm=config,
            budget=plan.budget,
            k=plan.k,
            llm_slots=llm_slots,
            judge_slots=judge_slots,
            options=plan.options,
        )
        with ends_on_failure(store, run_id):  # a Ray cluster that refuses cpbot ends the run as an error
            runner = make_executor(executor, jobs=jobs, address=address)
        try:
            report = run_bench(store, run_id, plan, settings, runner, progress=_progress)
        finally:
            runner.close()
    if plot_path is not None:
        save_bench_png(report, plot_path)
        click.echo(f"plot: {plot_path}", err=True)
    if csv_path is not None:
        csv_path.write_text(csv_text(metric_table(report)), encoding="utf-8")
        click.echo(f"csv: {csv_path}", err=True)
    click.echo(report.model_dump_json(indent=2) if as_json else markdown(report))
    click.echo(f"transcript: {run_id}", err=True)
    return 0
