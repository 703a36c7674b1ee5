"""LLM calls in flight together: the export puts each call on a lane from its start to its end, marks
the ones that overlapped, and the page draws the lanes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from cpbot.agents.tracing import LLMCallEvent
from cpbot.bot.report.export import gather, render_html
from cpbot.bot.store.transcripts import TranscriptStore


def call(role: str, start: datetime, seconds: float, *, recorded_start: bool = True) -> LLMCallEvent:
    end = start + timedelta(seconds=seconds)
    return LLMCallEvent(
        call_id=f"{role}-{start.timestamp()}",
        role=role,
        model="m",
        messages=[],
        ts=end,
        started_at=start if recorded_start else None,
        latency_ms=seconds * 1000,
    )


def test_overlapping_calls_take_separate_lanes_and_are_marked(tmp_path):
    with TranscriptStore(tmp_path / "t.db") as store:
        run = store.start_run("solve", problem_id="local:sum", strategy="cpbot")
        t0 = datetime.now(UTC) + timedelta(seconds=1)
        tracer = store.tracer(run)
        # two candidates at once, the test designer after both; the last call has no recorded start
        # (an older transcript): its start is its end less its latency
        for event in (
            call("coder", t0 + timedelta(seconds=0.1), 3.0),
            call("coder", t0, 5.0),
            call("testgen", t0 + timedelta(seconds=6), 1.0, recorded_start=False),
        ):
            tracer.emit(event)
        store.finish_run(run, "solved")
        report = gather(store, run)
    problem = report.problems[0]
    assert problem.lanes == 2
    assert [(c.role, c.lane, c.overlaps) for c in problem.calls] == [
        ("coder", 0, 1),
        ("coder", 1, 1),
        ("testgen", 0, 0),
    ]
    first, second, third = problem.calls
    assert round(third.end_s - third.start_s, 3) == 1.0 and third.start_s >= first.end_s
    assert first.left_pct == 0 and second.left_pct > 0 and round(third.left_pct + third.width_pct) == 100
    page = render_html(report)
    assert "Model calls in flight together (up to 2 at once)" in page
    assert page.count('class="call overlap"') == 2 and page.count('class="call"') == 1
    assert "in flight with 1 other call" in page


def test_calls_one_after_another_draw_no_lanes(tmp_path):
    with TranscriptStore(tmp_path / "t.db") as store:
        run = store.start_run("solve", problem_id="local:sum", strategy="direct")
        t0 = datetime.now(UTC) + timedelta(seconds=1)
        tracer = store.tracer(run)
        tracer.emit(call("coder", t0, 1.0))
        tracer.emit(call("debugger", t0 + timedelta(seconds=1), 1.0))
        store.finish_run(run, "solved")
        report = gather(store, run)
    problem = report.problems[0]
    assert problem.lanes == 1 and [c.overlaps for c in problem.calls] == [0, 0]
    assert "in flight together" not in render_html(report)
