"""`cpbot grade`: judge recorded generations (LiveCodeBench's or a simple JSONL) with cpbot's judge."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cpbot.bot.cli.options import language_option, lcb_selection_options, python_option
from cpbot.core.registry import Family, languages_of

if TYPE_CHECKING:
    from cpbot.bot.bench.grade import Generation, Graded


def _progress(gen: Generation, result: Graded) -> None:
    grade = result.grade
    verdict = grade.verdict or "no code"
    click.echo(f"{gen.question_id} #{gen.index}: {verdict} ({grade.passed_tests}/{grade.total_tests})", err=True)


def default_output(generations: Path) -> Path:
    """Where the evaluation goes unless told: beside the generations, named as LiveCodeBench names it."""
    stem = generations.name.rsplit(".", 1)[0] if generations.suffix in (".json", ".jsonl") else generations.name
    return generations.with_name(f"{stem}_eval_all.json")


@click.command("grade")
@python_option
@click.argument("dataset", required=False)
@click.argument("generations", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@language_option(default=languages_of(Family.PYTHON)[0], help="The language of generations that do not name theirs.")
@lcb_selection_options
@click.option(
    "--time-limit",
    "time_limit_ms",
    type=click.IntRange(min=1),
    default=6000,
    show_default=True,
    help="CPU milliseconds per test (LiveCodeBench waits 6 s).",
)
@click.option(
    "--extract",
    is_flag=True,
    help="Take the code from output_list with cpbot's extraction even where code_list is given.",
)
@click.option(
    "--lcb-preamble",
    is_flag=True,
    help="Start Python stdin programs with LiveCodeBench's imports and recursion limit, as its grader does.",
)
@click.option(
    "--lcb-exact",
    is_flag=True,
    help="Compare outputs exactly as LiveCodeBench does (no float tolerance, no any-order, output a thread never "
    "joined prints after the main code lost); "
    "the report lists the verdicts cpbot's default comparison would give otherwise.",
)
@click.option(
    "--all-tests",
    is_flag=True,
    help="Run every test of every generation (default: stop at a generation's first failure, as LiveCodeBench does).",
)
@click.option(
    "-j", "--jobs", type=click.IntRange(min=1), help="Programs judged at once (default: one per slot; ray: its CPUs)."
)
@click.option(
    "--executor",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Judge here, or spread the programs over a Ray cluster (each node needs DATASET at the same path).",
)
@click.option("--address", help="Ray cluster address (default: start a local cluster of -j CPUs).")
@click.option(
    "--resume",
    metavar="RUN",
    help="Continue the grading run RUN (id, prefix or 'last') with its own settings: the generations it "
    "recorded are not graded again.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The evaluation file (LiveCodeBench's form).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the GradeReport as JSON.")
def grade(
    dataset: str | None,
    generations: Path | None,
    language: str,
    since: str | None,
    until: str | None,
    platforms: tuple[str, ...],
    difficulties: tuple[str, ...],
    time_limit_ms: int,
    extract: bool,
    lcb_preamble: bool,
    lcb_exact: bool,
    all_tests: bool,
    jobs: int | None,
    executor: str,
    address: str | None,
    resume: str | None,
    output: Path | None,
    as_json: bool,
) -> int:
    """Grade GENERATIONS against DATASET (a LiveCodeBench release file, or a folder of them); `--resume RUN`
    continues a stopped grading with the dataset and generations it started on.

    GENERATIONS is LiveCodeBench's generations file (per problem `question_id` and `code_list` and/or
    `output_list`, whose code is extracted) or JSONL of {question_id, language, source}. Writes
    LiveCodeBench's `_eval_all.json` form and prints pass@1 (pass@k where every problem has k
    generations) overall and by difficulty.
    """
    from cpbot.bot.app.interrupt import interrupted, stop_on_interrupt
    from cpbot.bot.bench.datasets import open_dataset
    from cpbot.bot.bench.executors import make_executor
    from cpbot.bot.bench.grade import (
        GradePlan,
        ends_on_failure,
        eval_all,
        file_sha256,
        markdown,
        read_generations,
        run_grade,
        start_grade,
        stored_grade_plan,
    )
    from cpbot.bot.bench.livecodebench import make_selection
    from cpbot.bot.store.transcripts import TranscriptStore
    from cpbot.core.errors import ConfigError
    from cpbot.judge.sandbox import default_sandbox

    if not resume and (dataset is None or generations is None):
        raise ConfigError("grade needs DATASET and GENERATIONS", hint="or --resume RUN to continue a grading")
    data = None
    if dataset is not None:
        data = open_dataset(dataset)
        if data.kind != "livecodebench":
            raise ConfigError(
                f"{dataset} is not a LiveCodeBench release file", hint="give test*.jsonl, or livecodebench:PATH"
            )
        data = data.model_copy(update={"time_limit_ms": time_limit_ms})
    with TranscriptStore() as store:
        if resume:
            from cpbot.bot.bench.runner import check_same_dataset

            run_id, plan = stored_grade_plan(store, resume)
            if data is not None:
                check_same_dataset(plan.dataset, data)
            if generations is None:
                generations = Path(plan.generations_file)
            elif Path(plan.generations_file).resolve() != generations.resolve():
                raise ConfigError(
                    f"the grading ran on {plan.generations_file}, not {generations}",
                    hint="give the same GENERATIONS with --resume, or none",
                )
            found = plan.generations()
            click.echo(f"resuming grading {run_id}", err=True)
        else:
            assert data is not None and generations is not None  # checked above
            found = read_generations(generations, language, extract=extract)
            plan = GradePlan(
                dataset=data,
                generations_file=str(generations),
                generations_sha256=file_sha256(generations),
                selection=make_selection(since, until, platforms, difficulties),
                default_language=language,  # type: ignore[arg-type]
                extract=extract,
                lcb_preamble=lcb_preamble,
                lcb_exact=lcb_exact,
                all_tests=all_tests,
            )
            run_id = start_grade(store, plan)
        sandbox = default_sandbox() if executor == "local" else None  # a Ray worker judges in its own
        workers = jobs or (sandbox.size if sandbox is not None else os.cpu_count() or 1)
        with ends_on_failure(store, run_id):  # a Ray cluster that refuses cpbot ends the run as an error
            runner = make_executor(executor, jobs=workers, address=address, sandbox=sandbox)
        # Ctrl-C kills the programs under way at once (else the graders finish them: up to a limit per test)
        with stop_on_interrupt() as interrupt:
            try:
                report = run_grade(store, run_id, plan, found, sandbox, executor=runner, progress=_progress)
            except BaseException:
                if not interrupt.happened:
                    raise
            finally:
                runner.close()
        if interrupt.happened:
            return interrupted(f"interrupted: cpbot grade --resume {run_id} continues it", as_json=as_json)
    target = output or default_output(generations)
    target.write_text(json.dumps(eval_all(plan.dataset, report, found), indent=4) + "\n", encoding="utf-8")
    click.echo(report.model_dump_json(indent=2) if as_json else markdown(report))
    click.echo(f"evaluation: {target}", err=True)
    click.echo(f"transcript: {report.run_id}", err=True)
    return 0
