"""`cpbot verify`: check a problem package as problemtools and BAPCtools do, on cpbot's judge; with `--ai`, what the
configured model's programs get past its tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cpbot.bot.cli.options import language_option, model_endpoint_options, python_option
from cpbot.core.registry import DEFAULT_STRATEGY, STRATEGY_NAMES

if TYPE_CHECKING:
    from cpbot.agents.solve import SolveResult
    from cpbot.bot.verify.ai import AiCheck
    from cpbot.judge.model import Problem
    from cpbot.judge.packages.model import ProblemPackage


@click.command("verify")
@python_option
@click.argument("package", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the report as one HTML page to this file.")  # fmt: skip
@click.option(
    "--ai",
    is_flag=True,
    help="Also solve the problem with the configured model (k runs of each strategy) and find the programs that pass "
    "every test of the package but are wrong (the gate against its accepted submissions).",
)
@click.option(
    "--strategy",
    "strategies",
    multiple=True,
    type=click.Choice(STRATEGY_NAMES),
    help=f"With --ai: a strategy to run besides {DEFAULT_STRATEGY}, cpbot's default (repeatable).",
)
@click.option("-k", "k", type=click.IntRange(min=1, max=100), default=3, show_default=True,
              help="With --ai: solves per strategy.")  # fmt: skip
@click.option(
    "--strategy-option",
    "strategy_option",
    multiple=True,
    metavar="[STRATEGY:]KEY=VALUE",
    help="With --ai: a strategy option, for the named strategy or every one that takes it (repeatable).",
)
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="NAME=VALUE",
    help="With --ai: a parameter of the gate that checks the model's programs (as `cpbot lab --set`), e.g. "
    "profile=false (repeatable).",
)
@click.option(
    "--save-hacks",
    type=click.Path(file_okay=False, path_type=Path),
    help="With --ai: write each wrong program's breaking test here as ai-hack-NNN.in/.ans, ready for data/secret.",
)
@language_option()
@model_endpoint_options
@click.option("--max-calls", type=click.IntRange(min=1), default=40, show_default=True,
              help="With --ai: budget of LLM calls per solve.")  # fmt: skip
@click.option("--max-seconds", type=click.FloatRange(min=0, min_open=True), default=900.0, show_default=True,
              help="With --ai: budget of wall seconds per solve.")  # fmt: skip
def verify(package: Path, as_json: bool, html_path: Path | None, ai: bool, **ai_options: Any) -> int:
    """Verify the problem PACKAGE (Kattis: problem.yaml; Polygon: problem.xml; Library Checker: info.toml):
    generated tests come out the same twice, every test passes the input validators and near misses do not, some
    test reaches each bound, the output validator accepts the answers and rejects perturbed ones, each submission
    gets the verdict its folder or tag names at the time limit the format sets.

    With --ai, the configured model also solves the problem k times with each strategy; the table gives the solve
    rate, each program's verdict on the package's tests, and every program that passes them all but that the gate
    shows wrong, with its smallest breaking input.

    Exit 0 when no check fails, 1 when one does (with --ai: also when a model program gets past the tests while
    wrong), 2 on an error."""
    from cpbot.bot.verify.checks import verify_package
    from cpbot.bot.verify.report import text
    from cpbot.judge.packages import read_package
    from cpbot.judge.sandbox import default_sandbox

    if not ai:
        _refuse_ai_options()
    read = read_package(package)
    say = (lambda _: None) if as_json else (lambda line: click.echo(line, err=True))
    after = None
    if ai:
        after = _ai_check(read, say, **ai_options)
    report = verify_package(read, default_sandbox(), say=say, after=after)
    click.echo(
        report.model_dump_json(indent=2) if as_json else text(report),
    )
    if html_path is not None:
        from cpbot.bot.verify.html import render_verify_html

        html_path.write_text(render_verify_html(report), encoding="utf-8")
        click.echo(f"report page: {html_path}", err=True)
    return 0 if report.passed else 1


def _refuse_ai_options() -> None:
    """An option of --ai given without it would be ignored in silence: say so instead."""
    from click.core import ParameterSource

    from cpbot.core.errors import ConfigError

    ctx = click.get_current_context()
    for param in ctx.command.params:
        help_text = getattr(param, "help", "") or ""
        if (
            help_text.startswith("With --ai")
            and ctx.get_parameter_source(param.name or "") is ParameterSource.COMMANDLINE
        ):
            raise ConfigError(f"{param.opts[0]} is an option of --ai", hint="add --ai, or leave it out")


def _ai_check(
    package: ProblemPackage,
    say: Callable[[str], None],
    *,
    strategies: tuple[str, ...],
    k: int,
    strategy_option: tuple[str, ...],
    settings: tuple[str, ...],
    save_hacks: Path | None,
    language: str,
    model: str | None,
    base_url: str | None,
    api_key: str | None,
    max_calls: int,
    max_seconds: float,
) -> AiCheck:
    """The `--ai` part, its settings checked before any test runs: the endpoint, the strategies' options, the
    gate's parameters."""
    from cpbot.agents.budget import Budget
    from cpbot.bot.app.solving import solve_recorded
    from cpbot.bot.app.strategy_options import bench_options
    from cpbot.bot.cli.config import resolve_llm
    from cpbot.bot.lab.measure import gate_params
    from cpbot.bot.verify.ai import AiCheck, ai_refusal
    from cpbot.core.errors import ConfigError

    refusal = ai_refusal(package)
    if refusal:
        raise ConfigError(f"--ai: {refusal}", hint="run cpbot verify without --ai for the package's own checks")
    config = resolve_llm(base_url=base_url, api_key=api_key, model=model)
    chosen = list(dict.fromkeys([DEFAULT_STRATEGY, *strategies]))
    options = bench_options(chosen, strategy_option)
    budget = Budget(max_calls=max_calls, max_seconds=max_seconds)

    def solve(problem: Problem, strategy: str, run: int) -> tuple[SolveResult, str]:
        return solve_recorded(
            problem, strategy=strategy, language=language, options=options.get(strategy, {}), config=config,
            budget=budget, say=lambda line: say(f"  {strategy} #{run}: {line}"),
        )  # fmt: skip

    return AiCheck(
        strategies=chosen, k=k, model=config.model, solve=solve, params=gate_params(settings), save_hacks=save_hacks,
        say=say,
    )  # fmt: skip
