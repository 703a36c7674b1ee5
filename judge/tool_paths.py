"""Where a problem's own programs are (a checker, an interactor, a score-based problem's tools): paths named
relative to the problem's folder, checked to stay in it.

Light on purpose (no sandbox, no build): `bot/app/problem_folder.load_problem` resolves a problem's tool
paths when it reads problem.json, before anything runs.
"""

from __future__ import annotations

from pathlib import Path

from cpbot.core import safe_paths
from cpbot.core.errors import ConfigError
from cpbot.core.safe_paths import OutsideFolder
from cpbot.judge.checkers import builtin_checker
from cpbot.judge.model import HeuristicSpec, Problem


def inside(folder: Path, name: str, what: str) -> Path:
    """`name` (relative to the problem's folder, or absolute) as a path; a relative one may not leave the folder."""
    path = Path(name)
    if path.is_absolute():
        return path
    try:
        return safe_paths.inside(folder, path).resolve()  # the one check of a name from outside
    except OutsideFolder:
        raise ConfigError(f"the {what} {name!r} leaves the problem's folder", hint="name a file inside it") from None


def tools_in(problem: Problem, folder: Path) -> Problem:
    """`problem` with its programs' relative paths made absolute in `folder` (where its problem.json is): a
    checker program (not a built-in spec), an interactor named by path, a score-based problem's tools; a path
    that leaves the folder is a `ConfigError`."""
    update: dict[str, object] = {}
    if problem.checker != "special" and builtin_checker(problem.checker) is None:
        update["checker"] = str(inside(folder, problem.checker, "checker"))
    if isinstance(problem.interactor, str):
        update["interactor"] = str(inside(folder, problem.interactor, "interactor"))
    if problem.heuristic is not None:
        update["heuristic"] = _heuristic_in(problem, folder)
    return problem.model_copy(update=update) if update else problem


def _heuristic_in(problem: Problem, folder: Path) -> HeuristicSpec:
    spec = problem.heuristic
    assert spec is not None
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
    return resolved
