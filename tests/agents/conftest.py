"""Fixtures for the agent tests: a scripted OpenAI-compatible server, clients that never really sleep."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cpbot.agents.llm import LLMClient
from cpbot.agents.llm_settings import LLMConfig
from cpbot.agents.tracing import InMemoryTracer
from tests.agents.support.scripted_server import ScriptedServer, Step

ENV_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "CPBOT_BASE_URL", "CPBOT_API_KEY", "CPBOT_MODEL", "CPBOT_DATA_DIR")


@pytest.fixture(autouse=True)
def no_model_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No endpoint settings leak in from the machine running the tests."""
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)


class FakeSleep:
    """Records the waits a client asks for and returns at once."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture
def scripted_server() -> Iterator[Callable[..., ScriptedServer]]:
    """`scripted_server(steps, default=...)` starts a server; all are stopped after the test."""
    servers: list[ScriptedServer] = []

    def start(steps: list[Step] | tuple[Step, ...] = (), **kwargs: Any) -> ScriptedServer:
        server = ScriptedServer(steps, **kwargs).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def fake_sleep() -> FakeSleep:
    return FakeSleep()


@pytest.fixture
def tracer() -> InMemoryTracer:
    return InMemoryTracer()


@pytest.fixture
def make_client(fake_sleep: FakeSleep, tracer: InMemoryTracer) -> Iterator[Callable[..., LLMClient]]:
    """`make_client(server, **config)`: a client of `server` with instant, recorded waits and no jitter."""
    clients: list[LLMClient] = []

    def make(server: ScriptedServer, **options: Any) -> LLMClient:
        settings: dict[str, Any] = {"base_url": server.base_url, "api_key": "sk-test-key", "model": "test-model"}
        settings.update(options)
        client = LLMClient(LLMConfig(**settings), tracer=tracer, sleep=fake_sleep, jitter=lambda: 1.0)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()
