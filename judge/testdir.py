"""Tests on disk: the layout online-judge-tools uses (NAME.in with NAME.out or NAME.ans beside it), and
cf-tool's (inN.txt with ansN.txt)."""

from __future__ import annotations

import re
from pathlib import Path

from cpbot.core.errors import ConfigError
from cpbot.judge.model import TestCase


def _natural_key(path: Path) -> list[object]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.stem)]


def read_text_exact(path: Path) -> str:
    """File text that encodes back to the very same bytes, whatever they are."""
    return path.read_bytes().decode("utf-8", "surrogateescape")


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
                input=read_text_exact(inp),
                output=read_text_exact(answer) if answer else None,
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
                input=read_text_exact(inp),
                output=read_text_exact(answer) if answer.exists() else None,
                origin="user",
                name=f"in{n}",
            )
        )
    return tests


def write_tests_dir(tests: list[TestCase], directory: Path, *, default_name: str = "test") -> list[Path]:
    """Write tests as NAME.in/NAME.out (a test without a name is `default_name`-N, N counting from 1), byte
    for byte as `read_text_exact` reads them back; returns the input paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, test in enumerate(tests, start=1):
        name = test.name or f"{default_name}-{i}"
        (directory / f"{name}.in").write_bytes(test.input.encode("utf-8", "surrogateescape"))
        if test.output is not None:
            (directory / f"{name}.out").write_bytes(test.output.encode("utf-8", "surrogateescape"))
        paths.append(directory / f"{name}.in")
    return paths


def save_next_test(directory: Path, prefix: str, given: str, answer: str) -> Path:
    """Write a test as the first free `PREFIX-NNN.in`/`.out` in `directory` (oj's `hack-000` style), never
    replacing a file; returns the input's path."""
    directory.mkdir(parents=True, exist_ok=True)
    for n in range(100_000):
        path = directory / f"{prefix}-{n:03d}.in"
        try:
            with open(path, "xb") as f:  # claimed atomically: two saves never share a name
                f.write(given.encode("utf-8", "surrogateescape"))
        except FileExistsError:
            continue
        path.with_suffix(".out").write_bytes(answer.encode("utf-8", "surrogateescape"))
        return path
    raise ConfigError(f"{directory} has no free {prefix}-NNN.in name left", hint="save into another folder")
