"""An AHC's local tools: the zip its task page links, unpacked safely into a problem's folder.

The zip is outside input: its names are checked before anything is written (no absolute names, no `..`, no
links, at most `MAX_FILES` files and `max_decompressed_mb` unpacked), every file is written with
`safe_paths.write_inside`. AHC ships a Rust package (`Cargo.toml`, `src/bin/gen.rs`, `vis.rs`, `tester.rs`
for interactive tasks), often under one top folder; problems of our own in AHC's form ship a generator and
a scorer as sources (`gen.py`, `score.py`, ...). `tools_spec` names what was found in the problem's spec,
as paths relative to the problem's folder.
"""

from __future__ import annotations

import io
import stat
import zipfile
import zlib
from pathlib import Path, PurePosixPath

from cpbot.core import bounds
from cpbot.core.errors import FetchError, ParseError
from cpbot.core.safe_paths import write_inside
from cpbot.judge.model import HeuristicSpec
from cpbot.scrapers.http import HttpClient

MAX_FILES = 2000
TOOLS_DIR = "tools"
_ROLES = {"generator": ("gen",), "scorer": ("score", "vis"), "tester": ("tester",)}
_SOURCES = (".py", ".cpp", ".cc", "")


def download_tools(url: str, client: HttpClient) -> bytes:
    """The tools zip (bounded like any page by the HTTP layer)."""
    response = client.get(url)
    if response.status_code != 200:
        raise FetchError(f"cannot download the contest's tools from {url}: HTTP {response.status_code}")
    return response.content


def unpack_tools(data: bytes, folder: Path) -> list[str]:
    """Unpack the zip `data` into `folder / tools`; returns the names written (relative to `folder`)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, EOFError) as e:
        raise ParseError(f"the contest's tools are not a zip file ({e})") from e
    members = [m for m in archive.infolist() if not m.is_dir()]
    if len(members) > MAX_FILES:
        raise ParseError(f"the contest's tools hold {len(members)} files, more than {MAX_FILES}")
    total = sum(m.file_size for m in members)
    if total > bounds.DECOMPRESSED.bytes():
        raise bounds.DECOMPRESSED.exceeded(f"the contest's tools ({total} bytes unpacked)", ParseError)
    for m in members:
        name = PurePosixPath(m.filename)
        if not name.parts or name.is_absolute() or ".." in name.parts or stat.S_ISLNK(m.external_attr >> 16):
            raise ParseError(f"the contest's tools hold {m.filename!r}, which is a link or leaves the folder")
    # AHC's zips hold one top folder (`tools/`): its content goes straight into the problem's tools folder
    tops = {PurePosixPath(m.filename).parts[0] for m in members}
    strip = len(tops) == 1 and all(len(PurePosixPath(m.filename).parts) > 1 for m in members)
    written = []
    for m in members:
        parts = PurePosixPath(m.filename).parts
        relative = PurePosixPath(TOOLS_DIR, *(parts[1:] if strip else parts))
        try:
            target = write_inside(folder, relative, archive.read(m))
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, ValueError) as e:
            raise ParseError(f"the contest's tools: {m.filename!r} cannot be unpacked ({e})") from e
        except (NotADirectoryError, IsADirectoryError) as e:  # a name both a file and a folder in the zip
            raise ParseError(f"the contest's tools: {m.filename!r} clashes with another name ({e})") from e
        if (m.external_attr >> 16) & 0o111:
            target.chmod(0o755)
        written.append(str(relative))
    return written


def tools_spec(spec: HeuristicSpec, folder: Path) -> HeuristicSpec:
    """`spec` naming the unpacked tools: a cargo package as `tools` (built by the judge), else the generator,
    scorer and tester found by name. Paths are relative to `folder`."""
    root = folder / TOOLS_DIR
    cargo = sorted(root.rglob("Cargo.toml"), key=lambda p: len(p.parts))
    if cargo:
        return spec.model_copy(update={"tools": str(cargo[0].parent.relative_to(folder))})
    found: dict[str, str] = {}
    files = sorted((p for p in root.rglob("*") if p.is_file()), key=lambda p: (len(p.parts), p.name))
    for role, stems in _ROLES.items():
        for path in files:
            if path.stem in stems and path.suffix in _SOURCES:
                found[role] = str(path.relative_to(folder))
                break
    interactive = "tester" in found
    if "generator" not in found or ("scorer" not in found and not interactive):
        raise ParseError(
            "the contest's tools hold neither a Cargo.toml nor a generator and scorer (gen.*, score.* or vis.*)"
        )
    return spec.model_copy(
        update={
            "generator": found["generator"],
            "scorer": None if interactive else found["scorer"],
            "tester": found.get("tester"),
            "interactive": interactive,
            "generator_style": "seed",
        }
    )
