"""Turning sources and program files into runnable `Program`s."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from cpbot.core.errors import ConfigError
from cpbot.core.registry import LANGUAGE_BY_EXTENSION
from cpbot.judge.languages import Build, BuildOptions, Program, get_language
from cpbot.judge.languages.headers import HEADER_SUFFIXES
from cpbot.judge.model import Solution, printable
from cpbot.judge.sandbox import Sandbox


def build_solution(solution: Solution, sandbox: Sandbox, options: BuildOptions | None = None) -> Build:
    """Compile (or syntax-check) a solution; a failed build is a `Build` without a program (CE)."""
    return get_language(solution.language).build(solution.source, sandbox, options)


def precheck_solutions(solutions: Iterable[Solution], sandbox: Sandbox) -> None:
    """Check many solutions ahead in a few sandbox runs where their language can (Python's syntax check),
    so that building each costs no run of its own; the ones this does not clear are checked when built."""
    by_language: dict[str, list[str]] = {}
    for solution in solutions:
        by_language.setdefault(solution.language, []).append(solution.source)
    for name, sources in by_language.items():
        precheck = getattr(get_language(name), "precheck", None)
        if precheck is not None:
            precheck(sources, sandbox)


def sandbox_can_read(folder: Path) -> bool:
    """Whether programs in the sandbox (as root: the user nobody) can reach `folder` to compile in it."""
    if os.geteuid() != 0:
        return True
    real = folder.resolve()
    for d in [real, *real.parents]:
        need = 0o005 if d == real else 0o001  # list and enter the folder, enter each parent
        if d.stat().st_mode & need != need:
            return False
    return True


def stage_with_headers(path: Path, sandbox: Sandbox) -> Path:
    """A source in a folder the sandbox cannot read (a `mktemp -d` folder, root's home), staged with the
    headers beside it, as `cpbot judge` stages a solution: its path in the read-only staging area."""
    files = {path.name: path}
    files.update(
        {p.name: p for p in sorted(path.parent.iterdir()) if p.suffix.lower() in HEADER_SUFFIXES and p.is_file()}
    )
    digest = hashlib.sha256()
    for name, file in sorted(files.items()):
        digest.update(name.encode() + b"\0" + file.read_bytes() + b"\0")
    return sandbox.stage(f"src-{digest.hexdigest()[:24]}", files) / path.name


def build_program_file(
    path: Path, sandbox: Sandbox, role: str, include_dirs: Sequence[Path] = (), flags: Sequence[str] = ()
) -> Program:
    """A helper program (checker, interactor, generator): a source to build, or an executable to run.

    A source is compiled under its own name with its own folder first on the include path (a
    Polygon-style testlib.h beside a checker works), then `include_dirs`; `flags` follow the language's.
    """
    if path.suffix.lower() in LANGUAGE_BY_EXTENSION:
        source = path.read_text()
        folder = path.resolve().parent
        own = [folder]
        if not sandbox_can_read(folder):
            path = stage_with_headers(path, sandbox)
            # an include dir is bound into the sandbox whatever its parents, so the original folder stays on
            # the path (`#include "../params.h"`) when programs may enter it; a 0700 one would stop the compiler
            own = [path.parent, *([folder] if folder.stat().st_mode & 0o005 == 0o005 else [])]
        dirs = tuple(dict.fromkeys([*own, *(Path(d).resolve() for d in include_dirs)]))
        options = BuildOptions(include_dirs=dirs, filename=path.name, source_path=path, flags=tuple(flags))
        build = get_language(LANGUAGE_BY_EXTENSION[path.suffix.lower()]).build(source, sandbox, options)
        if build.program is None:
            log = printable(build.log.strip()[:2000])
            raise ConfigError(f"the {role} {path.name} does not compile:\n{log}")
        return build.program
    if not os.access(path, os.X_OK):
        raise ConfigError(
            f"the {role} {path} is neither a known source file nor executable",
            hint=f"give a .cpp/.py source or a compiled binary ({', '.join(LANGUAGE_BY_EXTENSION)})",
        )
    key = hashlib.sha256(path.read_bytes()).hexdigest()[:24]
    staged = sandbox.stage(f"bin-{key}", {path.name: path})
    return Program("binary", [str(staged / path.name)], key)
