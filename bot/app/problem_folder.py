"""A problem's folder: `problem.json` and `tests/NAME.in|.out`, as `cpbot fetch`, `solve` and `listen`
write it and `cpbot judge --problem`, `solve` and `submit` read it back.

A folder that exists is never changed behind the user's back: the commands write beside it (DIR-2, ...)
unless --force (`free_dir`, `place`)."""

from __future__ import annotations

import hashlib
import stat
from pathlib import Path

from pydantic import ValidationError

from cpbot.agents.roles.interactor_writer import WrittenInteractor, judged_through
from cpbot.core import bounds
from cpbot.core.bounds import TEST_FILE, JsonTooDeep
from cpbot.core.errors import ConfigError, first_problem
from cpbot.core.registry import LOCAL_SITE, language_spec
from cpbot.core.safe_paths import component, inside, read_file, write_inside
from cpbot.judge.model import NEWER_SCHEMA, Problem, Solution
from cpbot.judge.testdir import files_of, write_tests_dir
from cpbot.judge.tool_paths import tools_in

PROBLEM_FILE = "problem.json"


def problem_dirname(problem: Problem) -> str:
    """A directory name for a problem: its id without the site ("1873B", "two-sum"), made a plain path
    component (`cpbot.core.safe_paths.component`)."""
    return component(problem.id.split(":", 1)[-1], "problem")


def _sample_files(problem: Problem) -> dict[str, bytes]:
    return {f"tests/{name}": data for name, data in files_of(problem.samples, default_name="sample").items()}


def _problem_text(problem: Problem) -> bytes:
    return (problem.model_dump_json(indent=2) + "\n").encode()


def save_problem(problem: Problem, directory: Path) -> Path:
    """Write `problem.json` and `tests/sample-N.in|.out` into `directory`; returns the json's path.

    Sample files left by an earlier fetch are replaced; other tests in `tests/` are kept.
    """
    directory.mkdir(parents=True, exist_ok=True)
    tests = inside(directory, "tests")
    tests.mkdir(exist_ok=True)
    inside(directory, "tests")  # not swapped for a symlink out meanwhile
    for old in list(tests.glob("sample-*.in")) + list(tests.glob("sample-*.out")):
        old.unlink()
    write_tests_dir(problem.samples, tests, default_name="sample")
    return write_inside(directory, PROBLEM_FILE, _problem_text(problem))


def changed_files(problem: Problem, directory: Path, extra: dict[str, bytes] | None = None) -> list[str]:
    """The files of `directory` that writing the problem there (and `extra`, name -> content) would change
    or remove: existing files with other content, and earlier samples that would be replaced."""
    files = {PROBLEM_FILE: _problem_text(problem), **_sample_files(problem), **(extra or {})}
    changed = [name for name, data in files.items() if _would_change(directory / name, data)]
    tests = directory / "tests"
    if tests.is_symlink():  # never written through
        changed.append("tests")
    elif tests.is_dir():
        old = sorted(p for p in tests.iterdir() if p.name.startswith("sample-") and p.suffix in (".in", ".out"))
        changed += [f"tests/{p.name}" for p in old if f"tests/{p.name}" not in files]
    return changed


def _would_change(path: Path, data: bytes) -> bool:
    """Whether writing `data` at `path` changes what is there: a file of other content, or anything that is
    not a plain file (a symlink, a FIFO, a folder), which cpbot never writes through."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return False
    except NotADirectoryError:  # a file where a folder of the path should be
        return True
    if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
        return True
    return path.read_bytes() != data


def place(
    problem: Problem, directory: Path, *, force: bool, extra: dict[str, bytes] | None = None
) -> tuple[Path, list[str]]:
    """Where to write the problem (and `extra`) so that nothing of the user's is lost: `directory` itself
    when writing there changes no file (or with `force`), else beside it as `listen` does (DIR-2, ...).
    Returns the folder and the files of `directory` that were kept from being changed."""
    changed = [] if force else changed_files(problem, directory, extra)
    return (free_dir(directory, False) if changed else directory), changed


def is_problem_file(path: Path, data: bytes) -> bool:
    """Whether a file is a cpbot problem file (written by `fetch`, or by hand: samples, maybe limits)
    rather than a site's page or answer, or a Competitive Companion JSON (which has `tests`)."""
    if path.suffix != ".json":
        return False
    try:
        value = bounds.loads(data, str(path))
    except ValueError:
        return False
    return isinstance(value, dict) and "samples" in value and "tests" not in value


def load_problem(path: Path) -> Problem:
    """A cpbot problem file; a ConfigError naming the first thing wrong otherwise. A file written by
    hand (its samples, maybe limits) needs no id: it is `local:` and a hash of the file."""
    data = read_file(path, TEST_FILE)
    try:
        value = bounds.loads(data, str(path))
        if isinstance(value, dict) and "id" not in value and "samples" in value:
            value["id"] = f"{LOCAL_SITE}:{hashlib.sha256(data).hexdigest()[:12]}"
        problem = Problem.model_validate(value)
    except ValidationError as e:
        if e.errors()[0]["type"] == NEWER_SCHEMA:
            raise ConfigError(
                f"{path} was {first_problem(e)}", hint="upgrade cpbot (pip install -U cpbot), or fetch it again"
            ) from None
        raise ConfigError(
            f"{path} is not a cpbot problem file: {first_problem(e)}",
            hint="make one with `cpbot fetch URL -o DIR`",
        ) from None
    except JsonTooDeep:
        raise
    except ValueError as e:  # not JSON at all
        raise ConfigError(f"{path} is not JSON: {e}", hint="make one with `cpbot fetch URL -o DIR`") from None
    # its checker, interactor and a score-based problem's tools are named relative to its folder: absolute from here on
    return tools_in(problem, path.parent)


def with_written_judges(
    problem: Problem, checker: Solution | None, interactor: WrittenInteractor | None
) -> tuple[Problem, dict[str, bytes]]:
    """The problem as its folder keeps it after a solve whose test designer wrote its checker or interactor,
    and their files (`checker.py`, `interactor.py`, named relative in problem.json): an interactive problem's
    tests become the hidden data its interactor reads (its dialogues kept in the notes), as the solve judged."""
    files: dict[str, bytes] = {}
    if checker is not None:
        name = f"checker{language_spec(checker.language).extension}"
        files[name] = checker.source.encode()
        problem = problem.model_copy(update={"checker": name})
    if interactor is not None:
        name = f"interactor{language_spec(interactor.interactor.language).extension}"
        files[name] = interactor.interactor.source.encode()
        problem = judged_through(problem, interactor).model_copy(update={"interactor": name})
    return problem, files


def solution_name(language: str) -> str:
    """The solution's file name in a problem's folder: `solution.cpp`, `solution.py`."""
    return f"solution{language_spec(language).extension}"


def save_solution(
    problem: Problem, source: str, language: str, directory: Path, extra: dict[str, bytes] | None = None
) -> Path:
    """The problem's folder with the solution beside it (`solution.cpp`, `solution.py`) and the `extra` files
    (name -> content: a written checker or interactor); returns the solution's path."""
    save_problem(problem, directory)
    for name, data in (extra or {}).items():
        write_inside(directory, name, data)
    return write_inside(directory, solution_name(language), source.encode("utf-8"))


def free_dir(directory: Path, force: bool) -> Path:
    """`directory`, or with --force absent the first of DIR-2, DIR-3, ... that does not exist yet."""
    if force or not directory.exists():
        return directory
    n = 2
    while directory.with_name(f"{directory.name}-{n}").exists():
        n += 1
    return directory.with_name(f"{directory.name}-{n}")
