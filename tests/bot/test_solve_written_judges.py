"""`cpbot solve -o` on a "print any" problem with no checker: the test designer's checker, vetted on the samples,
judges the solve and is written into the problem's folder, named by problem.json, where `cpbot judge` uses it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cpbot.bot.commands.solve as solve_module
from cpbot.agents.solve import SolveResult
from cpbot.bot.app.judging import find_tests, judge_file
from cpbot.bot.app.problem_folder import load_problem
from cpbot.bot.store.transcripts import TranscriptStore
from tests.agents.answers.test_checker_writer import CHECKER, checker_reply, pairs_problem, program, suite
from tests.agents.strategies.support import by_kind, code
from tests.agents.support.scripted_server import ScriptedServer


def solve_cli(problem_file: Path, model: Callable[[dict], Any], out: Path, options: list[str], candidates: str) -> int:
    """`cpbot solve PROBLEM -o OUT --json` against a scripted model, with a `--strategy-option` per `options`."""
    with ScriptedServer([], default=model) as server:
        args = [str(problem_file), "--lang", "python3", "--base-url", server.base_url, "--model", "m"]
        args += ["--api-key", "k", "-o", str(out), "--json", "--candidates", candidates]
        for option in options:
            args += ["--strategy-option", option]
        return solve_module.solve.main(args, prog_name="cpbot solve", standalone_mode=False)


def transcript_events(err: str) -> list[Any]:
    """The events of the transcript whose id `cpbot solve` printed last on stderr."""
    with TranscriptStore() as store:
        return store.events(err.strip().splitlines()[-1].removeprefix("transcript: "))


def test_solve_writes_the_vetted_checker_beside_the_solution(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    source = tmp_path / "pairs.json"
    source.write_text(pairs_problem().model_dump_json())
    first, last = program("candidates/right_first_pair.py"), program("candidates/right_last_pair.py")
    model = by_kind(program=[code(last), code(first)], tests=[suite()], checker_writer=[checker_reply(CHECKER)])
    out = tmp_path / "out"
    # the checker is tested, not the gate
    rc = solve_cli(source, model, out, ["max_n=24", "stress_runs=20", "ladder_seconds=0", "count=false"], "2")
    captured = capsys.readouterr()
    result = SolveResult.model_validate_json(captured.out)
    assert rc == 0 and result.status == "solved" and result.judged_with == "written"
    assert (out / "checker.py").read_text() == CHECKER
    assert json.loads((out / "problem.json").read_text())["checker"] == "checker.py"
    assert load_problem(out / "problem.json").checker == str((out / "checker.py").resolve())

    # the folder judges as the solve did: the other right pair is accepted, a wrong one is not
    solution = out / "solution.py"
    solution.write_text(last)
    report, _ = judge_file(solution, find_tests(solution, tests_dir=None, problem_path=None))
    assert report.accepted
    solution.write_text("print(1, 3)\n")  # indices 1 and 3 hold 2 and 11: not 9
    assert not judge_file(solution, find_tests(solution, tests_dir=None, problem_path=None))[0].accepted

    messages = [e.payload.get("message") for e in transcript_events(captured.err) if e.kind == "note"]
    assert "checker accepted" in messages


def test_a_written_interactor_is_kept_with_the_hidden_data_it_reads(tmp_path: Path, sandbox) -> None:
    from cpbot.bot.app.problem_folder import save_solution, with_written_judges
    from cpbot.judge.runner import judge_problem
    from tests.agents.answers.test_interactor_writer import (
        HIDDEN,
        INTERACTOR,
        UPPER_MIDDLE,
        guess_problem,
        python,
        written,
    )

    kept, files = with_written_judges(guess_problem(), None, written())
    assert files == {"interactor.py": INTERACTOR.encode()} and kept.interactor == "interactor.py"
    save_solution(kept, UPPER_MIDDLE, "python3", tmp_path, extra=files)
    loaded = load_problem(tmp_path / "problem.json")
    assert loaded.interactor == str((tmp_path / "interactor.py").resolve())
    assert [s.input for s in loaded.samples] == HIDDEN and "! 750000" in loaded.notes
    assert judge_problem(python(UPPER_MIDDLE), loaded, sandbox=sandbox).accepted


def test_the_solve_says_what_judged_its_answers() -> None:
    from cpbot.agents.roles.interactor_writer import WrittenInteractor
    from cpbot.bot.report.render import judged_lines
    from cpbot.judge.model import Solution

    plain = SolveResult(problem_id="local:x", strategy="cpbot", language="python3", status="solved")
    assert judged_lines(plain) == []
    floats = plain.model_copy(update={"judged_with": "float:1e-6"})
    assert judged_lines(floats) == ["answers judged with float:1e-6"]
    written = plain.model_copy(
        update={"judged_with": "written", "checker": Solution(language="python3", source=CHECKER)}
    )
    assert "checker the test designer wrote" in judged_lines(written)[0]
    talks = plain.model_copy(
        update={"interactor": WrittenInteractor(interactor=Solution(language="python3", source="x"), tests=["1\n"])}
    )
    assert judged_lines(talks) == ["judged through an interactor the test designer wrote (1 tests of its hidden data)"]


def test_a_problem_file_of_the_first_layout_still_reads(tmp_path: Path) -> None:
    old = {"schema_version": 1, "id": "local:old", "checker": "float:1e-6", "samples": [{"input": "1\n"}]}
    (tmp_path / "problem.json").write_text(json.dumps(old))
    problem = load_problem(tmp_path / "problem.json")
    assert problem.checker == "float:1e-6" and problem.interactor is None and problem.schema_version == 1


def test_cpbot_solve_calls_an_interactive_answer_solved_with_its_profile_through_the_interactor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cpbot.bot.submit.gate import GateEvidence, gate
    from tests.agents.answers.test_interactive_solved import RIGHT, designer_reply, inversions_problem

    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    source = tmp_path / "inversions.json"
    source.write_text(inversions_problem().model_dump_json())
    model = by_kind(program=[code(RIGHT)], interactor_writer=[designer_reply()])
    out = tmp_path / "out"
    rc = solve_cli(source, model, out, ["repeats=1", "stress_runs=10", "stress_size=4", "aimed=0"], "1")
    captured = capsys.readouterr()
    result = SolveResult.model_validate_json(captured.out)
    assert rc == 0 and result.status == "solved", (result.reason, result.missing_evidence)
    assert result.profile is not None and result.profile.points[-1].size == 10_000
    assert (out / "interactor.py").is_file() and load_problem(out / "problem.json").interactor is not None
    # the submit gate's default rule (samples, generated tests, stress, profile) lets it through: `watch --submit`
    # posts it
    decision = gate(inversions_problem(), result.solution, GateEvidence.from_solve_result(result))
    assert decision.allowed, decision.reasons

    events = transcript_events(captured.err)
    profiles = [e.payload for e in events if e.kind == "report" and e.payload.get("report_kind") == "profile"]
    assert profiles and profiles[-1]["report"]["efficient"] is True
