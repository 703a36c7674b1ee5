"""`cpbot watch` end to end against the fake Codeforces on 127.0.0.1 and a scripted model: the round is
noticed before it starts, its problems fetched once published, solved, gated, submitted; a wrong
remote verdict goes back into the next solve; every problem ends accepted, each source posted once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpbot.bot.cli.main import main
from cpbot.bot.store.transcripts import TranscriptStore
from cpbot.bot.watch.state import WatchState
from tests.agents.support.scripted_server import ScriptedServer
from tests.bot.watch.support import API_KEY, CONTEST, contest_site, cookies_txt, model_answer
from tests.fakes.server import FakeSiteServer


def watch_args(model: ScriptedServer, cookies: Path, *extra: str) -> list[str]:
    return [
        "watch", "--site", "cf", "--strategy", "direct", "--lang", "python3", "--gate", "samples", "--allow-unverified",
        "--model", "m", "--base-url", model.base_url, "--api-key", API_KEY, "--cookies", str(cookies),
        "--within", "1", "--poll", "0.5", "--fetch-retry", "0.2", "--verdict-poll", "0.05",
        "--submit-interval", "0", "--once", "--json", "--ai-allowed", f"cf:{CONTEST}", *extra,
    ]  # fmt: skip


def test_a_whole_contest_from_detection_to_final_verdicts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = contest_site(start_in_s=2.0)
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with FakeSiteServer(site) as server, ScriptedServer(default=model_answer) as model:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        rc = main(watch_args(model, cookies_txt(tmp_path / "cookies.txt", site), "--submit"))
    out = capsys.readouterr().out
    assert rc == 0
    report = json.loads(out)
    (contest,) = report["contests"]
    assert contest["contest"]["contest_id"] == str(CONTEST) and contest["contest"]["status"] == "done"
    lines = {p["index"]: p for p in contest["problems"]}
    assert {i: p["status"] for i, p in lines.items()} == {"A": "solved", "B": "solved", "C": "solved"}
    assert {i: p["submissions"] for i, p in lines.items()} == {"A": 1, "B": 2, "C": 1}
    # two programs (250 tokens each) and, per solve, two requests for a checker that none answers (25 each)
    assert lines["B"]["verdict"] == "AC" and lines["B"]["tokens"] == 600

    # the site saw each source once: B twice (the marked one, then the fixed one)
    assert [site.count(f"{CONTEST}{i}") for i in "ABC"] == [1, 2, 1]
    assert site.posts("/submit") == 4
    # nothing was fetched before the start: the first statement request came after it
    with WatchState() as state:
        b = f"codeforces:{CONTEST}B"
        path = [t.to_status for t in state.transitions(f"codeforces:{CONTEST}", b)]
        assert path.count("submitted") == 2 and path[-1] == "solved"
        subs = state.submissions(f"codeforces:{CONTEST}", b)
        assert [s.verdict for s in subs] == ["WA", "AC"]

    with TranscriptStore() as store:
        run = store.run(contest["contest"]["run_id"])
        assert run.kind == "contest" and run.status == "done" and run.children == 4
        kinds = [e.kind for e in store.events(run.id)]
        assert kinds.count("submission") == 4 and kinds.count("remote_verdict") == 4 and "gate" in kinds
        verdicts = [e.payload for e in store.events(run.id) if e.kind == "remote_verdict"]
        wrong = [v for v in verdicts if v["verdict"] == "WA"]
        assert len(wrong) == 1 and wrong[0]["failed_test"] == 2 and wrong[0]["status_text"] == "WRONG_ANSWER"
    # the second Candies prompt carried the site's verdict
    b_requests = [r for r in model.requests if "Candies" in json.dumps(r.body)]
    b_prompts = [r for r in b_requests if "You are the checker writer" not in json.dumps(r.body)]
    assert len(b_requests) - len(b_prompts) == 4  # two requests for a checker per solve
    assert len(b_prompts) == 2 and "answered WA on test 2" in json.dumps(b_prompts[1].body)
    # no secret in any file cpbot wrote
    for f in (tmp_path / "data").rglob("*"):
        if f.is_file():
            data = f.read_bytes()
            assert API_KEY.encode() not in data and site.cf_session.encode() not in data, f


def test_a_finished_contest_is_worked_on_as_a_virtual_one_and_a_dry_run_posts_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = contest_site(start_in_s=-9000, duration_s=7200)
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with FakeSiteServer(site) as server, ScriptedServer(default=model_answer) as model:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        args = watch_args(model, cookies_txt(tmp_path / "cookies.txt", site), "--contest", str(CONTEST))
        rc = main(args)
    assert rc == 0
    (contest,) = json.loads(capsys.readouterr().out)["contests"]
    assert contest["contest"]["mode"] == "virtual" and contest["contest"]["detail"] == "0/3 solved (dry run)"
    assert [p["status"] for p in contest["problems"]] == ["gated", "gated", "gated"]
    assert site.posts("/submit") == 0 and site.submissions == []


def test_without_a_terminal_progress_is_one_line_per_change_and_the_table_comes_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = contest_site(start_in_s=-9000, duration_s=7200)
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with FakeSiteServer(site) as server, ScriptedServer(default=model_answer) as model:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        args = watch_args(model, cookies_txt(tmp_path / "cookies.txt", site), "--contest", str(CONTEST))
        assert main([a for a in args if a != "--json"]) == 0
    captured = capsys.readouterr()
    progress = [line.split(" ", 1)[1] for line in captured.err.splitlines() if line[:2].isdigit()]
    assert "cpbot Test Round A: gated: gate passed" in progress
    assert progress[-1] == "cpbot Test Round: done (virtual): 0/3 solved (dry run)"
    assert len(progress) == len(set(progress))  # each change once
    assert "cpbot Test Round · done: 0/3 solved (dry run)" in captured.out and "Round Down the Price" in captured.out


def test_watch_submit_never_posts_an_unverified_answer_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = contest_site(start_in_s=0.5)
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    with FakeSiteServer(site) as server, ScriptedServer(default=model_answer) as model:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        args = watch_args(model, cookies_txt(tmp_path / "cookies.txt", site), "--submit", "--budget", "attempts=1")
        args.remove("--allow-unverified")  # direct tests on the samples only: every answer is unverified
        rc = main(args)
    assert rc == 0
    (contest,) = json.loads(capsys.readouterr().out)["contests"]
    assert {p["status"] for p in contest["problems"]} == {"given_up"}
    assert site.posts("/submit") == 0
    with TranscriptStore() as store:
        gates = [e.payload for e in store.events(contest["contest"]["run_id"]) if e.kind == "gate"]
    assert gates and all(not g["allowed"] and g["reasons"][0].startswith("solve: returned unverified") for g in gates)
