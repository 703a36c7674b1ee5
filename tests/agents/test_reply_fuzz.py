"""Reply parsing and extraction on arbitrary input: a valid result or the project's errors, nothing else.

The property, for every function that reads what a model sent: it returns a result of its type, or raises
a `CpbotError` (an `ExtractionError`, a `StructuredOutputError`), or for the HTTP body reader
`NotAChatCompletion` (which the client turns into an `LLMError`); never another exception. Inputs are
built from the pieces replies are made of (fences, think tags, brackets, quotes, escapes) and from raw
bytes. Runs are derandomized so the suite is deterministic; `scripts/fuzz_replies.py` runs longer.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from cpbot.agents.chat import LLMReply
from cpbot.agents.extract import ExtractedCode, extract_code, extract_json, find_blocks, json_candidates
from cpbot.agents.llm_replies import ChatAnswer, NotAChatCompletion, read_answer
from cpbot.agents.reasoning import split_reply
from cpbot.agents.structured import read_structured
from cpbot.core.errors import CpbotError

SETTINGS: dict[str, Any] = {
    "derandomize": True,
    "deadline": None,
    "database": None,
    "max_examples": 60,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}
PIECES = [
    "```", "```python\n", "```cpp\n", "```json\n", "~~~", "\n", " ", "<think>", "</think>", "<|channel|>analysis",
    "<|message|>", "<|end|>", "{", "}", "[", "]", '"', "'", "\\", ":", ",", "1", "-2.5e9", "null", "True", "None",
    "def main():\n    print(1)\n", "int main(){return 0;}\n", "#include <bits/stdc++.h>\n", "\x1b[2J", "\ud800",
    '{"choices": [', '"content": ', "//", "/*", "*/", "\t", "\u202e", "\x00",
]  # fmt: skip
LANGUAGES = ["python3", "cpp17", "cpp20", "pypy3", "python", "cpp"]

reply_text = st.one_of(
    st.text(max_size=400),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=12)), max_size=60).map("".join),
    st.tuples(st.sampled_from(["[", '{"a":', "```json\n["]), st.integers(0, 3000)).map(lambda t: t[0] * t[1]),
)
json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


class Verdict(BaseModel):
    ok: bool
    score: int
    reasons: list[str] = []


def _reply(text: str, reasoning: str = "") -> LLMReply:
    return LLMReply(call_id="c", role="r", model="m", text=text, reasoning=reasoning)


def check_code_extraction(text: str, reasoning: str | None, language: str) -> None:
    finish = "length" if len(text) % 3 == 0 else "stop"
    try:
        code = extract_code(text, language, finish_reason=finish, reasoning=reasoning)
    except CpbotError as e:
        assert e.message
        return
    assert isinstance(code, ExtractedCode) and code.code.strip()


def check_json_reading(text: str, reasoning: str | None) -> None:
    for where, value in json_candidates(text, reasoning):
        assert where in ("whole", "fence", "inline", "reasoning")
        json.dumps(value)  # a plain JSON value, shallow enough to write back
    try:
        assert isinstance(extract_json(text), dict)
    except CpbotError:
        pass
    assert all(block.code is not None for block in find_blocks(text))
    split = split_reply(text, reasoning)
    assert isinstance(split.answer, str) and isinstance(split.reasoning, str)


def check_structured_reading(text: str, value: Any) -> None:
    for candidate in (text, f"{text}\n```json\n{json.dumps(value)}\n```"):
        for fmt in (Verdict, {"type": "json_object"}):
            try:
                reply = read_structured(_reply(candidate), fmt)
            except CpbotError:
                continue
            assert reply.parsed is not None and reply.structured in ("native", "fallback")


def check_body(body: bytes) -> None:
    _read(body)


def check_completion_shape(choices: Any, message: Any, usage: Any, extra: dict[str, Any]) -> None:
    shaped = {"choices": choices, "usage": usage, **extra}
    answer = _read(json.dumps(shaped).encode())
    assert isinstance(answer, ChatAnswer)
    with_message = {"choices": [{"message": message, "finish_reason": "stop"}], **extra}
    answer = _read(json.dumps(with_message).encode())
    assert isinstance(answer, ChatAnswer)
    if answer.fault:
        assert not answer.content  # an unusable answer carries nothing to use


def _read(body: bytes) -> ChatAnswer | None:
    try:
        answer = read_answer(body)
    except NotAChatCompletion as e:
        assert e.what
        return None
    assert isinstance(answer.content, str) and isinstance(answer.reasoning, str)
    answer.content.encode("utf-8")  # text that can be stored and printed
    assert answer.fault or answer.usage is None or answer.usage.prompt_tokens >= 0
    return answer


# each property and what it is given: the tests below and scripts/fuzz_replies.py run them
PROPERTIES: dict[str, tuple[Any, dict[str, st.SearchStrategy[Any]]]] = {
    "code extraction": (
        check_code_extraction,
        {"text": reply_text, "reasoning": st.none() | reply_text, "language": st.sampled_from(LANGUAGES)},
    ),
    "JSON reading": (check_json_reading, {"text": reply_text, "reasoning": st.none() | reply_text}),
    "structured output": (check_structured_reading, {"text": reply_text, "value": json_value}),
    "HTTP body": (
        check_body,
        {"body": st.one_of(st.binary(max_size=300), reply_text.map(lambda t: t.encode("utf-8", "surrogatepass")))},
    ),
    "chat completion shape": (
        check_completion_shape,
        {
            "choices": st.one_of(
                json_value, st.lists(st.dictionaries(st.sampled_from(["message", "finish_reason"]), json_value))
            ),
            "message": json_value,
            "usage": json_value,
            "extra": st.dictionaries(st.sampled_from(["model", "object", "id"]), json_value, max_size=3),
        },
    ),
}


def _property_test(name: str) -> Any:
    check, given_values = PROPERTIES[name]
    return settings(**SETTINGS)(given(**given_values)(check))


test_code_extraction_gives_code_or_an_extraction_error = _property_test("code extraction")
test_json_reading_gives_values_or_an_extraction_error = _property_test("JSON reading")
test_structured_reading_gives_a_model_or_a_structured_output_error = _property_test("structured output")
test_any_body_is_a_chat_answer_or_not_a_chat_completion = _property_test("HTTP body")
test_any_shape_of_chat_completion_is_an_answer_or_unusable = _property_test("chat completion shape")


def test_a_100000_deep_reply_is_read_without_a_recursion_error():
    deep = "[" * 100_000 + "]" * 100_000
    assert list(json_candidates(deep)) == []
    for text in (deep, f"```json\n{deep}\n```", '{"a":' * 100_000 + "1" + "}" * 100_000):
        try:
            read_structured(_reply(text), Verdict)
        except CpbotError as e:
            assert "no" in e.message
    assert read_answer(b'{"choices": ' + deep.encode() + b"}").fault
