"""Where a score-based problem's tools are: paths named relative to the problem's folder, checked to stay in it.

Light on purpose (no sandbox, no build): `bot/app/problem_folder.load_problem` resolves a problem's tool
paths when it reads problem.json, before anything runs.
"""

from __future__ import annotations

from pathlib import Path

from cpbot.core.errors import ConfigError
from cpbot.judge.model import Problem


def inside(folder: Path, name: str, what: str) -> Path:
    """`name` (relative to the problem's folder, or absolute) as a path; a relative one may not leave the folder."""
    path = Path(name)
    if path.is_absolute():
        return path
    resolved = (folder / path).resolve()
    if not resolved.is_relative_to(folder.resolve()):
        raise ConfigError(f"the {what} {name!r} leaves the problem's folder", hint="name a file inside it")
    return resolved


def tools_in(problem: Problem, folder: Path) -> Problem:
    """`problem` with its tools' relative paths made absolute in `folder` (where its problem.json is); a
    path that leaves the folder is a `ConfigError`. Problems of other kinds come back as they are."""
    spec = problem.heuristic
    if spec is None:
        return problem
    paths = {
        role: str(inside(folder, name, role))
        for role, name in (
            ("generator", spec.generator),
            ("scorer", spec.scorer),
            ("tester", spec.tester),
            ("tools folder", spec.tools),
        )
        if name is not None
    }
    resolved = spec.model_copy(
        update={
            "generator": paths.get("generator"),
            "scorer": paths.get("scorer"),
            "tester": paths.get("tester"),
            "tools": paths.get("tools folder"),
        }
    )
    return problem.model_copy(update={"heuristic": resolved})
