"""The contest loop with fake ports: the order of work, the gate, submissions, remote feedback, budgets,
and resuming after a crash without submitting anything twice."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from rich.console import Console

from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.submit.gate import GateConfig
from cpbot.bot.submit.ledger import SubmissionLedger
from cpbot.bot.watch.loop import ContestLoop
from cpbot.bot.watch.ports import ContestBudget, LoopOptions
from cpbot.bot.watch.render import report, view
from cpbot.bot.watch.rules import contest_key
from cpbot.bot.watch.state import ContestRow, WatchState
from cpbot.core.errors import ConfigError, ModelError
from tests.fakes.watch_ports import FakeSite, FakeSolver, FakeSubmitter, listed, wrong_answer

CONTEST = "1900"
KEY = contest_key("codeforces", CONTEST)
A, B, C = (f"codeforces:{CONTEST}{i}" for i in "ABC")
SAMPLES_ONLY = GateConfig(require_generated=False, require_stress=False, require_profile=False)


@pytest.fixture
def stores(tmp_path: Path):
    # posts may follow each other at once here: no minimum interval
    ledger = SubmissionLedger(tmp_path / "submissions.sqlite3", min_interval_s=0)
    with (
        ledger,
        WatchState(tmp_path / "watch.sqlite3", ledger=ledger) as state,
        TranscriptStore(tmp_path / "t.sqlite3") as store,
    ):
        start = datetime.now(UTC) - timedelta(seconds=1)
        state.add_contest(
            ContestRow(
                key=KEY, site="codeforces", contest_id=CONTEST, name="Round", url="u", start=start, duration_s=3600
            )
        )
        yield state, store


def options(**kw) -> LoopOptions:
    # the round is listed as allowing AI, so it is submitted to live (the rules' other cases: test_watch_rules)
    base = {"language": "python3", "strategy": "direct", "gate": SAMPLES_ONLY, "fetch_retry_s": 0.01, "jobs": 2,
            "ai_allowed": frozenset({KEY})}  # fmt: skip
    return LoopOptions(**{**base, **kw})


def events(store: TranscriptStore, run_id: str, kind: str) -> list[dict]:
    return [e.payload for e in store.events(run_id) if e.kind == kind]


def test_dry_run_fetches_once_published_solves_easiest_first_and_submits_nothing(stores) -> None:
    state, store = stores
    site = FakeSite([listed(CONTEST, "A", 1600), listed(CONTEST, "B", 800), listed(CONTEST, "C", 1200)], hidden=3)
    solver = FakeSolver({A: ["a"], B: ["b"], C: ["c"]})
    loop = ContestLoop(state, store, KEY, site=site, solver=solver, submitter=None, options=options(jobs=1))
    contest = loop.run()

    assert site.calls[:4] == ["list", "list", "list", "list"]  # retried until the list was published
    assert [pid for pid, _, _ in solver.seen] == [B, C, A]  # by rating, easiest first
    assert {p.status for p in state.problems(KEY)} == {"gated"}
    assert contest.status == "done" and contest.detail == "0/3 solved (dry run)"
    run = store.run(contest.run_id)
    assert run.kind == "contest" and run.status == "done"
    children = store.children(contest.run_id)
    assert sorted(c.problem_id for c in children) == [A, B, C] and {c.status for c in children} == {"solved"}
    assert events(store, contest.run_id, "submission") == []
    gates = events(store, contest.run_id, "gate")
    assert len(gates) == 3 and all(g["allowed"] for g in gates)
    states = [(e["state"], e.get("problem_id")) for e in events(store, contest.run_id, "contest_state")]
    assert states[0] == ("started", None) and states[-1] == ("finished", None)
    assert ("gated", B) in states and ("fetching", B) in states


def test_a_remote_wrong_answer_is_fed_back_into_the_next_solve_until_accepted(stores) -> None:
    state, store = stores
    site = FakeSite([listed(CONTEST, "A"), listed(CONTEST, "B")])
    solver = FakeSolver({A: ["a-right"], B: ["b-wrong", "b-right"]})
    submitter = FakeSubmitter(state.ledger, {"b-wrong": wrong_answer(3)})
    loop = ContestLoop(state, store, KEY, site=site, solver=solver, submitter=submitter, options=options(submit=True))
    contest = loop.run()

    assert {p.problem_id: p.status for p in state.problems(KEY)} == {A: "solved", B: "solved"}
    assert sorted(submitter.posts) == [(A, "a-right"), (B, "b-right"), (B, "b-wrong")]
    b_notes = [notes for pid, notes, _ in solver.seen if pid == B]
    assert "What earlier attempts" not in b_notes[0]
    assert "answered WA on test 3 (WRONG_ANSWER)" in b_notes[1]
    verdicts = events(store, contest.run_id, "remote_verdict")
    assert sorted((v["problem_id"], v["verdict"], v["failed_test"]) for v in verdicts) == [
        (A, "AC", None),
        (B, "AC", None),
        (B, "WA", 3),
    ]
    subs = events(store, contest.run_id, "submission")
    assert len(subs) == 3 and all(s["url"].endswith(s["submission_id"]) for s in subs)
    assert contest.detail == "2/2 solved"
    # each post is one ledger row, with the verdict the loop saw; the state's rows point at them
    ledger = {e.submission_id: (e.problem_id, e.state, e.final, e.verdict) for e in state.ledger.entries()}
    assert sorted(ledger.values()) == [
        (A, "posted", True, "OK"),
        (B, "posted", True, "OK"),
        (B, "posted", True, "WRONG_ANSWER"),
    ]
    linked = state.submissions(KEY, B)
    assert [(s.attempt, s.verdict, s.detail) for s in linked] == [
        (1, "WA", "on test 3 (WRONG_ANSWER)"),
        (2, "AC", "(OK)"),
    ]
    assert {s.remote_id for s in state.submissions(KEY)} == set(ledger)
    path = [t.to_status for t in state.transitions(KEY, B)]
    assert path == ["fetching", "solving", "judged", "gated", "submitted", "verdict", "solving", "judged", "gated",
                    "submitted", "verdict", "solved"]  # fmt: skip


def test_the_same_program_as_a_rejected_one_is_never_sent_again(stores) -> None:
    state, store = stores
    site = FakeSite([listed(CONTEST, "A")])
    solver = FakeSolver({A: ["same", "same", "fixed"]})
    submitter = FakeSubmitter(state.ledger, {"same": wrong_answer(1)})
    loop = ContestLoop(state, store, KEY, site=site, solver=solver, submitter=submitter, options=options(submit=True))
    loop.run()
    assert submitter.posts == [(A, "same"), (A, "fixed")]
    assert state.problem(KEY, A).status == "solved"
    assert any("must not be sent again" in n for pid, n, _ in solver.seen)


def test_a_gate_refusal_is_fed_back_and_the_attempt_limit_gives_the_problem_up(stores) -> None:
    state, store = stores
    site = FakeSite([listed(CONTEST, "A")])
    solver = FakeSolver({A: ["x"]})
    strict = options(submit=True, gate=GateConfig(), budget=ContestBudget(attempts=2))
    submitter = FakeSubmitter(state.ledger)
    contest = ContestLoop(state, store, KEY, site=site, solver=solver, submitter=submitter, options=strict).run()
    row = state.problem(KEY, A)
    assert row.status == "given_up" and row.detail == "2 attempts made (the limit)"
    assert submitter.posts == []
    assert "failed cpbot's local checks: generated: no generated tests were judged" in solver.seen[1][1]
    refused = events(store, contest.run_id, "gate")
    assert len(refused) == 2 and not refused[0]["allowed"] and refused[0]["reasons"]


def test_the_contest_budget_bounds_each_solve_and_stops_new_ones(stores) -> None:
    state, store = stores
    site = FakeSite([listed(CONTEST, "A"), listed(CONTEST, "B")])
    solver = FakeSolver({A: ["a"], B: ["b"]})
    budget = ContestBudget(tokens=100, calls=None)
    loop = ContestLoop(
        state, store, KEY, site=site, solver=solver, submitter=None, options=options(jobs=1, budget=budget)
    )
    loop.run()
    first_budget = solver.seen[0][2]
    assert first_budget.max_tokens == 100  # the solve's own limit is cut to what the contest has left
    assert [p.status for p in state.problems(KEY)] == ["gated", "given_up"]
    assert state.problems(KEY)[1].detail == "the contest's budget of 100 tokens is spent"


def test_a_crash_right_after_a_post_resumes_without_posting_again(stores) -> None:
    state, store = stores
    site = FakeSite([listed(CONTEST, "A")])
    solver = FakeSolver({A: ["a"]})
    submitter = FakeSubmitter(state.ledger)
    submitter.crash_after_post = True
    loop = ContestLoop(state, store, KEY, site=site, solver=solver, submitter=submitter, options=options(submit=True))
    with pytest.raises(KeyboardInterrupt):
        loop.run()
    assert state.problem(KEY, A).status == "gated" and len(submitter.posts) == 1

    submitter.crash_after_post = False
    again = ContestLoop(state, store, KEY, site=site, solver=solver, submitter=submitter, options=options(submit=True))
    contest = again.run()
    assert submitter.posts == [(A, "a")] and len(solver.seen) == 1  # neither re-solved nor re-posted
    assert state.problem(KEY, A).status == "solved"
    assert contest.run_id == loop.run_id  # the same contest transcript, resumed
    kinds = [e.kind for e in store.events(contest.run_id)]
    assert "run_resume" in kinds


def test_a_solve_interrupted_by_a_crash_is_closed_and_started_again(stores) -> None:
    state, store = stores
    site = FakeSite([listed(CONTEST, "A")])

    def die(problem) -> None:
        raise KeyboardInterrupt("killed during the solve")

    solver = FakeSolver({A: ["a"]}, on_solve=die)
    with pytest.raises(KeyboardInterrupt):
        ContestLoop(state, store, KEY, site=site, solver=solver, submitter=None, options=options()).run()
    solver.on_solve = None
    ContestLoop(state, store, KEY, site=site, solver=solver, submitter=None, options=options()).run()
    attempts = state.attempts(KEY, A)
    assert [a.status for a in attempts] == ["interrupted", "done"]
    assert store.run(attempts[0].run_id).status == "interrupted"
    assert state.problem(KEY, A).status == "gated"


def test_after_the_contest_ends_nothing_new_is_started(stores) -> None:
    state, store = stores
    state.add_contest(state.contest(KEY).model_copy(update={"start": datetime.now(UTC) - timedelta(hours=2)}))
    site = FakeSite([listed(CONTEST, "A")])
    solver = FakeSolver({A: ["a"]})
    ContestLoop(state, store, KEY, site=site, solver=solver, submitter=None, options=options()).run()
    assert state.problem(KEY, A).status == "given_up" and solver.seen == []


def test_budget_option_parsing() -> None:
    b = ContestBudget.parse("tokens=2e6, calls=none, seconds=2h, attempts=3, solve-tokens=1000, solve-seconds=90")
    assert (b.tokens, b.calls, b.seconds, b.attempts) == (2_000_000, None, 7200.0, 3)
    assert (b.solve.max_tokens, b.solve.max_seconds, b.solve.max_calls) == (1000, 90.0, 40)
    with pytest.raises(ConfigError, match="unknown key"):
        ContestBudget.parse("dollars=3")
    with pytest.raises(ConfigError, match="not key=value"):
        ContestBudget.parse("tokens")


def test_a_failing_model_uses_up_the_attempts_and_the_problem_is_given_up(stores) -> None:
    state, store = stores
    site = FakeSite([listed(CONTEST, "A")])

    def down(problem) -> None:
        raise ModelError("the model endpoint refused the connection")

    solver = FakeSolver({A: ["a"]}, on_solve=down)
    contest = ContestLoop(
        state, store, KEY, site=site, solver=solver, submitter=None, options=options(budget=ContestBudget(attempts=2))
    ).run()
    row = state.problem(KEY, A)
    assert row.status == "given_up" and len(solver.seen) == 2
    assert {c.status for c in store.children(contest.run_id)} == {"error"}
    assert [a.result for a in state.attempts(KEY, A)] == [None, None]


def test_a_stop_request_pauses_the_contest_and_a_new_loop_finishes_it(stores) -> None:
    state, store = stores
    site = FakeSite([listed(CONTEST, "A"), listed(CONTEST, "B")])
    stop = threading.Event()
    solver = FakeSolver({A: ["a"], B: ["b"]}, on_solve=lambda p: stop.set())
    first = ContestLoop(state, store, KEY, site=site, solver=solver, submitter=None, options=options(jobs=1), stop=stop)
    paused = first.run()
    assert paused.status == "running" and store.run(first.run_id).status == "paused"
    assert [p.status for p in state.problems(KEY)] == ["judged", "pending"]
    solver.on_solve = None
    done = ContestLoop(state, store, KEY, site=site, solver=solver, submitter=None, options=options()).run()
    assert done.status == "done" and [p.status for p in state.problems(KEY)] == ["gated", "gated"]
    assert store.run(first.run_id).status == "done"


def test_the_table_shows_each_problem_with_its_state_tokens_and_time(stores) -> None:
    state, store = stores
    site = FakeSite([listed(CONTEST, "A")])
    ContestLoop(state, store, KEY, site=site, solver=FakeSolver({A: ["a"]}), submitter=None, options=options()).run()
    console = Console(record=True, width=160)
    console.print(view(report(state, [KEY])))
    text = console.export_text()
    assert "Round · done: 0/1 solved (dry run)" in text
    row = next(line for line in text.splitlines() if "PA" in line)
    assert [c.strip() for c in row.split("│")[1:-1]] == ["A", "PA", "gated", "1", "100", "0.0s", "", "gate passed"]


def test_a_contest_run_opened_just_before_a_crash_is_taken_over_not_duplicated(stores) -> None:
    state, store = stores
    orphan = store.start_run("contest", problem_id=KEY)  # the process died before the state learnt its id
    site = FakeSite([listed(CONTEST, "A")])
    contest = ContestLoop(
        state, store, KEY, site=site, solver=FakeSolver({A: ["a"]}), submitter=None, options=options()
    ).run()
    assert contest.run_id == orphan
    assert [r.id for r in store.list_runs(kind="contest")] == [orphan]
