"""Fixtures of the bench tests: the scripted model server, the two small datasets, a bench runner."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cpbot.agents.budget import Budget
from cpbot.agents.llm import LLMConfig
from cpbot.bot.bench.datasets import Dataset, open_dataset
from cpbot.bot.bench.executors import Executor, LocalExecutor
from cpbot.bot.bench.runner import BenchReport, make_plan, run_bench, start_bench
from cpbot.bot.bench.task import BenchSettings
from cpbot.bot.store.transcripts import TranscriptStore
from tests.agents.support.scripted_server import ScriptedServer
from tests.bot.bench.support import Script, make_kickstart, make_leetcode

STRATEGIES = ("direct", "nala")
API_KEY = "sk-bench-secret-key"


@pytest.fixture(autouse=True)
def no_model_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No endpoint settings leak in from the machine running the tests."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "CPBOT_BASE_URL", "CPBOT_API_KEY", "CPBOT_MODEL"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer(default=Script()) as s:
        yield s


@pytest.fixture(scope="module")
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


@pytest.fixture
def run(tmp_path: Path, server: ScriptedServer, sandbox) -> Iterator[BenchFn]:
    """`run(dataset, executor=None, store=None)`: bench both strategies; returns the report and the store."""
    stores: list[TranscriptStore] = []

    def bench(dataset: Dataset, executor: Executor | None = None, store: TranscriptStore | None = None):
        if store is None:
            store = TranscriptStore(tmp_path / f"transcripts-{len(stores)}.sqlite3")
            stores.append(store)
        settings = settings_for(dataset, server)
        plan = make_plan(dataset, STRATEGIES, language="python3", model="scripted", budget=settings.budget, k=3)
        run_id = start_bench(store, plan, settings.llm.public())
        report = run_bench(store, run_id, plan, settings, executor or LocalExecutor(2, sandbox=sandbox))
        return report, store

    yield bench
    for store in stores:
        store.close()
