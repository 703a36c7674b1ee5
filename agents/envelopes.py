"""Typed, versioned messages that roles pass to each other (SwiftSolve's envelopes).

An `Envelope` is a frozen `Header` (type, task_id, iteration, timestamp_utc, schema_version, and the
sending role) plus one typed `Payload`. (task_id, iteration, type) identifies a message, so a
repeated message can be recognised and a transcript ordered. Loading checks the schema version,
rejects unknown types and unknown fields, and names what was wrong.

Adding a message type means adding one `Payload` subclass with a `TYPE`: it registers itself.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    ValidationError,
    field_validator,
    model_validator,
)

from cpbot.core.errors import ParseError
from cpbot.judge.model import JudgeReport, Language, ProfileReport, Solution, TestCase

# Major.minor.patch: a reader accepts any envelope of the same major version.
SCHEMA_VERSION = "1.1.0"  # 1.1: the final answer's status "unverified"
SCHEMA_MAJOR = SCHEMA_VERSION.split(".")[0]


class EnvelopeError(ParseError):
    """An envelope that cannot be read: bad JSON, an unknown type or version, or a field out of shape."""


def utc_now() -> datetime:
    """The current time as an aware UTC datetime."""
    return datetime.now(UTC)


class Header(BaseModel):
    """Who said what about which task, when, in which schema version."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: str
    task_id: str = Field(min_length=1)
    iteration: int = Field(ge=0)
    timestamp_utc: datetime
    schema_version: str = SCHEMA_VERSION
    sender: str = ""  # the role that emitted it; empty for the controller

    @field_validator("timestamp_utc")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("timestamp_utc must carry a time zone (UTC)")
        return value.astimezone(UTC)

    @field_validator("schema_version")
    @classmethod
    def _compatible(cls, value: str) -> str:
        parts = value.split(".")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            raise ValueError(f"schema_version {value!r} is not MAJOR.MINOR.PATCH")
        if parts[0] != SCHEMA_MAJOR:
            raise ValueError(f"schema_version {value} is not readable by this cpbot (reads {SCHEMA_MAJOR}.x.x)")
        return value


_PAYLOADS: dict[str, type[Payload]] = {}


class Payload(BaseModel):
    """The body of an envelope. Subclasses set `TYPE` and are registered under it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    TYPE: ClassVar[str] = ""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        kind = cls.__dict__.get("TYPE", "")
        if not kind:
            return
        if kind in _PAYLOADS and _PAYLOADS[kind] is not cls:
            raise TypeError(f"envelope type {kind!r} is already taken by {_PAYLOADS[kind].__name__}")
        _PAYLOADS[kind] = cls


def payload_types() -> dict[str, type[Payload]]:
    """Every registered envelope type and its payload class."""
    return dict(_PAYLOADS)


# ---- the messages ---------------------------------------------------------------------------------


class Task(Payload):
    """The controller's opening message: what to solve, in which language, with which strategy."""

    TYPE: ClassVar[str] = "task"

    problem_id: str
    language: Language
    strategy: str = ""
    statement: str = ""  # the text roles see; the full Problem stays with the controller
    time_ms: int | None = None
    memory_mb: int | None = None


class Plan(Payload):
    """A planner's approach: the algorithm, its steps, and the complexity it claims."""

    TYPE: ClassVar[str] = "plan"

    algorithm: str
    steps: list[str] = []
    complexity: str = ""  # as the model wrote it, e.g. "O(n log n)"
    rationale: str = ""
    tags: list[str] = []
    input_bounds: dict[str, int] = {}
    confidence: int | None = Field(default=None, ge=0, le=100)


class PruneDecision(Payload):
    """A static pruner's verdict on a plan before any code is written."""

    TYPE: ClassVar[str] = "prune"

    accepted: bool
    reason: str = ""
    plan_iteration: int | None = None


class CodeAttempt(Payload):
    """One complete program from a coder (a new iteration for every change)."""

    TYPE: ClassVar[str] = "code"

    language: Language
    source: str
    plan_iteration: int | None = None
    notes: str = ""

    def solution(self) -> Solution:
        """The attempt as a judge `Solution`."""
        return Solution(language=self.language, source=self.source)


class JudgeFeedback(Payload):
    """The judge's report on an attempt, and a short summary for the next prompt."""

    TYPE: ClassVar[str] = "judge_feedback"

    report: JudgeReport
    code_iteration: int | None = None
    summary: str = ""


class ProfileFeedback(Payload):
    """The profiler's measurements of an attempt."""

    TYPE: ClassVar[str] = "profile_feedback"

    report: ProfileReport
    code_iteration: int | None = None
    summary: str = ""


class StressFeedback(Payload):
    """The result of comparing an attempt with a brute force on random inputs."""

    TYPE: ClassVar[str] = "stress_feedback"

    found: bool  # True when a failing input was found
    trials: int = Field(ge=0)
    input: str = ""
    expected: str = ""
    got: str = ""
    code_iteration: int | None = None


class CheckerDecision(Payload):
    """An error checker's routing: PASS (done), FIX (patch the code) or RETHINK (plan again)."""

    TYPE: ClassVar[str] = "checker_decision"

    decision: Literal["PASS", "FIX", "RETHINK"]
    reason: str = ""
    failing_tests: list[int] = []


class ComplexityVerdict(Payload):
    """A complexity analyst's judgement of an attempt's efficiency and who should act on it."""

    TYPE: ClassVar[str] = "complexity_verdict"

    efficient: bool
    target: Literal["planner", "coder"] | None = None
    advice: str = ""
    perf_gain: float | None = Field(default=None, ge=0.0, le=1.0)


class Patch(Payload):
    """Change requests for a role: instructions, optionally a unified diff against an attempt."""

    TYPE: ClassVar[str] = "patch"

    target: Literal["planner", "coder"]
    instructions: str
    diff: str = ""
    code_iteration: int | None = None


class GeneratedTests(Payload):
    """Extra tests a test generator wrote (already checked to parse)."""

    TYPE: ClassVar[str] = "generated_tests"

    tests: list[TestCase]
    reason: str = ""


# How a solve ended, best first: solved (the gate's evidence holds: tested, stressed against an oracle,
# profiled at the bound, chosen among the candidates by behaviour); unverified (it passed every test tried,
# but some of that evidence is missing); best_effort (the best attempt, which failed or was refuted or
# doubted); failed (nothing usable).
SolveStatus = Literal["solved", "unverified", "best_effort", "failed"]


class FinalAnswer(Payload):
    """How a solve ended: solved, unverified, the best attempt when something ran out, or nothing usable."""

    TYPE: ClassVar[str] = "final_answer"

    status: SolveStatus
    reason: str = ""
    solution: Solution | None = None
    report: JudgeReport | None = None
    profile: ProfileReport | None = None
    code_iteration: int | None = None
    llm_calls: int = 0
    tokens: int = 0


# ---- the envelope ---------------------------------------------------------------------------------

P = TypeVar("P", bound=Payload)


class Envelope(BaseModel):
    """A header and one payload of the header's type."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    header: Header
    payload: SerializeAsAny[Payload]

    @model_validator(mode="before")
    @classmethod
    def _payload_of_header_type(cls, data: Any) -> Any:
        if not isinstance(data, Mapping) or not isinstance(data.get("payload"), Mapping):
            return data
        header = data.get("header")
        kind = header.get("type") if isinstance(header, Mapping) else getattr(header, "type", None)
        payload_cls = _PAYLOADS.get(kind) if isinstance(kind, str) else None
        if payload_cls is None:
            raise ValueError(f"unknown envelope type {kind!r} (known: {', '.join(sorted(_PAYLOADS))})")
        return {**data, "payload": payload_cls.model_validate(data["payload"])}

    @model_validator(mode="after")
    def _type_matches(self) -> Envelope:
        if type(self.payload) is Payload or self.header.type != self.payload.TYPE:
            raise ValueError(f"header type {self.header.type!r} does not match a {type(self.payload).__name__} payload")
        return self

    @classmethod
    def wrap(
        cls, payload: Payload, *, task_id: str, iteration: int, sender: str = "", now: datetime | None = None
    ) -> Envelope:
        """Put `payload` in a new envelope stamped with the current UTC time (or `now`)."""
        header = Header(
            type=payload.TYPE, task_id=task_id, iteration=iteration, timestamp_utc=now or utc_now(), sender=sender
        )
        return cls(header=header, payload=payload)

    @property
    def key(self) -> tuple[str, int, str]:
        """(task_id, iteration, type): what makes a message unique within a solve."""
        return (self.header.task_id, self.header.iteration, self.header.type)

    def expect(self, payload_cls: type[P]) -> P:
        """The payload, checked to be a `payload_cls`."""
        if not isinstance(self.payload, payload_cls):
            raise EnvelopeError(
                f"expected a {payload_cls.TYPE!r} envelope, got {self.header.type!r}",
                hint="a role was handed a message meant for another role",
            )
        return self.payload


def _invalid(error: ValidationError, part: str) -> EnvelopeError:
    first = error.errors()[0]
    where = ".".join([part, *(str(p) for p in first["loc"])])
    message = str(first.get("ctx", {}).get("error", "")) or first["msg"]
    return EnvelopeError(
        f"bad envelope: {where}: {message}",
        hint=f"envelopes follow schema {SCHEMA_VERSION}; types: {', '.join(sorted(_PAYLOADS))}",
    )


def load_envelope(data: str | bytes | Mapping[str, Any]) -> Envelope:
    """Read an envelope from JSON (text, bytes or a parsed dict); `EnvelopeError` says what is wrong."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except ValueError as e:
            raise EnvelopeError(f"an envelope is not valid JSON: {e}") from None
    if not isinstance(data, Mapping):
        raise EnvelopeError(f"an envelope must be a JSON object, not {type(data).__name__}")
    extra = sorted(set(data) - {"header", "payload"})
    if extra or not isinstance(data.get("header"), Mapping) or not isinstance(data.get("payload"), Mapping):
        raise EnvelopeError(
            "bad envelope: it must be an object with exactly a header and a payload"
            + (f" (unexpected: {', '.join(extra)})" if extra else "")
        )
    try:
        header = Header.model_validate(data["header"])
    except ValidationError as e:
        raise _invalid(e, "header") from None
    payload_cls = _PAYLOADS.get(header.type)
    if payload_cls is None:
        raise EnvelopeError(
            f"unknown envelope type {header.type!r} (known: {', '.join(sorted(_PAYLOADS))})",
            hint="a newer cpbot may have written it",
        )
    try:
        payload = payload_cls.model_validate(data["payload"])
    except ValidationError as e:
        raise _invalid(e, "payload") from None
    return Envelope(header=header, payload=payload)
