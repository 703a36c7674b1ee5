"""What a client learns about its endpoint as it talks to it, and the requests it builds from that: each
model's dialect, corrected from the server's complaints (`Endpoint.adapt`) and followed by `Endpoint.request`;
the context windows the server reports (/models, /props); whether it is Ollama; the unusable replies in a
row. The messages that come of it (a context too small) too."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel

from cpbot.agents.budget import Usage
from cpbot.agents.chat import Message
from cpbot.agents.dialect import (
    Dialect,
    format_note,
    merge_consecutive,
    merge_system,
    next_structured,
    read_complaint,
    response_format_for,
    with_note,
)
from cpbot.agents.llm_failures import Failure, LLMError
from cpbot.agents.llm_replies import estimate_tokens
from cpbot.agents.llm_settings import RequestSettings
from cpbot.agents.structured import schema_of

# Context sizes servers commonly default to (Ollama's 2k/4k, llama.cpp's and vLLM's usual settings).
COMMON_CONTEXTS = (2048, 4096, 8192)
UNUSABLE_IN_A_ROW = 3  # replies with nothing in them before the server is reported instead of asked again

OLLAMA_HINT = (
    "Ollama runs models with a small context by default and its /v1 route ignores num_ctx in the request: "
    "restart it with OLLAMA_CONTEXT_LENGTH=32768 ollama serve, or create a model with PARAMETER num_ctx 32768 "
    "in its Modelfile"
)


class Endpoint:
    """What the client learned about its endpoint: each model's dialect, the context windows, the server kind.
    Thread-safe: every change is made under `lock`."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.dialects: dict[str, Dialect] = {}
        self.windows: dict[str, int | None] = {}
        self.ollama: bool | None = None
        self.unusable = 0  # unusable replies in a row

    def dialect(self, model: str) -> Dialect:
        """What is known so far about `model` on this endpoint."""
        with self.lock:
            return self.dialects.setdefault(model, Dialect.for_model(model))

    def unusable_streak(self, unusable: bool) -> int:
        """Count one reply (unusable or not); the unusable ones in a row so far, the count starting again
        once it reaches `UNUSABLE_IN_A_ROW`."""
        with self.lock:
            self.unusable = self.unusable + 1 if unusable else 0
            streak = self.unusable
            if streak >= UNUSABLE_IN_A_ROW:
                self.unusable = 0
        return streak

    def learn_window(self, model: str, base_url: str, get_json: Callable[[str], Any]) -> int | None:
        """The model's context window from what the server says of itself (`get_json` reads a URL:
        vLLM's `max_model_len` in /models, llama.cpp's `n_ctx` in /props or `n_ctx_train` in /models),
        noting on the way whether the server is Ollama; remembered for the model."""
        base = base_url.rstrip("/")
        listing = get_json(f"{base}/models")
        window: int | None = None
        entries = listing.get("data") if isinstance(listing, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict):
                continue
            if entry.get("owned_by") == "library":  # how Ollama's /v1/models marks pulled models
                self.ollama = True
            if entry.get("id") != model and len(entries) > 1:
                continue
            meta = entry.get("meta") if isinstance(entry.get("meta"), dict) else {}
            for value in (entry.get("max_model_len"), entry.get("context_length"), meta.get("n_ctx_train")):
                if isinstance(value, int) and value > 0:
                    window = value
                    break
        root = base[: -len("/v1")] if base.endswith("/v1") else base
        props = get_json(f"{root}/props")
        if isinstance(props, dict):
            settings = props.get("default_generation_settings")
            n_ctx = (settings or {}).get("n_ctx") if isinstance(settings, dict) else None
            n_ctx = n_ctx or props.get("n_ctx")
            if isinstance(n_ctx, int) and n_ctx > 0:
                window = n_ctx  # the running server's setting wins over the model's training length
        if urlsplit(base).port == 11434:
            self.ollama = True
        with self.lock:
            self.windows[model] = window
        return window

    def adapt(self, dialect: Dialect, failure: Failure, fmt: object, params: dict[str, Any], *, known: int = -1) -> str:
        """Change the dialect as the server's error asks; what changed ("" when nothing can). `known`: how many
        changes the dialect had when the failed request was built; when a concurrent request has changed it
        since, the request is only asked again, in the dialect as it is now."""
        complaint = read_complaint(failure.detail)
        if complaint is None or failure.kind not in ("bad_request", "server"):
            return ""
        kind, name = complaint
        with self.lock:
            if 0 <= known < len(dialect.learned):
                return f"a request sent at the same time learned meanwhile that {dialect.learned[-1]}"
            if kind == "structured" and fmt is not None and dialect.structured != "prompt":
                old = dialect.structured
                dialect.structured = next_structured(old)
                change = f"the server refuses response_format {old}: using {dialect.structured} from now on"
            elif kind == "token_param" and dialect.token_param == name:
                dialect.token_param = "max_completion_tokens" if name == "max_tokens" else "max_tokens"
                change = f"the server refuses {name}: sending {dialect.token_param} instead"
            elif (
                kind == "unsupported_param"
                and name not in dialect.dropped
                and (name in params or name in params.get("extra_body", {}))
            ):
                dialect.dropped.add(name)
                change = f"the server refuses {name}: no longer sent"
            elif kind == "system_role" and dialect.system_role:
                dialect.system_role = False
                change = "the chat template has no system role: the system prompt goes into the first user message"
            else:
                return ""
            dialect.learned.append(change)
        return change

    def context_error(
        self, failure: Failure, model: str, sent: list[Message], params: dict[str, Any], attempts: int, url: str
    ) -> LLMError:
        """The error of a request the server refused as too long for the model's context."""
        window = self.windows.get(model)
        prompt = estimate_tokens("".join(str(m.get("content") or "") for m in sent))
        limit = params.get("max_tokens") or params.get("max_completion_tokens")
        size = f"a {window:,}-token context" if window else "its context"
        message = (
            f"the prompt (~{prompt:,} tokens) and the output limit ({limit:,} tokens) do not fit in {size} "
            f"of {model} at {url} ({failure.detail})"
        )
        hint = "start the server with a larger context, or lower max_output_tokens for this role"
        if self.ollama:
            hint = OLLAMA_HINT
        return LLMError("context", message, hint, status=failure.status, attempts=attempts)

    def context_warning(self, model: str, usage: Usage, finish_reason: str | None, sent: Sequence[Message]) -> str:
        """A warning when the server's context looks too small: the prompt silently cut (the server
        counted far fewer prompt tokens than were sent) or a reply stopped where a common small context
        fills up."""
        if usage.estimated or not usage.prompt_tokens:
            return ""
        sent_tokens = estimate_tokens("".join(str(m.get("content") or "") for m in sent))
        window = self.windows.get(model)
        used = usage.prompt_tokens + usage.completion_tokens
        full = next((n for n in ((window,) if window else COMMON_CONTEXTS) if n and n * 0.97 <= used <= n), None)
        cut_prompt = sent_tokens > 1.5 * usage.prompt_tokens and usage.prompt_tokens >= 1000
        if not cut_prompt and not (finish_reason == "length" and full):
            return ""
        what = (
            f"the server read ~{usage.prompt_tokens:,} prompt tokens of the ~{sent_tokens:,} sent: it cut the prompt"
            if cut_prompt
            else f"the reply stopped when prompt and reply filled {used:,} tokens, a full {full:,}-token context"
        )
        if self.ollama:
            return f"{what}; {OLLAMA_HINT}"
        return f"{what}; start the server with a larger context (e.g. vLLM --max-model-len, llama.cpp -c)"

    def request(
        self,
        model: str,
        messages: list[Message],
        fmt: type[BaseModel] | dict[str, Any] | None,
        settings: RequestSettings,
        dialect: Dialect,
        default_limit: int,
    ) -> tuple[list[Message], dict[str, Any]]:
        """The messages and parameters to send, in the dialect learned so far; the output limit is the
        settings' (else `default_limit`), lowered to what the model's context window leaves."""
        params: dict[str, Any] = {}
        limit = settings.max_output_tokens or default_limit
        window = self.windows.get(model)
        sent = merge_consecutive(messages if dialect.system_role else merge_system(messages))
        if fmt is not None:
            schema, name = schema_of(fmt)
            if isinstance(fmt, dict) and dialect.structured == "json_schema":
                response_format: dict[str, Any] | None = fmt  # a raw format is passed through as given
            else:
                response_format = response_format_for(dialect.structured, schema, name)
            if response_format is not None:
                params["response_format"] = response_format
            if dialect.structured != "json_schema" or response_format is None:
                sent = with_note(sent, format_note(schema))
        if window:
            prompt = estimate_tokens("".join(str(m.get("content") or "") for m in sent))
            room = window - prompt - 64
            if 256 <= room < limit:
                limit = room  # asking for more than the window holds is an error on vLLM and llama.cpp
        params[dialect.token_param] = limit
        for name in ("temperature", "top_p", "seed", "reasoning_effort"):
            value = getattr(settings, name)
            if value is not None and name not in dialect.dropped:
                params[name] = value
        extra = {k: v for k, v in settings.extra_body.items() if k not in dialect.dropped}
        if extra:
            params["extra_body"] = extra
        return sent, params
