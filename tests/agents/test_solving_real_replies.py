"""Solving with what real models give back: unusable replies are failed attempts, not the end of a
solve; a program is never called solved on evidence older than the tests that fail it; prompts name the
exact dialect and carry a contest checklist where there is no skeleton."""

from __future__ import annotations

from cpbot.agents.budget import Budget, BudgetTracker
from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.roles.coder import write_code
from cpbot.agents.solve import _rank_on_all_tests, solve
from cpbot.agents.strategies.base import SolveContext
from cpbot.agents.tracing import NoteEvent
from cpbot.judge.model import TestCase
from tests.agents.roles.helpers import sent_text, sum_problem
from tests.agents.support.scripted_server import Reply

GOOD = "```python\na, b = map(int, input().split())\nprint(a + b)\n```"
# passes both samples (1 2, 10 20), fails on larger numbers
SMALL_ONLY = "a, b = map(int, input().split())\nprint(a + b if a < 100 else 0)\n"


def test_unusable_replies_are_failed_attempts_until_the_budget_ends(scripted_server, make_client, tracer, sandbox):
    # a round of prose, then a round of C++: unusable, but not the same failure round after round
    server = scripted_server(default=Reply("I think you add them."))
    server.add(*[Reply("I think you add them.")] * 3, *[Reply("```cpp\nint main(){}\n```")] * 3)
    result = solve(
        sum_problem(),
        strategy="macs",
        language="python3",
        model=make_client(server),
        tracer=tracer,
        sandbox=sandbox,
        budget=Budget(max_calls=7),
    )
    assert result.status == "failed" and result.solution is None
    assert result.calls == 7  # the whole budget was used, not one round
    assert result.reason.startswith("budget exhausted")
    failed = [e for e in tracer.of_kind(NoteEvent) if e.message == "attempt failed"]
    assert len(failed) >= 2
    # later rounds ask differently: they say what went wrong before
    assert "could not be used" in sent_text(server.requests[-1])


def test_after_unusable_rounds_a_usable_reply_solves(scripted_server, make_client, sandbox):
    server = scripted_server([Reply(""), Reply("I think you add them."), Reply("<think>hmm"), Reply(GOOD)])
    result = solve(
        sum_problem(),
        strategy="macs",
        language="python3",
        model=make_client(server, retry_output_tokens=None),
        sandbox=sandbox,
    )
    # the usable reply's program passes the samples; macs tests nothing else, so it is unverified (step 19)
    assert result.status == "unverified" and result.report.accepted
    assert "print(a + b)" in result.solution.source


def test_a_program_is_never_solved_on_evidence_older_than_a_failing_test(make_client, scripted_server, tracer, sandbox):
    problem = sum_problem()
    ctx = SolveContext(
        problem=problem,
        language="python3",
        model=make_client(scripted_server()),
        tracker=BudgetTracker(),
        tracer=tracer,
        task_id=problem.id,
        sandbox=sandbox,
    )
    attempt = CodeAttempt(language="python3", source=SMALL_ONLY)
    assert ctx.judge(attempt, 1).accepted  # 2/2 on the samples
    ctx.adopt_tests([TestCase(input="100 1\n", output="101\n", origin="generated", name="g1")])
    _rank_on_all_tests(ctx)
    best = ctx.best.best
    assert best is not None and not best.accepted
    assert best.report.accepted and best.report.total == 2  # the report stays the one on the samples
    assert "generated tests (WA, 2/3)" in best.refuted
    assert ctx.best.final_answer("done").status == "best_effort"


def test_the_coder_prompt_names_the_dialect_and_a_checklist_without_a_skeleton(scripted_server, make_client):
    server = scripted_server(
        [Reply('```cpp\n#include <cstdio>\nint main(){int a,b;scanf("%d%d",&a,&b);printf("%d",a+b);}\n```')]
    )
    write_code(make_client(server), sum_problem(), None, language="cpp20", use_skeleton=False)
    text = sent_text(server.requests[0])
    assert "C++20 (g++)" in text
    assert "sync_with_stdio" in text and "long long" in text and "reset" in text


def test_cpbot_solve_json_prints_the_result_when_every_reply_is_unusable(
    tmp_path, monkeypatch, capsys, scripted_server
):
    import cpbot.bot.commands.solve as solve_module
    from cpbot.agents.solve import SolveResult
    from cpbot.bot.app.problem_folder import save_problem

    monkeypatch.setenv("CPBOT_DATA_DIR", str(tmp_path / "data"))
    server = scripted_server(default=Reply("```python\n```"))  # an empty block is never a program
    problem_file = save_problem(sum_problem(), tmp_path / "problem")
    args = [
        str(problem_file), "--strategy", "direct", "--lang", "python3", "--base-url", server.base_url,
        "--model", "m", "--max-calls", "5", "-o", str(tmp_path / "out"), "--json",
    ]  # fmt: skip
    rc = solve_module.solve.main(args, prog_name="cpbot solve", standalone_mode=False)
    result = SolveResult.model_validate_json(capsys.readouterr().out)
    assert rc == 1
    # direct is one program: one ask and two re-asks, not the 5 calls the budget allows
    assert result.status == "failed" and result.calls == 3 and result.solution is None
    assert not (tmp_path / "out" / "solution.py").exists()
