"""The only code that talks to a language model: any OpenAI-compatible chat endpoint, through `openai`.

`LLMClient.complete(role, messages)` sends one chat request with the role's model and returns an
`LLMReply` (text, reasoning, usage, latency, attempts). It retries 408/409/429/5xx, timeouts and
connection failures with exponential backoff and jitter, waiting what a Retry-After header asks;
the waits go through an injectable `sleep` so tests are instant and deterministic. Structured output
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
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from cpbot.agents.budget import BudgetExhausted, BudgetTracker, Usage
from cpbot.agents.envelopes import utc_now
from cpbot.agents.extract import ExtractionError, json_candidates
from cpbot.agents.tracing import LLMCallEvent, LLMTry, NullTracer, Tracer
from cpbot.core.errors import ConfigError, ModelError

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
    "auth", "not_found", "bad_request", "rate_limit", "server", "timeout", "unreachable", "bad_response"
]


class LLMConfig(BaseModel):
    """Where the model is and how to call it. `repr()` and `public()` never show the key."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str = Field(min_length=1)
    api_key: SecretStr
    model: str = Field(min_length=1)
    role_models: dict[str, str] = {}  # a different model for some roles, e.g. {"planner": "big-model"}
    timeout_s: float = Field(120.0, gt=0)
    max_retries: int = Field(4, ge=0)
    backoff_s: float = Field(1.0, ge=0)  # the first wait; doubles each retry
    backoff_max_s: float = Field(30.0, ge=0)
    max_retry_after_s: float = Field(120.0, ge=0)  # a server asking for a longer wait is not retried
    temperature: float | None = Field(None, ge=0, le=2)
    max_tokens: int | None = Field(None, ge=1)
    seed: int | None = None
    extra_body: dict[str, Any] = {}  # server-specific request fields (e.g. vLLM's top_k)

    def model_for(self, role: str) -> str:
        """The model that plays `role`."""
        return self.role_models.get(role, self.model)

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


def resolve_llm_config(
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    model: str | None = None,
    role_models: Mapping[str, str] | None = None,
    env: Mapping[str, str] | None = None,
    fallback: Mapping[str, str] | None = None,
    **options: Any,
) -> LLMConfig:
    """The endpoint from explicit values, else `CPBOT_BASE_URL`/`CPBOT_API_KEY`/`CPBOT_MODEL`, else
    `OPENAI_BASE_URL`/`OPENAI_API_KEY`, else `fallback` (a settings file's `base_url`, `api_key`, `model`,
    `model_<role>`); role models from `role_models`, else `CPBOT_MODEL_<ROLE>`, else the fallback's.
    `options` are other `LLMConfig` fields.
    Raises `ConfigError` when nothing (or no model) is configured."""
    env = os.environ if env is None else env
    fallback = fallback or {}
    url = _pick(base_url, env, "CPBOT_BASE_URL", "OPENAI_BASE_URL") or fallback.get("base_url")
    key = _pick(api_key, env, "CPBOT_API_KEY", "OPENAI_API_KEY") or fallback.get("api_key")
    name = _pick(model, env, "CPBOT_MODEL") or fallback.get("model")
    if not url and not key:
        raise ConfigError(
            NOT_CONFIGURED,
            hint="e.g. CPBOT_BASE_URL=http://127.0.0.1:11434/v1 CPBOT_MODEL=qwen2.5-coder cpbot solve URL",
        )
    if not url:
        url = OPENAI_BASE_URL
    _check_base_url(url)
    if not key:
        if url.rstrip("/") == OPENAI_BASE_URL:
            raise ConfigError("no API key for OpenAI", hint="set OPENAI_API_KEY (or pass --api-key)")
        key = NO_KEY
    if not name:
        raise ConfigError(
            f"no model name for {url}",
            hint=f"pass --model or set CPBOT_MODEL to a model the server serves (see {url.rstrip('/')}/models)",
        )
    roles = {k[len("model_") :]: v for k, v in fallback.items() if k.startswith("model_") and v}
    roles.update({k[len("CPBOT_MODEL_") :].lower(): v for k, v in env.items() if k.startswith("CPBOT_MODEL_") and v})
    roles.update(role_models or {})
    try:
        return LLMConfig(base_url=url, api_key=SecretStr(key), model=name, role_models=roles, **options)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"bad model setting {where}: {first['msg']}") from None


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


def retry_after_seconds(headers: Mapping[str, str] | None, now: float | None = None) -> float | None:
    """The wait a response asks for (`retry-after-ms`, `retry-after` in seconds or as a date), if any."""
    if not headers:
        return None
    lowered = {k.lower(): v for k, v in headers.items()}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = lowered.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) * scale
        except ValueError:
            if name == "retry-after-ms":
                continue
            try:
                seconds = parsedate_to_datetime(value).timestamp() - (time.time() if now is None else now)
            except (TypeError, ValueError):
                return None
        return max(0.0, seconds) if math.isfinite(seconds) else None
    return None


_THINK = re.compile(r"^\s*<think>(.*?)</think>\s*", re.DOTALL)


def _split_reasoning(content: str) -> tuple[str, str]:
    match = _THINK.match(content)
    if not match:
        return content, ""
    return content[match.end() :], match.group(1).strip()


def _estimate_tokens(text: str) -> int:
    # about four characters a token in English and code; only used when a server reports no usage
    return math.ceil(len(text) / 4)


def _response_format(fmt: type[BaseModel] | dict[str, Any] | None) -> dict[str, Any] | None:
    if fmt is None or isinstance(fmt, dict):
        return fmt
    return {"type": "json_schema", "json_schema": {"name": fmt.__name__, "schema": fmt.model_json_schema()}}


def _format_note(fmt: dict[str, Any]) -> Message:
    """The request for structured output in words, for servers that do not take `response_format`."""
    schema = fmt.get("json_schema", {}).get("schema") if fmt.get("type") == "json_schema" else None
    text = "Answer with one JSON object and nothing else"
    if schema is not None:
        text += ". It must follow this JSON schema:\n" + json.dumps(schema, separators=(",", ":"))
    return {"role": "user", "content": text}


class _Failure(Exception):
    """One failed attempt, classified."""

    def __init__(self, kind: ErrorKind, detail: str, *, status: int | None = None, retryable: bool, wait: float | None):
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.status = status
        self.retryable = retryable
        self.retry_after = wait


def _classify(error: openai.OpenAIError) -> _Failure:
    import openai
    if isinstance(error, openai.APITimeoutError):
        return _Failure("timeout", "no answer before the timeout", retryable=True, wait=None)
    if isinstance(error, openai.APIConnectionError):
        cause = error.__cause__ or error
        return _Failure("unreachable", f"connection failed: {cause}", retryable=True, wait=None)
    if isinstance(error, openai.APIStatusError):
        status = error.status_code
        body = error.body
        detail = body.get("message") if isinstance(body, dict) else None
        detail = f"HTTP {status}: {detail or error.message}"[:500]
        wait = retry_after_seconds(error.response.headers)
        if status in (401, 403):
            return _Failure("auth", detail, status=status, retryable=False, wait=None)
        if status == 404:
            return _Failure("not_found", detail, status=status, retryable=False, wait=None)
        if status == 429:
            return _Failure("rate_limit", detail, status=status, retryable=True, wait=wait)
        if status in (408, 409) or status >= 500:
            return _Failure("server", detail, status=status, retryable=True, wait=wait)
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
    ) -> None:
        self.config = config
        self.tracer: Tracer = tracer or NullTracer()
        self._sleep = sleep
        self._clock = clock
        self._jitter = jitter
        import openai  # imported on first use: it alone takes half a second, which `cpbot judge` need not pay

        # retries are ours, so that waits are visible, testable and bounded by the budget
        self._client = openai.OpenAI(
            base_url=config.base_url,
            api_key=config.api_key.get_secret_value(),
            timeout=config.timeout_s,
            max_retries=0,
        )
        self._errors = openai.OpenAIError
        # set to False once the server rejects response_format; later calls then ask in the prompt only
        self._native_structured = True

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
        OpenAI `response_format` dict (parsed as a JSON object). With a `budget`, the call is counted
        before it starts and its tokens after; waits and timeouts never run past the budget's time.
        Raises `LLMError`, `StructuredOutputError` or `BudgetExhausted`.
        """
        tracer = tracer or self.tracer
        model = self.config.model_for(role)
        fmt = _response_format(response_format)
        if budget is not None:
            budget.start_call()
        event = LLMCallEvent(
            call_id=uuid.uuid4().hex[:16],
            task_id=task_id,
            role=role,
            model=model,
            messages=[dict(m) for m in messages],
            response_format=fmt,
        )
        started = self._clock()
        try:
            completion = self._send(event, fmt, budget, temperature, max_tokens)
        except (LLMError, BudgetExhausted) as e:
            event.error = e.message
            event.error_kind = getattr(e, "kind", "budget")
            event.attempts = len(event.tries)
            event.latency_ms = (self._clock() - started) * 1000
            tracer.emit(event)
            raise
        reply = self._reply(event, completion, started)
        if budget is not None:
            budget.charge(reply.usage)
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

    # ---- one call, with retries ----

    def _send(
        self,
        event: LLMCallEvent,
        fmt: dict[str, Any] | None,
        budget: BudgetTracker | None,
        temperature: float | None,
        max_tokens: int | None,
    ) -> Any:
        cfg = self.config
        params: dict[str, Any] = {}
        if (t := temperature if temperature is not None else cfg.temperature) is not None:
            params["temperature"] = t
        if (m := max_tokens or cfg.max_tokens) is not None:
            params["max_tokens"] = m
        if cfg.seed is not None:
            params["seed"] = cfg.seed
        if cfg.extra_body:
            params["extra_body"] = cfg.extra_body
        send_format = fmt if self._native_structured else None
        retries = 0
        while True:
            attempt = len(event.tries) + 1
            timeout = cfg.timeout_s
            left = budget.remaining_seconds() if budget is not None else None
            if left is not None:
                if left <= 0:
                    raise BudgetExhausted(f"wall time: the budget's {budget.budget.max_seconds:g} s are used up")
                timeout = min(timeout, left)
            messages = event.messages
            if send_format is not None:
                params["response_format"] = send_format
            else:
                params.pop("response_format", None)
                if fmt is not None:
                    messages = [*messages, _format_note(fmt)]
            t0 = self._clock()
            try:
                completion = self._client.chat.completions.create(
                    model=event.model, messages=messages, timeout=timeout, **params
                )
            except self._errors as e:
                failure = _classify(e)
            else:
                event.tries.append(LLMTry(attempt=attempt, status=200, elapsed_ms=(self._clock() - t0) * 1000))
                if not hasattr(completion, "choices"):
                    raise LLMError(
                        "bad_response",
                        f"the model server at {cfg.base_url} answered with something other than a chat completion",
                        hint="check --base-url: it should be the OpenAI-compatible API root, usually ending in /v1",
                        attempts=attempt,
                    )
                event.response_format = send_format
                event.messages = messages  # what was really sent
                return completion
            tried = LLMTry(attempt=attempt, status=failure.status, error=failure.detail)
            tried.elapsed_ms = (self._clock() - t0) * 1000
            event.tries.append(tried)
            if failure.kind == "bad_request" and send_format is not None:
                # the server does not take response_format: ask again without it, and stop sending it
                self._native_structured = False
                send_format = None
                tried.error += " (response_format rejected; asking again without it)"
                continue
            if not failure.retryable or retries >= cfg.max_retries:
                raise self._final_error(failure, attempt)
            if failure.retry_after is not None and failure.retry_after > cfg.max_retry_after_s:
                raise self._final_error(failure, attempt, waited_too_long=failure.retry_after)
            wait = self.backoff(retries + 1, failure.retry_after)
            if budget is not None:
                left = budget.remaining_seconds()
                if left is not None and wait >= left:
                    raise BudgetExhausted(f"wall time: {_why_waiting(failure, cfg.base_url, wait, left)}")
            tried.wait_s = round(wait, 3)
            self._sleep(wait)
            retries += 1

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
            hint = "check the key: --api-key, CPBOT_API_KEY or OPENAI_API_KEY"
        elif kind == "not_found":
            message = f"the model server at {url} has no such model or route ({failure.detail})"
            hint = f"check --model and --base-url (it usually ends in /v1; {url.rstrip('/')}/models lists models)"
        elif kind == "unreachable":
            message = f"cannot reach the model server at {url} {tries} ({failure.detail})"
            hint = "check --base-url / CPBOT_BASE_URL and that the server is running"
        elif kind == "timeout":
            message = f"the model server at {url} did not answer within {cfg.timeout_s:g} s, {tries}"
            hint = "the server may be overloaded or hung; raise timeout_s or use a smaller model"
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
        text, reasoning = _split_reasoning(content)
        extra = (message.model_extra or {}) if message is not None else {}
        reasoning = str(extra.get("reasoning_content") or extra.get("reasoning") or "") or reasoning
        usage = completion.usage
        if usage is not None:
            details = usage.completion_tokens_details
            tokens = Usage(
                prompt_tokens=usage.prompt_tokens or 0,
                completion_tokens=usage.completion_tokens or 0,
                reasoning_tokens=(details.reasoning_tokens or 0) if details is not None else 0,
            )
        else:
            prompt = "".join(str(m.get("content") or "") for m in event.messages)
            tokens = Usage(
                prompt_tokens=_estimate_tokens(prompt),
                completion_tokens=_estimate_tokens(content + reasoning),
                estimated=True,
            )
        event.reply = text
        event.reasoning = reasoning
        event.finish_reason = choice.finish_reason if choice is not None else None
        event.usage = tokens
        event.attempts = len(event.tries)
        event.latency_ms = (self._clock() - started) * 1000
        event.ts = utc_now()
        return LLMReply(
            call_id=event.call_id,
            role=event.role,
            model=completion.model or event.model,
            text=text,
            reasoning=reasoning,
            finish_reason=event.finish_reason,
            usage=tokens,
            latency_ms=round(event.latency_ms, 3),
            attempts=event.attempts,
        )

    def _parse(
        self, reply: LLMReply, response_format: type[BaseModel] | dict[str, Any], *, sent_natively: bool
    ) -> LLMReply:
        schema = response_format if isinstance(response_format, type) else None
        problems: list[str] = []
        for where, candidate in json_candidates(reply.text):
            if not isinstance(candidate, dict):
                continue
            if schema is None:
                parsed: Any = candidate
            else:
                try:
                    parsed = schema.model_validate(candidate)
                except ValidationError as e:
                    first = e.errors()[0]
                    problems.append(f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}")
                    continue
            # the whole reply being the object means the server honoured the format
            mode: Literal["native", "fallback"] = "native" if sent_natively and where == "whole" else "fallback"
            return reply.model_copy(update={"parsed": parsed, "structured": mode})
        what = f"{schema.__name__} JSON object" if schema is not None else "JSON object"
        if problems:
            what = f"valid {what}"
        detail = f" (closest: {problems[0]})" if problems else ""
        raise StructuredOutputError(f"the model's reply has no {what}{detail}", reply)


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


def as_json_schema(model: type[BaseModel]) -> str:
    """The JSON schema of `model`, compact, for prompts that describe the expected answer."""
    return json.dumps(model.model_json_schema(), separators=(",", ":"))
