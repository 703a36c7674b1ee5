"""Gathering a contest into the export's view model: problems, attempts, diffs, reports, gate, verdicts, stages."""

from __future__ import annotations

import json

import pytest

from cpbot.bot.report.export import EXPORT_SCHEMA_VERSION, ExportReport, gather
from cpbot.bot.store.transcripts import TranscriptStore
from tests.bot.export.conftest import RIGHT, SLOW, WRONG, WRONG_PLANNED


@pytest.fixture(scope="module")
def report(contest) -> ExportReport:
    with TranscriptStore(contest.path) as store:
        return gather(store, contest.contest)


def test_a_contest_gathers_one_problem_per_run_with_the_contest_events_apart(report, contest):
    assert report.is_contest and report.root.id == contest.contest and report.root.children == 3
    assert [p.problem_id for p in report.problems] == ["codeforces:1873A", "codeforces:1873B", "codeforces:1873C"]
    assert [e.label for e in report.contest_events if e.kind == "contest_state"] == [
        "fetching: 2 problems",
        "finished: 1 accepted",
    ]
    # the contest's remote verdicts name their problem, so they moved to it
    assert not [e for e in report.contest_events if e.kind == "remote_verdict"]


def test_attempts_hold_their_lead_up_code_diff_and_judge_results(report):
    a = report.problems[0]
    assert a.statement.startswith("Print the sum of $a$ and $b$.") and a.time_ms == 1000 and a.language == "python3"
    first, planned, fixed = a.attempts
    assert (first.number, first.sender, first.source, first.verdict) == (1, "coder", WRONG, "WA")
    assert (planned.number, planned.sender, planned.source, planned.verdict) == (2, "coder", WRONG_PLANNED, "WA")
    assert (fixed.number, fixed.sender, fixed.source, fixed.verdict) == (3, "debugger", RIGHT, "AC")
    assert first.diff == [] and (fixed.added, fixed.removed) == (1, 1)
    assert [(d.op, d.text) for d in fixed.diff if d.op in "+-"] == [("-", "print(a * b)"), ("+", "print(a + b)")]
    assert [e.call.role for e in first.lead_up if e.call] == ["coder"]
    # the plan and its LLM call led to the second program
    assert [e.call.role for e in planned.lead_up if e.call] == ["planner", "coder"]
    plans = [e.envelope.payload for e in planned.lead_up if e.envelope and e.envelope.type == "plan"]
    assert plans and plans[0]["algorithm"] == "add the two numbers"
    assert [e.call.role for e in fixed.lead_up if e.call] == ["debugger"]
    assert any(e.label.startswith("route to debug_wrong_answer") for e in fixed.lead_up)
    wa = first.judged[0].report
    assert (wa.passed, wa.total) == (0, 2)
    assert wa.results[0].diff is not None and (wa.results[0].diff.expected, wa.results[0].diff.got) == ("3", "-1")
    assert [e.envelope.type for e in first.feedback if e.envelope] == ["judge_feedback"]
    assert a.final is not None and a.final["status"] == "unverified"


def test_gate_submission_and_remote_verdicts_belong_to_their_problem(report):
    a, b, c = report.problems
    assert [g.allowed for g in a.gates] == [True] and a.gates[0].checks[0]["detail"] == "AC 2/2"
    assert a.gates[0].evidence == {"samples": "AC on 2 of 2", "profile": "O(1), 0 ms at the largest n"}
    assert [s.submission_id for s in a.submissions] == ["240001"]
    assert [(v.verdict, v.final, v.tone) for v in a.remote_verdicts] == [(None, False, "info"), ("AC", True, "ok")]
    assert [g.allowed for g in b.gates] == [False] and "over the 1000 ms limit" in b.gates[0].reasons[0]
    assert c.attempts == [] and c.run.status == "failed"


def test_profiles_attach_to_their_attempt_and_unknown_kinds_are_kept(report, contest):
    b = report.problems[1]
    (attempt,) = b.attempts
    assert attempt.source == SLOW
    assert [p.report for p in attempt.profiles] == [contest.profile]
    mystery = [e for e in b.epilogue if e.kind == "mystery_event"]
    assert mystery and mystery[0].payload == {"what": "<b>unknown</b> kind", "n": 3}


def test_stages_count_tokens_per_role_and_time_for_the_judge(report):
    a = {s.stage: s for s in report.problems[0].stages}
    assert (a["coder"].calls, a["coder"].prompt_tokens, a["coder"].completion_tokens) == (2, 700, 90)
    assert (a["planner"].calls, a["planner"].prompt_tokens, a["planner"].completion_tokens) == (1, 120, 60)
    assert (a["debugger"].calls, a["debugger"].prompt_tokens, a["debugger"].completion_tokens) == (1, 500, 45)
    assert a["judge"].calls == 0 and a["judge"].seconds > 0  # three judge runs of real Python programs
    total = {s.stage: s for s in report.stages}
    assert (total["coder"].calls, total["coder"].prompt_tokens) == (3, 900)  # 1873A's two and 1873B's one
    assert report.root.prompt_tokens == 1520  # the contest's summary counts its problems' calls


def test_the_timeline_orders_attempts_gates_submissions_and_final_verdicts(report):
    lanes = {(t.lane, t.kind) for t in report.timeline}
    assert {
        ("codeforces:1873A", "attempt"),
        ("codeforces:1873A", "submission"),
        ("codeforces:1873A", "verdict"),
    } <= lanes
    assert ("codeforces:1873B", "gate") in lanes and ("contest", "contest_state") in lanes
    offsets = [t.offset_s for t in report.timeline]
    assert offsets == sorted(offsets)
    a = [t for t in report.timeline if t.lane == "codeforces:1873A"]
    assert [t.kind for t in a] == ["start", "attempt", "attempt", "attempt", "gate", "submission", "verdict", "end"]
    assert [t.tone for t in a if t.kind == "attempt"] == ["bad", "bad", "ok"]
    assert [t.label for t in a if t.kind == "verdict"] == ["codeforces:1873A: remote AC"]  # only final ones


def test_the_json_export_is_versioned_data_without_pictures(report):
    data = json.loads(report.model_dump_json())
    assert data["schema_version"] == EXPORT_SCHEMA_VERSION
    assert "timeline_svg" not in data and "svg" not in data["problems"][1]["attempts"][0]["profiles"][0]
    again = ExportReport.model_validate(data)
    assert again.problems[0].attempts[2].source == RIGHT


def test_a_single_run_exports_as_one_problem(contest):
    with TranscriptStore(contest.path) as store:
        report = gather(store, contest.sum_run)
    assert not report.is_contest and [p.problem_id for p in report.problems] == ["codeforces:1873A"]
    assert len(report.problems[0].attempts) == 3 and report.contest_events == []
