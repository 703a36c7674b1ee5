"""Bounds on what cpbot reads from outside, one setting each.

Pages and site JSON (their size, and the time they take to arrive), test files, decompressed data, JSON
nesting, and the time and memory limits a problem states: each has a default here, an environment
variable (`CPBOT_MAX_PAGE_MB`, ...) and an entry of the `[input]` table of config.toml (read by
`bot.cli.config`, which calls `configure`); the environment wins over the file. A read stops at its
bound (never buffers the whole and then refuses) with a `CpbotError` that names the setting and how to
raise it.
"""

from __future__ import annotations

import json
import os
import threading
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from cpbot.core.errors import ConfigError, CpbotError, ParseError

MB = 1024 * 1024


def _machine_memory_mb() -> int:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // MB
    except (ValueError, OSError):  # pragma: no cover - every Linux has both
        return 64 * 1024


@dataclass(frozen=True)
class Bound:
    """One bound: `[input] key` in config.toml, `CPBOT_<KEY>` in the environment."""

    key: str
    default: int
    unit: str  # "MB", "s", "levels"
    about: str

    @property
    def env(self) -> str:
        return "CPBOT_" + self.key.upper()

    def value(self) -> int:
        """The bound in force: the environment, else config.toml's `[input]`, else the default."""
        text = os.environ.get(self.env)
        if text is not None and text.strip():
            try:
                value = int(text)
            except ValueError:
                value = 0
            if value <= 0:
                raise ConfigError(f"{self.env}={text!r} is not a positive whole number", hint=self.hint())
            return value
        return _configured.get(self.key, self.default)

    def bytes(self) -> int:
        """The bound of an MB setting in bytes."""
        return self.value() * MB

    def describe(self) -> str:
        """The setting as errors name it: `max_page_mb = 32 MB`."""
        return f"{self.key} = {self.value()} {self.unit}"

    def hint(self) -> str:
        return f"{self.about}; raise it with {self.env}=N, or `{self.key} = N` under [input] in config.toml"

    def exceeded(self, what: str, error: type[CpbotError] = ConfigError) -> CpbotError:
        """The error for `what` going past this bound."""
        return error(f"{what} goes past {self.describe()}", hint=self.hint())


PAGE = Bound("max_page_mb", 32, "MB", "the largest page or site JSON read from a site")
PAGE_TIME = Bound(
    "max_page_s", 120, "s", "the longest one page or site answer may take to arrive, all its reads together"
)
TEST_FILE = Bound("max_test_file_mb", 256, "MB", "the largest test file read from a tests folder")
DECOMPRESSED = Bound("max_decompressed_mb", 1024, "MB", "the most data one compressed payload may unpack to")
JSON_DEPTH = Bound("max_json_depth", 100, "levels", "the deepest nesting of JSON read from outside")
TIME_LIMIT = Bound("max_time_limit_s", 600, "s", "the longest time limit a problem (or --tl) may state")
MEMORY_LIMIT = Bound(
    "max_memory_limit_mb", _machine_memory_mb(), "MB", "the largest memory limit judged (default: this machine's RAM)"
)
BOUNDS: dict[str, Bound] = {
    b.key: b for b in (PAGE, PAGE_TIME, TEST_FILE, DECOMPRESSED, JSON_DEPTH, TIME_LIMIT, MEMORY_LIMIT)
}

_configured: dict[str, int] = {}
_lock = threading.Lock()


def configure(values: dict[str, int]) -> None:
    """Set bounds from config.toml's `[input]` table (keys of `BOUNDS`, positive whole numbers)."""
    for key, value in values.items():
        if key not in BOUNDS:
            raise ConfigError(f"[input] {key}: no such setting", hint=f"[input] takes {', '.join(BOUNDS)}")
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ConfigError(f"[input] {key} must be a positive whole number, not {value!r}", hint=BOUNDS[key].hint())
    with _lock:
        _configured.clear()
        _configured.update(values)


def read_capped(chunks: Iterable[bytes], bound: Bound, what: str, error: type[CpbotError] = ConfigError) -> bytes:
    """The chunks joined, stopping (with `bound`'s error) at the first chunk past the bound."""
    cap = bound.bytes()
    parts: list[bytes] = []
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > cap:
            raise bound.exceeded(what, error)
        parts.append(chunk)
    return b"".join(parts)


def inflate(chunks: Iterable[bytes], wbits: int = zlib.MAX_WBITS) -> Iterator[bytes]:
    """The unpacked pieces of a zlib (or gzip, `wbits=31`) stream given in chunks, none larger than 1 MB:
    unpacking costs what the caller keeps of them, whatever the ratio (`zlib.error` for bad data)."""
    unpacker = zlib.decompressobj(wbits)
    for chunk in chunks:
        pending = chunk
        while pending:
            piece = unpacker.decompress(pending, _PIECE)
            pending = unpacker.unconsumed_tail
            if piece:
                yield piece
    tail = unpacker.flush()
    if tail:
        yield tail


_PIECE = MB


def decompress(data: bytes, what: str, *, wbits: int = zlib.MAX_WBITS, error: type[CpbotError] = ConfigError) -> bytes:
    """zlib (or gzip, `wbits=31`) data unpacked, never past `max_decompressed_mb`: the output is cut off
    while it is made. A `zlib.error` for data that is not compressed at all is left to the caller."""
    return read_capped(inflate([data], wbits), DECOMPRESSED, what, error)


def capped_lines(stream: IO[bytes], what: str, *, error: type[CpbotError] = ConfigError) -> Iterator[bytes]:
    """The lines of a (maybe decompressing) binary stream, never holding more than `max_decompressed_mb`
    of one line, nor reading more than that in all from a compressed stream's unpacking."""
    cap = DECOMPRESSED.bytes()
    total = 0
    while True:
        line = stream.readline(cap + 1)
        if not line:
            return
        total += len(line)
        if len(line) > cap or total > cap:
            raise DECOMPRESSED.exceeded(what, error)
        yield line


def json_depth(value: Any, limit: int) -> int:
    """The nesting depth of a parsed JSON value, counted only up to `limit + 1` (iterative: a deep value
    costs no Python stack)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        stack.extend((child, depth + 1) for child in item if isinstance(child, dict | list))
    return deepest


class JsonTooDeep(ParseError, ValueError):
    """JSON nested past `max_json_depth` (a ValueError too, as `json.loads`'s own errors are)."""


class NotJson(ParseError, json.JSONDecodeError):
    """Text from outside that is not JSON (or not UTF-8): a `ParseError`, and still the
    `json.JSONDecodeError` (`msg`, `lineno`, `colno`) a caller may word its own message from."""

    def __init__(self, what: str, msg: str, doc: str, pos: int) -> None:
        json.JSONDecodeError.__init__(self, msg, doc, pos)  # CpbotError's would pass it the wrong arguments
        self.what = what
        self.message = f"{what} is not JSON: {msg} (line {self.lineno} column {self.colno})"
        self.hint = ""

    def __reduce__(self) -> tuple[object, ...]:
        return (NotJson, (self.what, self.msg, self.doc, self.pos))


def loads(data: str | bytes | bytearray, what: str) -> Any:
    """`json.loads` for JSON from outside: anything but a JSON value is `NotJson`, nested past
    `max_json_depth` is `JsonTooDeep` (both `ParseError`s), never a `RecursionError`."""
    limit = JSON_DEPTH.value()
    try:
        value = json.loads(data)
    except RecursionError:
        raise JSON_DEPTH.exceeded(f"{what} (nested too deep)", JsonTooDeep) from None
    except json.JSONDecodeError as e:
        raise NotJson(what, e.msg, e.doc, e.pos) from None
    except UnicodeDecodeError as e:
        raise NotJson(what, f"not UTF-8 text ({e.reason} at byte {e.start})", "", 0) from None
    if json_depth(value, limit) > limit:
        raise JSON_DEPTH.exceeded(f"{what} (nested too deep)", JsonTooDeep)
    return value
