"""`cpbot lab --flaws`: "solved" under a flawed test designer, with one reply trusted whole and with a panel."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cpbot.agents.envelopes import GeneratedTests
from cpbot.agents.roles import testgen
from cpbot.agents.verification import GateParams
from cpbot.bot.cli.main import cli
from cpbot.bot.lab.dataset import LabProblem, load_problem
from cpbot.bot.lab.flawed import (
    NO_CHECKER,
    FlawReport,
    FlawRow,
    claimed,
    flaw_figures,
    given,
    input_gate,
    merge_flaw_reports,
    one_reply_checks,
    panel_checks,
    run_flawed_problem,
    written_checker,
)
from cpbot.bot.lab.measure import ProblemChecks, run_candidate
from cpbot.core.errors import CpbotError
from cpbot.judge.model import Solution
from cpbot.testing.population_server import load_lab_folder
from tests.bot.lab.test_lab import LAB, result, static_range_sum  # noqa: F401 (a fixture)


def test_a_program_passing_every_check_without_an_agreeing_oracle_is_not_claimed_with_a_panel():
    passes = result("wrong", [True] * 5).model_copy(update={"flaw": "shared_defect", "unverified": "split"})
    right = result("right", [True] * 5).model_copy(update={"flaw": "shared_defect", "unverified": "split"})
    rows = [FlawRow(mode=mode, result=r) for mode in ("one reply", "panel") for r in (passes, right)]
    one, panel = flaw_figures(rows)
    assert (one.claimed, one.wrong_claimed, one.precision, one.recall) == (2, 1, 0.5, 1.0)
    assert (panel.claimed, panel.unverified, panel.precision, panel.recall) == (0, 2, None, 0.0)


@pytest.mark.slow
def test_a_wrong_brute_force_fails_the_right_program_alone_and_loses_its_vote_in_a_panel(static_range_sum):  # noqa: F811
    params = GateParams(tests=2, stress_runs=30, stress_seconds=600, profile=False, ladder_seconds=0)
    rows = run_flawed_problem(static_range_sum, params, flaws=["wrong_brute"])
    claims = {
        (r.result.flaw, r.mode, Path(r.result.file).stem): r.result.passed["ladder"] and not r.result.unverified
        for r in rows
    }
    assert claims[("wrong_brute", "one reply", "right")] is False  # the brute force's answers fail it
    assert claims[("wrong_brute", "panel", "right")] is True  # outvoted by the other brute force and the candidates
    # the wrong programs are caught as before (all but the one only the size ladder sees: it is off here)
    assert not any(claim for (_, _, name), claim in claims.items() if name not in ("right", "ladder"))
    figures = {(f.flaw, f.mode): f for f in flaw_figures(rows)}
    assert figures[("wrong_brute", "one reply")].right_claimed == 0 and figures[("wrong_brute", "panel")].recall == 1.0


def test_reports_of_one_setting_merge_on_the_listed_candidates_and_other_settings_are_refused():
    rows = [FlawRow(mode="panel", result=result(label, [True] * 5)) for label in ("right", "wrong")]
    params = GateParams()
    one = FlawReport(params=params, problems=1, rows=rows[:1], figures=flaw_figures(rows[:1]))
    two = FlawReport(params=params, problems=1, rows=rows[1:], figures=flaw_figures(rows[1:]))
    merged = merge_flaw_reports([one, two], {("p", "right-wa"), ("p", "wrong-wa")})
    assert len(merged.rows) == 2 and merged.figures[0].wrong_claimed == 1
    assert len(merge_flaw_reports([one, two], {("p", "right-wa")}).rows) == 1  # a candidate the dataset dropped
    with pytest.raises(CpbotError, match="different settings"):
        merge_flaw_reports([one, two.model_copy(update={"designer": "mixed"})], set())


def test_without_its_checker_a_print_any_problem_is_judged_by_tokens_alone_and_by_a_vetted_written_one_in_a_panel(
    sandbox,
):
    lab = load_problem(LAB / "closest_values")
    assert Path(lab.problem.checker).parent == lab.folder.resolve()  # the checker program beside problem.json
    bare = given(lab, NO_CHECKER)
    assert bare.checker == "tokens" and given(lab, "wrong_brute") == lab.problem
    assert written_checker(lab, bare, sandbox) == (lab.problem, "")  # the folder's checker passes vet_checker
    assert written_checker(lab, lab.problem, sandbox) == (lab.problem, "")  # nothing to write
    broken = lab.folder.parent / "nowhere" / "checker.py"
    lost = LabProblem(
        folder=broken.parent, spec=lab.spec, problem=lab.problem.model_copy(update={"checker": str(broken)})
    )
    problem, why = written_checker(lost, bare, sandbox)
    assert problem.checker == "tokens" and why.startswith("no checker: the statement accepts several answers")


def test_the_panel_s_validator_keeps_inputs_that_break_the_constraints_out_of_its_tests(static_range_sum, sandbox):  # noqa: F811
    right, flawed = load_lab_folder(static_range_sum.folder).designs()
    negating = flawed["bad_constraints"][0]
    params = GateParams(tests=4, stress_runs=5, profile=False, ladder_seconds=0)
    alone = one_reply_checks(static_range_sum, params, sandbox, negating)
    assert alone.gate is None and any("-" in t.input for t in alone.suite.tests.tests)  # trusted whole
    checks = panel_checks(static_range_sum, params, sandbox, [negating, right])
    assert checks.gate is not None and checks.suite.tests.tests
    assert not any("-" in t.input for t in checks.suite.tests.tests)
    assert checks.gate.check(b"1 1\n-5\n0 1\n").valid is False  # and stress and profile inputs pass the same door


@pytest.mark.slow
def test_no_checker_fails_right_programs_printing_other_pairs_alone_and_a_panel_with_a_flawed_third_keeps_them():
    params = GateParams(tests=2, stress_runs=40, stress_seconds=600, profile=False, ladder_seconds=0)
    rows = run_flawed_problem(load_problem(LAB / "closest_values"), params, flaws=["no_checker"], designer="flawed")
    claims = {(r.result.flaw, r.mode, Path(r.result.file).stem): claimed(r.result, r.mode) for r in rows}
    # compared as tokens, the programs printing another pair than the samples' fail them (and the brute force,
    # printing the last pair, is discarded on them: nothing is stressed)
    assert (
        not claims[("no_checker", "one reply", "right_last")] and not claims[("no_checker", "one reply", "right_desc")]
    )
    # through the written checker every right program is claimed, whatever pair it prints
    assert all(claims[("no_checker", "panel", name)] for name in ("right_first", "right_last", "right_desc"))
    assert all(r.third not in ("", "right") for r in rows if r.mode == "panel")  # the third reply was flawed
    # stress at sizes 1..4 (10 seeds each) catches these three; the overflow needs rarer inputs, the quadratic search
    # the profile (off here)
    wrong = ("order", "neighbours", "last_pair_skipped")
    assert not any(claims[(flaw, "panel", name)] for flaw in ("right", "no_checker") for name in wrong)


def test_cpbot_lab_flaws_merges_per_problem_reports_into_one_table(tmp_path):
    def row(file: str, label: str) -> FlawRow:
        found = result(label, [True] * 5).model_copy(
            update={"problem": "closest_values", "file": file, "flaw": "right"}
        )
        return FlawRow(mode="panel", result=found, third="wrong_brute")

    paths = []
    for i, (file, label) in enumerate((("candidates/right_first.py", "right"), ("candidates/order.py", "wrong"))):
        rows = [row(file, label)]
        report = FlawReport(params=GateParams(), designer="mixed", problems=1, rows=rows, figures=flaw_figures(rows))
        paths += ["--merge", str(tmp_path / f"{i}.json")]
        (tmp_path / f"{i}.json").write_text(report.model_dump_json())
    shown = CliRunner().invoke(cli, ["lab", str(LAB), "--problem", "closest_values", "--flaws", *paths])
    assert shown.exit_code == 0, shown.output
    assert "1 problems, 2 candidates; the panel's third reply drawn by --designer mixed" in shown.output
    assert "| right | panel | 50.0% | 100.0% | 1/1 | 1/1 | 0 |" in shown.output


def test_a_stress_run_whose_every_input_breaks_the_constraints_compares_nothing_and_verifies_nothing(
    static_range_sum,  # noqa: F811
    sandbox,
):
    invalid = Solution(language="python3", source="import sys\nn = int(sys.argv[1])\nprint(n, 1)\nprint(*[-1] * n)\n")
    gate = input_gate(static_range_sum, static_range_sum.problem, sandbox)
    assert gate is not None
    suite = testgen.GeneratedSuite(
        tests=GeneratedTests(tests=[], reason="none"), generator=invalid, brute=static_range_sum.brute
    )
    params = GateParams(tests=1, stress_runs=5, profile=False, ladder_seconds=0)
    checks = ProblemChecks(static_range_sum, params, sandbox, suite=suite, strict=True, gate=gate)
    found = run_candidate(checks, static_range_sum.spec.candidates[0])
    assert found.passed["stress"] and "every stress input breaks the constraints" in found.unverified
    assert not claimed(found, "panel")
