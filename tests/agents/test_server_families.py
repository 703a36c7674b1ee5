"""Scripted servers that behave as each server family is documented to, and solves reaching AC through
each with the cpbot, macs and direct strategies.

vLLM with and without its reasoning parser, llama.cpp's servers without json_schema support (HTTP 400
naming response_format; llama-cpp-python's HTTP 500), Ollama's OpenAI route with its small default
context, OpenAI reasoning models (refusing max_tokens and temperature with their own error messages),
DeepSeek's reasoner (refusing two user messages in a row), a Gemma-style template without a system role.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest

from cpbot.agents.llm_failures import LLMError
from cpbot.agents.roles.checker import CheckerReply
from cpbot.agents.solve import solve
from tests.agents.roles.helpers import sum_problem
from tests.agents.support.scripted_server import HTTPFailure, Reply

GOOD = "```python\na, b = map(int, input().split())\nprint(a + b)\n```"
DECISION = json.dumps({"analysis": "ok", "error": "", "guidance": "", "decision": "FIX"})
MAX_TOKENS_REFUSED = (
    "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
)
TEMPERATURE_REFUSED = (
    "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported."
)


def answer(
    body: dict[str, Any], *, reasoning: str = "", field: str = "reasoning_content", think: bool = False
) -> Reply:
    """The right answer to a request: JSON when a JSON answer is asked for, else the program."""
    asked_json = "response_format" in body or "JSON" in body["messages"][-1]["content"]
    text = DECISION if asked_json else GOOD
    if think:
        text = f"<think>{reasoning or 'add them'}</think>\n{text}"
        return Reply(text)
    return Reply(text, reasoning_content=reasoning or None, reasoning_field=field)


def consecutive(body: dict[str, Any]) -> bool:
    roles = [m["role"] for m in body["messages"]]
    return any(a == b for a, b in pairwise(roles))


def vllm_parser(body):
    return answer(body, reasoning="The sum of two numbers.", field="reasoning")


def vllm_no_parser(body):
    return answer(body, reasoning="The sum of two numbers.", think=True)


def llama_cpp(body):
    fmt = body.get("response_format")
    if fmt is not None and fmt.get("type") == "json_schema":
        return HTTPFailure(400, 'response_format type must be one of "text" or "json_object", but got: json_schema')
    return answer(body)


def llama_cpp_python(body):
    fmt = body.get("response_format")
    if fmt is not None and fmt.get("type") == "json_schema":
        return HTTPFailure(500, "1 validation error: response_format.type: Input should be 'text' or 'json_object'")
    return answer(body)


def ollama(body):
    return answer(body, reasoning="sum", field="reasoning")


def openai_reasoning(body):
    if "max_tokens" in body:
        return HTTPFailure(400, MAX_TOKENS_REFUSED)
    if "temperature" in body:
        return HTTPFailure(400, TEMPERATURE_REFUSED)
    return answer(body)


def deepseek_reasoner(body):
    if consecutive(body):
        return HTTPFailure(
            400,
            "deepseek-reasoner does not support successive user or assistant messages (messages[1] and messages[2] "
            "in your input). You should interleave the user/assistant messages in the message sequence.",
        )
    return answer(body, reasoning="Add the two integers.")


def gemma(body):
    if any(m["role"] == "system" for m in body["messages"]):
        return HTTPFailure(400, "System role not supported")
    return answer(body)


FAMILIES: dict[str, tuple[Callable[[dict[str, Any]], Any], dict[str, Any]]] = {
    "vllm-reasoning-parser": (vllm_parser, {"model_info": {"max_model_len": 32768}}),
    "vllm-no-parser": (vllm_no_parser, {"model_info": {"max_model_len": 32768}}),
    "llama.cpp": (llama_cpp, {"props": {"default_generation_settings": {"n_ctx": 16384}}}),
    "llama-cpp-python": (llama_cpp_python, {}),
    "ollama": (ollama, {"model_info": {"owned_by": "library"}}),
    # a deployment name that does not say it is a reasoning model: learned from the error text
    "openai-reasoning": (openai_reasoning, {}),
    "deepseek-reasoner": (deepseek_reasoner, {}),
    "gemma-no-system": (gemma, {}),
}


@pytest.mark.parametrize("strategy", ["direct", "macs", "cpbot"])
@pytest.mark.parametrize("family", list(FAMILIES))
def test_a_solve_reaches_ac_through_each_server_family(scripted_server, make_client, sandbox, family, strategy):
    behave, server_options = FAMILIES[family]
    server = scripted_server(default=behave, **server_options)
    client = make_client(server, temperature=0.2, model="my-deployment")
    options = {"verify": False} if strategy == "cpbot" else {}
    result = solve(sum_problem(), strategy=strategy, language="python3", model=client, sandbox=sandbox, options=options)
    assert result.status == "unverified", result.reason
    assert "print(a + b)" in result.solution.source


@pytest.mark.parametrize("family", list(FAMILIES))
def test_structured_output_works_through_each_server_family(scripted_server, make_client, family):
    behave, server_options = FAMILIES[family]
    server = scripted_server(default=behave, **server_options)
    client = make_client(server, temperature=0.2, model="my-deployment")
    messages = [{"role": "system", "content": "You check programs."}, {"role": "user", "content": "Check it."}]
    for _ in range(2):  # the second call uses what the first learned, at once
        reply = client.complete("checker", messages, response_format=CheckerReply)
        assert reply.parsed.decision == "FIX"
    last = server.requests[-1].body
    assert not consecutive(last)
    assert last["max_tokens" if "max_tokens" in last else "max_completion_tokens"] >= 1  # an output limit, always


def test_openai_reasoning_model_names_get_their_parameters_at_once(scripted_server, make_client):
    server = scripted_server(default=openai_reasoning)
    client = make_client(server, model="o4-mini", temperature=0.2, max_output_tokens=3000)
    client.complete("coder", [{"role": "user", "content": "Sum."}])
    (request,) = server.requests
    assert request.body["max_completion_tokens"] == 3000
    assert "max_tokens" not in request.body and "temperature" not in request.body


def test_the_error_text_teaches_the_dialect_once_per_session(scripted_server, make_client, tracer):
    server = scripted_server(default=openai_reasoning)
    client = make_client(server, model="azure-deployment-7", temperature=0.2)
    client.complete("coder", [{"role": "user", "content": "Sum."}])
    client.complete("coder", [{"role": "user", "content": "Sum."}])
    assert len(server.requests) == 4  # 2 corrections on the first call, none on the second
    assert "max_completion_tokens" in server.requests[-1].body
    assert "temperature" not in server.requests[-1].body


def test_a_context_length_400_does_not_switch_off_structured_output(scripted_server, make_client):
    server = scripted_server(
        [
            HTTPFailure(400, "This model's maximum context length is 2048 tokens. However, you requested 9000 tokens."),
            Reply(DECISION),
        ]
    )
    client = make_client(server)
    with pytest.raises(LLMError) as e:
        client.complete("checker", [{"role": "user", "content": "Check."}], response_format=CheckerReply)
    assert e.value.kind == "context"
    client.complete("checker", [{"role": "user", "content": "Check."}], response_format=CheckerReply)
    assert server.requests[-1].body["response_format"]["type"] == "json_schema"


def test_ollama_small_context_is_detected_and_the_fix_named(scripted_server, make_client, tracer):
    long_prompt = "word " * 12000  # ~15k tokens sent, the server reads 2048
    server = scripted_server(
        [Reply(GOOD, prompt_tokens=2048, completion_tokens=30)], model_info={"owned_by": "library"}
    )
    reply = make_client(server).complete("coder", [{"role": "user", "content": long_prompt}])
    assert any("OLLAMA_CONTEXT_LENGTH" in w and "num_ctx" in w for w in reply.warnings)


def test_a_cut_reply_is_asked_once_more_with_the_higher_limit_and_all_usage_counted(scripted_server, make_client):
    server = scripted_server(
        [Reply("```python\nprint(", finish_reason="length", completion_tokens=100), Reply(GOOD, completion_tokens=40)]
    )
    reply = make_client(server, max_output_tokens=100, retry_output_tokens=400).complete(
        "coder", [{"role": "user", "content": "Sum."}]
    )
    assert [r.body["max_tokens"] for r in server.requests] == [100, 400]
    assert reply.usage.completion_tokens == 140
    assert reply.text == GOOD


def test_the_vllm_context_window_caps_the_output_limit(scripted_server, make_client):
    server = scripted_server([Reply(GOOD)], model_info={"max_model_len": 2048})
    make_client(server, max_output_tokens=8192).complete("coder", [{"role": "user", "content": "Sum."}])
    assert server.requests[0].body["max_tokens"] < 2048


@pytest.mark.parametrize("family", list(FAMILIES))
def test_cpbot_solve_reaches_ac_through_each_family(family, tmp_path, monkeypatch, capsys, scripted_server):
    import cpbot.bot.commands.solve as solve_module
    from cpbot.agents.solve import SolveResult
    from cpbot.bot.app.problem_folder import save_problem

    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    behave, server_options = FAMILIES[family]
    server = scripted_server(default=behave, **server_options)
    problem_file = save_problem(sum_problem(), tmp_path / "problem")
    args = [
        str(problem_file), "--lang", "python3", "--base-url", server.base_url, "--model", "my-deployment",
        "--temperature", "0.2", "--strategy-option", "verify=false", "-o", str(tmp_path / "out"), "--json",
    ]  # fmt: skip
    rc = solve_module.solve.main(args, prog_name="cpbot solve", standalone_mode=False)
    result = SolveResult.model_validate_json(capsys.readouterr().out)
    assert rc == 3 and result.status == "unverified" and result.verdict == "AC"


def test_requests_sent_together_all_follow_what_one_of_them_learned(scripted_server, make_client):
    # four requests leave before the server's first refusal: each is refused for its system role, and each is
    # asked again without it (the one that learned it, and the three that were in flight meanwhile)
    from cpbot.agents.parallel import gather

    arrived = threading.Barrier(4)

    def strict(body):
        if any(m["role"] == "system" for m in body["messages"]):
            arrived.wait(timeout=60)  # every request is in flight, built with the system role, before any refusal
            return HTTPFailure(400, "System role not supported")
        return answer(body)

    client = make_client(scripted_server(default=strict), model="gemma-like")
    messages = [{"role": "system", "content": "You write programs."}, {"role": "user", "content": "Add a and b."}]
    results = gather([lambda: client.complete("coder", messages)] * 4)
    assert all(not isinstance(r, Exception) for r in results), results
    assert client.dialect("gemma-like").learned == [
        "the chat template has no system role: the system prompt goes into the first user message"
    ]
