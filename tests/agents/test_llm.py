"""The LLM client against a scripted OpenAI-compatible server: replies, usage, retries, faults, structure."""

from __future__ import annotations

import socket
import threading

import pytest
from pydantic import BaseModel

from cpbot.agents.budget import Budget, BudgetExhausted, BudgetTracker
from cpbot.agents.llm import LLMClient
from cpbot.agents.llm_failures import LLMError
from cpbot.agents.llm_settings import NO_KEY, LLMConfig, resolve_llm_config
from cpbot.agents.structured import StructuredOutputError
from cpbot.agents.tracing import LLMCallEvent
from cpbot.core.errors import ConfigError, ModelError
from cpbot.core.retry import retry_after_seconds
from tests.agents.support.scripted_server import Delay, HTTPFailure, Reply, rate_limited

ASK = [{"role": "system", "content": "You write C++."}, {"role": "user", "content": "Sum two numbers."}]


# ---- configuration --------------------------------------------------------------------------------


def test_nothing_configured_is_a_one_line_config_error_naming_every_kind_of_server():
    with pytest.raises(ConfigError) as e:
        resolve_llm_config(env={})
    message = e.value.message
    assert "\n" not in message
    for word in ("OPENAI_API_KEY", "vLLM", "llama.cpp", "Ollama", "CPBOT_BASE_URL", "--base-url"):
        assert word in message


def test_explicit_values_beat_cpbot_env_which_beats_openai_env():
    env = {
        "CPBOT_BASE_URL": "http://cpbot:1/v1",
        "OPENAI_BASE_URL": "http://openai-env:2/v1",
        "CPBOT_API_KEY": "cpbot-key-123",
        "OPENAI_API_KEY": "openai-key-456",
        "CPBOT_MODEL": "env-model",
    }
    from_env = resolve_llm_config(env=env)
    assert (from_env.base_url, from_env.api_key.get_secret_value(), from_env.model) == (
        "http://cpbot:1/v1",
        "cpbot-key-123",
        "env-model",
    )
    explicit = resolve_llm_config(base_url="http://cli:3/v1", api_key="cli-key-789", model="cli-model", env=env)
    assert (explicit.base_url, explicit.api_key.get_secret_value(), explicit.model) == (
        "http://cli:3/v1",
        "cli-key-789",
        "cli-model",
    )
    openai_only = resolve_llm_config(
        env={"OPENAI_API_KEY": "openai-key-456", "OPENAI_BASE_URL": "http://o:2/v1"}, model="m"
    )
    assert openai_only.base_url == "http://o:2/v1"
    assert openai_only.api_key.get_secret_value() == "openai-key-456"


def test_openai_key_alone_points_at_openai_and_a_local_server_needs_no_key():
    cfg = resolve_llm_config(env={"OPENAI_API_KEY": "sk-abc", "CPBOT_MODEL": "gpt-x"})
    assert cfg.base_url == "https://api.openai.com/v1"
    local = resolve_llm_config(env={"CPBOT_BASE_URL": "http://127.0.0.1:8080/v1", "CPBOT_MODEL": "qwen"})
    assert local.api_key.get_secret_value() == NO_KEY


def test_the_openai_key_goes_only_to_openai_or_to_the_openai_base_url():
    # a server named only by CPBOT_BASE_URL or --base-url never sees OPENAI_API_KEY
    local = resolve_llm_config(
        env={"OPENAI_API_KEY": "sk-real", "CPBOT_BASE_URL": "http://10.0.0.5:8000/v1"}, model="m"
    )
    assert local.api_key.get_secret_value() == NO_KEY
    flag = resolve_llm_config(base_url="http://10.0.0.5:8000/v1", model="m", env={"OPENAI_API_KEY": "sk-real"})
    assert flag.api_key.get_secret_value() == NO_KEY
    # its own key comes from CPBOT_API_KEY / --api-key
    own = resolve_llm_config(
        env={"OPENAI_API_KEY": "sk-real", "CPBOT_API_KEY": "local-key"}, base_url="http://h/v1", model="m"
    )
    assert own.api_key.get_secret_value() == "local-key"
    # OPENAI_BASE_URL set beside OPENAI_API_KEY is the user's OpenAI-compatible endpoint: the key goes there
    paired = resolve_llm_config(
        env={"OPENAI_API_KEY": "sk-real", "OPENAI_BASE_URL": "https://proxy.example/v1"}, model="m"
    )
    assert paired.api_key.get_secret_value() == "sk-real"
    assert resolve_llm_config(env={"OPENAI_API_KEY": "sk-real"}, model="m").api_key.get_secret_value() == "sk-real"


def test_a_401_hint_says_which_key_goes_where(scripted_server, make_client):
    server = scripted_server(default=HTTPFailure(401, "invalid api key"))
    with pytest.raises(LLMError) as e:
        make_client(server).complete("coder", ASK)
    assert "CPBOT_API_KEY" in e.value.hint and "OPENAI_API_KEY is sent only to OpenAI" in e.value.hint


def test_request_settings_come_from_flags_then_env_then_the_file_and_per_role():
    env = {"CPBOT_BASE_URL": "http://x/v1", "CPBOT_MODEL": "m", "CPBOT_TIMEOUT": "900", "CPBOT_TEMPERATURE": "0.3"}
    file = {"timeout_s": 100, "max_output_tokens": 2000, "roles": {"debugger": {"reasoning_effort": "high"}}}
    cfg = resolve_llm_config(env=env, fallback=file, temperature=0.7)
    assert cfg.timeout_s == 900  # env over the file
    assert cfg.temperature == 0.7  # the flag over env
    assert cfg.max_output_tokens == 2000  # the file over the default
    assert cfg.settings_for("debugger").reasoning_effort == "high"
    assert cfg.settings_for("coder").reasoning_effort is None
    assert cfg.settings_for("debugger").max_output_tokens == 2000
    with pytest.raises(ConfigError, match="CPBOT_TIMEOUT"):
        resolve_llm_config(env={**env, "CPBOT_TIMEOUT": "soon"})


def test_role_settings_reach_the_request(scripted_server, make_client):
    from cpbot.agents.llm_settings import RequestSettings

    server = scripted_server(default=Reply("a"))
    roles = {"debugger": RequestSettings(reasoning_effort="high", max_output_tokens=9000, extra_body={"top_k": 5})}
    client = make_client(server, roles=roles, reasoning_effort="low", max_output_tokens=1000)
    client.complete("coder", ASK)
    client.complete("debugger", ASK)
    coder, debugger = (r.body for r in server.requests)
    assert (coder["reasoning_effort"], coder["max_tokens"]) == ("low", 1000)
    assert (debugger["reasoning_effort"], debugger["max_tokens"], debugger["top_k"]) == ("high", 9000, 5)


def test_a_missing_model_name_says_where_to_find_one():
    with pytest.raises(ConfigError) as e:
        resolve_llm_config(env={"CPBOT_BASE_URL": "http://127.0.0.1:11434/v1"})
    assert "model" in e.value.message
    assert "http://127.0.0.1:11434/v1/models" in e.value.hint


def test_role_models_come_from_env_and_explicit_overrides():
    cfg = resolve_llm_config(
        env={"CPBOT_BASE_URL": "http://x/v1", "CPBOT_MODEL": "small", "CPBOT_MODEL_PLANNER": "big"},
        role_models={"debugger": "medium"},
    )
    assert cfg.model_for("planner") == "big"
    assert cfg.model_for("debugger") == "medium"
    assert cfg.model_for("coder") == "small"


def test_bad_option_is_a_config_error():
    with pytest.raises(ConfigError, match="timeout_s"):
        resolve_llm_config(base_url="http://x/v1", model="m", timeout_s=-1)


@pytest.mark.parametrize("url", ["notaurl", "ftp://host/v1", "http:///v1", "127.0.0.1:8000/v1"])
def test_a_base_url_that_is_not_http_is_a_config_error_at_once(url):
    with pytest.raises(ConfigError) as e:
        resolve_llm_config(base_url=url, model="x", env={})
    assert url in e.value.message
    assert "http(s)" in e.value.message
    assert "--base-url http://" in e.value.hint


def test_a_bad_base_url_from_the_environment_is_caught_too():
    with pytest.raises(ConfigError, match="not an http"):
        resolve_llm_config(env={"CPBOT_BASE_URL": "localhost", "CPBOT_MODEL": "m"})
    with pytest.raises(ConfigError) as e:
        resolve_llm_config(env={"CPBOT_BASE_URL": "127.0.0.1:8000/v1", "CPBOT_MODEL": "m"})
    assert "http://127.0.0.1:8000/v1" in e.value.hint  # the address with the scheme it lacks


def test_the_key_never_shows_in_repr_or_public_settings():
    cfg = LLMConfig(base_url="http://x/v1", api_key="sk-very-secret-value", model="m")
    assert "sk-very-secret-value" not in repr(cfg)
    assert "sk-very-secret-value" not in str(cfg.public())
    assert "api_key" not in cfg.public()


# ---- replies and usage ----------------------------------------------------------------------------


def test_reply_records_text_usage_latency_model_and_attempts(scripted_server, make_client, tracer):
    server = scripted_server([Reply("```cpp\nint main(){}\n```", prompt_tokens=12, completion_tokens=34)])
    client = make_client(server)
    reply = client.complete("coder", ASK, task_id="t1")
    assert reply.text.startswith("```cpp")
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens, reply.usage.total_tokens) == (12, 34, 46)
    assert not reply.usage.estimated
    assert reply.attempts == 1
    assert reply.latency_ms > 0
    assert reply.model == "test-model"
    body = server.requests[0].body
    assert body["model"] == "test-model"
    assert body["messages"] == ASK
    assert server.requests[0].headers["authorization"] == "Bearer sk-test-key"
    (event,) = tracer.of_kind(LLMCallEvent)
    assert (event.role, event.task_id, event.reply, event.attempts) == ("coder", "t1", reply.text, 1)
    assert event.usage == reply.usage
    assert event.messages == ASK


def test_reasoning_tokens_and_reasoning_text_are_recorded(scripted_server, make_client):
    server = scripted_server(
        [
            Reply("answer", completion_tokens=50, reasoning_tokens=30, reasoning_content="let me think"),
            Reply("<think>first n, then m</think>\nsecond answer"),
        ]
    )
    client = make_client(server)
    first = client.complete("coder", ASK)
    assert first.usage.reasoning_tokens == 30
    assert first.reasoning == "let me think"
    second = client.complete("coder", ASK)
    assert second.text == "second answer"
    assert second.reasoning == "first n, then m"


def test_usage_is_estimated_when_the_server_reports_none(scripted_server, make_client):
    client = make_client(scripted_server([Reply("x" * 400, usage=False)]))
    reply = client.complete("coder", ASK)
    assert reply.usage.estimated
    assert reply.usage.completion_tokens == 100
    assert reply.usage.prompt_tokens > 0


def test_per_role_model_is_sent(scripted_server, make_client):
    server = scripted_server([Reply("a"), Reply("b")])
    client = make_client(server, role_models={"planner": "big-model"})
    client.complete("planner", ASK)
    client.complete("coder", ASK)
    assert [r.body["model"] for r in server.requests] == ["big-model", "test-model"]


def test_config_options_are_sent(scripted_server, make_client):
    server = scripted_server([Reply("a")])
    client = make_client(server, temperature=0.2, max_output_tokens=1000, seed=7, extra_body={"top_k": 20})
    client.complete("coder", ASK)
    body = server.requests[0].body
    assert (body["temperature"], body["max_tokens"], body["seed"], body["top_k"]) == (0.2, 1000, 7, 20)


def test_empty_reply_is_returned_as_empty_not_an_error(scripted_server, make_client, tracer):
    client = make_client(scripted_server([Reply(None), Reply("", no_choices=True)]))
    assert client.complete("coder", ASK).empty
    assert client.complete("coder", ASK).empty
    assert [e.reply for e in tracer.of_kind(LLMCallEvent)] == ["", ""]


def test_a_scripted_step_can_answer_from_the_request(scripted_server, make_client):
    server = scripted_server([lambda body: Reply(f"you said: {body['messages'][-1]['content']}")])
    assert make_client(server).complete("coder", ASK).text == "you said: Sum two numbers."


def test_concurrent_branches_share_one_client_budget_and_tracer(scripted_server, make_client, tracer):
    server = scripted_server(default=Reply("ok", prompt_tokens=3, completion_tokens=4))
    client = make_client(server)
    budget = BudgetTracker(Budget(max_calls=100))
    errors: list[BaseException] = []

    def branch(n: int) -> None:
        llm = client.bind(task_id=f"branch-{n}", budget=budget)
        try:
            for _ in range(5):
                assert llm.complete("coder", ASK).text == "ok"
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=branch, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert budget.snapshot().calls == 20
    assert budget.snapshot().usage.total_tokens == 140
    events = tracer.of_kind(LLMCallEvent)
    assert sorted({e.task_id for e in events}) == [f"branch-{n}" for n in range(4)]
    assert len({e.call_id for e in events}) == 20


# ---- retries --------------------------------------------------------------------------------------


def test_429_then_success_waits_what_retry_after_asks(scripted_server, make_client, fake_sleep, tracer):
    server = scripted_server([rate_limited("3"), Reply("ok")])
    reply = make_client(server).complete("coder", ASK)
    assert reply.text == "ok"
    assert reply.attempts == 2
    assert fake_sleep.waits == [3.0]
    (event,) = tracer.of_kind(LLMCallEvent)
    assert [t.status for t in event.tries] == [429, 200]
    assert event.tries[0].wait_s == 3.0


def test_retry_after_in_milliseconds_and_as_a_date():
    assert retry_after_seconds({"retry-after-ms": "250"}) == 0.25
    assert retry_after_seconds({"Retry-After": "Wed, 21 Oct 2015 07:28:10 GMT"}, now=1445412480.0) == 10.0
    assert retry_after_seconds({"Retry-After": "soon"}) is None
    assert retry_after_seconds({}) is None


def test_backoff_doubles_with_jitter_and_is_capped(scripted_server, make_client, fake_sleep):
    server = scripted_server([HTTPFailure(500)] * 4 + [Reply("ok")])
    client = make_client(server, backoff_s=1.0, backoff_max_s=5.0, max_retries=4)
    assert client.complete("coder", ASK).attempts == 5
    # the jitter factor is 0.5 + jitter/2 = 1.0 with the fixture's jitter of 1.0
    assert fake_sleep.waits == [1.0, 2.0, 4.0, 5.0]
    low = LLMClient(client.config, jitter=lambda: 0.0)
    try:
        assert [low.backoff(n) for n in (1, 2, 3)] == [0.5, 1.0, 2.0]
    finally:
        low.close()


def test_repeated_500s_fail_with_the_server_message_after_max_retries(scripted_server, make_client, tracer):
    server = scripted_server(default=HTTPFailure(500, "model crashed"))
    client = make_client(server, max_retries=2)
    with pytest.raises(LLMError) as e:
        client.complete("coder", ASK)
    assert e.value.kind == "server"
    assert e.value.attempts == 3
    assert "model crashed" in e.value.message
    assert "logs" in e.value.hint
    assert len(server.requests) == 3
    (event,) = tracer.of_kind(LLMCallEvent)
    assert event.error_kind == "server"
    assert [t.status for t in event.tries] == [500, 500, 500]


def test_a_hung_server_times_out_and_the_next_try_succeeds(scripted_server, make_client, fake_sleep):
    server = scripted_server([Delay(5.0, Reply("too late")), Reply("in time")])
    reply = make_client(server, timeout_s=0.2, retry_timeouts=True).complete("coder", ASK)
    assert reply.text == "in time"
    assert reply.attempts == 2
    assert len(fake_sleep.waits) == 1


def test_a_timed_out_request_is_not_resent_unless_asked(scripted_server, make_client, tracer):
    server = scripted_server([Delay(5.0, Reply("too late")), Reply("in time")])
    with pytest.raises(LLMError) as e:
        make_client(server, timeout_s=0.2).complete("coder", ASK)
    assert e.value.kind == "timeout"
    assert "may still be generating" in e.value.message
    assert "--timeout" in e.value.hint
    assert len(server.requests) == 1


def test_a_server_that_always_hangs_is_a_timeout_error(scripted_server, make_client):
    server = scripted_server(default=Delay(5.0, Reply("never")))
    with pytest.raises(LLMError) as e:
        make_client(server, timeout_s=0.1, max_retries=1).complete("coder", ASK)
    assert e.value.kind == "timeout"
    assert "did not answer within 0.1 s" in e.value.message


def test_a_retry_after_longer_than_allowed_is_not_waited_for(scripted_server, make_client, fake_sleep):
    server = scripted_server([rate_limited("3600"), Reply("ok")])
    with pytest.raises(LLMError) as e:
        make_client(server, max_retry_after_s=60).complete("coder", ASK)
    assert e.value.kind == "rate_limit"
    assert "3600 s" in e.value.message
    assert fake_sleep.waits == []


def test_wrong_key_fails_at_once_with_a_hint_about_the_key(scripted_server, make_client):
    server = scripted_server(default=HTTPFailure(401, "invalid api key"))
    with pytest.raises(LLMError) as e:
        make_client(server).complete("coder", ASK)
    assert e.value.kind == "auth"
    assert isinstance(e.value, ModelError)
    assert "OPENAI_API_KEY" in e.value.hint
    assert len(server.requests) == 1


def test_unknown_model_fails_at_once_with_a_hint_about_model_and_url(scripted_server, make_client):
    server = scripted_server(default=HTTPFailure(404, "model not found"))
    with pytest.raises(LLMError) as e:
        make_client(server).complete("coder", ASK)
    assert e.value.kind == "not_found"
    assert "--model" in e.value.hint


def test_unreachable_server_hints_at_the_base_url(make_client, fake_sleep, tracer):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # nothing listens on the port any more

    class Closed:
        base_url = f"http://127.0.0.1:{port}/v1"

    with pytest.raises(LLMError) as e:
        make_client(Closed, max_retries=4).complete("coder", ASK)
    assert e.value.kind == "unreachable"
    assert "--base-url" in e.value.hint
    assert str(port) in e.value.message
    # a refused connection is not retried: nothing listens, and waiting will not change that
    assert fake_sleep.waits == []
    assert e.value.attempts == 1
    assert tracer.of_kind(LLMCallEvent)[0].error_kind == "unreachable"


# ---- budget ---------------------------------------------------------------------------------------


def test_calls_and_tokens_are_charged_to_the_budget(scripted_server, make_client):
    server = scripted_server(default=Reply("a", prompt_tokens=100, completion_tokens=50))
    budget = BudgetTracker(Budget(max_calls=2, max_tokens=None, max_seconds=None))
    client = make_client(server)
    client.complete("coder", ASK, budget=budget)
    client.complete("coder", ASK, budget=budget)
    assert budget.snapshot().usage.total_tokens == 300
    with pytest.raises(BudgetExhausted) as e:
        client.complete("coder", ASK, budget=budget)
    assert e.value.reason == "LLM calls: used 2 of 2"
    assert len(server.requests) == 2


def test_a_wait_longer_than_the_budget_left_ends_the_call(scripted_server, make_client, fake_sleep, tracer):
    server = scripted_server([rate_limited("30"), Reply("ok")])
    budget = BudgetTracker(Budget(max_seconds=10))
    with pytest.raises(BudgetExhausted, match="wall time"):
        make_client(server).complete("coder", ASK, budget=budget)
    assert fake_sleep.waits == []
    (event,) = tracer.of_kind(LLMCallEvent)
    assert event.error_kind == "budget"


def test_a_rate_limit_wait_past_the_budget_says_the_server_asked(scripted_server, make_client):
    server = scripted_server([rate_limited("30"), Reply("ok")])
    with pytest.raises(BudgetExhausted) as e:
        make_client(server).complete("coder", ASK, budget=BudgetTracker(Budget(max_seconds=10)))
    assert "the server asks to wait 30.0 s" in e.value.reason


def test_the_timeout_never_runs_past_the_budget(scripted_server, make_client):
    now = [0.0]
    budget = BudgetTracker(Budget(max_seconds=100), clock=lambda: now[0])
    now[0] = 99.85  # 0.15 s left
    server = scripted_server([Delay(5.0, Reply("late"))])
    with pytest.raises(LLMError) as e:
        make_client(server, timeout_s=60, max_retries=0).complete("coder", ASK, budget=budget)
    assert e.value.kind == "timeout"


def test_bound_client_carries_task_budget_and_tracer(scripted_server, make_client, tracer):
    server = scripted_server(default=Reply("a", prompt_tokens=1, completion_tokens=2))
    budget = BudgetTracker(Budget(max_calls=5))
    llm = make_client(server).bind(task_id="cf:1A", budget=budget)
    llm.complete("planner", ASK)
    assert budget.snapshot().calls == 1
    assert tracer.of_kind(LLMCallEvent)[0].task_id == "cf:1A"


# ---- structured output ----------------------------------------------------------------------------


class Choice(BaseModel):
    algorithm: str
    complexity: str


def test_structured_output_sends_a_schema_and_parses_a_json_reply(scripted_server, make_client, tracer):
    server = scripted_server([Reply('{"algorithm": "two pointers", "complexity": "O(n)"}')])
    reply = make_client(server).complete("planner", ASK, response_format=Choice)
    assert reply.parsed == Choice(algorithm="two pointers", complexity="O(n)")
    assert reply.structured == "native"
    sent = server.requests[0].body["response_format"]
    assert sent["type"] == "json_schema"
    assert sent["json_schema"]["schema"]["required"] == ["algorithm", "complexity"]
    assert tracer.of_kind(LLMCallEvent)[0].structured == "native"


def test_structured_output_falls_back_to_json_inside_prose(scripted_server, make_client):
    prose = 'Sure! Here it is:\n```json\n{"algorithm": "dp", "complexity": "O(n^2)"}\n```\nGood luck.'
    server = scripted_server([Reply(prose), Reply('I think {"algorithm": "greedy", "complexity": "O(n)"} works')])
    client = make_client(server)
    first = client.complete("planner", ASK, response_format=Choice)
    assert first.parsed.algorithm == "dp"
    assert first.structured == "fallback"
    assert client.complete("planner", ASK, response_format=Choice).parsed.algorithm == "greedy"


def test_a_server_rejecting_response_format_is_asked_again_without_it(scripted_server, make_client, tracer):
    server = scripted_server(
        [
            HTTPFailure(400, "response_format is not supported"),
            Reply('{"algorithm": "bfs", "complexity": "O(n+m)"}'),
            Reply('{"algorithm": "dfs", "complexity": "O(n+m)"}'),
        ]
    )
    client = make_client(server)
    reply = client.complete("planner", ASK, response_format=Choice)
    assert reply.parsed.algorithm == "bfs"
    assert server.requests[0].body["response_format"]["type"] == "json_schema"
    # the middle step: json_object with the schema beside it (llama.cpp's servers take that)
    second = server.requests[1].body["response_format"]
    assert second["type"] == "json_object" and "algorithm" in second["schema"]["properties"]
    # the schema is also asked for in words, inside the last user message (never a second one)
    last = server.requests[1].body["messages"][-1]
    assert last["role"] == "user" and last["content"].startswith(ASK[-1]["content"])
    assert "JSON schema" in last["content"] and '"algorithm"' in last["content"]
    assert [m["role"] for m in server.requests[1].body["messages"]] == [m["role"] for m in ASK]
    assert tracer.of_kind(LLMCallEvent)[0].messages[-1]["content"] == last["content"]
    client.complete("planner", ASK, response_format=Choice)
    assert server.requests[2].body["response_format"]["type"] == "json_object"  # remembered
    assert "refuses response_format" in tracer.of_kind(LLMCallEvent)[0].tries[0].error


def test_prose_without_json_is_a_structured_output_error_carrying_the_reply(scripted_server, make_client, tracer):
    server = scripted_server([Reply("I would use a segment tree."), Reply('{"algorithm": "x"}')])
    client = make_client(server)
    with pytest.raises(StructuredOutputError) as e:
        client.complete("planner", ASK, response_format=Choice)
    assert e.value.reply.text == "I would use a segment tree."
    assert e.value.message == "the model's reply has no Choice JSON object"
    with pytest.raises(StructuredOutputError, match="complexity") as e:
        client.complete("planner", ASK, response_format=Choice)
    assert e.value.message.startswith("the model's reply has no valid Choice JSON object (closest: ")
    assert [ev.structured for ev in tracer.of_kind(LLMCallEvent)] == ["failed", "failed"]


def test_a_raw_response_format_dict_is_passed_through_and_parsed_to_a_dict(scripted_server, make_client):
    server = scripted_server([Reply('{"a": 1}')])
    reply = make_client(server).complete("planner", ASK, response_format={"type": "json_object"})
    assert reply.parsed == {"a": 1}
    assert server.requests[0].body["response_format"] == {"type": "json_object"}
