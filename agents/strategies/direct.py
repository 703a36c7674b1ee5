"""`direct`: one program straight from the statement, judged on the samples. The baseline.

One round: a reply without a usable program is asked again twice (`roles.common.ask_code`), then the
solve ends, rather than running the strategy again (`agents.solve.MAX_ROUNDS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cpbot.agents.roles import coder
from cpbot.agents.strategies.base import SolveContext, verdict_line


@dataclass
class Direct:
    """One generation, one judgement."""

    name: str = "direct"
    rounds: int = 1  # one program: no second round after an unusable reply

    def run(self, ctx: SolveContext) -> str:
        """Write one program and judge it on the samples."""
        ctx.route("coder", why="single generation")
        attempt = coder.write_code(ctx.model, ctx.problem, None, language=ctx.language, use_skeleton=False)
        attempt, iteration = ctx.code(attempt, sender=coder.ROLE)
        report = ctx.judge(attempt, iteration)
        if report.accepted:
            return "accepted on the samples"
        return f"the single attempt fails ({verdict_line(report)})"


def make(**options: Any) -> Direct:
    """The registry's constructor."""
    return Direct(**options)
