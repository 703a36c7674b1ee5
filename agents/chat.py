"""What roles see of a model: `ChatModel` (a reply to messages, in a role) and the `LLMReply` it gives."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from cpbot.agents.budget import Usage

Message = dict[str, Any]


class LLMReply(BaseModel):
    """One answer of the model, and what it cost."""

    call_id: str
    role: str
    model: str
    text: str  # the answer without any <think> section
    reasoning: str = ""  # the model's reasoning, when the server returns it
    finish_reason: str | None = None
    usage: Usage = Usage()
    latency_ms: float = 0.0  # from the request to the answer, retries and waits included
    attempts: int = 1
    structured: Literal["none", "native", "fallback"] = "none"
    parsed: Any = None  # the structured output: a model instance, or a dict for a raw schema
    warnings: list[str] = []  # what the client noticed (a reply cut while reasoning, a small context)

    @property
    def empty(self) -> bool:
        return not self.text.strip()


class ChatModel(Protocol):
    """What roles need from a model: a reply to messages, in a role, optionally as structured output."""

    def complete(
        self, role: str, messages: Sequence[Message], *, response_format: type[BaseModel] | dict[str, Any] | None = None
    ) -> LLMReply:
        """Send `messages` as `role`; see `LLMClient.complete`."""
        ...
