"""`cpbot doctor`: what this machine gives the judge (languages, sandbox isolation, caches)."""

from __future__ import annotations

import json
import os
import platform

import click

from cpbot.bot.cli.options import python_option


@click.command()
@python_option
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
def doctor(as_json: bool) -> int:
    """Check the judge's languages and sandbox and print the isolation achieved."""
    from cpbot.core.dirs import cache_dir
    from cpbot.core.errors import JudgeError
    from cpbot.judge.counting import find_valgrind, unavailable_reason
    from cpbot.judge.languages import LANGUAGES
    from cpbot.judge.sandbox import Sandbox
    from cpbot.judge.sandbox.build import launcher_path

    info: dict[str, object] = {
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "user": "root" if os.geteuid() == 0 else str(os.geteuid()),
        "cache_dir": str(cache_dir()),
    }
    languages: dict[str, str] = {}
    for name, lang in LANGUAGES.items():
        reason = lang.unavailable_reason()
        languages[name] = f"missing: {reason}" if reason else lang.version()
    info["languages"] = languages
    from cpbot.judge.languages.python import judged_python

    info["judged_python"] = judged_python()
    counting = unavailable_reason()
    info["profiler"] = f"instruction counts ({find_valgrind()})" if counting is None else f"CPU time only: {counting}"
    problems = []
    try:
        info["launcher"] = str(launcher_path())
        with Sandbox(2) as sandbox:
            info["isolation"] = sandbox.isolation
        # what this machine could not give (a container without mount rights, no user namespaces)
        info["isolation_gaps"] = [f"{k}: {v}" for k, v in sandbox.isolation.items() if v.startswith("none")]
    except JudgeError as e:
        info["isolation"] = {}
        problems.append(e.message)
    info["problems"] = problems
    if as_json:
        click.echo(json.dumps(info, indent=2))
    else:
        for key, value in info.items():
            if isinstance(value, dict):
                click.echo(f"{key}:")
                for k, v in value.items():
                    click.echo(f"  {k:<12} {v}")
            elif key != "problems":
                click.echo(f"{key:<14} {value}")
        for p in problems:
            click.echo(click.style(f"problem: {p}", fg="red"))
    return 1 if problems else 0
