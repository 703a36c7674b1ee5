"""`cpbot --help`, `--version` and `judge --help` answer without importing a network, model or plotting
library: the command group is lazy and the command modules import click and the registries only.

Checked on the modules a fresh interpreter has loaded after the command, not on time, so that the
test says the same on a loaded machine (scripts/perf/startup.py measures the time).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cpbot.bot.cli.main import COMMANDS, cli

# top-level packages none of the three commands may load
HEAVY = ("httpx", "openai", "apscheduler", "matplotlib", "rich", "pydantic", "bs4", "lxml", "jinja2", "ray", "numpy")
# cpbot's own layers that reach the network, the model or the sandbox
HEAVY_CPBOT = ("cpbot.agents", "cpbot.scrapers", "cpbot.judge", "cpbot.bot.store.transcripts", "cpbot.bot.watch")

PROBE = """
import json, sys
from cpbot.bot.cli.main import main
code = main(sys.argv[2:])
json.dump({"code": code, "modules": sorted(sys.modules)}, open(sys.argv[1], "w"))
"""


def loaded_modules(tmp_path: Path, config_dir: Path, *args: str) -> set[str]:
    """The modules a fresh `cpbot ARGS` has imported when it returns (its exit code must be 0)."""
    out = tmp_path / "modules.json"
    env = {"CPBOT_CONFIG_DIR": str(config_dir), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(out), *args], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["code"] == 0, done.stderr
    return set(result["modules"])


def heavy_in(modules: set[str]) -> list[str]:
    return sorted(
        m for m in modules if m.split(".")[0] in HEAVY or any(m == h or m.startswith(h + ".") for h in HEAVY_CPBOT)
    )


@pytest.mark.parametrize("args", [("--help",), ("--version",), ("judge", "--help")])
def test_help_and_version_import_no_heavy_library(tmp_path, args):
    config = tmp_path / "config"
    config.mkdir()
    modules = loaded_modules(tmp_path, config, *args)
    assert heavy_in(modules) == []
    if args == ("--version",):
        assert not any(m.startswith("cpbot.bot.commands.") for m in modules), "--version loads no command"


def test_a_settings_file_with_command_tables_keeps_help_light(tmp_path):
    # every table is checked against its command's options, so those commands' modules are loaded
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text(
        '[llm]\nmodel = "m"\nbase_url = "http://127.0.0.1:9/v1"\n'
        '[solve]\nlang = "python3"\nstrategy-option = ["max_n=10"]\n'
        '[watch]\nsite = "cf"\n[fetch]\nsite = "codeforces"\n[submit]\nskip = ["stress"]\n[judge]\nchecker = "exact"\n'
    )
    modules = loaded_modules(tmp_path, config, "judge", "--help")
    assert {"cpbot.bot.commands.solve", "cpbot.bot.commands.watch", "cpbot.bot.commands.submit"} <= modules
    assert heavy_in(modules) == []


def test_the_lazy_group_lists_every_command_module(tmp_path):
    commands_dir = Path(__file__).resolve().parents[2] / "bot" / "commands"
    modules = {p.stem for p in commands_dir.glob("*.py") if p.stem != "__init__"}
    assert {c.replace("-", "_") for c in COMMANDS} == modules, "one command per module, named after it"
    ctx = cli.make_context("cpbot", ["judge", "--help"], resilient_parsing=True)
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None and command.name == name
