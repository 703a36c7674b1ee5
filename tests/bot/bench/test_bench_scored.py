"""`cpbot bench` on score-based problems: each strategy's returned program scored on hidden seeds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cpbot.bot.bench.datasets import HIDDEN_SEEDS_FROM, open_dataset
from cpbot.bot.cli.main import main
from cpbot.testing.score_pool_server import ScorePool, dial_pool
from tests.agents.support.scripted_server import ScriptedServer
from tests.paths import HEURISTIC


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    root = tmp_path / "scored"
    shutil.copytree(HEURISTIC / "dial", root / "dial")
    return root


def bench_json(dataset: Path, pool: ScorePool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox, capsys):  # type: ignore[no-untyped-def]
    """`cpbot bench --json` of `dataset` with `ale` (5 calls) against the stand-in model serving `pool`."""
    monkeypatch.setattr("cpbot.judge.sandbox.default_sandbox", lambda: sandbox)
    with ScriptedServer(default=pool.answer) as server:
        monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
        monkeypatch.setenv("CPBOT_BASE_URL", server.base_url)
        monkeypatch.setenv("CPBOT_API_KEY", "sk-test")
        argv = ["bench", str(dataset), "--strategy", "ale", "--lang", "python3", "--max-calls", "5", "-j", "1"]
        argv += ["--strategy-option", "seeds=4", "--strategy-option", "repeats=1", "--json", "--model", "pool"]
        assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_a_score_based_problem_is_judged_on_seeds_the_agents_never_scored_on(dataset: Path) -> None:
    item = open_dataset(str(dataset)).load("dial")
    assert item.hidden == [] and item.hidden_seeds[0] == HIDDEN_SEEDS_FROM and len(item.hidden_seeds) == 50
    assert item.problem.heuristic is not None and Path(item.problem.heuristic.scorer or "").is_absolute()


def test_bench_reports_the_mean_score_of_the_returned_program(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox, capsys: pytest.CaptureFixture[str]
) -> None:  # type: ignore[no-untyped-def]
    pool = dial_pool()
    report = bench_json(dataset, pool, tmp_path, monkeypatch, sandbox, capsys)
    outcome = report["outcomes"][0]
    final = outcome["final"]
    assert final["verdict"] == "AC" and final["total_tests"] == 50 and final["passed_tests"] == 50
    # the Dial scores W x V: the returned program's dial times the mean weight of the hidden seeds
    from random import Random

    weights = [Random(s).randint(1, 1000) for s in range(HIDDEN_SEEDS_FROM, HIDDEN_SEEDS_FROM + 50)]
    dial = final["mean_score"] / (sum(weights) / 50)
    assert dial == pytest.approx(round(dial)) and dial > pool.programs[0].quality
    assert report["strategies"][0]["overall"]["mean_score"] == pytest.approx(final["mean_score"])
    from cpbot.bot.bench.report import markdown
    from cpbot.bot.bench.runner import BenchReport

    table = markdown(BenchReport.model_validate(report), timings=False)
    header = next(line for line in table.splitlines() if line.startswith("| strategy | n |"))
    assert header.startswith("| strategy | n | mean score | pass@1")
    assert f"| ale | 1 | {final['mean_score']:,.1f} |" in table
    from cpbot.bot.bench.report import metric_table

    rows = metric_table(BenchReport.model_validate(report), timings=False)
    assert rows.columns[3] == "mean score" and rows.rows[0][3] == f"{final['mean_score']:,.1f}"


ALE_LAYOUT = HEURISTIC / "ale_bench" / "ahc900"  # constructed: the Dial problem in ALE-Bench's layout
STANDINGS_JSON = HEURISTIC.parent / "atcoder" / "standings_ahc900_constructed.json"


@pytest.fixture
def ale_dataset(tmp_path: Path) -> Path:
    """ALE-Bench's layout of the Dial problem, its tools (Dial's generator and scorer) in tools/."""
    root = tmp_path / "ale" / "ahc900"
    shutil.copytree(ALE_LAYOUT, root)
    (root / "tools").mkdir()
    for name in ("gen.py", "score.py"):
        shutil.copy(HEURISTIC / "dial" / name, root / "tools" / name)
    return root.parent


def test_an_ale_bench_folder_is_read_as_a_score_based_problem_with_its_system_test_and_standings(
    ale_dataset: Path,
) -> None:
    dataset = open_dataset(str(ale_dataset))
    assert dataset.problem_keys() == ["ahc900"]
    item = dataset.load("ahc900")
    problem = item.problem
    assert (problem.id, problem.title, problem.kind) == ("atcoder:ahc900", "Dial", "heuristic")
    assert problem.limits.time_ms == 1000 and problem.limits.memory_mb == 1024
    assert problem.samples[0].input == "865\n" and problem.samples[0].output is None
    assert item.hidden_seeds == list(range(2000, 2050))  # the private seeds: the system test
    spec = problem.heuristic
    assert spec is not None and spec.system_inputs == 50 and Path(spec.generator or "").is_absolute()
    standings = item.standings
    assert standings is not None and len(standings.ranked) == 24 and standings.performance[0] == (1, 2931)
    # a total between the 7th (dial 760) and 8th (dial 700) entries ranks 8th and takes the published
    # performance of that rank (as ALE-Bench does); a tie sits between the ranks it shares
    placing = standings.place([750 * 500.5] * 50, relative=False)
    perf = dict(standings.performance)
    assert placing.rank == 8 and placing.method == "table" and placing.performance == perf[8]
    tied = standings.place([700 * 500.5] * 50, relative=False)
    assert tied.rank == 8 and perf[8] > tied.performance > perf[9]  # type: ignore[operator]


def test_relative_standings_are_recomputed_from_every_entry_s_raw_scores(tmp_path: Path) -> None:
    from cpbot.bot.bench.standings import read_standings

    (tmp_path / "standings_scores.csv").write_text("rank,score\n1,2000\n2,1250\n")
    (tmp_path / "relative_results.csv").write_text("private_0,private_1\n100,200\n50,-1\n")
    standings = read_standings(tmp_path, unit=1000)
    assert standings is not None and standings.raw == [[100.0, 200.0], [50.0, None]]
    # a new entry scoring (200, 100): per input best 200 and 200, so it gets 1000 + 500 and the others
    # 500 + 1000 and 250 + 0: it ties the first, and ranks first
    placing = standings.place([200.0, 100.0], relative=True)
    assert placing.score == 1500 and placing.rank == 1


def test_bench_ranks_the_returned_program_against_the_recorded_standings(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandbox, capsys: pytest.CaptureFixture[str]
) -> None:  # type: ignore[no-untyped-def]
    shutil.copy(STANDINGS_JSON, dataset / "dial" / "standings.json")  # AtCoder's /standings/json beside it
    report = bench_json(dataset, dial_pool(), tmp_path, monkeypatch, sandbox, capsys)
    final = report["outcomes"][0]["final"]
    from cpbot.scrapers.atcoder.ahc import ahc_performance
    from cpbot.scrapers.atcoder.ranking import parse_standings

    standings = parse_standings(STANDINGS_JSON.read_bytes())
    expected = ahc_performance(standings, final["mean_score"] * 50)  # the total on the 50 hidden seeds
    assert (final["rank"], final["participants"], final["performance"]) == (expected.rank, 24, expected.performance)
    overall = report["strategies"][0]["overall"]
    assert overall["mean_performance"] == expected.performance
    assert overall["mean_rank_percentile"] == pytest.approx(100 * (25 - expected.rank + 1) / 25)
    from cpbot.bot.bench.report import markdown
    from cpbot.bot.bench.runner import BenchReport

    table = markdown(BenchReport.model_validate(report), timings=False)
    assert "| strategy | n | mean score | rank %ile | perf | pass@1" in table
    assert f"| {expected.performance} |" in table
