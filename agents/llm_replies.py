"""Reading a model's reply where it enters, bounded in size, time and shape.

- Time: every socket operation of a request (connect, send, each read, headers included) waits at
  most what is left of the request's total deadline (`cpbot.core.http_deadline`), so a server that
  drips one byte a second is left when the deadline passes, not when it stops.
- Size: the body is read chunk by chunk and reading stops past `max_reply_bytes` (`read_body`);
  a compressed body is decompressed with the same bound.
- Shape: `read_answer` takes the body apart into a `ChatAnswer` (answer, reasoning, finish reason,
  usage). A body that is no chat completion at all raises `NotAChatCompletion`; a chat completion
  cpbot cannot use (invalid UTF-8, nesting too deep, a field of the wrong type, no choices) is an
  answer with a `fault`, which the client counts as an unusable reply.
"""

from __future__ import annotations

import json
import math
import reprlib
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from cpbot.agents.budget import Usage
from cpbot.agents.chat import LLMReply, Message
from cpbot.agents.tracing import LLMCallEvent
from cpbot.core.http_deadline import check_deadline
from cpbot.core.terminal import quoted

ERROR_BODY_BYTES = 64 * 1024  # of an error answer (4xx/5xx): its message is all cpbot needs
SENT_CHARS = 300  # of an unusable reply, quoted in warnings and errors
CHUNK_BYTES = 64 * 1024


# ---- the body -------------------------------------------------------------------------------------


class ReplyTooLarge(Exception):
    """The body passed its bound; `head` is what came first."""

    def __init__(self, limit: int, head: bytes) -> None:
        super().__init__(f"more than {limit:,} bytes")
        self.limit = limit
        self.head = head


def _decoded(response: httpx.Response, limit: int) -> Iterator[bytes]:
    """The body's bytes, decompressed (gzip, deflate) without ever holding more than `limit` + a chunk."""
    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    if encoding in ("", "identity"):
        yield from response.iter_raw(CHUNK_BYTES)
        return
    if encoding not in ("gzip", "deflate", "x-gzip"):
        raise ValueError(f"a body in content-encoding {encoding!r}, which cpbot does not read")
    inflate = zlib.decompressobj(31 if "gzip" in encoding else 15)
    for raw in response.iter_raw(CHUNK_BYTES):
        data = raw
        while data:
            out = inflate.decompress(data, limit + 1)
            yield out
            data = inflate.unconsumed_tail
            if not out:
                break


def read_body(response: httpx.Response, limit: int) -> bytearray:
    """The whole body of a streamed `response`; raises `ReplyTooLarge` as soon as it passes `limit`
    bytes (the rest is never read), `ValueError` for a compression cpbot does not read."""
    length = response.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise ReplyTooLarge(limit, b"")
    body = bytearray()
    try:
        for chunk in _decoded(response, limit):
            # the transport's sockets keep the deadline; this covers one that does not (a proxy from the environment)
            check_deadline()
            body += chunk
            if len(body) > limit:
                raise ReplyTooLarge(limit, bytes(body[:SENT_CHARS]))
    except zlib.error as e:
        raise ValueError(f"a compressed body that does not decompress ({e})") from None
    return body  # not copied to bytes: a reply near the bound is held once


def clipped_read(response: httpx.Response, limit: int) -> bytes:
    """At most `limit` bytes of the body (an error answer, a probe), the rest not read."""
    try:
        return bytes(read_body(response, limit))
    except ReplyTooLarge as e:
        return e.head
    except ValueError:
        return b""


def escaped_bytes(data: bytes | bytearray, limit: int = SENT_CHARS) -> str:
    """The first `limit` characters of `data` as text, invalid UTF-8 as \\x escapes, quoted as
    `cpbot.core.terminal.quoted` quotes text."""
    return quoted(data[: limit * 4].decode("utf-8", errors="backslashreplace"), limit)


# ---- the answer -----------------------------------------------------------------------------------


class NotAChatCompletion(Exception):
    """A 200 answer that is no chat completion at all (an HTML page, plain text, another API's JSON)."""

    def __init__(self, what: str, sent: str) -> None:
        super().__init__(what)
        self.what = what
        self.sent = sent


@dataclass(frozen=True)
class ChatAnswer:
    """What one chat completion holds; `fault` says why it cannot be used ("" when it can)."""

    sent: str  # what came, clipped and escaped, for messages
    size: int  # bytes received
    model: str = ""
    content: str = ""
    reasoning: str = ""
    finish_reason: str | None = None
    usage: Usage | None = None  # None: the server reported none
    has_choices: bool = True
    fault: str = ""

    @classmethod
    def unusable(cls, fault: str, sent: str, size: int) -> ChatAnswer:
        return cls(sent=sent, size=size, fault=fault)


class _Fault(Exception):
    """A field of the wrong shape."""


def _text(value: Any, where: str) -> str:
    """A text field: a string (or null, read as empty) that encodes as UTF-8."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise _Fault(f"{where} is {_kind(value)}, not text")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _Fault(f"{where} holds a lone surrogate (\\ud800-\\udfff escape), not text") from None
    return value


def _count(value: Any, where: str) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _Fault(f"{where} is {_kind(value)}, not a token count")
    return value


def _object(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _Fault(f"{where} is {_kind(value)}, not an object")
    return value


def _kind(value: Any) -> str:
    names = {str: "text", bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "an object"}
    return f"{names.get(type(value), type(value).__name__)} {quoted(reprlib.repr(value), 60)}"


def _usage(raw: Any) -> Usage | None:
    if raw is None:
        return None
    usage = _object(raw, "usage")
    details = _object(usage.get("completion_tokens_details"), "usage.completion_tokens_details")
    return Usage(
        prompt_tokens=_count(usage.get("prompt_tokens"), "usage.prompt_tokens"),
        completion_tokens=_count(usage.get("completion_tokens"), "usage.completion_tokens"),
        reasoning_tokens=_count(details.get("reasoning_tokens"), "usage.completion_tokens_details.reasoning_tokens"),
    )


def read_answer(body: bytes | bytearray, content_type: str = "application/json") -> ChatAnswer:
    """The chat completion in `body`; raises `NotAChatCompletion` when it is none at all."""
    sent = escaped_bytes(body)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        return ChatAnswer.unusable(f"the body is not valid UTF-8 (byte {e.start})", sent, len(body))
    if "json" not in content_type.lower():
        raise NotAChatCompletion("something other than a chat completion", sent)
    try:
        data = json.loads(text)
    except RecursionError:
        return ChatAnswer.unusable("JSON nested deeper than cpbot reads", sent, len(body))
    except ValueError:
        raise NotAChatCompletion("a body that is not JSON", sent) from None
    if not isinstance(data, dict) or "choices" not in data:
        raise NotAChatCompletion("something other than a chat completion", sent)
    try:
        return _answer(data, sent, len(body))
    except _Fault as e:
        return ChatAnswer.unusable(str(e), sent, len(body))


def _answer(data: dict[str, Any], sent: str, size: int) -> ChatAnswer:
    choices = data["choices"]
    if choices is not None and not isinstance(choices, list):
        raise _Fault(f"choices is {_kind(choices)}, not a list")
    model = _text(data.get("model"), "model")
    usage = _usage(data.get("usage"))
    if not choices:
        return ChatAnswer(sent=sent, size=size, model=model, usage=usage, has_choices=False)
    choice = _object(choices[0], "choices[0]")
    message = _object(choice.get("message"), "choices[0].message")
    content = _text(message.get("content"), "choices[0].message.content")
    reasoning = _text(message.get("reasoning_content"), "choices[0].message.reasoning_content") or _text(
        message.get("reasoning"), "choices[0].message.reasoning"
    )
    finish = choice.get("finish_reason")
    finish_reason = _text(finish, "choices[0].finish_reason") if finish is not None else None
    return ChatAnswer(
        sent=sent,
        size=size,
        model=model,
        content=content,
        reasoning=reasoning,
        finish_reason=finish_reason,
        usage=usage,
    )


def estimate_tokens(text: str) -> int:
    # about four characters a token in English and code; only used when a server reports no usage
    return math.ceil(len(text) / 4)


def unusable(answer: ChatAnswer, reply: LLMReply) -> str:
    """Why an answer holds nothing to use ("" when it does): a fault, no choices, or an empty message
    that is not a reply cut while reasoning."""
    if answer.fault:
        return f"{answer.fault}: {answer.sent}"
    if not answer.has_choices:
        return f"HTTP 200 with no choices: {answer.sent}"
    if reply.text.strip() or reply.reasoning.strip() or reply.usage.reasoning_tokens or reply.finish_reason == "length":
        return ""
    return f"an empty message: {answer.sent}"


def usage_of(answer: ChatAnswer, sent: Sequence[Message], output_limit: int) -> Usage:
    """The tokens of one answer: as the server counted them, else estimated (for an unusable answer, from
    the bytes that came, at most the output limit)."""
    if answer.usage is not None:
        return answer.usage
    prompt = estimate_tokens("".join(str(m.get("content") or "") for m in sent))
    if answer.fault:
        completion = min(output_limit, math.ceil(answer.size / 4))
    else:
        completion = estimate_tokens(answer.content + answer.reasoning)
    return Usage(prompt_tokens=prompt, completion_tokens=completion, estimated=True)


def tries_usage(event: LLMCallEvent) -> Usage:
    """The tokens of every try of a call that got an answer (a cut reply asked again costs twice)."""
    total = Usage()
    for tried in event.tries:
        if tried.usage is not None:
            total = total + tried.usage
    return total
