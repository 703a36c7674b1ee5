"""The one escape for text from outside (programs, compilers, models, sites, servers) on a terminal.

Every view that prints such text (the judge's, the transcripts', errors, the watch table, `listen`)
passes it through `printable`: no escape sequence from outside can retitle, clear or recolour the
user's terminal, or hide what it printed. The HTML export escapes for HTML instead (and sets a CSP).
"""

from __future__ import annotations

import re
import unicodedata

# Control characters but tab and newline, C1 included (U+009B is a terminal's CSI on its own), and every
# format character (Unicode category Cf, as of Unicode 15.1): bidi embeddings, overrides and isolates
# (U+202A-U+202E, U+2066-U+2069, U+200E/F, U+061C), zero-width ones (U+200B-U+200D, U+2060, U+FEFF), which
# make text read otherwise than it is (Trojan Source). A test checks the class against `unicodedata`.
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str) -> str:
    """`text` safe to print on a terminal: every control character but tab and newline shown as `\\xNN`
    (ESC, so every CSI or OSC sequence, and carriage return included), every format character (bidi
    controls, zero-width ones) as `\\uNNNN`. Idempotent, so text escaped on the way in (a report read back
    from disk) stays the same."""
    if text.isprintable():  # the common case, at C speed
        return text
    return _UNPRINTABLE.sub(_escape, text)


def quoted(text: str, limit: int) -> str:
    """Outside text quoted in a message (what a server sent, in a warning or an error): cut to `limit`
    characters, and every character Unicode calls unprintable (control and format characters such as bidi
    overrides, surrogates, unassigned ones; tab and newline kept) written as its Python escape."""
    cut = text[:limit]
    out = [
        c if c in "\n\t" or unicodedata.category(c)[0] != "C" else c.encode("unicode_escape").decode("ascii")
        for c in cut
    ]
    return "".join(out) + ("..." if len(text) > limit else "")


def printable_line(text: str) -> str:
    """`printable` for one line (a table cell, a title, a line of a program's output): newlines escaped too."""
    return printable(text).replace("\n", "\\n")


def shown(text: str) -> str:
    """Text built from outside (a server's or a site's answer, an error, a log line) as the terminal gets
    it: without secrets (`cpbot.core.redact.redact_text`), then `printable`."""
    from cpbot.core.redact import redact_text  # its patterns are compiled only when something is shown

    return printable(redact_text(text))
