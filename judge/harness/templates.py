"""Loading the harness's code templates (text files in `templates/harness/`, never imported)."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from cpbot.core.errors import JudgeError

_MARKER = re.compile(r"@@([A-Z_]+)@@")
_QUOTED_MARKER = re.compile(r"(['\"])@@([A-Z_]+)@@\1")


@cache
def template(name: str) -> str:
    """The text of `templates/harness/<name>`."""
    try:
        return resources.files("cpbot.templates").joinpath("harness", name).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError) as e:
        raise JudgeError(
            f"harness template {name} is missing", hint="reinstall cpbot; templates/harness/ ships with it"
        ) from e


def fill(text: str, *, quoted: bool = False, **parts: str) -> str:
    """Replace each `@@NAME@@` marker (with `quoted`, each `"@@NAME@@"` string literal) by its part.

    Every part's marker must occur exactly once and every marker must have a part. The text is
    scanned once, so a part that happens to contain a marker is left alone.
    """
    pieces, names = _layout(text, quoted)
    expected = sorted(parts)
    if sorted(names) != expected:
        raise JudgeError(f"harness template markers {sorted(names)} do not match the parts {expected}")
    filled = [pieces[0]]
    for name, piece in zip(names, pieces[1:], strict=True):
        filled += [parts[name], piece]
    return "".join(filled)


@cache
def _layout(text: str, quoted: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The text around the markers and the markers' names (lower-cased), in order: a template is scanned once,
    not for every program it is filled for."""
    pattern = _QUOTED_MARKER if quoted else _MARKER
    pieces, names, at = [], [], 0
    for m in pattern.finditer(text):
        pieces.append(text[at : m.start()])
        names.append(m.group(m.lastindex or 1).lower())
        at = m.end()
    pieces.append(text[at:])
    return tuple(pieces), tuple(names)
