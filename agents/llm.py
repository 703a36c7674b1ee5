"""The only code that talks to a language model: any OpenAI-compatible chat endpoint, over `httpx`.

`LLMClient.complete(role, messages)` sends one chat request with the role's model and returns an
`LLMReply` (text, reasoning, usage, latency, attempts). It retries 408/409/429/5xx, timeouts and
connection failures with exponential backoff and jitter, waiting what a Retry-After header asks;
the waits go through an injectable `sleep` so tests are instant and deterministic. Every request takes
a place of its endpoint's `EndpointLimit` (`max_in_flight`, shared by all clients of the process),
which a 429 or a dropped connection lowers. A request lasts at most `timeout_s` in all and its reply is
read no further than `max_reply_bytes` (`agents/llm_replies.py`). A reply cpbot cannot use (no
choices, nothing in it, too large, malformed) is noted with what came and reported after
`UNUSABLE_IN_A_ROW` of them in a row. Structured output sends a JSON schema and, when the server
ignores or rejects it, reads the JSON object out of the prose. Every call, failed or not, goes to the
tracer as an `LLMCallEvent`; a call that cannot succeed raises `LLMError` (a `ModelError`) with a hint
naming what to check.

The API key lives in a `SecretStr`; it goes only into the Authorization header, never to a tracer.
"""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import httpx
from pydantic import BaseModel

from cpbot import __version__
from cpbot.agents import seeding
from cpbot.agents.budget import BudgetExhausted, BudgetTracker, Usage
from cpbot.agents.chat import ChatModel, LLMReply, Message
from cpbot.agents.dialect import (
    Dialect,
    read_complaint,
)
from cpbot.agents.envelopes import utc_now
from cpbot.agents.inflight import EndpointLimit, endpoint_limit
from cpbot.agents.llm_endpoint import UNUSABLE_IN_A_ROW, Endpoint
from cpbot.agents.llm_failures import Failure, LLMError, final_error, status_failure, transport_failure, why_waiting
from cpbot.agents.llm_replies import (
    ERROR_BODY_BYTES,
    ChatAnswer,
    NotAChatCompletion,
    ReplyTooLarge,
    clipped_read,
    escaped_bytes,
    read_answer,
    read_body,
    tries_usage,
    unusable,
    usage_of,
)
from cpbot.agents.llm_settings import LLMConfig, RequestSettings
from cpbot.agents.reasoning import split_reply
from cpbot.agents.structured import StructuredOutputError, read_structured
from cpbot.agents.tracing import LLMCallEvent, LLMTry, NullTracer, Tracer
from cpbot.core.http_deadline import DeadlineTransport, total_deadline

# Names many modules imported from here before the split, still found here; new code imports them from
# their homes (agents.chat, agents.llm_settings, agents.llm_failures, agents.structured).
__all__ = [
    "UNUSABLE_IN_A_ROW",
    "BoundLLM",
    "ChatModel",
    "LLMClient",
    "LLMConfig",
    "LLMError",
    "LLMReply",
    "Message",
    "StructuredOutputError",
]

MAX_ADAPTATIONS = 6  # changes to a request on the server's word before giving up
PROBE_S = 3.0  # for the server's description of itself (/models, /props)
PROBE_BYTES = 1024 * 1024
_NO_ANSWER = ChatAnswer(sent="", size=0)


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
        # retries are ours, so that waits are visible, testable and bounded by the budget; every socket
        # operation respects the request's total deadline (cpbot.core.http_deadline)
        self._http = httpx.Client(
            transport=DeadlineTransport(max(100, 2 * config.max_in_flight)),
            headers={
                "Authorization": f"Bearer {config.api_key.get_secret_value()}",
                "Accept": "application/json",
                "Accept-Encoding": "identity",
                "User-Agent": f"cpbot/{__version__}",
            },
        )
        self._endpoint = Endpoint()
        self.limit: EndpointLimit = endpoint_limit(config.base_url, config.max_in_flight)

    def close(self) -> None:
        """Close the HTTP connections."""
        self._http.close()

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
        return self._endpoint.dialect(model)

    # ---- asking the server about itself ----

    def context_window(self, model: str) -> int | None:
        """The model's context window as the server reports it (vLLM's `max_model_len` in /models,
        llama.cpp's `n_ctx` in /props or `n_ctx_train` in /models), or None; asked once per model."""
        with self._endpoint.lock:
            if model in self._endpoint.windows:
                return self._endpoint.windows[model]
        if not self._probe_enabled:
            with self._endpoint.lock:
                self._endpoint.windows[model] = None
            return None
        return self._endpoint.learn_window(model, self.config.base_url, self._get_json)

    def _get_json(self, url: str) -> Any:
        """A small JSON document the server describes itself with (/models, /props), or None."""
        try:
            timeout = httpx.Timeout(PROBE_S, connect=1.0)
            with total_deadline(PROBE_S), self._http.stream("GET", url, timeout=timeout) as r:
                if r.status_code != 200:
                    return None
                body = read_body(r, PROBE_BYTES)
            return json.loads(body)
        except (httpx.HTTPError, ReplyTooLarge, ValueError, RecursionError):
            return None

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
            answer = self._send(event, sent_messages, response_format, budget, settings)
            limit = settings.max_output_tokens or self.config.max_output_tokens
            higher = self.config.retry_output_tokens
            if answer.finish_reason == "length" and higher is not None and higher > limit:
                event.warnings.append(
                    f"the reply was cut at the output limit ({limit} tokens); asking once more with {higher}"
                )
                raised = settings.model_copy(update={"max_output_tokens": higher})
                answer = self._send(event, sent_messages, response_format, budget, raised)
        except (LLMError, BudgetExhausted) as e:
            event.error = e.message
            event.error_kind = getattr(e, "kind", "budget")
            event.attempts = len(event.tries)
            event.latency_ms = (self._clock() - started) * 1000
            event.ts = utc_now()
            event.usage = tries_usage(event)
            if budget is not None:
                budget.charge(event.usage)
            tracer.emit(event)
            raise
        reply = self._reply(event, answer, started)
        if budget is not None:
            budget.charge(reply.usage)
        if self._count_unusable(event, answer, reply, tracer):
            reply = reply.model_copy(update={"warnings": list(event.warnings)})
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

    def _count_unusable(self, event: LLMCallEvent, answer: ChatAnswer, reply: LLMReply, tracer: Tracer) -> bool:
        """Note an unusable reply (True when it is one); raise `LLMError` at the `UNUSABLE_IN_A_ROW`-th in a
        row, so a broken server is reported with what it sent rather than asked again until the budget runs out."""
        what = unusable(answer, reply)
        streak = self._endpoint.unusable_streak(bool(what))
        if not what:
            return False
        event.warnings.append(f"unusable reply: {what}")
        if streak < UNUSABLE_IN_A_ROW:
            return True
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

    def _send(
        self,
        event: LLMCallEvent,
        messages: list[Message],
        fmt: type[BaseModel] | dict[str, Any] | None,
        budget: BudgetTracker | None,
        settings: RequestSettings,
    ) -> ChatAnswer:
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
            sent, params = self._endpoint.request(model, messages, fmt, settings, dialect, cfg.max_output_tokens)
            with self.limit.slot(timeout=left) as slot:
                if slot is None:
                    raise BudgetExhausted(
                        f"wall time: no free request slot at {cfg.base_url} (max_in_flight {self.limit.limit}) "
                        "before the budget's time ran out"
                    )
                event.queued_ms += slot.queued_s * 1000
                t0 = self._clock()
                try:
                    answer, failure = self._post(model, sent, params, timeout, attempt)
                except LLMError:  # no chat completion at all
                    event.tries.append(LLMTry(attempt=attempt, status=200, elapsed_ms=(self._clock() - t0) * 1000))
                    raise
                slot.outcome = "ok" if failure is None else "overloaded" if failure.overload else "other"
            if failure is None:
                elapsed = (self._clock() - t0) * 1000
                output_limit = params.get(dialect.token_param) or self.config.max_output_tokens
                event.tries.append(
                    LLMTry(
                        attempt=attempt,
                        status=200,
                        elapsed_ms=elapsed,
                        finish_reason=answer.finish_reason,
                        usage=usage_of(answer, sent, output_limit),
                    )
                )
                event.response_format = params.get("response_format")
                event.messages = sent  # what was really sent
                event.request = {k: v for k, v in params.items() if k != "response_format"}
                return answer
            tried = LLMTry(attempt=attempt, status=failure.status, error=failure.detail)
            tried.elapsed_ms = (self._clock() - t0) * 1000
            event.tries.append(tried)
            if failure.overload and failure.retry_after:
                self.limit.pause(failure.retry_after)  # the others wait too; this caller waits below
            change = (
                self._endpoint.adapt(dialect, failure, fmt, params, known=known)
                if adaptations < MAX_ADAPTATIONS
                else ""
            )
            if change:
                adaptations += 1
                tried.error += f" ({change}; asking again)"
                event.warnings.append(change)
                continue
            complaint = read_complaint(failure.detail)
            if complaint is not None and complaint[0] == "context":
                raise self._endpoint.context_error(failure, model, sent, params, attempt, cfg.base_url)
            retryable = failure.retryable and (failure.kind != "timeout" or cfg.retry_timeouts)
            if not retryable or retries >= cfg.max_retries:
                raise final_error(failure, cfg, attempt)
            if failure.retry_after is not None and failure.retry_after > cfg.max_retry_after_s:
                raise final_error(failure, cfg, attempt, waited_too_long=failure.retry_after)
            wait = self.backoff(retries + 1, failure.retry_after)
            if budget is not None:
                left = budget.remaining_seconds()
                if left is not None and wait >= left:
                    raise BudgetExhausted(f"wall time: {why_waiting(failure, cfg.base_url, wait, left)}")
            tried.wait_s = round(wait, 3)
            if failure.kind == "timeout":
                tried.error += " (sent again: the server may still be generating the first answer)"
            self._sleep(wait)
            retries += 1

    def _post(
        self, model: str, sent: list[Message], params: dict[str, Any], timeout: float, attempt: int
    ) -> tuple[ChatAnswer, Failure | None]:
        """One request, within `timeout` seconds in all and `max_reply_bytes` of answer: the answer
        (perhaps unusable), or how the request failed. Raises `LLMError` for an answer that is no chat
        completion at all (asking again would get the same)."""
        cfg = self.config
        body = {"model": model, "messages": sent, **{k: v for k, v in params.items() if k != "extra_body"}}
        body.update(params.get("extra_body", {}))
        data = json.dumps(body).encode()  # ASCII: any text, even a lone surrogate, goes out
        url = cfg.base_url.rstrip("/") + "/chat/completions"
        headers = {"Content-Type": "application/json"}
        limit = cfg.max_reply_bytes
        try:
            with (
                total_deadline(timeout),
                self._http.stream(
                    "POST",
                    url,
                    content=data,
                    headers=headers,
                    timeout=httpx.Timeout(timeout, connect=min(cfg.connect_timeout_s, timeout)),
                ) as response,
            ):
                if response.status_code >= 300:
                    error = clipped_read(response, ERROR_BODY_BYTES)
                    return _NO_ANSWER, status_failure(response.status_code, error, response.headers)
                try:
                    raw = read_body(response, limit)
                except ReplyTooLarge as e:
                    why = (
                        f"the reply passed max_reply_bytes ({limit:,} bytes; CPBOT_MAX_REPLY_BYTES, or max_reply_bytes "
                        "in [llm] of config.toml) and cpbot stopped reading it"
                    )
                    return ChatAnswer.unusable(why, escaped_bytes(e.head), limit), None
                except ValueError as e:
                    return ChatAnswer.unusable(str(e), "", 0), None
                content_type = response.headers.get("content-type", "application/json")
        except httpx.HTTPError as e:
            return _NO_ANSWER, transport_failure(e)
        try:
            return read_answer(raw, content_type), None
        except NotAChatCompletion as e:
            raise LLMError(
                "bad_response",
                f"the model server at {cfg.base_url} answered with {e.what} ({e.sent})",
                hint="check --base-url: it should be the OpenAI-compatible API root, usually ending in /v1",
                status=200,
                attempts=attempt,
            ) from None

    # ---- reading the answer ----

    def _reply(self, event: LLMCallEvent, answer: ChatAnswer, started: float) -> LLMReply:
        split = split_reply(answer.content, answer.reasoning)
        tokens = tries_usage(event)
        event.reply = split.answer
        event.reasoning = split.reasoning
        event.finish_reason = answer.finish_reason
        event.usage = tokens
        event.attempts = len(event.tries)
        event.latency_ms = (self._clock() - started) * 1000
        event.ts = utc_now()
        last = event.tries[-1].usage or Usage()
        warning = self._endpoint.context_warning(event.model, last, event.finish_reason, event.messages)
        if warning:
            event.warnings.append(warning)
        if (event.finish_reason == "length" and split.open_reasoning) or (
            event.finish_reason == "length" and not split.answer.strip() and split.reasoning
        ):
            event.warnings.append("the model ran out of output tokens while reasoning, before its answer began")
        return LLMReply(
            call_id=event.call_id,
            role=event.role,
            model=answer.model or event.model,
            text=split.answer,
            reasoning=split.reasoning,
            finish_reason=event.finish_reason,
            usage=tokens,
            latency_ms=round(event.latency_ms, 3),
            attempts=event.attempts,
            warnings=list(event.warnings),
        )

    def _parse(
        self, reply: LLMReply, response_format: type[BaseModel] | dict[str, Any], *, sent_natively: bool
    ) -> LLMReply:
        return read_structured(reply, response_format, sent_natively=sent_natively)


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
