"""Reading a model's reply: what it holds (answer, reasoning, finish reason, usage) and whether it is usable."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from cpbot.agents.budget import Usage
from cpbot.agents.chat import LLMReply, Message
from cpbot.agents.tracing import LLMCallEvent


def estimate_tokens(text: str) -> int:
    # about four characters a token in English and code; only used when a server reports no usage
    return math.ceil(len(text) / 4)


SENT_CHARS = 300  # of an unusable reply, quoted in the error


def clip_sent(completion: Any) -> str:
    """What the server sent, as JSON when it parsed as an object, cut to `SENT_CHARS`."""
    try:
        text = json.dumps(completion.model_dump(mode="json", exclude_none=True))
    except Exception:  # anything the client built from a malformed body: show its text
        text = repr(completion)
    return text if len(text) <= SENT_CHARS else text[:SENT_CHARS] + "..."


def unusable(completion: Any, reply: LLMReply) -> str:
    """Why a chat completion holds nothing to use ("" when it does): no choices, or an empty message
    that is not a reply cut while reasoning."""
    if not getattr(completion, "choices", None):
        return f"HTTP 200 with no choices: {clip_sent(completion)}"
    if reply.text.strip() or reply.reasoning.strip() or reply.usage.reasoning_tokens or reply.finish_reason == "length":
        return ""
    return f"an empty message: {clip_sent(completion)}"


def finish_of(completion: Any) -> str | None:
    choices = getattr(completion, "choices", None) or []
    return choices[0].finish_reason if choices else None


def usage_of(completion: Any, sent: Sequence[Message]) -> Usage:
    usage = getattr(completion, "usage", None)
    if usage is not None:
        details = usage.completion_tokens_details
        return Usage(
            prompt_tokens=usage.prompt_tokens or 0,
            completion_tokens=usage.completion_tokens or 0,
            reasoning_tokens=(details.reasoning_tokens or 0) if details is not None else 0,
        )
    choices = getattr(completion, "choices", None) or []
    message = choices[0].message if choices else None
    text = (getattr(message, "content", None) or "") if message is not None else ""
    extra = (message.model_extra or {}) if message is not None else {}
    reasoning = str(extra.get("reasoning_content") or extra.get("reasoning") or "")
    prompt = "".join(str(m.get("content") or "") for m in sent)
    return Usage(
        prompt_tokens=estimate_tokens(prompt), completion_tokens=estimate_tokens(text + reasoning), estimated=True
    )


def tries_usage(event: LLMCallEvent) -> Usage:
    """The tokens of every try of a call that got an answer (a cut reply asked again costs twice)."""
    total = Usage()
    for tried in event.tries:
        if tried.usage is not None:
            total = total + tried.usage
    return total
