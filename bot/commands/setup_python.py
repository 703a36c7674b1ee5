"""`cpbot setup-python`: the managed Python environment judged programs use (numpy, scipy, ...)."""

from __future__ import annotations

import shutil
import subprocess

import click


@click.command("setup-python")
@click.option(
    "--base",
    help="The interpreter the environment is made from (default: the system's python3, which the sandbox shows).",
)
@click.option("--package", "packages", multiple=True, help="Another package to install (repeatable).")
def setup_python(base: str | None, packages: tuple[str, ...]) -> int:
    """Make (or remake) the managed Python environment in cpbot's data dir, with the libraries of AtCoder's
    and LiveCodeBench's Python (numpy, scipy, networkx, sortedcontainers, more-itertools). From then on
    every command judges CPython programs with it (unless --python or CPBOT_PYTHON names another)."""
    from cpbot.core.dirs import python_env_dir
    from cpbot.core.errors import ConfigError
    from cpbot.judge.languages.python import ENVIRONMENT_PACKAGES

    base = base or shutil.which("/usr/bin/python3") or shutil.which("python3")
    if not base:
        raise ConfigError("no python3 to make the environment from", hint="apt-get install python3-venv")
    target = python_env_dir()
    target.parent.mkdir(parents=True, exist_ok=True)
    wanted = [*ENVIRONMENT_PACKAGES, *packages]
    steps = [
        ([base, "-m", "venv", "--clear", str(target)], "python3 -m venv failed", "apt-get install python3-venv"),
        (
            [str(target / "bin" / "python"), "-m", "pip", "install", "-q", *wanted],
            "pip could not install the packages",
            "pip needs PyPI (or a mirror set with PIP_INDEX_URL)",
        ),
    ]
    for argv, what, hint in steps:
        click.echo("$ " + " ".join(argv), err=True)
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise ConfigError(f"{what}: {done.stderr.strip()[-500:]}", hint=hint)
    target.chmod(0o755)  # judged programs run as nobody when cpbot runs as root
    click.echo(f"managed Python environment: {target} ({', '.join(wanted)})")
    return 0
