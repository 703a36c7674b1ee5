"""Which Python judged programs run with: --python, then CPBOT_PYTHON, then the config's `[judge] python`,
then the managed environment, then the system's; every judging command follows it and doctor shows it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cpbot.bot.cli.config import Settings, python_choice
from cpbot.bot.cli.main import main
from cpbot.judge.languages import LANGUAGES
from tests.conftest import CACHE

# a program only an interpreter with the probe environment's module accepts
USES_PROBE = "import cpbot_probe\nprint(int(input()) + cpbot_probe.ONE)\n"


def settings(judge_python: str | None = None) -> Settings:
    commands = {"judge": {"python": judge_python}} if judge_python else {}
    return Settings(path=Path("/c/config.toml"), commands=commands)


def test_the_flag_wins_then_the_environment_then_the_commands_table_then_judge_python(monkeypatch):
    monkeypatch.delenv("CPBOT_PYTHON", raising=False)
    both = settings("/from/config")
    assert python_choice(None, None, settings()) is None  # the judge's default: managed env, then system
    assert python_choice(None, None, both) == ("/from/config", "[judge] python in /c/config.toml")
    from_table = ("/from/grade/table", "[grade] python in /c/config.toml")
    assert python_choice(None, "/from/grade/table", both, command="grade") == from_table
    monkeypatch.setenv("CPBOT_PYTHON", "/from/env")
    assert python_choice(None, "/from/grade/table", both) == ("/from/env", "CPBOT_PYTHON")
    assert python_choice("/from/flag", "/from/grade/table", both) == ("/from/flag", "--python")


@pytest.fixture(scope="session")
def probe_env() -> str:
    """A virtual environment of the system's python3 with one module of its own (made offline, kept)."""
    python = CACHE / "probe-env" / "bin" / "python"
    if not python.exists():
        tmp = CACHE / f"probe-env.tmp{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        made = subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", str(tmp)], capture_output=True)
        if made.returncode != 0:
            pytest.skip(f"python3 -m venv failed: {made.stderr.decode()[-300:]}")
        (site,) = (tmp / "lib").glob("python3*/site-packages")
        (site / "cpbot_probe.py").write_text("ONE = 1\n")
        tmp.chmod(0o755)
        os.replace(tmp, CACHE / "probe-env")
    return str(python)


@pytest.fixture
def fresh_choice(monkeypatch, tmp_path):
    """The interpreter choice of this test only (it lives in the environment and the language object), and
    a sandbox made when the judge first asks for one (it shows the chosen environment read-only)."""
    from cpbot.judge.languages.python import default_warm_python
    from cpbot.judge.sandbox import Sandbox

    for name in ("CPBOT_PYTHON", "CPBOT_PYTHON3", "CPBOT_SANDBOX_READ_ONLY"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    LANGUAGES["python3"].__dict__.pop("interpreter", None)
    made: list[Sandbox] = []

    def sandbox() -> Sandbox:
        if not made:
            made.append(Sandbox(2, warm_python=default_warm_python()))
        return made[0]

    monkeypatch.setattr("cpbot.judge.runner.default_sandbox", sandbox)
    config = tmp_path / "config"
    config.mkdir()
    monkeypatch.setenv("CPBOT_CONFIG_DIR", str(config))
    yield config
    for box in made:
        box.close()
    LANGUAGES["python3"].__dict__.pop("interpreter", None)


def test_judge_python_in_the_config_judges_every_program_and_doctor_says_so(fresh_choice, probe_env, tmp_path, capsys):
    (fresh_choice / "config.toml").write_text(f'[judge]\npython = "{probe_env}"\n')
    solution = tmp_path / "plus_one.py"
    solution.write_text(USES_PROBE)
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "1.in").write_text("41\n")
    (tests / "1.out").write_text("42\n")

    assert main(["judge", str(solution), "--tests", str(tests), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "AC"  # the configured environment has the module

    assert main(["doctor", "--json"]) in (0, 1)
    shown = json.loads(capsys.readouterr().out)["judged_python"]
    assert shown.startswith(probe_env) and f"[judge] python in {fresh_choice / 'config.toml'}" in shown

    # the flag outranks the config: the system's python3 lacks the module, and the verdict says what to do
    LANGUAGES["python3"].__dict__.pop("interpreter", None)
    assert main(["judge", str(solution), "--tests", str(tests), "--json", "--python", "/usr/bin/python3"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "RE"
    message = report["results"][0]["checker_message"]
    assert "imports cpbot_probe" in message and "cpbot setup-python" in message and "[judge] python" in message


def test_a_python_that_is_not_there_is_one_clear_error_naming_where_it_was_chosen(fresh_choice, tmp_path, capsys):
    (fresh_choice / "config.toml").write_text('[judge]\npython = "/nowhere/bin/python"\n')
    solution = tmp_path / "a.py"
    solution.write_text("print(1)\n")
    assert main(["judge", str(solution), "--tests", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "[judge] python in" in err and "/nowhere/bin/python" in err and "no executable interpreter" in err
