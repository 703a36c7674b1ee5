"""`cpbot fetch -o DIR` and `cpbot solve -o DIR` never change a user's files without --force: they write
beside (DIR-2) and say so. `solve` takes a problem.json written by hand (no id, no site; `--site local`).
An interrupted solve is stored as interrupted."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import cpbot.bot.app.solving as solving
from cpbot.agents.budget import Budget
from cpbot.agents.llm_settings import LLMConfig
from cpbot.bot.app.problem_folder import load_problem
from cpbot.bot.cli.main import main
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.testing import scripted_server
from cpbot.testing.scripted_server import Reply, ScriptedServer
from tests.paths import REPO

PAGE = REPO / "examples" / "fetch" / "codeforces-1702A.html"
URL = "https://codeforces.com/contest/1702/problem/A"
SUM = "a, b = map(int, input().split())\nprint(a + b)\n"
HAND_WRITTEN = {"title": "Sum", "statement": "Print a + b.", "samples": [{"input": "1 2\n", "output": "3\n"}]}


def _fetch(out: Path, *extra: str) -> None:
    assert not main(["fetch", str(PAGE), "--url", URL, "-o", str(out), *extra])


def test_fetch_again_into_the_same_folder_changes_nothing_and_stays(tmp_path, capsys):
    out = tmp_path / "1702A"
    _fetch(out)
    _fetch(out)
    captured = capsys.readouterr()
    assert "kept" not in captured.err and not (tmp_path / "1702A-2").exists()


def test_fetch_keeps_an_edited_sample_and_writes_beside(tmp_path, capsys):
    out = tmp_path / "1702A"
    _fetch(out)
    (out / "tests" / "sample-1.out").write_text("my own answer\n")
    _fetch(out)
    err = capsys.readouterr().err
    assert (out / "tests" / "sample-1.out").read_text() == "my own answer\n"
    assert (tmp_path / "1702A-2" / "problem.json").is_file()
    assert "tests/sample-1.out" in err and "1702A-2" in err and "--force" in err
    _fetch(out, "--force")
    assert (out / "tests" / "sample-1.out").read_text() != "my own answer\n"
    assert not (tmp_path / "1702A-3").exists()


@pytest.fixture
def model():
    with ScriptedServer(default=Reply(f"```python\n{SUM}```"), model="m") as server:
        yield server


def _solve(model: ScriptedServer, problem: Path, out: Path, *extra: str) -> int:
    args = ["solve", str(problem), "--strategy", "direct", "--lang", "python3", "-o", str(out)]
    return main([*args, "--base-url", model.base_url, "--model", "m", "--api-key", "k", *extra])


def test_solve_accepts_a_hand_written_problem_json(model, tmp_path, capsys):
    problem = tmp_path / "problem.json"
    problem.write_text(json.dumps(HAND_WRITTEN))
    assert _solve(model, problem, tmp_path / "out") == 0
    assert (tmp_path / "out" / "solution.py").read_text() == SUM
    other = tmp_path / "sum-task.json"  # any name, with --site local
    other.write_text(json.dumps(HAND_WRITTEN))
    assert _solve(model, other, tmp_path / "out2", "--site", "local") == 0
    assert "solving local:" in capsys.readouterr().err


def test_solve_keeps_an_edited_solution_and_writes_beside(model, tmp_path, capsys):
    problem = tmp_path / "problem.json"
    problem.write_text(json.dumps(HAND_WRITTEN))
    out = tmp_path / "out"
    assert _solve(model, problem, out) == 0
    (out / "solution.py").write_text("# my attempt\n")
    assert _solve(model, problem, out) == 0
    err = capsys.readouterr().err
    assert (out / "solution.py").read_text() == "# my attempt\n"
    assert (tmp_path / "out-2" / "solution.py").read_text() == SUM
    assert "solution.py would change" in err
    assert _solve(model, problem, out, "--force") == 0
    assert (out / "solution.py").read_text() == SUM


def test_an_interrupted_solve_is_stored_as_interrupted(model, tmp_path, monkeypatch):
    def pressed_ctrl_c(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(solving, "solve", pressed_ctrl_c)
    problem = tmp_path / "problem.json"
    problem.write_text(json.dumps(HAND_WRITTEN))
    config = LLMConfig(base_url=model.base_url, model="m", api_key="k")
    with pytest.raises(KeyboardInterrupt):
        solving.solve_recorded(
            load_problem(problem), strategy="direct", language="python3", options={}, config=config,
            budget=Budget(), say=lambda _: None,
        )  # fmt: skip
    with TranscriptStore() as store:
        (run,) = store.list_runs()
    assert run.status == "interrupted" and "Ctrl-C" in run.reason


def test_the_scripted_server_takes_its_port_after_the_file(tmp_path, capfd):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"rules": []}))
    show = "import os; print('url', os.environ['CPBOT_BASE_URL'])"
    assert scripted_server.main([str(rules), "--port", "0", "--", sys.executable, "-c", show]) == 0
    assert "url http://127.0.0.1:" in capfd.readouterr().out
