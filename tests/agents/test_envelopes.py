"""Envelopes: round trips, versioning, rejection of unknown types and fields, tracing."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from cpbot.agents.envelopes import (
    SCHEMA_VERSION,
    CheckerDecision,
    CodeAttempt,
    ComplexityVerdict,
    Envelope,
    EnvelopeError,
    FinalAnswer,
    GeneratedTests,
    JudgeFeedback,
    Patch,
    Payload,
    Plan,
    ProfileFeedback,
    PruneDecision,
    StressFeedback,
    Task,
    load_envelope,
    payload_types,
)
from cpbot.agents.tracing import EnvelopeEvent, InMemoryTracer, load_event, send
from cpbot.judge.model import JudgeReport, ProfileReport, Solution, TestCase, TestResult, Verdict

NOW = datetime(2025, 8, 30, 21, 5, tzinfo=UTC)

EXAMPLES: list[Payload] = [
    Task(problem_id="codeforces:1873B", language="cpp17", strategy="default", statement="...", time_ms=1000),
    Plan(algorithm="prefix sums", steps=["read", "sum"], complexity="O(n)", input_bounds={"n": 200000}, confidence=80),
    PruneDecision(accepted=False, reason="O(n^2) with n = 2e5", plan_iteration=0),
    CodeAttempt(language="python3", source="print(1)\n", plan_iteration=0),
    JudgeFeedback(
        report=JudgeReport(verdict=Verdict.WA, passed=1, total=2, results=[TestResult(index=1, verdict=Verdict.WA)]),
        code_iteration=0,
        summary="test 2: expected 3, got 4",
    ),
    ProfileFeedback(report=ProfileReport(complexity="O(n log n)", efficient=True), code_iteration=1),
    StressFeedback(found=True, trials=37, input="1\n5\n", expected="5", got="4"),
    CheckerDecision(decision="FIX", reason="off by one", failing_tests=[2]),
    ComplexityVerdict(efficient=False, target="coder", advice="use a hash map", perf_gain=0.25),
    Patch(target="coder", instructions="start the loop at 0", diff="-for i in 1..n\n+for i in 0..n\n"),
    GeneratedTests(tests=[TestCase(input="1\n", output="1\n", origin="generated")], reason="edge: n = 1"),
    FinalAnswer(status="best_effort", reason="budget", solution=Solution(language="cpp17", source="int main(){}")),
]


def test_every_message_type_has_an_example_here():
    ours = {cls for cls in payload_types().values() if cls.__module__ == "cpbot.agents.envelopes"}
    assert {type(p) for p in EXAMPLES} == ours


@pytest.mark.parametrize("payload", EXAMPLES, ids=lambda p: p.TYPE)
def test_every_message_round_trips_through_json(payload):
    env = Envelope.wrap(payload, task_id="B001", iteration=3, sender="planner", now=NOW)
    back = load_envelope(env.model_dump_json())
    assert back == env
    assert type(back.payload) is type(payload)
    assert back.header.type == payload.TYPE


def test_header_carries_type_task_iteration_utc_time_and_version():
    env = Envelope.wrap(Plan(algorithm="bfs"), task_id="B001", iteration=0, now=NOW)
    data = json.loads(env.model_dump_json())
    assert data["header"] == {
        "type": "plan",
        "task_id": "B001",
        "iteration": 0,
        "timestamp_utc": "2025-08-30T21:05:00Z",
        "schema_version": SCHEMA_VERSION,
        "sender": "",
    }
    assert data["payload"]["algorithm"] == "bfs"
    assert env.key == ("B001", 0, "plan")


def test_timestamps_are_kept_in_utc_and_must_have_a_zone():
    plus_two = datetime(2025, 8, 30, 23, 5, tzinfo=timezone(timedelta(hours=2)))
    env = Envelope.wrap(Plan(algorithm="x"), task_id="t", iteration=0, now=plus_two)
    assert env.header.timestamp_utc == NOW
    assert env.header.timestamp_utc.tzinfo == UTC
    with pytest.raises(ValidationError, match="time zone"):
        Envelope.wrap(Plan(algorithm="x"), task_id="t", iteration=0, now=datetime(2025, 1, 1))


def test_wrap_stamps_the_current_time():
    before = datetime.now(UTC)
    env = Envelope.wrap(Plan(algorithm="x"), task_id="t", iteration=0)
    assert before <= env.header.timestamp_utc <= datetime.now(UTC)


def _raw(**changes):
    data = json.loads(Envelope.wrap(Plan(algorithm="dp"), task_id="t", iteration=1, now=NOW).model_dump_json())
    for path, value in changes.items():
        part, field = path.split("__")
        data[part][field] = value
    return data


def test_unknown_types_are_rejected_naming_the_known_ones():
    with pytest.raises(EnvelopeError) as e:
        load_envelope(_raw(header__type="telepathy"))
    assert "unknown envelope type 'telepathy'" in e.value.message
    assert "plan" in e.value.message


def test_unknown_and_missing_fields_are_rejected():
    with pytest.raises(EnvelopeError, match=r"payload\.mood"):
        load_envelope(_raw(payload__mood="happy"))
    with pytest.raises(EnvelopeError, match=r"header\.colour"):
        load_envelope(_raw(header__colour="red"))
    data = _raw()
    del data["payload"]["algorithm"]
    with pytest.raises(EnvelopeError, match="algorithm"):
        load_envelope(data)


def test_same_major_versions_are_read_and_other_majors_refused():
    assert load_envelope(_raw(header__schema_version="1.4.2")).header.schema_version == "1.4.2"
    with pytest.raises(EnvelopeError, match=r"2\.0\.0"):
        load_envelope(_raw(header__schema_version="2.0.0"))
    with pytest.raises(EnvelopeError, match=r"MAJOR\.MINOR\.PATCH"):
        load_envelope(_raw(header__schema_version="one"))


def test_a_payload_of_another_type_than_the_header_says_is_refused():
    data = _raw(header__type="patch")
    with pytest.raises(EnvelopeError):
        load_envelope(data)
    with pytest.raises(ValidationError, match="does not match"):
        Envelope(
            header=Envelope.wrap(Patch(target="coder", instructions="x"), task_id="t", iteration=0).header,
            payload=Plan(algorithm="x"),
        )


def test_bad_json_and_non_objects_are_envelope_errors():
    with pytest.raises(EnvelopeError, match="not valid JSON"):
        load_envelope("{")
    with pytest.raises(EnvelopeError, match="JSON object"):
        load_envelope("[1]")


def test_envelopes_are_frozen():
    env = Envelope.wrap(Plan(algorithm="x"), task_id="t", iteration=0)
    with pytest.raises(ValidationError):
        env.header.iteration = 5  # type: ignore[misc]


def test_expect_checks_the_payload_type():
    env = Envelope.wrap(CodeAttempt(language="cpp17", source="int main(){}"), task_id="t", iteration=2)
    assert env.expect(CodeAttempt).solution() == Solution(language="cpp17", source="int main(){}")
    with pytest.raises(EnvelopeError, match="expected a 'plan' envelope"):
        env.expect(Plan)


def test_a_new_message_type_is_one_subclass_and_a_type_name_cannot_be_taken_twice():
    class Hint(Payload):
        TYPE = "test_hint"
        text: str

    env = Envelope.wrap(Hint(text="try binary search"), task_id="t", iteration=0)
    assert load_envelope(env.model_dump_json()).payload == Hint(text="try binary search")
    with pytest.raises(TypeError, match="already taken"):

        class Other(Payload):
            TYPE = "plan"


def test_send_traces_the_envelope_and_the_event_round_trips():
    tracer = InMemoryTracer()
    env = send(tracer, Envelope.wrap(CheckerDecision(decision="RETHINK"), task_id="t9", iteration=4, now=NOW))
    (event,) = tracer.of_kind(EnvelopeEvent)
    assert event.envelope is env
    assert event.task_id == "t9"
    assert tracer.envelopes() == [env]
    assert load_event(event.model_dump(mode="json")) == event
