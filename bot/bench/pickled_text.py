"""Reading a pickle that holds one string, without unpickling anything.

LiveCodeBench stores the private tests of most problems as base64 of zlib of a pickle whose whole
content is one JSON string. `pickle.loads` on a downloaded file would run whatever the file asks
for, so the pickle is only *read*: `pickletools.genops` decodes its opcodes (it never imports,
calls or builds anything) and the file is accepted only when those opcodes push exactly one string
and stop, with nothing after. Everything else (globals, calls, object building, containers) is
refused with an error naming the first opcode that is not allowed.
"""

from __future__ import annotations

import base64
import binascii
import pickletools
import zlib

from cpbot.core import bounds
from cpbot.core.errors import ConfigError

# opcodes that put one string on the stack
_STRING_OPCODES = frozenset({"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE"})
# opcodes that only frame the data or remember the last value (no effect on what is built)
_HARMLESS_OPCODES = frozenset({"PROTO", "FRAME", "MEMOIZE", "PUT", "BINPUT", "LONG_BINPUT"})
_HINT = "a LiveCodeBench file holds its private tests as one JSON string; this file holds something else"


class UnsafePickle(ConfigError):
    """A pickle that would do more than give back one string."""


def pickled_string(data: bytes, *, where: str = "pickle") -> str:
    """The one string a pickle holds; `UnsafePickle` for any pickle that holds or does anything else."""
    found: str | None = None
    stopped_at: int | None = None
    try:
        for opcode, arg, pos in pickletools.genops(data):
            name = opcode.name
            if name == "STOP":
                stopped_at = pos
                break
            if name in _STRING_OPCODES and found is None:
                found = arg
                continue
            if name in _HARMLESS_OPCODES:
                continue
            what = f"opcode {name}" + (" (a second value)" if name in _STRING_OPCODES else "")
            raise UnsafePickle(f"{where}: refused to read a pickle with {what} at byte {pos}", hint=_HINT)
    except (ValueError, EOFError) as e:  # genops: truncated or unknown opcodes
        raise UnsafePickle(f"{where}: not a readable pickle ({e})", hint=_HINT) from None
    if stopped_at is None or found is None:
        raise UnsafePickle(f"{where}: the pickle holds no string", hint=_HINT)
    if stopped_at + 1 != len(data):
        raise UnsafePickle(f"{where}: {len(data) - stopped_at - 1} bytes follow the pickle's end", hint=_HINT)
    if not isinstance(found, str):  # pragma: no cover - the opcodes above only ever give str
        raise UnsafePickle(f"{where}: the pickle's value is not a string", hint=_HINT)
    return found


def compressed_pickled_string(text: str, *, where: str = "pickle") -> str:
    """base64 -> zlib -> a pickle of one string (LiveCodeBench's private tests), read safely."""
    try:
        raw = bounds.decompress(base64.b64decode(text.encode("ascii"), validate=False), where)
    except (binascii.Error, zlib.error, UnicodeEncodeError, ValueError) as e:
        raise ConfigError(
            f"{where}: neither a JSON list nor base64 of zlib data ({e})",
            hint="private_test_cases is a JSON string or LiveCodeBench's compressed form of one",
        ) from None
    return pickled_string(raw, where=where)
