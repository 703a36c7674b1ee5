"""Where the model is and how to call it: `LLMConfig`, per-role `RequestSettings`, and their resolution
from flags, `CPBOT_*` variables, `OPENAI_*` variables and a settings file (`resolve_llm_config`)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from cpbot.core.errors import ConfigError, first_problem

OPENAI_BASE_URL = "https://api.openai.com/v1"
# Local servers ignore the key; an Authorization header is sent all the same.
NO_KEY = "not-needed"

NOT_CONFIGURED = (
    "no language model configured: for OpenAI set OPENAI_API_KEY and CPBOT_MODEL; for a vLLM, llama.cpp "
    "or Ollama server (or any OpenAI-compatible API) set CPBOT_BASE_URL (e.g. http://127.0.0.1:8000/v1, "
    ":8080/v1, :11434/v1) and CPBOT_MODEL, plus CPBOT_API_KEY if it needs one; or pass "
    "--base-url/--model/--api-key"
)

ReasoningEffort = Literal["minimal", "low", "medium", "high"]


class RequestSettings(BaseModel):
    """What one request asks of the server, globally or for one role (None: not set here)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str | None = None
    timeout_s: float | None = Field(None, gt=0)
    max_output_tokens: int | None = Field(None, ge=1)  # the per-reply limit, not the solve's token budget
    temperature: float | None = Field(None, ge=0, le=2)
    top_p: float | None = Field(None, gt=0, le=1)
    seed: int | None = None
    reasoning_effort: ReasoningEffort | None = None
    extra_body: dict[str, Any] = {}  # server-specific request fields (e.g. vLLM's top_k)

    def over(self, base: RequestSettings) -> RequestSettings:
        """These settings where set, `base`'s elsewhere (extra_body fields merged)."""
        mine = self.model_dump(exclude_unset=True, exclude_none=True, exclude={"extra_body"})
        merged = base.model_copy(update=mine)
        return merged.model_copy(update={"extra_body": {**base.extra_body, **self.extra_body}})


# A 7B reasoning model on a workstation takes minutes per reply: the defaults let it finish.
DEFAULT_TIMEOUT_S = 600.0
DEFAULT_MAX_REPLY_BYTES = 16 * 1024 * 1024  # far above 16k tokens of answer and reasoning, JSON-escaped
DEFAULT_MAX_OUTPUT_TOKENS = 8192
DEFAULT_RETRY_OUTPUT_TOKENS = 16384


class LLMConfig(BaseModel):
    """Where the model is and how to call it. `repr()` and `public()` never show the key."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str = Field(min_length=1)
    api_key: SecretStr
    model: str = Field(min_length=1)
    role_models: dict[str, str] = {}  # a different model for some roles, e.g. {"planner": "big-model"}
    roles: dict[str, RequestSettings] = {}  # per-role request settings over the global ones
    timeout_s: float = Field(DEFAULT_TIMEOUT_S, gt=0)  # the total time of one request, its reply read whole
    # a reply (streamed or not) is read no further than this: an endless one is not held whole in memory
    max_reply_bytes: int = Field(DEFAULT_MAX_REPLY_BYTES, ge=1024)
    max_retries: int = Field(4, ge=0)
    backoff_s: float = Field(1.0, ge=0)  # the first wait; doubles each retry
    backoff_max_s: float = Field(30.0, ge=0)
    max_retry_after_s: float = Field(120.0, ge=0)  # a server asking for a longer wait is not retried
    # a timed-out request may still be generating on the server: resending it queues a second generation
    retry_timeouts: bool = False
    connect_timeout_s: float = Field(5.0, gt=0)
    # requests in flight at once to this endpoint, from the whole process: the default solve's first round
    # (8 candidates and the test designer) goes out at once; a 429 or a dropped connection lowers it
    max_in_flight: int = Field(9, ge=1)
    temperature: float | None = Field(None, ge=0, le=2)
    top_p: float | None = Field(None, gt=0, le=1)
    max_output_tokens: int = Field(DEFAULT_MAX_OUTPUT_TOKENS, ge=1)  # always sent: a server never writes forever
    # a reply cut by the output limit is asked once more with this higher limit; None or lower: never
    retry_output_tokens: int | None = Field(DEFAULT_RETRY_OUTPUT_TOKENS, ge=1)
    seed: int | None = None
    reasoning_effort: ReasoningEffort | None = None
    extra_body: dict[str, Any] = {}  # server-specific request fields (e.g. vLLM's top_k)

    def model_for(self, role: str) -> str:
        """The model that plays `role`."""
        override = self.roles.get(role)
        if override is not None and override.model:
            return override.model
        return self.role_models.get(role, self.model)

    def settings_for(self, role: str) -> RequestSettings:
        """The request settings of `role`: its own where set, else the global ones."""
        base = RequestSettings(
            model=self.model_for(role),
            timeout_s=self.timeout_s,
            max_output_tokens=self.max_output_tokens,
            temperature=self.temperature,
            top_p=self.top_p,
            seed=self.seed,
            reasoning_effort=self.reasoning_effort,
            extra_body=self.extra_body,
        )
        override = self.roles.get(role)
        return override.over(base) if override is not None else base

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


# Request settings from the environment: variable, LLMConfig field, how to read it.
SETTING_ENV: dict[str, tuple[str, Callable[[str], Any]]] = {
    "CPBOT_TIMEOUT": ("timeout_s", float),
    "CPBOT_MAX_OUTPUT_TOKENS": ("max_output_tokens", int),
    "CPBOT_RETRY_OUTPUT_TOKENS": ("retry_output_tokens", int),
    "CPBOT_TEMPERATURE": ("temperature", float),
    "CPBOT_TOP_P": ("top_p", float),
    "CPBOT_SEED": ("seed", int),
    "CPBOT_REASONING_EFFORT": ("reasoning_effort", str),
    "CPBOT_EXTRA_BODY": ("extra_body", json.loads),
    "CPBOT_MAX_RETRIES": ("max_retries", int),
    "CPBOT_MAX_REPLY_BYTES": ("max_reply_bytes", int),
    "CPBOT_MAX_IN_FLIGHT": ("max_in_flight", int),
}


def _env_settings(env: Mapping[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, (field, read) in SETTING_ENV.items():
        raw = env.get(name)
        if not raw:
            continue
        try:
            values[field] = read(raw)
        except ValueError as e:
            hint = f"{name} takes a {read.__name__} value"
            raise ConfigError(f"{name}={raw!r} cannot be read: {e}", hint=hint) from None
    return values


def _is_openai(url: str) -> bool:
    return (urlsplit(url).hostname or "").lower() == "api.openai.com"


def resolve_llm_config(
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    model: str | None = None,
    role_models: Mapping[str, str] | None = None,
    env: Mapping[str, str] | None = None,
    fallback: Mapping[str, Any] | None = None,
    **options: Any,
) -> LLMConfig:
    """The endpoint from explicit values, else `CPBOT_BASE_URL`/`CPBOT_API_KEY`/`CPBOT_MODEL`, else
    `OPENAI_BASE_URL`/`OPENAI_API_KEY`, else `fallback` (a settings file's `base_url`, `api_key`, `model`,
    `model_<role>`, and any other `LLMConfig` field such as `timeout_s` or `roles`); role models from
    `role_models`, else `CPBOT_MODEL_<ROLE>`, else the fallback's. `options` are other `LLMConfig` fields
    (command-line flags: above `CPBOT_TIMEOUT`, `CPBOT_MAX_OUTPUT_TOKENS`, ... and the file).

    The key goes only where it belongs: `OPENAI_API_KEY` to OpenAI's API or to the `OPENAI_BASE_URL` set
    beside it, never to a server named only by `CPBOT_BASE_URL`, `--base-url` or the file, which use
    `CPBOT_API_KEY`/`--api-key` (or the file's key).
    Raises `ConfigError` when nothing (or no model) is configured."""
    env = os.environ if env is None else env
    fallback = dict(fallback or {})
    url_from = "flag" if base_url else next((n for n in ("CPBOT_BASE_URL", "OPENAI_BASE_URL") if env.get(n)), "")
    url = _pick(base_url, env, "CPBOT_BASE_URL", "OPENAI_BASE_URL") or fallback.pop("base_url", None)
    fallback.pop("base_url", None)
    file_key = fallback.pop("api_key", None)
    openai_key = env.get("OPENAI_API_KEY") or None
    if not url and not (api_key or env.get("CPBOT_API_KEY") or openai_key or file_key):
        raise ConfigError(
            NOT_CONFIGURED,
            hint="e.g. CPBOT_BASE_URL=http://127.0.0.1:11434/v1 CPBOT_MODEL=qwen2.5-coder cpbot solve URL",
        )
    if not url:
        url = OPENAI_BASE_URL
    _check_base_url(url)
    key = api_key or env.get("CPBOT_API_KEY") or None
    if key is None and openai_key and (_is_openai(url) or url_from == "OPENAI_BASE_URL"):
        key = openai_key
    key = key or file_key
    if not key:
        if _is_openai(url):
            raise ConfigError("no API key for OpenAI", hint="set OPENAI_API_KEY (or pass --api-key)")
        key = NO_KEY
    name = _pick(model, env, "CPBOT_MODEL") or fallback.pop("model", None)
    fallback.pop("model", None)
    if not name:
        raise ConfigError(
            f"no model name for {url}",
            hint=f"pass --model or set CPBOT_MODEL to a model the server serves (see {url.rstrip('/')}/models)",
        )
    roles = {k[len("model_") :]: v for k, v in fallback.items() if k.startswith("model_") and v}
    roles.update({k[len("CPBOT_MODEL_") :].lower(): v for k, v in env.items() if k.startswith("CPBOT_MODEL_") and v})
    roles.update(role_models or {})
    file_settings = {k: v for k, v in fallback.items() if not k.startswith("model_")}
    settings = {**file_settings, **_env_settings(env), **{k: v for k, v in options.items() if v is not None}}
    try:
        return LLMConfig(base_url=url, api_key=SecretStr(key), model=name, role_models=roles, **settings)
    except ValidationError as e:
        raise ConfigError(f"bad model setting {first_problem(e)}") from None
