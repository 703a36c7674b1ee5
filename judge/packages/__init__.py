"""Problem packages (one reader per format, into `model.ProblemPackage`)."""

from __future__ import annotations

from pathlib import Path

from cpbot.core.errors import ConfigError
from cpbot.judge.packages.kattis import is_kattis, read_kattis
from cpbot.judge.packages.library_checker import is_library_checker, read_library_checker
from cpbot.judge.packages.model import ProblemPackage
from cpbot.judge.packages.polygon import is_polygon, read_polygon


def is_package(root: Path) -> bool:
    """Whether folder `root` is a problem package in a format cpbot reads."""
    return root.is_dir() and (is_kattis(root) or is_polygon(root) or is_library_checker(root))


def read_package(root: Path) -> ProblemPackage:
    """The package in folder `root`, in whichever format it is."""
    if not root.is_dir():
        raise ConfigError(f"{root}: not a folder", hint="give the folder of a problem package")
    if is_kattis(root):
        return read_kattis(root)
    if is_polygon(root):
        return read_polygon(root)
    if is_library_checker(root):
        return read_library_checker(root)
    raise ConfigError(
        f"{root}: not a problem package cpbot reads",
        hint="a Kattis package has problem.yaml, data/ and submissions/; a Polygon one problem.xml; "
        "a Library Checker one info.toml",
    )
