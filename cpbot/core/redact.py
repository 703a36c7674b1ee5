"""Removing secrets (API keys, cookies, Authorization headers) from anything before it is written.

A `Redactor` knows the secret values of this session (the configured API key, the keys found in the
environment, whatever a caller adds) and the usual shapes of secrets in text; it replaces both with
`[REDACTED]`, in strings and, key by key, in JSON-like structures.
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from cpbot.core import secrets as core_secrets

REDACTED = "[REDACTED]"

# Field names whose values are secrets, compared lower-cased without "-" and "_".
SECRET_FIELDS = frozenset(
    {
        "apikey", "xapikey", "authorization", "proxyauthorization", "cookie", "cookies", "setcookie",
        "xcsrftoken", "csrftoken", "csrfmiddlewaretoken", "password", "passwd", "secret", "clientsecret",
        "accesstoken", "refreshtoken", "idtoken", "sessionid", "apisig", "bearer",
    }
)  # fmt: skip

# Environment variables whose values are secrets.
_SECRET_ENV = re.compile(r"(?:API_?KEY|TOKEN|SECRET|PASSWORD|COOKIES?)$", re.IGNORECASE)
# Values too short or too common to be worth hunting for in text.
_NOT_SECRET = {"", "none", "not-needed", "null", "true", "false", "0", "1"}
MIN_SECRET_LENGTH = 6

_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    # header lines, up to the end of the line or of a quoted string
    (re.compile(r"(?i)\b((?:proxy-)?authorization\s*[:=]\s*)[^\n\"']+"), r"\1" + REDACTED),
    (re.compile(r"(?i)\b((?:set-)?cookie\s*[:=]\s*)[^\n\"']+"), r"\1" + REDACTED),
    (re.compile(r"(?i)\b(x-csrftoken\s*[:=]\s*)[^\s\"',;]+"), r"\1" + REDACTED),
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}"), r"\1" + REDACTED),
    # key=value settings
    (re.compile(r"(?i)\b((?:[A-Z]+_)?api[_-]?key\s*[=:]\s*[\"']?)[^\s\"',;]{4,}"), r"\1" + REDACTED),
    # well-known key formats: OpenAI/Anthropic-style sk-..., Hugging Face, GitHub
    (re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"), REDACTED),
    (re.compile(r"\bhf_[A-Za-z0-9]{30,}"), REDACTED),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}"), REDACTED),
]
# Text that none of `_PATTERNS` can match: every one of them needs one of these words, and most text (programs,
# verdicts) has none. ASCII text is lower-cased and searched for them as plain words, many times cheaper than
# one regex search (a case-insensitive alternation tries every branch at every character; a program's text
# costs it a third of a millisecond); other text is searched for the same words with a case-insensitive regex,
# whose matching of a few letters (ſ for s, ı for i) lower-casing would not follow. Either search finds the
# case-sensitive words in more places than their patterns match: those texts only go through the patterns for
# nothing.
_PATTERN_WORDS = (
    "authorization", "cookie", "csrftoken", "bearer", "apikey", "api_key", "api-key",
    "sk-", "hf_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
)  # fmt: skip
_PATTERN_WORDS_RE = re.compile("|".join(map(re.escape, _PATTERN_WORDS)), re.IGNORECASE)


def _may_match_a_pattern(text: str) -> bool:
    if text.isascii():
        lowered = text.lower()
        return any(word in lowered for word in _PATTERN_WORDS)
    return _PATTERN_WORDS_RE.search(text) is not None


_SCALARS = (int, float, bool)


@functools.lru_cache(maxsize=1024)  # the same few field names, event after event
def _field(name: str) -> str:
    return name.lower().replace("-", "").replace("_", "")


def secrets_from_env(env: Mapping[str, str] | None = None) -> list[str]:
    """The values of environment variables that hold secrets (…_API_KEY, …_TOKEN, …_SECRET, …)."""
    env = os.environ if env is None else env
    return [value for name, value in env.items() if _SECRET_ENV.search(name) and value]


class Redactor:
    """Replaces known secret values and secret-shaped text with `[REDACTED]`; thread-safe."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._lock = threading.Lock()
        self._secrets: set[str] = set()
        self._known: re.Pattern[str] | None = None
        # every secret the process registers (cookie values from a cookies.txt, say), now and later
        for secret in [*secrets, *core_secrets.subscribe(self)]:
            self.add(secret)

    def add(self, secret: str | None) -> None:
        """Treat `secret` as a secret from now on (short or trivial values are ignored)."""
        if not secret or secret.strip().lower() in _NOT_SECRET or len(secret) < MIN_SECRET_LENGTH:
            return
        with self._lock:
            if secret in self._secrets:
                return
            self._secrets.add(secret)
            # longest first, so a secret that contains another is removed whole
            ordered = sorted(self._secrets, key=len, reverse=True)
            self._known = re.compile("|".join(re.escape(s) for s in ordered))

    def text(self, text: str) -> str:
        """`text` with every secret replaced."""
        known = self._known
        if known is not None:
            text = known.sub(REDACTED, text)
        if not _may_match_a_pattern(text):
            return text
        for pattern, replacement in _PATTERNS:
            text = pattern.sub(replacement, text)
        return text

    def value(self, value: Any) -> Any:
        """A copy of a JSON-like value with secrets replaced: secret-named fields whole, other strings
        by `text`."""
        if isinstance(value, str):
            return self.text(value)
        if value is None or type(value) in _SCALARS:  # most of an event's values: no ABC check for them
            return value
        if isinstance(value, Mapping):
            return {
                k: (REDACTED if isinstance(k, str) and _field(k) in SECRET_FIELDS and v else self.value(v))
                for k, v in value.items()
            }
        if isinstance(value, list | tuple):
            return [self.value(v) for v in value]
        return value


@functools.lru_cache(maxsize=4)
def _redactor(env_secrets: tuple[str, ...]) -> Redactor:
    return Redactor(env_secrets)


def redact_text(text: str) -> str:
    """`text` without the secrets of this process: registered ones (the key in use, cookies), the
    environment's, and secret-shaped text. One redactor per set of environment secrets is kept."""
    return _redactor(tuple(secrets_from_env())).text(text)
