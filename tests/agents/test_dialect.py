"""Reading servers' complaints (in the words real servers use) and reshaping messages for them."""

from __future__ import annotations

import pytest

from cpbot.agents.dialect import (
    Dialect,
    merge_consecutive,
    merge_system,
    next_structured,
    openai_reasoning_model,
    read_complaint,
    response_format_for,
    with_note,
)


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        (
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' "
            "instead.",
            ("token_param", "max_tokens"),
        ),
        (
            "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is "
            "supported.",
            ("unsupported_param", "temperature"),
        ),
        ("Unrecognized request argument supplied: reasoning_effort", ("unsupported_param", "reasoning_effort")),
        ('response_format type must be one of "text" or "json_object", but got: json_schema', ("structured", "")),
        ("1 validation error: response_format.type: Input should be 'text' or 'json_object'", ("structured", "")),
        ("This model's maximum context length is 2048 tokens. However, you requested 9000 tokens.", ("context", "")),
        ("the request exceeds the available context size (n_ctx 2048)", ("context", "")),
        ("System role not supported", ("system_role", "")),
        (
            "deepseek-reasoner does not support successive user or assistant messages (messages[1] and messages[2] "
            "in your input). You should interleave the user/assistant messages in the message sequence.",
            ("alternation", ""),
        ),
        ("Conversation roles must alternate user/assistant/user/assistant/...", ("alternation", "")),
        ("model 'x' not found", None),
    ],
)
def test_complaints_are_read_from_the_error_text(text, complaint):
    assert read_complaint(text) == complaint


def test_a_context_error_naming_the_schema_is_still_a_context_error():
    # "only an error that names structured output turns it off": a context overflow is not one
    text = "maximum context length is 2048 tokens (the json_schema grammar takes part of it)"
    assert read_complaint(text) == ("context", "")


@pytest.mark.parametrize("name", ["o1", "o3-mini", "o4-mini", "gpt-5", "gpt-5-mini", "gpt-5.1", "openai/o3"])
def test_openai_reasoning_models_by_name(name):
    assert openai_reasoning_model(name)
    dialect = Dialect.for_model(name)
    assert dialect.token_param == "max_completion_tokens" and {"temperature", "top_p"} <= dialect.dropped


@pytest.mark.parametrize("name", ["gpt-4o", "qwen3:8b", "deepseek-reasoner", "llama-3.1-8b", "gemma3-270m", "phi4"])
def test_other_models_keep_the_usual_parameters(name):
    assert not openai_reasoning_model(name)
    assert Dialect.for_model(name) == Dialect()


def test_messages_are_reshaped_without_losing_text():
    msgs = [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "A"},
        {"role": "user", "content": "B"},
        {"role": "assistant", "content": "C"},
        {"role": "user", "content": "D"},
    ]
    assert [m["role"] for m in merge_consecutive(msgs)] == ["system", "user", "assistant", "user"]
    assert merge_consecutive(msgs)[1]["content"] == "A\n\nB"
    folded = merge_system(msgs)
    assert folded[0] == {"role": "user", "content": "S\n\nA"} and all(m["role"] != "system" for m in folded)
    noted = with_note(msgs, "N")
    assert noted[-1] == {"role": "user", "content": "D\n\nN"} and len(noted) == len(msgs)
    assert msgs[-1]["content"] == "D"  # the input is not changed


def test_structured_output_steps_down_one_way():
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    assert response_format_for("json_schema", schema, "A")["type"] == "json_schema"
    assert response_format_for("json_object", schema, "A") == {"type": "json_object", "schema": schema}
    assert response_format_for("prompt", schema, "A") is None
    assert [next_structured(m) for m in ("json_schema", "json_object", "prompt")] == [
        "json_object",
        "prompt",
        "prompt",
    ]
