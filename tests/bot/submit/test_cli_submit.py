"""`cpbot submit` end to end against the fake site: gate, submission, verdict, transcript, no secrets on disk."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

import pytest

from cpbot.bot.cli.main import main
from cpbot.judge.model import Limits, Problem, TestCase

API_KEY = "sk-planted0123456789abcdefXYZ"
SOLUTION = "a, b = map(int, input().split())\nprint(a + b)\n"
BRUTE = "a, b = map(int, input().split())\ns = a\nfor _ in range(b):\n    s += 1\nprint(s)\n"
GEN = "import random, sys\nn, seed = int(sys.argv[1]), int(sys.argv[2])\nprint(random.Random(seed).randint(1, n), n)\n"


@pytest.fixture
def workspace(tmp_path: Path, fake_server, monkeypatch) -> Path:
    for name, value in {**fake_server.env(), "CPBOT_DATA_DIR": str(tmp_path / "data"),
                        "CPBOT_CONFIG_DIR": str(tmp_path / "config"), "OPENAI_API_KEY": API_KEY}.items():  # fmt: skip
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("CPBOT_COOKIES", raising=False)
    problem = Problem(
        id="codeforces:1873B",
        site="codeforces",
        url="https://codeforces.com/contest/1873/problem/B",
        title="A+B",
        index="B",
        limits=Limits(time_ms=1000, memory_mb=256),
        samples=[TestCase(input="1 2\n", output="3\n", name="sample-1")],
    )
    (tmp_path / "problem.json").write_text(problem.model_dump_json())
    tests = tmp_path / "tests"
    tests.mkdir()
    for name, (a, b) in {"g1": (150, 7), "g2": (5, 5)}.items():
        (tests / f"{name}.in").write_text(f"{a} {b}\n")
        (tests / f"{name}.out").write_text(f"{a + b}\n")
    for name, text in {"sol.py": SOLUTION, "brute.py": BRUTE, "gen.py": GEN}.items():
        (tmp_path / name).write_text(text)
    cookie = fake_server.site.cf_session
    line = f".codeforces.com\tTRUE\t/\tTRUE\t0\tJSESSIONID\t{cookie}\n"
    (tmp_path / "cookies.txt").write_text("# Netscape HTTP Cookie File\n" + line)
    (tmp_path / "cookies.txt").chmod(0o600)  # a session: cpbot refuses a cookies file others can read
    monkeypatch.chdir(tmp_path)
    return tmp_path


# The profile is left out here (it takes ~20 s on Python under instruction counting); the gate's
# profile rules are tested in test_gate.py.
def _args(ws: Path, solution: str = "sol.py") -> list[str]:
    return [
        "submit", str(ws / solution), "--problem", str(ws / "problem.json"), "--yes", "--tests", str(ws / "tests"),
        "--brute", str(ws / "brute.py"), "--gen", str(ws / "gen.py"), "--skip", "profile", "--stress-runs", "5",
        "--cookies", str(ws / "cookies.txt"), "--interval", "0.01", "--timeout", "10", "--json",
    ]  # fmt: skip


def _events(ws: Path) -> list[tuple[str, dict]]:
    db = sqlite3.connect(ws / "data" / "transcripts.sqlite3")
    rows = db.execute("SELECT kind, payload FROM events ORDER BY run_id, seq").fetchall()
    db.close()
    return [(k, json.loads(p)) for k, p in rows]


def test_submit_passes_the_gate_posts_and_records_everything(workspace, fake_server, capsys, private_user_dirs):
    started = time.time()
    assert main(_args(workspace)) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decision"]["allowed"] and out["verdict"]["verdict"] == "AC" and out["verdict"]["final"]
    assert fake_server.site.count("1873B") == 1
    kinds = {k: p for k, p in _events(workspace)}
    assert kinds["gate"]["allowed"] is True and kinds["gate"]["summary"]["stress"].startswith("clean")
    assert kinds["submission"]["submission_id"] == out["submission"]["submission_id"]
    assert kinds["remote_verdict"]["verdict"] == "AC"
    # a second run of the same source is refused locally
    assert main(_args(workspace)) != 0
    assert fake_server.site.count("1873B") == 1 and fake_server.site.posts("/submit") == 1
    # the planted cookie and API key are in no file cpbot wrote
    secrets = [fake_server.site.cf_session.encode(), API_KEY.encode()]
    roots = [workspace, private_user_dirs, Path(os.environ["CPBOT_CACHE_DIR"])]
    written = [
        p for root in roots for p in root.rglob("*")
        if p.is_file() and p.name != "cookies.txt" and p.stat().st_mtime >= started - 1
    ]  # fmt: skip
    assert any(p.name == "transcripts.sqlite3" for p in written)
    for path in written:
        data = path.read_bytes()
        assert not any(s in data for s in secrets), f"a secret leaked into {path}"


def test_gate_refuses_a_solution_failing_a_generated_test(workspace, fake_server, capsys):
    (workspace / "bad.py").write_text("a, b = map(int, input().split())\nprint(a + b if a < 100 else 0)\n")
    assert main(_args(workspace, "bad.py")) == 1
    out = json.loads(capsys.readouterr().out)
    assert not out["decision"]["allowed"] and out["submission"] is None
    assert any(r.startswith("generated: WA") for r in out["decision"]["reasons"])
    assert fake_server.site.posts("/submit") == 0
    assert [k for k, _ in _events(workspace)][-2:] == ["gate", "run_end"]


def test_login_page_is_one_line_error_with_a_hint(workspace, fake_server, capsys):
    fake_server.site.logged_out = True
    assert main(_args(workspace)) == 2
    err = capsys.readouterr().err
    assert "error: codeforces asks for a login" in err and "hint:" in err and "cookies" in err


def test_the_question_names_the_file_the_language_option_and_the_account(workspace, fake_server, capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    args = ["submit", str(workspace / "sol.py"), "--problem", str(workspace / "problem.json"), "--samples-only",
            "--cookies", str(workspace / "cookies.txt")]  # fmt: skip
    assert main(args) == 130  # answered no
    err = capsys.readouterr().err
    question = next(line for line in err.splitlines() if line.startswith("submit "))
    assert "sol.py" in question and "codeforces:1873B" in question and "Codeforces" in question
    assert "Python 3" in question or "PyPy" in question  # the site's own option, as its form lists it
    assert f"as {fake_server.site.cf_handle}" in question
    assert fake_server.site.posts("/submit") == 0


def test_samples_only_is_one_flag_for_skipping_every_other_check(workspace, fake_server, capsys):
    args = ["submit", str(workspace / "sol.py"), "--problem", str(workspace / "problem.json"), "--samples-only",
            "--yes", "--cookies", str(workspace / "cookies.txt"), "--interval", "0.01", "--json"]  # fmt: skip
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decision"]["allowed"] and out["verdict"]["verdict"] == "AC"
    assert fake_server.site.posts("/submit") == 1
