"""`cpbot grade` spread over a Ray cluster writes the evaluation file grading here writes; a stopped
grading resumes to the same file without grading a generation twice; a grading task reads only its
problem's line of the release file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpbot.bot.bench import livecodebench
from cpbot.bot.bench.datasets import open_dataset
from cpbot.bot.bench.grade import (
    RESULT_EVENT,
    GradePlan,
    GradeSettings,
    grade_program,
    programs,
    read_generations,
    run_grade,
    start_grade,
)
from cpbot.bot.bench.livecodebench import Selection
from cpbot.bot.cli.main import main
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.judge.model import Verdict
from tests.bot.bench.lcb_programs import RIGHT, SUM_EVEN, SUM_TWO
from tests.paths import DATASETS

SAMPLE = DATASETS / "livecodebench" / "sample.jsonl"


def generations(tmp_path: Path) -> Path:
    """Right, wrong and crashing programs (one repeated), a reply without code, on stdin and functional
    problems: 12 generations, 10 distinct programs."""
    two, even = SUM_TWO["python3"], SUM_EVEN["python3"]
    items = [
        {"question_id": "abc900_a", "code_list": [two["right"], two["wrong"], two["right"], two["crash"]]},
        {"question_id": "3001", "code_list": [even["right"], even["wrong"], ""]},
        {"question_id": "abc901_b", "code_list": [RIGHT["abc901_b"]]},
        {"question_id": "3400", "code_list": [RIGHT["3400"], "print("]},
        {"question_id": "1999_C", "code_list": [RIGHT["1999_C"], RIGHT["3001"]]},
    ]
    path = tmp_path / "generations.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    return path


def timeless(evaluation: Path) -> list[dict]:
    """The evaluation file without the programs' CPU times (the only field two gradings may differ in)."""
    entries = json.loads(evaluation.read_text(encoding="utf-8"))
    for entry in entries:
        metadata = [json.loads(m) for m in entry["metadata"]]
        entry["metadata"] = [{k: v for k, v in m.items() if k != "execution time"} for m in metadata]
    return entries


@pytest.fixture
def cli(tmp_path, monkeypatch, sandbox):
    """`cpbot ...` in this process, with the session's sandbox and a data dir of the test's own."""
    monkeypatch.setattr("cpbot.judge.sandbox.default_sandbox", lambda: sandbox)
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))

    def run(*argv: str) -> int:
        return main(list(argv))

    return run


def test_grading_on_a_ray_cluster_of_two_workers_writes_the_file_grading_here_writes(cli, tmp_path, ray_cluster):
    gens = generations(tmp_path)
    common = [str(SAMPLE), str(gens), "--time-limit", "2000", "--lcb-exact"]
    assert cli("grade", *common, "-o", str(tmp_path / "local.json")) == 0
    assert cli("grade", *common, "--executor", "ray", "-o", str(tmp_path / "ray.json")) == 0
    assert ray_cluster.cluster_resources()["CPU"] == 2 and ray_cluster.is_initialized()  # the cluster given
    local, distributed = timeless(tmp_path / "local.json"), timeless(tmp_path / "ray.json")
    assert distributed == local
    by_id = {e["question_id"]: e["graded_list"] for e in local}
    assert by_id == {
        "1999_C": [True, False],
        "3001": [True, False, False],
        "3400": [True, False],
        "abc900_a": [True, False, True, False],
        "abc901_b": [False],  # --lcb-exact: 6 decimals against the expected 10
    }
    with TranscriptStore(tmp_path / "data" / "transcripts.sqlite3") as store:
        runs = store.list_runs(kind="grade")
        assert len(runs) == 2 and all(r.status == "done" for r in runs)
        for run in runs:  # one result per generation, with the default's other verdict where it differs
            results = [e.payload for e in store.events(run.id) if e.kind == RESULT_EVENT]
            assert len(results) == 12
            differences = [(r["question_id"], r["index"]) for r in results if r["difference"]]
            assert differences == [("abc901_b", 0)]


class StopAfter:
    """A progress callback that stops the grading (as Ctrl-C does) after `n` results."""

    def __init__(self, n: int) -> None:
        self.n, self.seen = n, 0

    def __call__(self, gen, result) -> None:
        self.seen += 1
        if self.seen == self.n:
            raise KeyboardInterrupt


def test_a_stopped_grading_resumed_writes_the_file_of_an_uninterrupted_one(cli, tmp_path, sandbox):
    gens = generations(tmp_path)
    common = [str(SAMPLE), str(gens), "--time-limit", "2000"]
    assert cli("grade", *common, "-o", str(tmp_path / "whole.json")) == 0
    dataset = open_dataset(str(SAMPLE)).model_copy(update={"time_limit_ms": 2000})
    plan = GradePlan(dataset=dataset, generations_file=str(gens), selection=Selection(), default_language="python3")
    with TranscriptStore(tmp_path / "data" / "transcripts.sqlite3") as store:
        run_id = start_grade(store, plan)
        with pytest.raises(KeyboardInterrupt):
            run_grade(store, run_id, plan, read_generations(gens, "python3"), sandbox, jobs=1, progress=StopAfter(5))
        assert store.run(run_id).status == "interrupted"
        assert len([e for e in store.events(run_id) if e.kind == RESULT_EVENT]) == 5

    # the dataset, the generations and the settings come from the stored plan
    assert cli("grade", "--resume", run_id, "--json", "-o", str(tmp_path / "resumed.json")) == 0
    assert timeless(tmp_path / "resumed.json") == timeless(tmp_path / "whole.json")
    with TranscriptStore(tmp_path / "data" / "transcripts.sqlite3") as store:
        results = [e.payload for e in store.events(run_id) if e.kind == RESULT_EVENT]
        assert store.run(run_id).status == "done"
    assert sorted((r["question_id"], r["index"]) for r in results) == sorted(
        {(r["question_id"], r["index"]) for r in results}
    )  # no generation graded twice
    assert len(results) == 12


def test_grade_without_its_files_or_a_run_to_resume_says_what_it_needs(cli, capsys):
    assert cli("grade") == 2
    err = capsys.readouterr().err
    assert "grade needs DATASET and GENERATIONS" in err and "--resume RUN" in err


def test_a_resumed_grading_refuses_a_changed_generations_file(cli, tmp_path, capsys):
    gens = generations(tmp_path)
    dataset = open_dataset(str(SAMPLE))
    from cpbot.bot.bench.grade import file_sha256

    plan = GradePlan(
        dataset=dataset, generations_file=str(gens), generations_sha256=file_sha256(gens), selection=Selection(),
        default_language="python3",
    )  # fmt: skip
    with TranscriptStore(tmp_path / "data" / "transcripts.sqlite3") as store:
        run_id = start_grade(store, plan)
    gens.write_text(gens.read_text(encoding="utf-8").replace("print(", "print(0"), encoding="utf-8")
    assert cli("grade", str(SAMPLE), str(gens), "--resume", run_id) == 2
    assert "changed since the grading started" in capsys.readouterr().err


def test_a_grading_task_reads_its_problems_line_and_never_indexes_the_file(sandbox, monkeypatch, tmp_path):
    dataset = open_dataset(str(SAMPLE)).model_copy(update={"time_limit_ms": 2000})
    summary = livecodebench.index(dataset.path)["abc900_a"]  # what the driver hands each task

    def refuse(*args, **kwargs):
        raise AssertionError("a grading task indexed the release file")

    monkeypatch.setattr(livecodebench, "_index", refuse)
    gens = read_generations(generations(tmp_path), "python3")["abc900_a"]
    groups = programs(gens)
    assert [[g.index for g in group] for group in groups] == [[0, 2], [1], [3]]  # the repeated program once
    results = [r for group in groups for r in grade_program(GradeSettings(dataset=dataset), summary, group, sandbox)]
    assert [(r.grade.index, r.grade.verdict) for r in results] == [
        (0, Verdict.AC), (2, Verdict.AC), (1, Verdict.WA), (3, Verdict.RE),
    ]  # fmt: skip
