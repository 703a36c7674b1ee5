"""The parts of `cpbot watch`'s heuristic contest mode that need no site: the submission pacer."""

from __future__ import annotations

from cpbot.bot.watch.heuristic import SubmitPacer


def test_a_post_waits_for_the_interval_after_the_last_one() -> None:
    now = [100.0]
    pacer = SubmitPacer(300.0, clock=lambda: now[0])
    assert pacer.due()  # nothing posted yet
    pacer.posted()
    now[0] += 299.0
    assert not pacer.due()
    now[0] += 1.0
    assert pacer.due()
