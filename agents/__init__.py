"""The agent pipeline's foundation: the LLM client, typed envelopes, budgets, tracing, code extraction.

Roles and strategies build on these; nothing here imports `bot/` or `scrapers/`, only `judge/`.

- `agents.llm`: `LLMClient.complete(role, messages)` -> `LLMReply`; its settings (`LLMConfig`,
  `resolve_llm_config`) in `agents.llm_settings`, its failures (`LLMError`) in `agents.llm_failures`, what it
  learns of its endpoint in `agents.llm_endpoint`, the reading of a reply in `agents.llm_replies`, what
  roles see of it (`ChatModel`, `LLMReply`) in `agents.chat`
- `agents.envelopes`: `Envelope.wrap(payload, task_id=, iteration=)`, the payloads, `load_envelope`
- `agents.tracing`: the `Tracer` protocol, trace events, `InMemoryTracer`, `send(tracer, envelope)`
- `agents.budget`: `Budget`, `BudgetTracker`, `BudgetExhausted`, `Attempt`, `BestAttempt`, `Usage`
- `agents.extract`: `extract_code(reply, language)`, `ExtractionError`, `extract_json`

The names below are importable from `agents` directly; they load on first use, so that importing
`agents.tracing` (as the CLI does) does not pay for the HTTP client.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "cpbot.agents.budget": ["Attempt", "BestAttempt", "Budget", "BudgetExhausted", "BudgetTracker", "Usage"],
    "cpbot.agents.envelopes": [
        "SCHEMA_VERSION", "CheckerDecision", "CodeAttempt", "ComplexityVerdict", "Envelope", "EnvelopeError",
        "FinalAnswer", "GeneratedTests", "Header", "JudgeFeedback", "Patch", "Payload", "Plan", "ProfileFeedback",
        "PruneDecision", "StressFeedback", "Task", "load_envelope",
    ],
    "cpbot.agents.extract": ["ExtractedCode", "ExtractionError", "extract_code", "extract_json"],
    "cpbot.agents.chat": ["ChatModel", "LLMReply"],
    "cpbot.agents.llm": ["BoundLLM", "LLMClient"],
    "cpbot.agents.llm_failures": ["LLMError"],
    "cpbot.agents.llm_settings": ["LLMConfig", "resolve_llm_config"],
    "cpbot.agents.structured": ["StructuredOutputError"],
    "cpbot.agents.tracing": [
        "BudgetEvent", "EnvelopeEvent", "InMemoryTracer", "LLMCallEvent", "NoteEvent", "NullTracer", "ReportEvent",
        "TraceEvent", "Tracer", "send",
    ],
}  # fmt: skip
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'agents' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return __all__
