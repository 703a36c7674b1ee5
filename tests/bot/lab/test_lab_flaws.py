"""`cpbot lab --flaws`: "solved" under a flawed test designer, with one reply trusted whole and with a panel."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpbot.agents.verification import GateParams
from cpbot.bot.lab.flawed import FlawRow, flaw_figures, run_flawed_problem
from tests.bot.lab.test_lab import result, static_range_sum  # noqa: F401 (a fixture)


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
