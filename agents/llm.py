"""The only code that talks to a language model: any OpenAI-compatible chat endpoint, through `openai`.

`LLMClient.complete(role, messages)` sends one chat request with the role's model and returns an
`LLMReply` (text, reasoning, usage, latency, attempts). It retries 408/409/429/5xx, timeouts and
connection failures with exponential backoff and jitter, waiting what a Retry-After header asks;
the waits go through an injectable `sleep` so tests are instant and deterministic. Every request takes
a place of its endpoint's `EndpointLimit` (`max_in_flight`, shared by all clients of the process),
which a 429 or a dropped connection lowers. A server whose replies are unusable (no choices, nothing
in them) is reported after `UNUSABLE_IN_A_ROW` of them, with what it sent. Structured output
sends a JSON schema and, when the server ignores or rejects it, reads the JSON object out of the
prose. Every call, failed or not, goes to the tracer as an `LLMCallEvent`; a call that cannot succeed
raises `LLMError` (a `ModelError`) with a hint naming what to check.

The API key lives in a `SecretStr`; it is handed only to the `openai` client and never to a tracer.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from cpbot.agents import seeding
from cpbot.agents.budget import BudgetExhausted, BudgetTracker, Usage
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
from cpbot.agents.envelopes import utc_now
from cpbot.agents.extract import ExtractionError, json_candidates
from cpbot.agents.inflight import EndpointLimit, endpoint_limit
from cpbot.agents.reasoning import split_reply
from cpbot.agents.tracing import LLMCallEvent, LLMTry, NullTracer, Tracer
from cpbot.core.errors import ConfigError, ModelError, first_problem
from cpbot.core.retry import retry_after_seconds

if TYPE_CHECKING:
    import openai

OPENAI_BASE_URL = "https://api.openai.com/v1"
# Local servers ignore the key, but the openai client insists on one.
NO_KEY = "not-needed"

NOT_CONFIGURED = (
    "no language model configured: for OpenAI set OPENAI_API_KEY and CPBOT_MODEL; for a vLLM, llama.cpp "
    "or Ollama server (or any OpenAI-compatible API) set CPBOT_BASE_URL (e.g. http://127.0.0.1:8000/v1, "
    ":8080/v1, :11434/v1) and CPBOT_MODEL, plus CPBOT_API_KEY if it needs one; or pass "
    "--base-url/--model/--api-key"
)

Message = dict[str, Any]
ErrorKind = Literal[
    "auth", "not_found", "bad_request", "rate_limit", "server", "timeout", "unreachable", "bad_response", "context"
]


ReasoningEffort = Literal["minimal", "low", "medium", "high"]


class RequestSettings(BaseModel):
    """What one request asks of the server, globally or for one role (None: not set here)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str | None = None
    timeout_s: float | None = Field(None, gt=0)
    max_output_tokens: int | None = Field(None, ge=1)  # the per-reply limit, not the solve's token budget
    temperature: float | None = Field(None, ge=0, le=2)
    top_p: float | None = Field(None, gt=0, le=1)
    seed: int | None = None
    reasoning_effort: ReasoningEffort | None = None
    extra_body: dict[str, Any] = {}  # server-specific request fields (e.g. vLLM's top_k)

    def over(self, base: RequestSettings) -> RequestSettings:
        """These settings where set, `base`'s elsewhere (extra_body fields merged)."""
        mine = self.model_dump(exclude_unset=True, exclude_none=True, exclude={"extra_body"})
        merged = base.model_copy(update=mine)
        return merged.model_copy(update={"extra_body": {**base.extra_body, **self.extra_body}})


# A 7B reasoning model on a workstation takes minutes per reply: the defaults let it finish.
DEFAULT_TIMEOUT_S = 600.0
DEFAULT_MAX_OUTPUT_TOKENS = 8192
DEFAULT_RETRY_OUTPUT_TOKENS = 16384


class LLMConfig(BaseModel):
    """Where the model is and how to call it. `repr()` and `public()` never show the key."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str = Field(min_length=1)
    api_key: SecretStr
    model: str = Field(min_length=1)
    role_models: dict[str, str] = {}  # a different model for some roles, e.g. {"planner": "big-model"}
    roles: dict[str, RequestSettings] = {}  # per-role request settings over the global ones
    timeout_s: float = Field(DEFAULT_TIMEOUT_S, gt=0)
    max_retries: int = Field(4, ge=0)
    backoff_s: float = Field(1.0, ge=0)  # the first wait; doubles each retry
    backoff_max_s: float = Field(30.0, ge=0)
    max_retry_after_s: float = Field(120.0, ge=0)  # a server asking for a longer wait is not retried
    # a timed-out request may still be generating on the server: resending it queues a second generation
    retry_timeouts: bool = False
    connect_timeout_s: float = Field(5.0, gt=0)
    # requests in flight at once to this endpoint, from the whole process: the default solve's first round
    # (8 candidates and the test designer) goes out at once; a 429 or a dropped connection lowers it
    max_in_flight: int = Field(9, ge=1)
    temperature: float | None = Field(None, ge=0, le=2)
    top_p: float | None = Field(None, gt=0, le=1)
    max_output_tokens: int = Field(DEFAULT_MAX_OUTPUT_TOKENS, ge=1)  # always sent: a server never writes forever
    # a reply cut by the output limit is asked once more with this higher limit; None or lower: never
    retry_output_tokens: int | None = Field(DEFAULT_RETRY_OUTPUT_TOKENS, ge=1)
    seed: int | None = None
    reasoning_effort: ReasoningEffort | None = None
    extra_body: dict[str, Any] = {}  # server-specific request fields (e.g. vLLM's top_k)

    def model_for(self, role: str) -> str:
        """The model that plays `role`."""
        override = self.roles.get(role)
        if override is not None and override.model:
            return override.model
        return self.role_models.get(role, self.model)

    def settings_for(self, role: str) -> RequestSettings:
        """The request settings of `role`: its own where set, else the global ones."""
        base = RequestSettings(
            model=self.model_for(role),
            timeout_s=self.timeout_s,
            max_output_tokens=self.max_output_tokens,
            temperature=self.temperature,
            top_p=self.top_p,
            seed=self.seed,
            reasoning_effort=self.reasoning_effort,
            extra_body=self.extra_body,
        )
        override = self.roles.get(role)
        return override.over(base) if override is not None else base

    def public(self) -> dict[str, Any]:
        """The settings without the key, for transcripts and `--json` output."""
        return self.model_dump(mode="json", exclude={"api_key"})


def _check_base_url(url: str) -> None:
    """A base URL must be http(s)://host...; anything else would only fail later, after all the retries."""
    parts = urlsplit(url)
    if parts.scheme.lower() in ("http", "https") and parts.hostname:
        return
    example = f"http://{url}" if "://" not in url and ("." in url or ":" in url) else "http://127.0.0.1:8000/v1"
    raise ConfigError(
        f"the model server address {url!r} is not an http(s) URL with a host",
        hint=f"give the API root with its scheme and host, e.g. --base-url {example} "
        "(or set CPBOT_BASE_URL / OPENAI_BASE_URL)",
    )


def _pick(explicit: str | None, env: Mapping[str, str], *names: str) -> str | None:
    if explicit:
        return explicit
    return next((env[n] for n in names if env.get(n)), None)


# Request settings from the environment: variable, LLMConfig field, how to read it.
SETTING_ENV: dict[str, tuple[str, Callable[[str], Any]]] = {
    "CPBOT_TIMEOUT": ("timeout_s", float),
    "CPBOT_MAX_OUTPUT_TOKENS": ("max_output_tokens", int),
    "CPBOT_RETRY_OUTPUT_TOKENS": ("retry_output_tokens", int),
    "CPBOT_TEMPERATURE": ("temperature", float),
    "CPBOT_TOP_P": ("top_p", float),
    "CPBOT_SEED": ("seed", int),
    "CPBOT_REASONING_EFFORT": ("reasoning_effort", str),
    "CPBOT_EXTRA_BODY": ("extra_body", json.loads),
    "CPBOT_MAX_RETRIES": ("max_retries", int),
    "CPBOT_MAX_IN_FLIGHT": ("max_in_flight", int),
}


def _env_settings(env: Mapping[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, (field, read) in SETTING_ENV.items():
        raw = env.get(name)
        if not raw:
            continue
        try:
            values[field] = read(raw)
        except ValueError as e:
            hint = f"{name} takes a {read.__name__} value"
            raise ConfigError(f"{name}={raw!r} cannot be read: {e}", hint=hint) from None
    return values


def _is_openai(url: str) -> bool:
    return (urlsplit(url).hostname or "").lower() == "api.openai.com"


def resolve_llm_config(
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    model: str | None = None,
    role_models: Mapping[str, str] | None = None,
    env: Mapping[str, str] | None = None,
    fallback: Mapping[str, Any] | None = None,
    **options: Any,
) -> LLMConfig:
    """The endpoint from explicit values, else `CPBOT_BASE_URL`/`CPBOT_API_KEY`/`CPBOT_MODEL`, else
    `OPENAI_BASE_URL`/`OPENAI_API_KEY`, else `fallback` (a settings file's `base_url`, `api_key`, `model`,
    `model_<role>`, and any other `LLMConfig` field such as `timeout_s` or `roles`); role models from
    `role_models`, else `CPBOT_MODEL_<ROLE>`, else the fallback's. `options` are other `LLMConfig` fields
    (command-line flags: above `CPBOT_TIMEOUT`, `CPBOT_MAX_OUTPUT_TOKENS`, ... and the file).

    The key goes only where it belongs: `OPENAI_API_KEY` to OpenAI's API or to the `OPENAI_BASE_URL` set
    beside it, never to a server named only by `CPBOT_BASE_URL`, `--base-url` or the file, which use
    `CPBOT_API_KEY`/`--api-key` (or the file's key).
    Raises `ConfigError` when nothing (or no model) is configured."""
    env = os.environ if env is None else env
    fallback = dict(fallback or {})
    url_from = "flag" if base_url else next((n for n in ("CPBOT_BASE_URL", "OPENAI_BASE_URL") if env.get(n)), "")
    url = _pick(base_url, env, "CPBOT_BASE_URL", "OPENAI_BASE_URL") or fallback.pop("base_url", None)
    fallback.pop("base_url", None)
    file_key = fallback.pop("api_key", None)
    openai_key = env.get("OPENAI_API_KEY") or None
    if not url and not (api_key or env.get("CPBOT_API_KEY") or openai_key or file_key):
        raise ConfigError(
            NOT_CONFIGURED,
            hint="e.g. CPBOT_BASE_URL=http://127.0.0.1:11434/v1 CPBOT_MODEL=qwen2.5-coder cpbot solve URL",
        )
    if not url:
        url = OPENAI_BASE_URL
    _check_base_url(url)
    key = api_key or env.get("CPBOT_API_KEY") or None
    if key is None and openai_key and (_is_openai(url) or url_from == "OPENAI_BASE_URL"):
        key = openai_key
    key = key or file_key
    if not key:
        if _is_openai(url):
            raise ConfigError("no API key for OpenAI", hint="set OPENAI_API_KEY (or pass --api-key)")
        key = NO_KEY
    name = _pick(model, env, "CPBOT_MODEL") or fallback.pop("model", None)
    fallback.pop("model", None)
    if not name:
        raise ConfigError(
            f"no model name for {url}",
            hint=f"pass --model or set CPBOT_MODEL to a model the server serves (see {url.rstrip('/')}/models)",
        )
    roles = {k[len("model_") :]: v for k, v in fallback.items() if k.startswith("model_") and v}
    roles.update({k[len("CPBOT_MODEL_") :].lower(): v for k, v in env.items() if k.startswith("CPBOT_MODEL_") and v})
    roles.update(role_models or {})
    file_settings = {k: v for k, v in fallback.items() if not k.startswith("model_")}
    settings = {**file_settings, **_env_settings(env), **{k: v for k, v in options.items() if v is not None}}
    try:
        return LLMConfig(base_url=url, api_key=SecretStr(key), model=name, role_models=roles, **settings)
    except ValidationError as e:
        raise ConfigError(f"bad model setting {first_problem(e)}") from None


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


class LLMError(ModelError):
    """An LLM call that failed for good; `kind` says how (auth, timeout, rate_limit, ...)."""

    def __init__(
        self, kind: ErrorKind | str, message: str, hint: str = "", *, status: int | None = None, attempts: int = 0
    ) -> None:
        super().__init__(message, hint)
        self.kind = kind
        self.status = status
        self.attempts = attempts


class StructuredOutputError(ExtractionError):
    """The reply holds no JSON object of the requested shape; `reply` is what came back."""

    def __init__(self, message: str, reply: LLMReply) -> None:
        super().__init__("no_json", message, hint="try a model that follows instructions better, or retry")
        self.reply = reply


class ChatModel(Protocol):
    """What roles need from a model: a reply to messages, in a role, optionally as structured output."""

    def complete(
        self, role: str, messages: Sequence[Message], *, response_format: type[BaseModel] | dict[str, Any] | None = None
    ) -> LLMReply:
        """Send `messages` as `role`; see `LLMClient.complete`."""
        ...


def _estimate_tokens(text: str) -> int:
    # about four characters a token in English and code; only used when a server reports no usage
    return math.ceil(len(text) / 4)


def _schema_of(fmt: type[BaseModel] | dict[str, Any] | None) -> tuple[dict[str, Any] | None, str]:
    """The JSON schema a response format asks for (None for a raw dict without one), and its name."""
    if fmt is None:
        return None, ""
    if isinstance(fmt, dict):
        inner = fmt.get("json_schema") if fmt.get("type") == "json_schema" else None
        if isinstance(inner, dict):
            return inner.get("schema"), str(inner.get("name") or "answer")
        return fmt.get("schema"), "answer"
    return fmt.model_json_schema(), fmt.__name__


class _Failure(Exception):
    """One failed attempt, classified."""

    def __init__(
        self,
        kind: ErrorKind,
        detail: str,
        *,
        status: int | None = None,
        retryable: bool,
        wait: float | None,
        overload: bool = False,
    ):
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.status = status
        self.retryable = retryable
        self.retry_after = wait
        self.overload = overload  # the server has too much to do: fewer requests at once


def _cause_chain(error: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and len(chain) < 8:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def _classify(error: openai.OpenAIError) -> _Failure:
    import httpx
    import openai

    if isinstance(error, openai.APITimeoutError):
        return _Failure("timeout", "no answer before the timeout", retryable=True, wait=None)
    if isinstance(error, openai.APIConnectionError):
        chain = _cause_chain(error)
        cause = chain[-1] if len(chain) > 1 else error
        # refused or unresolvable: nothing is listening, and asking again in a second will not change it;
        # a connection dropped mid-answer (a restart, a proxy) is worth another try
        refused = any(isinstance(c, httpx.ConnectError | ConnectionRefusedError | OSError) for c in chain[1:])
        dropped = any(isinstance(c, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError) for c in chain[1:])
        detail = f"connection failed: {cause}"
        return _Failure("unreachable", detail, retryable=dropped or not refused, wait=None, overload=dropped)
    if isinstance(error, openai.APIStatusError):
        status = error.status_code
        body = error.body
        detail = body.get("message") if isinstance(body, dict) else None
        if detail is None and isinstance(body, dict) and isinstance(body.get("error"), dict):
            detail = body["error"].get("message")
        detail = f"HTTP {status}: {detail or error.message}"[:800]
        wait = retry_after_seconds(error.response.headers)
        if status in (401, 403):
            return _Failure("auth", detail, status=status, retryable=False, wait=None)
        if status == 404:
            return _Failure("not_found", detail, status=status, retryable=False, wait=None)
        if status == 429:
            return _Failure("rate_limit", detail, status=status, retryable=True, wait=wait, overload=True)
        if status in (408, 409) or status >= 500:
            return _Failure("server", detail, status=status, retryable=True, wait=wait, overload=status == 503)
        return _Failure("bad_request", detail, status=status, retryable=False, wait=None)
    return _Failure("bad_response", f"{type(error).__name__}: {error}", retryable=False, wait=None)


def _why_waiting(failure: _Failure, url: str, wait: float, left: float) -> str:
    """Why the next retry would pass the budget: a wait the server asked for, or our own backoff."""
    if failure.retry_after is not None or failure.kind == "rate_limit":
        return f"the server asks to wait {wait:.1f} s, only {left:.1f} s of the budget left ({failure.detail})"
    if failure.kind == "unreachable":
        what = f"cannot reach the model server at {url} ({failure.detail})"
    elif failure.kind == "timeout":
        what = f"the model server at {url} did not answer in time"
    else:
        what = f"the model server at {url} failed ({failure.detail})"
    return f"{what}; retrying in {wait:.1f} s would pass the budget ({left:.1f} s left)"


# Context sizes servers commonly default to (Ollama's 2k/4k, llama.cpp's and vLLM's usual settings).
_COMMON_CONTEXTS = (2048, 4096, 8192)
MAX_ADAPTATIONS = 6  # changes to a request on the server's word before giving up
UNUSABLE_IN_A_ROW = 3  # replies with nothing in them before the server is reported instead of asked again


class _Endpoint:
    """What the client learned about its endpoint: each model's dialect, the context windows, the server kind."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.dialects: dict[str, Dialect] = {}
        self.windows: dict[str, int | None] = {}
        self.ollama: bool | None = None
        self.unusable = 0  # unusable replies in a row


class LLMClient:
    """A thread-safe client for one endpoint; close it (or use `with`) when done."""

    def __init__(
        self,
        config: LLMConfig,
        *,
        tracer: Tracer | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.perf_counter,
        jitter: Callable[[], float] = random.random,
        probe: bool = True,
    ) -> None:
        self.config = config
        self.tracer: Tracer = tracer or NullTracer()
        self._sleep = sleep
        self._clock = clock
        self._jitter = jitter
        self._probe_enabled = probe
        import openai  # imported on first use: it alone takes half a second, which `cpbot judge` need not pay

        # retries are ours, so that waits are visible, testable and bounded by the budget
        self._client = openai.OpenAI(
            base_url=config.base_url,
            api_key=config.api_key.get_secret_value(),
            timeout=config.timeout_s,
            max_retries=0,
        )
        self._errors = openai.OpenAIError
        self._endpoint = _Endpoint()
        self.limit: EndpointLimit = endpoint_limit(config.base_url, config.max_in_flight)

    def close(self) -> None:
        """Close the HTTP connections."""
        self._client.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def bind(self, *, task_id: str, budget: BudgetTracker | None = None, tracer: Tracer | None = None) -> BoundLLM:
        """A view of this client for one solve: every call charged to `budget` and traced to `tracer`."""
        return BoundLLM(self, task_id=task_id, budget=budget, tracer=tracer)

    def backoff(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait after failed attempt number `attempt` (1-based): what the server asked,
        else exponential from `backoff_s` (capped), scaled by a random factor in [0.5, 1)."""
        if retry_after is not None:
            return retry_after
        base = min(self.config.backoff_max_s, self.config.backoff_s * 2 ** (attempt - 1))
        return base * (0.5 + self._jitter() / 2)

    def dialect(self, model: str) -> Dialect:
        """What cpbot knows so far about `model` on this endpoint."""
        with self._endpoint.lock:
            return self._endpoint.dialects.setdefault(model, Dialect.for_model(model))

    # ---- asking the server about itself ----

    def context_window(self, model: str) -> int | None:
        """The model's context window as the server reports it (vLLM's `max_model_len` in /models,
        llama.cpp's `n_ctx` in /props or `n_ctx_train` in /models), or None; asked once per model."""
        with self._endpoint.lock:
            if model in self._endpoint.windows:
                return self._endpoint.windows[model]
        window = self._ask_window(model) if self._probe_enabled else None
        with self._endpoint.lock:
            self._endpoint.windows[model] = window
        return window

    def _get_json(self, url: str) -> Any:
        import httpx

        headers = {"Authorization": f"Bearer {self.config.api_key.get_secret_value()}"}
        try:
            response = httpx.get(url, headers=headers, timeout=httpx.Timeout(3.0, connect=1.0))
        except httpx.HTTPError:
            return None
        if response.status_code != 200:
            return None
        try:
            return response.json()
        except ValueError:
            return None

    def _ask_window(self, model: str) -> int | None:
        base = self.config.base_url.rstrip("/")
        listing = self._get_json(f"{base}/models")
        window: int | None = None
        entries = listing.get("data") if isinstance(listing, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            if not isinstance(entry, dict):
                continue
            if entry.get("owned_by") == "library":  # how Ollama's /v1/models marks pulled models
                self._endpoint.ollama = True
            if entry.get("id") != model and len(entries) > 1:
                continue
            meta = entry.get("meta") if isinstance(entry.get("meta"), dict) else {}
            for value in (entry.get("max_model_len"), entry.get("context_length"), meta.get("n_ctx_train")):
                if isinstance(value, int) and value > 0:
                    window = value
                    break
        root = base[: -len("/v1")] if base.endswith("/v1") else base
        props = self._get_json(f"{root}/props")
        if isinstance(props, dict):
            settings = props.get("default_generation_settings")
            n_ctx = (settings or {}).get("n_ctx") if isinstance(settings, dict) else None
            n_ctx = n_ctx or props.get("n_ctx")
            if isinstance(n_ctx, int) and n_ctx > 0:
                window = n_ctx  # the running server's setting wins over the model's training length
        if urlsplit(base).port == 11434:
            self._endpoint.ollama = True
        return window

    # ---- one call ----

    def complete(
        self,
        role: str,
        messages: Sequence[Message],
        *,
        response_format: type[BaseModel] | dict[str, Any] | None = None,
        budget: BudgetTracker | None = None,
        tracer: Tracer | None = None,
        task_id: str = "",
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> LLMReply:
        """Ask the model playing `role` to answer `messages`.

        `response_format` is a pydantic model (the reply is validated into `LLMReply.parsed`) or a raw
        OpenAI `response_format` dict (parsed as a JSON object). The role's request settings (output
        limit, temperature, ...) come from the config; `temperature`/`max_tokens` override them for this
        call. A reply cut by the output limit is asked once more with `retry_output_tokens`. With a
        `budget`, the call is counted before it starts and its tokens (of every try) after; waits and
        timeouts never run past the budget's time.
        Raises `LLMError`, `StructuredOutputError` or `BudgetExhausted`.
        """
        tracer = tracer or self.tracer
        settings = self.config.settings_for(role)
        overrides: dict[str, Any] = {}
        if temperature is not None:
            overrides["temperature"] = temperature
        if max_tokens is not None:
            overrides["max_output_tokens"] = max_tokens
        if settings.seed is not None:  # a seed of the request's own: the same answer whatever the arrival order
            overrides["seed"] = seeding.request_seed(settings.seed, task_id, role, messages)
        settings = settings.model_copy(update=overrides)
        model = settings.model or self.config.model
        if budget is not None:
            budget.start_call()
        event = LLMCallEvent(
            call_id=uuid.uuid4().hex[:16],
            task_id=task_id,
            role=role,
            model=model,
            messages=[dict(m) for m in messages],
            started_at=utc_now(),
        )
        started = self._clock()
        sent_messages = [dict(m) for m in messages]
        try:
            completion = self._send(event, sent_messages, response_format, budget, settings)
            limit = settings.max_output_tokens or self.config.max_output_tokens
            higher = self.config.retry_output_tokens
            if _finish(completion) == "length" and higher is not None and higher > limit:
                event.warnings.append(
                    f"the reply was cut at the output limit ({limit} tokens); asking once more with {higher}"
                )
                raised = settings.model_copy(update={"max_output_tokens": higher})
                completion = self._send(event, sent_messages, response_format, budget, raised)
        except (LLMError, BudgetExhausted) as e:
            event.error = e.message
            event.error_kind = getattr(e, "kind", "budget")
            event.attempts = len(event.tries)
            event.latency_ms = (self._clock() - started) * 1000
            event.ts = utc_now()
            event.usage = _tries_usage(event)
            if budget is not None:
                budget.charge(event.usage)
            tracer.emit(event)
            raise
        reply = self._reply(event, completion, started)
        if budget is not None:
            budget.charge(reply.usage)
        self._count_unusable(event, completion, reply, tracer)
        if response_format is not None:
            try:
                reply = self._parse(reply, response_format, sent_natively=event.response_format is not None)
            except StructuredOutputError as e:
                event.structured = "failed"
                event.error = e.message
                event.error_kind = "no_json"
                tracer.emit(event)
                raise
            event.structured = reply.structured
        tracer.emit(event)
        return reply

    def _count_unusable(self, event: LLMCallEvent, completion: Any, reply: LLMReply, tracer: Tracer) -> None:
        """Note an unusable reply; raise `LLMError` at the `UNUSABLE_IN_A_ROW`-th in a row, so a broken
        server is reported with what it sent rather than asked again until the budget runs out."""
        what = _unusable(completion, reply)
        with self._endpoint.lock:
            self._endpoint.unusable = self._endpoint.unusable + 1 if what else 0
            streak = self._endpoint.unusable
            if streak >= UNUSABLE_IN_A_ROW:
                self._endpoint.unusable = 0
        if not what:
            return
        event.warnings.append(f"unusable reply: {what}")
        if streak < UNUSABLE_IN_A_ROW:
            return
        error = LLMError(
            "bad_response",
            f"the model server at {self.config.base_url} sent {streak} unusable replies in a row (the last: {what})",
            hint="check that --base-url is the OpenAI-compatible API root of a running model server and that "
            f"{event.model} answers a short prompt there (e.g. with curl)",
            status=200,
            attempts=event.attempts,
        )
        event.error = error.message
        event.error_kind = error.kind
        tracer.emit(event)
        raise error

    # ---- one request, with retries and the server's corrections ----

    def _request(
        self,
        model: str,
        messages: list[Message],
        fmt: type[BaseModel] | dict[str, Any] | None,
        settings: RequestSettings,
        dialect: Dialect,
    ) -> tuple[list[Message], dict[str, Any]]:
        """The messages and parameters to send, in the dialect learned so far."""
        params: dict[str, Any] = {}
        limit = settings.max_output_tokens or self.config.max_output_tokens
        window = self._endpoint.windows.get(model)
        sent = merge_consecutive(messages if dialect.system_role else merge_system(messages))
        if fmt is not None:
            schema, name = _schema_of(fmt)
            if isinstance(fmt, dict) and dialect.structured == "json_schema":
                response_format: dict[str, Any] | None = fmt  # a raw format is passed through as given
            else:
                response_format = response_format_for(dialect.structured, schema, name)
            if response_format is not None:
                params["response_format"] = response_format
            if dialect.structured != "json_schema" or response_format is None:
                sent = with_note(sent, format_note(schema))
        if window:
            prompt = _estimate_tokens("".join(str(m.get("content") or "") for m in sent))
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

    def _adapt(
        self, dialect: Dialect, failure: _Failure, fmt: object, params: dict[str, Any], *, known: int = -1
    ) -> str:
        """Change the dialect as the server's error asks; what changed ("" when nothing can). `known`: how many
        changes the dialect had when the failed request was built; when a concurrent request has changed it
        since, the request is only asked again, in the dialect as it is now."""
        complaint = read_complaint(failure.detail)
        if complaint is None or failure.kind not in ("bad_request", "server"):
            return ""
        kind, name = complaint
        with self._endpoint.lock:
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

    def _send(
        self,
        event: LLMCallEvent,
        messages: list[Message],
        fmt: type[BaseModel] | dict[str, Any] | None,
        budget: BudgetTracker | None,
        settings: RequestSettings,
    ) -> Any:
        import httpx

        cfg = self.config
        model = event.model
        dialect = self.dialect(model)
        if self._probe_enabled and model not in self._endpoint.windows:
            self.context_window(model)
        retries = adaptations = 0
        while True:
            attempt = len(event.tries) + 1
            timeout = settings.timeout_s or cfg.timeout_s
            left = budget.remaining_seconds() if budget is not None else None
            if left is not None:
                if left <= 0:
                    raise BudgetExhausted(f"wall time: the budget's {budget.budget.max_seconds:g} s are used up")
                timeout = min(timeout, left)
            known = len(dialect.learned)
            sent, params = self._request(model, messages, fmt, settings, dialect)
            with self.limit.slot(timeout=left) as slot:
                if slot is None:
                    raise BudgetExhausted(
                        f"wall time: no free request slot at {cfg.base_url} (max_in_flight {self.limit.limit}) "
                        "before the budget's time ran out"
                    )
                event.queued_ms += slot.queued_s * 1000
                t0 = self._clock()
                try:
                    completion = self._client.chat.completions.create(
                        model=model,
                        messages=sent,
                        timeout=httpx.Timeout(timeout, connect=min(cfg.connect_timeout_s, timeout)),
                        **params,
                    )
                except self._errors as e:
                    failure = _classify(e)
                    slot.outcome = "overloaded" if failure.overload else "other"
                except json.JSONDecodeError as e:  # the client parsed a body that says it is JSON and is not
                    event.tries.append(LLMTry(attempt=attempt, status=200, elapsed_ms=(self._clock() - t0) * 1000))
                    raise LLMError(
                        "bad_response",
                        f"the model server at {cfg.base_url} answered with a body that is not JSON "
                        f"({_clip_sent(e.doc)})",
                        hint="check --base-url: it should be the OpenAI-compatible API root, usually ending in /v1",
                        status=200,
                        attempts=attempt,
                    ) from None
                else:
                    failure = None
                    slot.outcome = "ok"
            if failure is None:
                elapsed = (self._clock() - t0) * 1000
                if not hasattr(completion, "choices"):
                    event.tries.append(LLMTry(attempt=attempt, status=200, elapsed_ms=elapsed))
                    raise LLMError(
                        "bad_response",
                        f"the model server at {cfg.base_url} answered with something other than a chat completion "
                        f"({_clip_sent(completion)})",
                        hint="check --base-url: it should be the OpenAI-compatible API root, usually ending in /v1",
                        status=200,
                        attempts=attempt,
                    )
                event.tries.append(
                    LLMTry(
                        attempt=attempt,
                        status=200,
                        elapsed_ms=elapsed,
                        finish_reason=_finish(completion),
                        usage=_usage(completion, sent),
                    )
                )
                event.response_format = params.get("response_format")
                event.messages = sent  # what was really sent
                event.request = {k: v for k, v in params.items() if k != "response_format"}
                return completion
            tried = LLMTry(attempt=attempt, status=failure.status, error=failure.detail)
            tried.elapsed_ms = (self._clock() - t0) * 1000
            event.tries.append(tried)
            if failure.overload and failure.retry_after:
                self.limit.pause(failure.retry_after)  # the others wait too; this caller waits below
            change = self._adapt(dialect, failure, fmt, params, known=known) if adaptations < MAX_ADAPTATIONS else ""
            if change:
                adaptations += 1
                tried.error += f" ({change}; asking again)"
                event.warnings.append(change)
                continue
            complaint = read_complaint(failure.detail)
            if complaint is not None and complaint[0] == "context":
                raise self._context_error(failure, model, sent, params, attempt)
            retryable = failure.retryable and (failure.kind != "timeout" or cfg.retry_timeouts)
            if not retryable or retries >= cfg.max_retries:
                raise self._final_error(failure, attempt)
            if failure.retry_after is not None and failure.retry_after > cfg.max_retry_after_s:
                raise self._final_error(failure, attempt, waited_too_long=failure.retry_after)
            wait = self.backoff(retries + 1, failure.retry_after)
            if budget is not None:
                left = budget.remaining_seconds()
                if left is not None and wait >= left:
                    raise BudgetExhausted(f"wall time: {_why_waiting(failure, cfg.base_url, wait, left)}")
            tried.wait_s = round(wait, 3)
            if failure.kind == "timeout":
                tried.error += " (sent again: the server may still be generating the first answer)"
            self._sleep(wait)
            retries += 1

    def _context_error(
        self, failure: _Failure, model: str, sent: list[Message], params: dict[str, Any], attempts: int
    ) -> LLMError:
        window = self.context_window(model)
        prompt = _estimate_tokens("".join(str(m.get("content") or "") for m in sent))
        limit = params.get("max_tokens") or params.get("max_completion_tokens")
        size = f"a {window:,}-token context" if window else "its context"
        message = (
            f"the prompt (~{prompt:,} tokens) and the output limit ({limit:,} tokens) do not fit in {size} "
            f"of {model} at {self.config.base_url} ({failure.detail})"
        )
        hint = "start the server with a larger context, or lower max_output_tokens for this role"
        if self._endpoint.ollama:
            hint = _OLLAMA_HINT
        return LLMError("context", message, hint, status=failure.status, attempts=attempts)

    def _final_error(self, failure: _Failure, attempts: int, waited_too_long: float | None = None) -> LLMError:
        cfg = self.config
        url = cfg.base_url
        tries = f"after {attempts} tries" if attempts > 1 else "on the first try"
        kind = failure.kind
        if waited_too_long is not None:
            message = f"the model server at {url} asks to wait {waited_too_long:.0f} s ({failure.detail})"
            hint = "try again later, or raise max_retry_after_s"
        elif kind == "auth":
            message = f"the model server at {url} refused the API key ({failure.detail})"
            hint = (
                "OPENAI_API_KEY is sent only to OpenAI's API (or with OPENAI_BASE_URL); for a server named by "
                "--base-url or CPBOT_BASE_URL give its key with --api-key or CPBOT_API_KEY"
            )
        elif kind == "not_found":
            message = f"the model server at {url} has no such model or route ({failure.detail})"
            hint = f"check --model and --base-url (it usually ends in /v1; {url.rstrip('/')}/models lists models)"
        elif kind == "unreachable":
            message = f"cannot reach the model server at {url} {tries} ({failure.detail})"
            hint = "check --base-url / CPBOT_BASE_URL and that the server is running"
        elif kind == "timeout":
            message = (
                f"the model server at {url} did not answer within {cfg.timeout_s:g} s, {tries}; "
                "it may still be generating (cpbot did not send the request again)"
                if not cfg.retry_timeouts
                else f"the model server at {url} did not answer within {cfg.timeout_s:g} s, {tries}"
            )
            hint = (
                "a slow local model may need more time: raise the timeout (--timeout, CPBOT_TIMEOUT or timeout_s "
                "in [llm] of config.toml), or lower max_output_tokens"
            )
        elif kind == "rate_limit":
            message = f"the model server at {url} is still rate-limiting {tries} ({failure.detail})"
            hint = "wait a little, run fewer solves at once, or raise max_retries"
        elif kind == "server":
            message = f"the model server at {url} kept failing {tries} ({failure.detail})"
            hint = "check the server's logs, or retry later"
        else:
            message = f"the model server at {url} rejected the request ({failure.detail})"
            hint = "check the model name and the request options"
        return LLMError(kind, message, hint, status=failure.status, attempts=attempts)

    # ---- reading the answer ----

    def _reply(self, event: LLMCallEvent, completion: Any, started: float) -> LLMReply:
        choice = completion.choices[0] if completion.choices else None
        message = choice.message if choice is not None else None
        content = (message.content if message is not None else None) or ""
        extra = (message.model_extra or {}) if message is not None else {}
        field = str(extra.get("reasoning_content") or extra.get("reasoning") or "")
        split = split_reply(content, field)
        tokens = _tries_usage(event)
        event.reply = split.answer
        event.reasoning = split.reasoning
        event.finish_reason = choice.finish_reason if choice is not None else None
        event.usage = tokens
        event.attempts = len(event.tries)
        event.latency_ms = (self._clock() - started) * 1000
        event.ts = utc_now()
        last = event.tries[-1].usage or Usage()
        warning = self._context_warning(event.model, last, event.finish_reason, event.messages)
        if warning:
            event.warnings.append(warning)
        if (event.finish_reason == "length" and split.open_reasoning) or (
            event.finish_reason == "length" and not split.answer.strip() and split.reasoning
        ):
            event.warnings.append("the model ran out of output tokens while reasoning, before its answer began")
        return LLMReply(
            call_id=event.call_id,
            role=event.role,
            model=completion.model or event.model,
            text=split.answer,
            reasoning=split.reasoning,
            finish_reason=event.finish_reason,
            usage=tokens,
            latency_ms=round(event.latency_ms, 3),
            attempts=event.attempts,
            warnings=list(event.warnings),
        )

    def _context_warning(self, model: str, usage: Usage, finish_reason: str | None, sent: Sequence[Message]) -> str:
        """A warning when the server's context looks too small: the prompt silently cut (the server
        counted far fewer prompt tokens than were sent) or a reply stopped where a common small context
        fills up."""
        if usage.estimated or not usage.prompt_tokens:
            return ""
        sent_tokens = _estimate_tokens("".join(str(m.get("content") or "") for m in sent))
        window = self._endpoint.windows.get(model)
        used = usage.prompt_tokens + usage.completion_tokens
        full = next((n for n in ((window,) if window else _COMMON_CONTEXTS) if n and n * 0.97 <= used <= n), None)
        cut_prompt = sent_tokens > 1.5 * usage.prompt_tokens and usage.prompt_tokens >= 1000
        if not cut_prompt and not (finish_reason == "length" and full):
            return ""
        what = (
            f"the server read ~{usage.prompt_tokens:,} prompt tokens of the ~{sent_tokens:,} sent: it cut the prompt"
            if cut_prompt
            else f"the reply stopped when prompt and reply filled {used:,} tokens, a full {full:,}-token context"
        )
        if self._endpoint.ollama:
            return f"{what}; {_OLLAMA_HINT}"
        return f"{what}; start the server with a larger context (e.g. vLLM --max-model-len, llama.cpp -c)"

    def _parse(
        self, reply: LLMReply, response_format: type[BaseModel] | dict[str, Any], *, sent_natively: bool
    ) -> LLMReply:
        return read_structured(reply, response_format, sent_natively=sent_natively)


def read_structured(
    reply: LLMReply, response_format: type[BaseModel] | dict[str, Any], *, sent_natively: bool = False
) -> LLMReply:
    """`reply` with its structured answer in `parsed`: the first JSON candidate (see `json_candidates`)
    that fits `response_format`; raises `StructuredOutputError` when none does."""
    schema = response_format if isinstance(response_format, type) else None
    problems: list[str] = []
    for where, candidate in json_candidates(reply.text, reply.reasoning):
        for value in _as_objects(candidate, schema):
            if schema is None:
                parsed: Any = value
            else:
                parsed = _validate(schema, value, problems)
                if parsed is None:
                    continue
            # the whole reply being the object means the server honoured the format
            native = sent_natively and where == "whole" and value is candidate
            mode: Literal["native", "fallback"] = "native" if native else "fallback"
            return reply.model_copy(update={"parsed": parsed, "structured": mode})
    what = f"{schema.__name__} JSON object" if schema is not None else "JSON object"
    if problems:
        what = f"valid {what}"
    detail = f" (closest: {problems[0]})" if problems else ""
    raise StructuredOutputError(f"the model's reply has no {what}{detail}", reply)


_OLLAMA_HINT = (
    "Ollama runs models with a small context by default and its /v1 route ignores num_ctx in the request: "
    "restart it with OLLAMA_CONTEXT_LENGTH=32768 ollama serve, or create a model with PARAMETER num_ctx 32768 "
    "in its Modelfile"
)


SENT_CHARS = 300  # of an unusable reply, quoted in the error


def _clip_sent(completion: Any) -> str:
    """What the server sent, as JSON when it parsed as an object, cut to `SENT_CHARS`."""
    try:
        text = json.dumps(completion.model_dump(mode="json", exclude_none=True))
    except Exception:  # anything the client built from a malformed body: show its text
        text = repr(completion)
    return text if len(text) <= SENT_CHARS else text[:SENT_CHARS] + "..."


def _unusable(completion: Any, reply: LLMReply) -> str:
    """Why a chat completion holds nothing to use ("" when it does): no choices, or an empty message
    that is not a reply cut while reasoning."""
    if not getattr(completion, "choices", None):
        return f"HTTP 200 with no choices: {_clip_sent(completion)}"
    if reply.text.strip() or reply.reasoning.strip() or reply.usage.reasoning_tokens or reply.finish_reason == "length":
        return ""
    return f"an empty message: {_clip_sent(completion)}"


def _finish(completion: Any) -> str | None:
    choices = getattr(completion, "choices", None) or []
    return choices[0].finish_reason if choices else None


def _usage(completion: Any, sent: Sequence[Message]) -> Usage:
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
        prompt_tokens=_estimate_tokens(prompt), completion_tokens=_estimate_tokens(text + reasoning), estimated=True
    )


def _tries_usage(event: LLMCallEvent) -> Usage:
    """The tokens of every try of a call that got an answer (a cut reply asked again costs twice)."""
    total = Usage()
    for tried in event.tries:
        if tried.usage is not None:
            total = total + tried.usage
    return total


def _as_objects(candidate: Any, schema: type[BaseModel] | None) -> list[Any]:
    """The objects a JSON value offers for a schema: itself when an object; for a top-level array, the
    array under the schema's only list field, else its objects, last first."""
    if isinstance(candidate, dict):
        return [candidate]
    if not isinstance(candidate, list):
        return []
    options: list[Any] = []
    if schema is not None:
        lists = [name for name, f in schema.model_fields.items() if "list" in str(f.annotation).lower()]
        if len(lists) == 1:
            options.append({lists[0]: candidate})
    options += [item for item in reversed(candidate) if isinstance(item, dict)]
    return options


_NUMBER_IN_TEXT = re.compile(r"-?\d+(?:\.\d+)?")


def _validate(schema: type[BaseModel], value: dict[str, Any], problems: list[str]) -> BaseModel | None:
    """`value` as a `schema` instance, reading numbers written as text ("95%", "about 80") where a number
    is expected; None (and the first problem noted) when it does not fit."""
    try:
        return schema.model_validate(value)
    except ValidationError as e:
        errors = e.errors()
    fixed = json.loads(json.dumps(value))
    changed = False
    for error in errors:
        if error["type"] not in ("int_parsing", "float_parsing", "int_from_float"):
            continue
        # the location may end in a union member's name ("int", "float"): stop at the last real key
        target: Any = fixed
        last: Any = None
        for part in error["loc"]:
            inside = target if last is None else target[last]
            if (isinstance(inside, dict) and part in inside) or (isinstance(inside, list) and isinstance(part, int)):
                target, last = inside, part
            else:
                break
        if last is None:
            continue
        raw = target[last]
        if not isinstance(raw, str):
            continue
        match = _NUMBER_IN_TEXT.search(str(raw))
        if match is None:
            continue
        number = float(match.group())
        target[last] = round(number) if error["type"] != "float_parsing" else number
        changed = True
    if changed:
        try:
            return schema.model_validate(fixed)
        except ValidationError as e:
            errors = e.errors()
    first = errors[0]
    problems.append(f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}")
    return None


class BoundLLM:
    """An `LLMClient` bound to one solve's task id, budget and tracer; a `ChatModel`."""

    def __init__(
        self, client: LLMClient, *, task_id: str, budget: BudgetTracker | None = None, tracer: Tracer | None = None
    ) -> None:
        self.client = client
        self.task_id = task_id
        self.budget = budget
        self.tracer = tracer

    def complete(
        self,
        role: str,
        messages: Sequence[Message],
        *,
        response_format: type[BaseModel] | dict[str, Any] | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
    ) -> LLMReply:
        """`LLMClient.complete` with this solve's task id, budget and tracer."""
        return self.client.complete(
            role,
            messages,
            response_format=response_format,
            budget=self.budget,
            tracer=self.tracer,
            task_id=self.task_id,
            temperature=temperature,
            max_tokens=max_tokens,
        )
