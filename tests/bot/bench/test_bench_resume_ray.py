"""A killed bench resumes to the same table; the Ray executor gives the same metrics as the local one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

from cpbot.bot.bench.report import markdown
from cpbot.bot.bench.runner import RESULT_EVENT, build_report, finished_outcomes, stored_plan
from cpbot.bot.cli.main import main
from cpbot.bot.store.transcripts import TranscriptStore
from tests.agents.support.scripted_server import ScriptedServer
from tests.bot.bench.conftest import API_KEY
from tests.bot.bench.support import Script, prompt_text
from tests.conftest import REPO


def table(report) -> str:
    """The report's tables without the first line (it names the run) and without machine timings."""
    return markdown(report, timings=False).split("\n", 1)[1]


def timeless(report) -> list[dict]:
    drop = {"seconds", "mean_time_ms_ac", "mean_memory_kb_ac"}
    return [
        {"strategy": s.strategy, **s.overall.model_dump(exclude=drop)}
        | {d: m.model_dump(exclude=drop) for d, m in s.by_difficulty.items()}
        for s in report.strategies
    ]


class GatedScript(Script):
    """The usual script, except that the k-th character problem waits until the gate opens."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    def __call__(self, body):
        if "# Find The K Th Character" in prompt_text(body):
            self.gate.wait(600)  # opened by the test (in a finally); the limit is only a safety net
        return super().__call__(body)


def _results(db, run_id: str) -> list:
    with TranscriptStore(db) as store:
        return [e for e in store.events(run_id) if e.kind == RESULT_EVENT]


def test_a_killed_bench_resumed_gives_the_table_of_an_uninterrupted_one(benched, datasets, tmp_path, monkeypatch):
    dataset = datasets["leetcode"]
    uninterrupted, _ = benched("leetcode")
    script = GatedScript()
    data_dir = tmp_path / "data"
    db = data_dir / "transcripts.sqlite3"
    with ScriptedServer(default=script) as server:
        env = {
            **os.environ,
            "CPBOT_DATA_DIR": str(data_dir),
            "CPBOT_BASE_URL": server.base_url,
            "CPBOT_API_KEY": API_KEY,
            "CPBOT_MODEL": "scripted",
        }
        argv = [sys.executable, "-m", "cpbot", "bench", str(dataset.path), "--strategy", "direct,nala"]
        argv += ["--lang", "python3", "-j", "1", "--max-calls", "8"]
        proc = subprocess.Popen(
            argv, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
        )
        try:
            # the stone game's two pairs finish; the k-th character's first pair then waits at the gate
            deadline = time.monotonic() + 600  # a safety net only: a loaded machine takes minutes
            run_id = None
            while time.monotonic() < deadline:
                if db.exists():
                    with TranscriptStore(db) as store:
                        benches = store.list_runs(kind="bench")
                    if benches and len(_results(db, benches[0].id)) == 2:
                        run_id = benches[0].id
                        break
                assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
                time.sleep(0.1)
            assert run_id is not None, "the bench never got half-way"
            os.killpg(proc.pid, signal.SIGKILL)  # its own session: the bench and the judge it started
            proc.wait(10)
        finally:
            script.gate.set()
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
            if proc.stderr:
                proc.stderr.close()
        with TranscriptStore(db) as store:
            assert store.run(run_id).status == "running"  # killed: nobody closed it
            before = {(o.payload["key"], o.payload["strategy"]): o.payload["run_id"] for o in _results(db, run_id)}
        assert sorted(before) == [("stone-removal-game", "direct"), ("stone-removal-game", "nala")]

        for name, value in env.items():
            if name.startswith("CPBOT_"):
                monkeypatch.setenv(name, value)
        requests_before = len(server.requests)
        code = main(["bench", "--resume", run_id, "--json"])  # the dataset comes from the stored plan
        assert code == 0
        # only the two unfinished pairs were solved again: one call each
        assert len(server.requests) - requests_before == 2

    with TranscriptStore(db) as store:
        results = _results(db, run_id)
        assert len(results) == 4 and store.run(run_id).status == "done"
        resumed_plan = stored_plan(store, run_id)[1]
        resumed = build_report(run_id, resumed_plan, finished_outcomes(store, run_id))
    kept = {(o.key, o.strategy): o.run_id for o in resumed.outcomes}
    assert all(kept[pair] == rid for pair, rid in before.items())  # finished pairs were not redone
    assert table(resumed) == table(uninterrupted)
    assert timeless(resumed) == timeless(uninterrupted)


def test_the_ray_executor_gives_the_metrics_of_the_local_one(run, datasets, benched, ray_cluster):
    from cpbot.bot.bench.executors import RayExecutor

    dataset = datasets["kickstart"]
    local, _ = benched("kickstart")
    executor = RayExecutor(num_cpus=2)  # on the running cluster: it uses it and leaves it running
    try:
        assert not executor.owned
        distributed, store = run(dataset, executor=executor)
    finally:
        executor.close()
    assert ray_cluster.is_initialized()
    assert timeless(distributed) == timeless(local)
    assert table(distributed) == table(local)
    # the Ray workers' solves were recorded by the driver like local ones
    assert all(store.run(o.run_id).llm_calls == o.calls for o in distributed.outcomes)
