"""The agent pipeline's foundation: the LLM client, typed envelopes, budgets, tracing, code extraction.

Roles and strategies build on these; nothing here imports `bot/` or `scrapers/`, only `judge/`.

- `agents.llm`: `LLMConfig`, `resolve_llm_config`, `LLMClient.complete(role, messages)` -> `LLMReply`
- `agents.envelopes`: `Envelope.wrap(payload, task_id=, iteration=)`, the payloads, `load_envelope`
- `agents.tracing`: the `Tracer` protocol, trace events, `InMemoryTracer`, `send(tracer, envelope)`
- `agents.budget`: `Budget`, `BudgetTracker`, `BudgetExhausted`, `Attempt`, `BestAttempt`, `Usage`
- `agents.extract`: `extract_code(reply, language)`, `ExtractionError`, `extract_json`

The names below are importable from `agents` directly; they load on first use, so that importing
`agents.tracing` (as the CLI does) does not pay for the `openai` package.
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
    "cpbot.agents.llm": [
        "BoundLLM", "ChatModel", "LLMClient", "LLMConfig", "LLMError", "LLMReply", "StructuredOutputError",
        "resolve_llm_config",
    ],
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
