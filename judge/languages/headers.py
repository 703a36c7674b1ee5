"""The user headers a C++ build read (from the compiler's `-MMD` list), recorded beside the cached binary.

A cached build is used again only while every header it read still has the same content and no earlier
include dir has gained a file of the same name. So a checker's build survives any other change in its
folder (the solution being edited beside it), and one staged from a folder the sandbox cannot read (whose
staged path differs every run) is found again by the headers' contents, not their paths.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path

DEPS_FILE = "deps.json"
DEPS_VERSION = 1
MAX_HEADERS = 5000


def parse_make_deps(text: str) -> list[str]:
    """The prerequisites of a make rule as g++ -MMD writes it (`target: a.cpp b.h \\` ...), unescaped."""
    joined = text.replace("\\\n", " ")
    _, _, rest = joined.partition(": ")
    if not rest:
        _, _, rest = joined.partition(":")
    names = re.findall(r"(?:\\.|[^\s\\])+", rest)
    return [re.sub(r"\\(.)", r"\1", n).replace("$$", "$") for n in names]


HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".inc")


def every_header(include_dirs: Sequence[Path]) -> list[str]:
    """Every header file in the include dirs (for a build whose `-MMD` list is incomplete)."""
    found: list[str] = []
    for d in include_dirs:
        for path in sorted(Path(d).rglob("*")):
            if len(found) >= MAX_HEADERS:
                return found
            if path.suffix.lower() in HEADER_SUFFIXES and path.is_file():
                found.append(str(path))
    return found


def _sha(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _place(path: str, include_dirs: Sequence[Path]) -> tuple[int, str]:
    """(index of the include dir holding it, path inside it), or (-1, absolute path) for one outside them."""
    real = os.path.normpath(path)
    for i, d in enumerate(include_dirs):
        base = os.path.normpath(str(d))
        if real.startswith(base + os.sep):
            return i, os.path.relpath(real, base)
    return -1, real


def record(read: Sequence[str], include_dirs: Sequence[Path]) -> str:
    """What `deps.json` holds for these headers: where each was found and its content's hash."""
    entries = []
    for path in list(dict.fromkeys(read))[:MAX_HEADERS]:
        if not os.path.isabs(path):  # a file of the work dir: one of the sources, which the key holds
            continue
        index, name = _place(path, include_dirs)
        entries.append([index, name, _sha(Path(path)) or ""])
    return json.dumps({"version": DEPS_VERSION, "headers": sorted(entries)}, sort_keys=True)


def save(path: Path, deps: str) -> None:
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    tmp.write_text(deps)
    os.replace(tmp, path)


def still_valid(path: Path, include_dirs: Sequence[Path]) -> str | None:
    """The recorded headers when every one is unchanged where it was found and none is shadowed by a file
    of its name in an earlier include dir; else None (build again)."""
    try:
        deps = path.read_text()
        headers = json.loads(deps)["headers"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    for index, name, digest in headers:
        if index >= len(include_dirs):
            return None
        if index < 0:
            where = Path(name)
        else:
            if any((Path(d) / name).exists() for d in include_dirs[:index]):
                return None
            where = Path(include_dirs[index]) / name
        if _sha(where) != digest:
            return None
    return deps
