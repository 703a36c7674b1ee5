"""What differs between OpenAI-compatible servers and models, and reading their complaints.

Servers that speak the same API still disagree: OpenAI's reasoning models (o1, o3, o4-mini, the gpt-5
family) take `max_completion_tokens` and refuse sampling settings; llama.cpp builds and
llama-cpp-python refuse a `json_schema` response format (the latter with HTTP 500); DeepSeek's reasoner
and Mistral templates refuse two user messages in a row; Gemma's template refuses a system message.
A `Dialect` holds what cpbot knows about one model on one endpoint, first guessed from the model's name,
then learned from the server's error messages (`read_complaint`), and kept for the session.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Message = dict[str, Any]
StructuredMode = Literal["json_schema", "json_object", "prompt"]
STRUCTURED_MODES: tuple[StructuredMode, ...] = ("json_schema", "json_object", "prompt")
Complaint = Literal["structured", "token_param", "unsupported_param", "system_role", "alternation", "context"]

# o1, o1-mini, o3, o3-mini, o4-mini, gpt-5, gpt-5-mini, gpt-5.1, ... (with or without an "openai/" prefix)
_REASONING_MODEL = re.compile(r"(?:^|/)(?:o[1-9](?:$|[-.])|gpt-5(?:$|[-.]))", re.IGNORECASE)
SAMPLING_PARAMS = ("temperature", "top_p")


def openai_reasoning_model(name: str) -> bool:
    """True for OpenAI's reasoning models, which take max_completion_tokens and no sampling settings."""
    return bool(_REASONING_MODEL.search(name))


@dataclass
class Dialect:
    """What one model on one endpoint accepts; changed only by what the server said."""

    token_param: Literal["max_tokens", "max_completion_tokens"] = "max_tokens"
    dropped: set[str] = field(default_factory=set)  # request fields the server refused
    system_role: bool = True
    structured: StructuredMode = "json_schema"
    learned: list[str] = field(default_factory=list)  # what changed and why, for the trace

    @classmethod
    def for_model(cls, name: str) -> Dialect:
        """The dialect a model's name suggests."""
        if openai_reasoning_model(name):
            return cls(token_param="max_completion_tokens", dropped=set(SAMPLING_PARAMS))
        return cls()


_CONTEXT = re.compile(
    r"maximum context length|context length|context window|context size|n_ctx|too many tokens|"
    r"prompt is too long|exceeds? the (?:model'?s? )?(?:maximum|context)|input is too long|tokens? exceed",
    re.IGNORECASE,
)
_STRUCTURED = re.compile(
    r"response_format|response format|json_schema|json schema|structured output|guided_json|grammar",
    re.IGNORECASE,
)
_PARAM = re.compile(
    r"unsupported (?:parameter|value): '(\w+)'|'(\w+)' (?:is not supported|does not support)|"
    r"unrecognized request argument supplied: (\w+)|"
    r"\b(temperature|top_p|seed|reasoning_effort|max_tokens)\b[^.]{0,40}\bnot supported",
    re.IGNORECASE,
)
_SYSTEM = re.compile(r"system role|role 'system'|system messages? (?:is|are) not supported", re.IGNORECASE)
_ALTERNATION = re.compile(
    r"successive (?:user or assistant )?messages|roles must alternate|must alternate|consecutive (?:user|messages)",
    re.IGNORECASE,
)


def read_complaint(text: str) -> tuple[Complaint, str] | None:
    """What a server's error message objects to, and the field it names (for a refused parameter)."""
    if _CONTEXT.search(text):
        return "context", ""
    m = _PARAM.search(text)
    name = next(g for g in m.groups() if g) if m else ""
    if name in ("max_tokens", "max_completion_tokens"):
        return "token_param", name  # the field the server refuses
    if "max_completion_tokens" in text:
        return "token_param", "max_tokens"
    if m:
        if name in ("response_format", "json_schema"):
            return "structured", name
        return "unsupported_param", name
    if _STRUCTURED.search(text):
        return "structured", ""
    if _SYSTEM.search(text):
        return "system_role", ""
    if _ALTERNATION.search(text):
        return "alternation", ""
    return None


def merge_consecutive(messages: Sequence[Message]) -> list[Message]:
    """Messages with any run of same-role messages joined into one (servers that need alternation)."""
    merged: list[Message] = []
    for message in messages:
        if merged and merged[-1]["role"] == message["role"] and message["role"] in ("user", "system"):
            merged[-1] = {**merged[-1], "content": f"{merged[-1]['content']}\n\n{message['content']}"}
        else:
            merged.append(dict(message))
    return merged


def merge_system(messages: Sequence[Message]) -> list[Message]:
    """Messages with the system prompt put at the top of the first user message (templates without a
    system role)."""
    system = "\n\n".join(str(m["content"]) for m in messages if m["role"] == "system")
    rest = [dict(m) for m in messages if m["role"] != "system"]
    if not system:
        return rest
    for m in rest:
        if m["role"] == "user":
            m["content"] = f"{system}\n\n{m['content']}"
            return rest
    return [{"role": "user", "content": system}, *rest]


def with_note(messages: Sequence[Message], note: str) -> list[Message]:
    """Messages with `note` appended to the last user message (never a second user message in a row)."""
    out = [dict(m) for m in messages]
    for m in reversed(out):
        if m["role"] == "user":
            m["content"] = f"{m['content']}\n\n{note}"
            return out
    return [*out, {"role": "user", "content": note}]


def response_format_for(mode: StructuredMode, schema: dict[str, Any] | None, name: str) -> dict[str, Any] | None:
    """The `response_format` field for `mode` (None for prompt-only)."""
    if mode == "json_schema" and schema is not None:
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
    if mode in ("json_schema", "json_object"):
        # llama.cpp's server and llama-cpp-python take a schema beside json_object
        return {"type": "json_object", **({"schema": schema} if schema is not None else {})}
    return None


def format_note(schema: dict[str, Any] | None) -> str:
    """The request for structured output in words, for json_object and prompt-only requests."""
    text = "Answer with one JSON object and nothing else (no prose, no code fence)"
    if schema is not None:
        text += ". It must follow this JSON schema:\n" + json.dumps(schema, separators=(",", ":"))
    return text


def next_structured(mode: StructuredMode) -> StructuredMode:
    """The next weaker way to ask for JSON."""
    return STRUCTURED_MODES[min(STRUCTURED_MODES.index(mode) + 1, len(STRUCTURED_MODES) - 1)]
