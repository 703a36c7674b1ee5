"""Stored events read back as their typed models, old spellings included, and said in one line for the
terminal and the HTML export alike."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from typing import Any

from cpbot.agents.tracing import NoteEvent
from cpbot.bot.bench.grade import GradeResultEvent
from cpbot.bot.bench.metrics import BenchResultEvent, HiddenJudgement, ProblemOutcome
from cpbot.bot.report.event_view import describe, load
from cpbot.bot.report.export.model import _label
from cpbot.bot.report.render import event_lines
from cpbot.bot.store.transcripts import StoredEvent, TranscriptStore
from cpbot.bot.submit.events import GateEvent, SubmissionEvent
from cpbot.bot.watch.events import ShadowSubmissionEvent
from cpbot.judge.model import Verdict
from tests.conftest import REPO


def stored(kind: str, payload: dict[str, Any]) -> StoredEvent:
    return StoredEvent(seq=1, ts=datetime.now(UTC), kind=kind, payload=payload)


def test_an_old_shadow_submission_with_sha256_reads_as_source_sha256() -> None:
    old = stored("shadow_submission", {"problem_id": "codeforces:1A", "attempt": 1, "at_s": 2533, "sha256": "ab12"})
    event = load(old)
    assert isinstance(event, ShadowSubmissionEvent) and event.source_sha256 == "ab12" and event.at_s == 2533
    tag, text = describe(old)
    assert (tag, text) == ("shadow", "codeforces:1A: would have submitted at 0:42:13 (nothing posted during the round)")


def test_an_early_gate_payload_with_evidence_and_no_problem_reads_as_a_gate_event() -> None:
    old = stored("gate", {"allowed": False, "reasons": ["too slow"], "evidence": {"profile": "O(n)"}})
    event = load(old)
    assert isinstance(event, GateEvent) and event.summary == {"profile": "O(n)"} and not event.allowed
    assert describe(old) == ("gate", "refused: too slow")


def test_an_unreadable_or_unknown_event_shows_as_its_kind_and_json() -> None:
    assert load(stored("gate", {"allowed": "maybe"})) is None
    assert describe(stored("mystery", {"n": 3})) == ("mystery", '{"n": 3}')


def test_the_terminal_and_the_html_say_the_same_line(tmp_path) -> None:
    with TranscriptStore(tmp_path / "t.sqlite3") as store:
        run = store.start_run("contest", problem_id="codeforces:1")
        posted = SubmissionEvent(problem_id="codeforces:1A", submission_id="7", language="cpp17", practice=True)
        store.record(run, posted)
        store.record(run, NoteEvent(message="route", data={"to": "debugger", "why": "WA"}))
        events = [e for e in store.events(run) if e.kind in ("submission", "note")]
    submission, note = events
    assert isinstance(load(submission), SubmissionEvent) and load(submission).practice  # type: ignore[union-attr]
    assert event_lines(submission, full=False)[0] == "submission codeforces:1A: practice #7 (cpp17)"
    assert _label(submission) == "codeforces:1A: practice #7 (cpp17)"
    assert event_lines(note, full=False)[0] == "note      route to debugger (why=WA)"
    assert _label(note) == "route to debugger (why=WA)"


def test_bench_and_grade_results_are_typed_events_in_the_union(tmp_path) -> None:
    outcome = ProblemOutcome(
        problem_id="lcb:3400", key="3400", strategy="direct", sample=1, status="solved",
        final=HiddenJudgement(verdict=Verdict.WA, passed_tests=3, total_tests=5),
    )  # fmt: skip
    grade = GradeResultEvent(question_id="3400", source="print(1)", index=0, language="python3", passed=True,
                             verdict=Verdict.AC, passed_tests=5, total_tests=5, metadata={})  # fmt: skip
    with TranscriptStore(tmp_path / "t.sqlite3") as store:
        run = store.start_run("bench")
        store.record(run, BenchResultEvent.of(outcome))
        store.record(run, grade)
        bench_event, grade_event = store.events(run)[1:]
    assert isinstance(load(bench_event), BenchResultEvent) and isinstance(load(grade_event), GradeResultEvent)
    assert BenchResultEvent.model_validate(bench_event.fields()).outcome() == outcome  # read back as written
    assert describe(bench_event) == ("bench", "3400 direct #1: WA 3/5")
    assert describe(grade_event) == ("grade", "3400 #0: AC 5/5")


def test_the_code_writes_every_event_typed_through_record() -> None:
    """`TranscriptStore.append` (kind + dict) is for the store itself and for tests writing old transcripts."""
    untyped = []
    for folder in ("cpbot", "bot", "agents", "scrapers", "judge"):
        for path in sorted((REPO / folder).rglob("*.py")):
            if path.name == "transcripts.py" and path.parent.name == "store":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                call = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                if call and node.func.attr == "append" and len(node.args) >= 3:  # list.append takes one
                    untyped.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert untyped == []
