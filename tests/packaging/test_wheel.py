"""The wheel built from a checkout installs one top-level import name, `cpbot`, and coexists with another
distribution's `agents` package (the name of OpenAI's Agents SDK) in one virtualenv.

Everything is built and installed offline: `pip wheel --no-deps --no-build-isolation` with the setuptools of
the test environment, `pip --python VENV install --no-deps --no-index`. The fresh virtualenv gets cpbot's
dependencies by pointing PYTHONPATH at this environment's site-packages, which holds them but no `cpbot`
or `agents` directory (cpbot is installed there in editable mode, through a .pth hook PYTHONPATH ignores).
"""

from __future__ import annotations

import json
import shutil
import site
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

from tests.paths import REPO

# What a clean checkout does not have: local environments, caches, build output.
NOT_IN_A_CHECKOUT = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis"
)
DUMMY_AGENTS_PYPROJECT = """[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "dummy-agents"
version = "1.0"

[tool.setuptools]
packages = ["agents"]
"""


def pip(*args: str, cwd: Path | None = None) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def build_wheel(source: Path, out: Path) -> Path:
    pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", str(out), str(source))
    (wheel,) = out.glob("*.whl")
    return wheel


def top_level_names(wheel: Path) -> set[str]:
    """The first path component of every file the wheel installs outside its .dist-info."""
    with zipfile.ZipFile(wheel) as zf:
        return {name.split("/", 1)[0] for name in zf.namelist() if ".dist-info/" not in name}


@pytest.fixture(scope="module")
def cpbot_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    checkout = tmp_path_factory.mktemp("checkout") / "cpbot"
    shutil.copytree(REPO, checkout, ignore=NOT_IN_A_CHECKOUT)
    return build_wheel(checkout, tmp_path_factory.mktemp("wheel"))


def test_every_module_of_the_source_folders_is_in_the_wheel(cpbot_wheel: Path) -> None:
    """The explicit `packages` list of pyproject.toml misses nothing (a forgotten subpackage ships without
    its modules, and the editable install used in development would not notice)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    with zipfile.ZipFile(cpbot_wheel) as zf:
        names = set(zf.namelist())
    missing = []
    for package, folder in config["package-dir"].items():
        for module in (REPO / folder).rglob("*.py"):
            inside = module.relative_to(REPO / folder)
            wheel_path = "/".join([*package.split("."), *inside.parts])
            if wheel_path not in names:
                missing.append(wheel_path)
    assert not missing


def test_the_wheel_installs_the_single_top_level_name_cpbot(cpbot_wheel: Path) -> None:
    assert top_level_names(cpbot_wheel) == {"cpbot"}
    with zipfile.ZipFile(cpbot_wheel) as zf:
        dist_info = next(n.split("/", 1)[0] for n in zf.namelist() if n.endswith(".dist-info/RECORD"))
        record = zf.read(f"{dist_info}/RECORD").decode()
        names = set(zf.namelist())
        top_level = f"{dist_info}/top_level.txt"
        if top_level in names:
            assert zf.read(top_level).decode().split() == ["cpbot"]
    recorded = {line.split(",", 1)[0].split("/", 1)[0] for line in record.splitlines() if line}
    assert recorded - {dist_info} == {"cpbot"}
    # the layers and their data travel inside it
    for path in (
        "cpbot/core/registry.py",
        "cpbot/bot/cli/main.py",
        "cpbot/judge/sandbox/launcher.c",
        "cpbot/templates/harness/cpp_runtime.hpp",
        "cpbot/testing/scripted_server.py",
    ):
        assert path in names, path


def test_cpbot_and_another_distributions_agents_package_import_side_by_side(cpbot_wheel: Path, tmp_path: Path) -> None:
    dummy = tmp_path / "dummy-agents"
    (dummy / "agents").mkdir(parents=True)
    (dummy / "pyproject.toml").write_text(DUMMY_AGENTS_PYPROJECT)
    (dummy / "agents" / "__init__.py").write_text('WHO = "not cpbot"\n')
    agents_wheel = build_wheel(dummy, tmp_path / "dummy-wheel")

    env = tmp_path / "venv"
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    pip("--python", str(python), "install", "--no-deps", "--no-index", "-q", str(agents_wheel), str(cpbot_wheel))

    probe = (
        "import json, agents, cpbot, cpbot.agents.llm, cpbot.bot.cli.main, cpbot.core.registry;"
        "print(json.dumps({'agents': agents.WHO, 'agents_file': agents.__file__, 'cpbot_file': cpbot.__file__,"
        "'cli_file': cpbot.bot.cli.main.__file__, 'version': cpbot.__version__}))"
    )
    deps = ":".join(site.getsitepackages())
    done = subprocess.run(
        [str(python), "-c", probe],
        env={"PYTHONPATH": deps, "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout)
    assert seen["agents"] == "not cpbot"
    for key in ("agents_file", "cpbot_file", "cli_file"):
        assert Path(seen[key]).is_relative_to(env), (key, seen[key])
    assert seen["version"]
