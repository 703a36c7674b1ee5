"""Why a request to a model failed: each failed attempt classified (`Failure`: retry or not, wait, the
server overloaded) and a call that failed for good explained (`LLMError`, with a hint naming what to check)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Literal

import httpx

from cpbot.agents.llm_replies import escaped_bytes
from cpbot.core.errors import ModelError
from cpbot.core.retry import retry_after_seconds
from cpbot.core.terminal import quoted

if TYPE_CHECKING:
    from cpbot.agents.llm_settings import LLMConfig

ErrorKind = Literal[
    "auth", "not_found", "bad_request", "rate_limit", "server", "timeout", "unreachable", "bad_response", "context"
]


class LLMError(ModelError):
    """An LLM call that failed for good; `kind` says how (auth, timeout, rate_limit, ...)."""

    def __init__(
        self, kind: ErrorKind | str, message: str, hint: str = "", *, status: int | None = None, attempts: int = 0
    ) -> None:
        super().__init__(message, hint)
        self.kind = kind
        self.status = status
        self.attempts = attempts


class Failure(Exception):
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


def transport_failure(error: httpx.HTTPError) -> Failure:
    """A request that got no answer: a timeout, nothing listening, or a connection dropped mid-answer."""
    if isinstance(error, httpx.TimeoutException):
        return Failure("timeout", "no answer before the timeout", retryable=True, wait=None)
    # refused or unresolvable: nothing is listening, and asking again in a second will not change it;
    # a connection dropped mid-answer (a restart, a proxy) is worth another try
    refused = isinstance(error, httpx.ConnectError)
    dropped = isinstance(error, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError)
    detail = f"connection failed: {quoted(str(error) or type(error).__name__, 400)}"
    return Failure("unreachable", detail, retryable=dropped or not refused, wait=None, overload=dropped)


def status_failure(status: int, body: bytes, headers: httpx.Headers) -> Failure:
    """An error answer (4xx/5xx), classified by its status; `body` is its (clipped) text."""
    detail = f"HTTP {status}: {_message(body)}"[:800]
    wait = retry_after_seconds(headers)
    if status in (401, 403):
        return Failure("auth", detail, status=status, retryable=False, wait=None)
    if status == 404:
        return Failure("not_found", detail, status=status, retryable=False, wait=None)
    if status == 429:
        return Failure("rate_limit", detail, status=status, retryable=True, wait=wait, overload=True)
    if status in (408, 409) or status >= 500:
        return Failure("server", detail, status=status, retryable=True, wait=wait, overload=status == 503)
    return Failure("bad_request", detail, status=status, retryable=False, wait=None)


def _message(body: bytes) -> str:
    """The message of an error body: OpenAI's {"error": {"message": ...}}, a bare {"message"} or
    {"detail"}, else the body's text (escaped and clipped either way)."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, dict):
        inner = data.get("error")
        for holder in (inner if isinstance(inner, dict) else {}, data):
            for key in ("message", "detail"):
                if isinstance(holder.get(key), str):
                    return quoted(holder[key], 600)
        if isinstance(inner, str):
            return quoted(inner, 600)
    return escaped_bytes(body, 600) or "(no body)"


def why_waiting(failure: Failure, url: str, wait: float, left: float) -> str:
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


def final_error(failure: Failure, config: LLMConfig, attempts: int, waited_too_long: float | None = None) -> LLMError:
    """The error of a call whose last attempt failed with `failure`, with a hint naming what to check."""
    cfg = config
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
        limit = f"{cfg.timeout_s:g} s (timeout_s: all of a request)"
        message = f"the model server at {url} did not answer within {limit}, {tries}"
        if not cfg.retry_timeouts:
            message += "; it may still be generating (cpbot did not send the request again)"
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
