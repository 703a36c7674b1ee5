"""Fixtures of the bench tests: the scripted model server, the two small datasets, a bench runner, one
local Ray cluster for the tests that spread work over Ray."""

from __future__ import annotations

import gc
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cpbot.agents.budget import Budget
from cpbot.agents.llm_settings import LLMConfig
from cpbot.bot.bench.datasets import Dataset, open_dataset
from cpbot.bot.bench.executors import Executor, LocalExecutor
from cpbot.bot.bench.runner import BenchReport, make_plan, run_bench, start_bench
from cpbot.bot.bench.task import BenchSettings
from cpbot.bot.store.transcripts import TranscriptStore
from tests.agents.support.scripted_server import ScriptedServer
from tests.bot.bench.support import Script, make_kickstart, make_leetcode

STRATEGIES = ("direct", "nala")
RAY_TIMED_OUT = "timed out during startup"  # Ray's own fixed waits for its processes ran out
API_KEY = "sk-bench-secret-key"


@pytest.fixture(autouse=True)
def no_model_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No endpoint settings leak in from the machine running the tests."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "CPBOT_BASE_URL", "CPBOT_API_KEY", "CPBOT_MODEL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="package")
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer(default=Script()) as s:  # the script keeps no state: tests may share it
        yield s


@pytest.fixture(scope="package")
def datasets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Dataset]:
    root = tmp_path_factory.mktemp("datasets")
    return {
        "kickstart": open_dataset(str(make_kickstart(root / "kickstart"))),
        "leetcode": open_dataset(str(make_leetcode(root / "leetcode.jsonl.gz"))),
    }


def settings_for(dataset: Dataset, server: ScriptedServer) -> BenchSettings:
    llm = LLMConfig(base_url=server.base_url, api_key=API_KEY, model="scripted", max_retries=0)
    return BenchSettings(
        dataset=dataset, language="python3", llm=llm, budget=Budget(max_calls=8), k=3, llm_slots=2, judge_slots=2
    )


BenchFn = Callable[..., tuple[BenchReport, TranscriptStore]]


def bench(
    dataset: Dataset, server: ScriptedServer, store: TranscriptStore, executor: Executor
) -> tuple[BenchReport, TranscriptStore]:
    """Bench both strategies over `dataset` into `store`; the report and the store."""
    settings = settings_for(dataset, server)
    plan = make_plan(dataset, STRATEGIES, language="python3", model="scripted", budget=settings.budget, k=3)
    run_id = start_bench(store, plan, settings.llm.public())
    return run_bench(store, run_id, plan, settings, executor), store


@pytest.fixture
def run(tmp_path: Path, server: ScriptedServer, sandbox) -> Iterator[BenchFn]:
    """`run(dataset, executor=None, store=None)`: bench both strategies; returns the report and the store."""
    stores: list[TranscriptStore] = []

    def run_one(dataset: Dataset, executor: Executor | None = None, store: TranscriptStore | None = None):
        if store is None:
            store = TranscriptStore(tmp_path / f"transcripts-{len(stores)}.sqlite3")
            stores.append(store)
        return bench(dataset, server, store, executor or LocalExecutor(2, sandbox=sandbox))

    yield run_one
    for store in stores:
        store.close()


@pytest.fixture(scope="package")
def benched(
    tmp_path_factory: pytest.TempPathFactory, server: ScriptedServer, datasets: dict[str, Dataset], sandbox
) -> Iterator[Callable[[str], tuple[BenchReport, TranscriptStore]]]:
    """`benched(name)`: the report and store of one local bench of both strategies over the dataset `name`,
    run once for all the tests that only read them (the script and the judge make every bench the same)."""
    root = tmp_path_factory.mktemp("benched")
    done: dict[str, tuple[BenchReport, TranscriptStore]] = {}

    def get(name: str) -> tuple[BenchReport, TranscriptStore]:
        if name not in done:
            store = TranscriptStore(root / f"{name}.sqlite3")
            done[name] = bench(datasets[name], server, store, LocalExecutor(2, sandbox=sandbox))
        return done[name]

    yield get
    for _, store in done.values():
        store.close()


@pytest.fixture(scope="package")
def ray_cluster() -> Iterator[Any]:
    """One local Ray cluster of two worker CPUs for every Ray test here (starting one takes most of such a
    test's time), started as `--executor ray` starts its own, which stops it when closed. Ray waits a fixed
    time (about 20 s for its dashboard agent, 30 s for its node) that a machine too busy for them (load
    above about 15 on two cores) runs out even after the executor's three attempts: the tests then skip,
    saying so, rather than fail on the machine's load."""
    ray = pytest.importorskip("ray")
    from cpbot.bot.bench.executors import RayExecutor

    try:
        executor = RayExecutor(num_cpus=2)
    except Exception as e:
        _reap_unwaited_ray_processes()
        if RAY_TIMED_OUT in str(e):
            pytest.skip(f"Ray could not start a local cluster on this busy machine: {e}")
        raise
    assert ray.is_initialized() and executor.owned
    try:
        yield ray
    finally:
        executor.close()
    assert not ray.is_initialized()  # the cluster an executor started is stopped with it


def _reap_unwaited_ray_processes() -> None:
    """A failed Ray start can leave one of its process handles (Ray's ConsolePopen) unwaited: stop and reap
    it now, so no Ray process outlives the failure and its ResourceWarning fails no later test."""
    for handle in gc.get_objects():
        if type(handle).__name__ == "ConsolePopen" and isinstance(handle, subprocess.Popen):
            if handle.poll() is None:
                handle.kill()
            handle.wait()
