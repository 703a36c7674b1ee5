"""Prompt texts from `templates/prompts/`, filled in by a tiny renderer.

A prompt file has a `[system]` section and a `[user]` section. `{name}` (lower-case letters, digits,
underscores) is a placeholder; every other brace is text, so JSON examples need no escaping, and `{{`
or `}}` stand for a literal brace next to a name. Rendering fails with `PromptError` when a value is
missing or a value is given that the prompt never uses, so code and texts cannot drift apart.
Values are inserted once, never rendered again: braces inside a statement or a program stay as they are.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict

from cpbot.core.errors import CpbotError

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([a-z][a-z0-9_]*)\}")
_SECTION = re.compile(r"^\[(system|user)\]\s*$", re.MULTILINE)


class PromptError(CpbotError):
    """A prompt file that is missing or malformed, or values that do not fit it (a bug in cpbot)."""


class PromptTemplate(BaseModel):
    """One prompt: its name, the system text and the user text, with placeholders."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    system: str
    user: str

    @property
    def placeholders(self) -> set[str]:
        """The names the prompt needs."""
        return {m.group(1) for m in _PLACEHOLDER.finditer(self.system + "\n" + self.user) if m.group(1)}

    def render(self, **values: Any) -> list[dict[str, str]]:
        """The chat messages (system, user) with every placeholder filled from `values`."""
        needed = self.placeholders
        missing = sorted(needed - set(values))
        unused = sorted(set(values) - needed)
        if missing or unused:
            parts = [
                f"missing {', '.join(missing)}" if missing else "",
                f"unused {', '.join(unused)}" if unused else "",
            ]
            raise PromptError(
                f"prompt {self.name!r}: {'; '.join(p for p in parts if p)}",
                hint=f"the prompt uses {', '.join(sorted(needed)) or 'no placeholders'}",
            )
        return [
            {"role": "system", "content": fill(self.system, values)},
            {"role": "user", "content": fill(self.user, values)},
        ]


def fill(text: str, values: dict[str, Any]) -> str:
    """`text` with `{name}` replaced by `str(values[name])` and `{{`/`}}` by single braces."""

    def one(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        return str(values[match.group(1)])

    return _PLACEHOLDER.sub(one, text)


def parse_prompt(name: str, text: str) -> PromptTemplate:
    """A prompt from the text of a prompt file (a `[system]` and a `[user]` section, in that order)."""
    sections = _SECTION.split(text)
    # split() gives [before, "system", body, "user", body]
    if len(sections) != 5 or sections[1] != "system" or sections[3] != "user" or sections[0].strip():
        raise PromptError(
            f"prompt {name!r} must have a [system] section followed by a [user] section",
            hint=f"see templates/prompts/{name}.txt",
        )
    return PromptTemplate(name=name, system=sections[2].strip("\n"), user=sections[4].strip("\n"))


@cache
def load_prompt(name: str) -> PromptTemplate:
    """The prompt `templates/prompts/<name>.txt`."""
    path = resources.files("cpbot.templates").joinpath("prompts", f"{name}.txt")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PromptError(f"no prompt named {name!r}", hint="prompts live in templates/prompts/<name>.txt") from None
    return parse_prompt(name, text)


def render_prompt(name: str, **values: Any) -> list[dict[str, str]]:
    """Load the prompt `name` and render it: the messages to send."""
    return load_prompt(name).render(**values)


def clip(text: str, limit: int = 2000) -> str:
    """`text` cut to about `limit` characters, keeping its head and tail and saying how much was left out."""
    if len(text) <= limit:
        return text
    head = text[: limit * 2 // 3]
    tail = text[-(limit // 3) :]
    return f"{head}\n[... {len(text) - len(head) - len(tail)} characters left out ...]\n{tail}"
