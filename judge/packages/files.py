"""What every package reader needs of the files it reads: staying inside the package, a submission's language."""

from __future__ import annotations

import ast
from pathlib import Path

from cpbot.core.registry import LANGUAGE_BY_EXTENSION
from cpbot.judge.packages.model import Expected, PackageSubmission

SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".py")
MAX_STATEMENT_BYTES = 1 << 18  # a statement is a few kB; more is cut here, where it enters


def statement_text(root: Path, names: list[str]) -> str:
    """The first of the statement files `names` (paths under `root`, in the format's order of preference) that
    the package holds, cut at `MAX_STATEMENT_BYTES`; "" when it holds none."""
    for name in names:
        path = root / name
        if path.is_file() and inside(path, root):
            with path.open("rb") as f:
                return f.read(MAX_STATEMENT_BYTES).decode("utf-8", errors="replace")
    return ""


def inside(path: Path, root: Path) -> bool:
    """Whether `path` (after symlinks) stays inside the package: a link out of it is not read."""
    return path.resolve().is_relative_to(root)


def submission_language(path: Path) -> tuple[str | None, str]:
    """cpbot's language for a submission file, or None and why not."""
    language = LANGUAGE_BY_EXTENSION.get(path.suffix.lower())
    if language is None:
        return None, f"{path.suffix or 'no extension'}: a language cpbot does not judge"
    if path.suffix.lower() == ".py":
        try:
            ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError:
            return None, "not Python 3 (Python 2?): cpbot judges Python 3"
    return language, ""


def package_submission(path: Path, expected: Expected, shown: str, notes: list[str]) -> PackageSubmission:
    """A submission of the package; one cpbot cannot judge is kept (language None) and `notes` says why."""
    language, why = submission_language(path)
    if language is None:
        notes.append(f"submission {shown} not judged: {why}")
    return PackageSubmission(path=path, expected=expected, language=language)  # type: ignore[arg-type]
