"""A model's reply is outside input: bounded in size and time where it enters, and every bad one is an
"unusable reply" (noted with what came, clipped and escaped; counted; asked again or reported), never a
traceback. Each class of bad reply comes from a scripted server on 127.0.0.1."""

from __future__ import annotations

import gzip
import json

import pytest

from cpbot.agents.budget import Budget, BudgetTracker
from cpbot.agents.llm import UNUSABLE_IN_A_ROW
from cpbot.agents.llm_failures import LLMError
from cpbot.agents.tracing import LLMCallEvent
from tests.agents.support.scripted_server import RawReply, Stream

ASK = [{"role": "user", "content": "Sum two numbers."}]
CAP = 256 * 1024  # max_reply_bytes in these tests


def completion(message: object = None, **fields: object) -> bytes:
    """A chat completion body with `message` as its first choice's message, other top-level fields over."""
    body: dict[str, object] = {
        "id": "x",
        "object": "chat.completion",
        "model": "m",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 7},
    }
    body.update(fields)
    return json.dumps(body).encode()


OK = {"role": "assistant", "content": "fine"}
ENDLESS_JSON = Stream(head=b'{"object": "chat.completion", "choices": [{"message": {"content": "', piece=b"a" * 65536)

BAD_REPLIES = {
    "endless stream": (ENDLESS_JSON, "max_reply_bytes"),
    "huge body with its length": (
        RawReply(completion({"role": "assistant", "content": "a" * (4 * CAP)})),
        "max_reply_bytes",
    ),
    "gzip bomb": (
        RawReply(gzip.compress(b" " * (64 * CAP)), headers={"Content-Encoding": "gzip"}),
        "max_reply_bytes",
    ),
    "invalid UTF-8": (RawReply(completion(OK).replace(b"fine", b"fi\xff\xfene")), "not valid UTF-8"),
    "content as a list": (
        RawReply(completion({"role": "assistant", "content": [{"type": "text", "text": "hi"}]})),
        "content is a list",
    ),
    "usage counts as text": (
        RawReply(completion(OK, usage={"prompt_tokens": "5", "completion_tokens": "7"})),
        "usage.prompt_tokens is text",
    ),
    "JSON nested 100,000 deep": (
        RawReply(b'{"choices": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
        "nested deeper",
    ),
    "message missing": (RawReply(completion(None)), "an empty message"),
    "choice that is a number": (RawReply(completion(choices=[7])), "choices[0] is a number"),
    "choices as an object": (RawReply(completion(choices={"0": OK})), "choices is an object"),
    "lone surrogate": (RawReply(completion(OK).replace(b"fine", b"\\ud800")), "lone surrogate"),
    "finish reason as a number": (
        RawReply(completion(choices=[{"message": OK, "finish_reason": 3}])),
        "finish_reason is a number",
    ),
    "unknown compression": (RawReply(completion(OK), headers={"Content-Encoding": "br"}), "content-encoding"),
}


@pytest.mark.parametrize(("bad", "what"), list(BAD_REPLIES.values()), ids=list(BAD_REPLIES))
def test_a_bad_reply_is_unusable_counted_and_reported_after_three(scripted_server, make_client, tracer, bad, what):
    server = scripted_server(default=bad)
    client = make_client(server, max_reply_bytes=CAP, retry_output_tokens=None)
    budget = BudgetTracker(Budget(max_calls=10))
    for _ in range(UNUSABLE_IN_A_ROW - 1):
        reply = client.complete("coder", ASK, budget=budget)
        assert reply.empty
        assert any(w.startswith("unusable reply: ") and what in w for w in reply.warnings), reply.warnings
    with pytest.raises(LLMError) as e:
        client.complete("coder", ASK, budget=budget)
    assert e.value.kind == "bad_response" and what in e.value.message
    assert "--base-url" in e.value.hint
    assert len(server.requests) == UNUSABLE_IN_A_ROW
    spent = budget.snapshot()
    assert spent.calls == UNUSABLE_IN_A_ROW and spent.usage.total_tokens > 0  # each bad reply costs like any other
    calls = [ev for ev in tracer.events if isinstance(ev, LLMCallEvent)]
    assert len(calls) == UNUSABLE_IN_A_ROW and calls[-1].error_kind == "bad_response"


def test_a_bad_reply_then_a_good_one_is_a_usable_answer(scripted_server, make_client):
    server = scripted_server([ENDLESS_JSON, RawReply(completion(OK))])
    client = make_client(server, max_reply_bytes=CAP)
    assert client.complete("coder", ASK).empty
    reply = client.complete("coder", ASK)
    assert reply.text == "fine" and reply.usage.completion_tokens == 7


def test_the_bytes_of_an_endless_reply_are_charged_no_more_than_the_output_limit(scripted_server, make_client):
    client = make_client(scripted_server(default=ENDLESS_JSON), max_reply_bytes=CAP, max_output_tokens=100)
    reply = client.complete("coder", ASK)
    assert reply.usage.estimated and reply.usage.completion_tokens == 100


@pytest.mark.parametrize(
    "drip",
    [
        Stream(head=b'{"choices": [', piece=b" ", interval=0.02),
        Stream(piece=b" ", interval=0.02, drip_headers=True),
    ],
    ids=["body", "headers"],
)
def test_a_server_that_drips_is_left_when_the_total_time_runs_out(scripted_server, make_client, drip):
    # each byte comes well within the timeout: only a total deadline per request ends this
    server = scripted_server(default=drip)
    with pytest.raises(LLMError) as e:
        make_client(server, timeout_s=0.3).complete("coder", ASK)
    assert e.value.kind == "timeout" and "0.3 s" in e.value.message
    assert "--timeout" in e.value.hint
    assert len(server.requests) == 1  # a timeout is not sent again by default


def test_what_came_is_quoted_clipped_and_escaped(scripted_server, make_client):
    # a terminal escape sequence and a bell in the body, and far more text than a message holds
    body = b"\x1b]0;owned\x07\x1b[2J" + b"x" * 5000
    server = scripted_server(default=RawReply(body[:40] + b"\xff" + body[40:]))
    reply = make_client(server).complete("coder", ASK)
    (warning,) = [w for w in reply.warnings if w.startswith("unusable reply")]
    assert "\x1b" not in warning and "\x07" not in warning
    assert "\\x1b]0;owned\\x07" in warning
    assert len(warning) < 500 and warning.endswith("...")


def test_an_error_body_is_read_only_in_part(scripted_server, make_client):
    endless_error = Stream(status=500, head=b'{"error": {"message": "', piece=b"e" * 65536)
    server = scripted_server(default=endless_error)
    with pytest.raises(LLMError) as e:
        make_client(server, max_retries=1).complete("coder", ASK)
    assert e.value.kind == "server" and len(e.value.message) < 1200
    assert len(server.requests) == 2


def test_the_server_description_probe_is_bounded_too(scripted_server, make_client):
    # /models answering without end must not hold up or blow up the first request
    from cpbot.testing.scripted_server import ScriptedServer

    server: ScriptedServer = scripted_server(default=RawReply(completion(OK)))
    server.model_info = {"max_model_len": 4096, "pad": "p" * (2 * 1024 * 1024)}  # a 2 MB listing: past the bound
    client = make_client(server)
    assert client.context_window("test-model") is None
    assert client.complete("coder", ASK).text == "fine"


def test_max_reply_bytes_is_a_setting_read_from_the_environment():
    from cpbot.agents.llm_settings import resolve_llm_config
    from cpbot.core.errors import ConfigError

    env = {"CPBOT_BASE_URL": "http://127.0.0.1:9/v1", "CPBOT_MODEL": "m", "CPBOT_MAX_REPLY_BYTES": "2000000"}
    assert resolve_llm_config(env=env).max_reply_bytes == 2_000_000
    with pytest.raises(ConfigError) as e:
        resolve_llm_config(env={**env, "CPBOT_MAX_REPLY_BYTES": "10"})
    assert "max_reply_bytes" in e.value.message


def test_cpbot_solve_on_a_server_with_an_endless_reply_ends_in_one_error(
    tmp_path, monkeypatch, capsys, scripted_server
):
    from cpbot.bot.app.problem_folder import save_problem
    from cpbot.bot.cli.main import main
    from tests.agents.roles.helpers import sum_problem

    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("CPBOT_MAX_REPLY_BYTES", str(CAP))
    server = scripted_server(default=ENDLESS_JSON)
    problem_file = save_problem(sum_problem(), tmp_path / "problem")
    args = [
        "solve", str(problem_file), "--strategy", "direct", "--lang", "python3", "--base-url", server.base_url,
        "--model", "m", "--max-calls", "5", "-o", str(tmp_path / "out"),
    ]  # fmt: skip
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "error: the model server at" in err and "3 unusable replies in a row" in err
    assert "hint: check that --base-url" in err
    assert len(server.requests) == UNUSABLE_IN_A_ROW  # asked again, then reported, within the budget
    assert not (tmp_path / "out" / "solution.py").exists()
