"""Tests on disk: the layout online-judge-tools uses (NAME.in with NAME.out or NAME.ans beside it), and
cf-tool's (inN.txt with ansN.txt)."""

from __future__ import annotations

import re
from pathlib import Path

from cpbot.core.bounds import TEST_FILE
from cpbot.core.errors import ConfigError
from cpbot.core.safe_paths import component, read_file, write_inside
from cpbot.judge.model import TestCase


def _natural_key(path: Path) -> list[object]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.stem)]


def read_text_exact(path: Path, folder: Path | None = None) -> str:
    """File text that encodes back to the very same bytes, whatever they are. Only a regular file (or a
    symlink to one inside `folder`, when given) of at most `max_test_file_mb` is read; a FIFO or a device
    is refused before it is opened (`cpbot.core.safe_paths.read_file`)."""
    return read_file(path, TEST_FILE, folder=folder).decode("utf-8", "surrogateescape")


def load_tests_dir(directory: Path) -> list[TestCase]:
    """All tests in a directory, in natural order (sample-2 before sample-10)."""
    inputs = sorted(directory.glob("*.in"), key=_natural_key)
    if not inputs:
        raise ConfigError(f"no tests in {directory}", hint="tests are NAME.in files with NAME.out answers beside them")
    tests = []
    for inp in inputs:
        answer = next((p for p in (inp.with_suffix(".out"), inp.with_suffix(".ans")) if p.exists()), None)
        tests.append(
            TestCase(
                input=read_text_exact(inp, directory),
                output=read_text_exact(answer, directory) if answer else None,
                origin="user",
                name=inp.stem,
            )
        )
    return tests


_CF_TOOL_INPUT = re.compile(r"in(\d+)\.txt")


def has_cf_tool_tests(directory: Path) -> bool:
    """True when `directory` holds cf-tool's test files (in1.txt, ans1.txt, ...)."""
    return any(_CF_TOOL_INPUT.fullmatch(p.name) for p in directory.glob("in*.txt"))


def load_cf_tool_tests(directory: Path) -> list[TestCase]:
    """cf-tool's tests in `directory`: inN.txt with ansN.txt beside it, by N."""
    numbered = sorted(
        (int(m.group(1)), p) for p in directory.glob("in*.txt") if (m := _CF_TOOL_INPUT.fullmatch(p.name))
    )
    if not numbered:
        raise ConfigError(f"no tests in {directory}", hint="cf-tool's tests are inN.txt with ansN.txt beside them")
    tests = []
    for n, inp in numbered:
        answer = directory / f"ans{n}.txt"
        tests.append(
            TestCase(
                input=read_text_exact(inp, directory),
                output=read_text_exact(answer, directory) if answer.exists() else None,
                origin="user",
                name=f"in{n}",
            )
        )
    return tests


def file_names_of(tests: list[TestCase], *, default_name: str = "test") -> list[str]:
    """The file name (without `.in`/`.out`) of each test: its name made a plain path component
    (`cpbot.core.safe_paths.component`; a test without a name, or with nothing plain in it, is
    `default_name`-N, N counting from 1), a second test of the same file name getting `-2`, `-3`, ..."""
    names: list[str] = []
    taken: set[str] = set()
    for i, test in enumerate(tests, start=1):
        base = component(test.name, f"{default_name}-{i}")
        name, n = base, 2
        while name.lower() in taken:
            name, n = f"{base}-{n}", n + 1
        taken.add(name.lower())
        names.append(name)
    return names


def files_of(tests: list[TestCase], *, default_name: str = "test") -> dict[str, bytes]:
    """NAME.in/NAME.out -> content of each test, byte for byte as `read_text_exact` reads them back."""
    files = {}
    for name, test in zip(file_names_of(tests, default_name=default_name), tests, strict=True):
        files[f"{name}.in"] = test.input.encode("utf-8", "surrogateescape")
        if test.output is not None:
            files[f"{name}.out"] = test.output.encode("utf-8", "surrogateescape")
    return files


def write_tests_dir(tests: list[TestCase], directory: Path, *, default_name: str = "test") -> list[Path]:
    """Write tests as NAME.in/NAME.out inside `directory` (names as `file_names_of` makes them; nothing
    is written outside it, nor through a symlink); returns the input paths."""
    directory.mkdir(parents=True, exist_ok=True)
    inputs = []
    for name, data in files_of(tests, default_name=default_name).items():
        path = write_inside(directory, name, data)
        if name.endswith(".in"):
            inputs.append(path)
    return inputs


def save_next_test(directory: Path, prefix: str, given: str, answer: str, answer_suffix: str = ".out") -> Path:
    """Write a test as the first free `PREFIX-NNN.in`/`.out` (or `answer_suffix`: Kattis's `.ans`) in `directory`
    (oj's `hack-000` style), never replacing a file; returns the input's path."""
    directory.mkdir(parents=True, exist_ok=True)
    for n in range(100_000):
        path = directory / f"{prefix}-{n:03d}.in"
        try:
            with open(path, "xb") as f:  # claimed atomically: two saves never share a name
                f.write(given.encode("utf-8", "surrogateescape"))
        except FileExistsError:
            continue
        write_inside(directory, path.with_suffix(answer_suffix).name, answer.encode("utf-8", "surrogateescape"))
        return path
    raise ConfigError(f"{directory} has no free {prefix}-NNN.in name left", hint="save into another folder")
