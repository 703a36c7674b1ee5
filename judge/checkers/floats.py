"""Numbers within an epsilon (absolute, relative, or either); other tokens must match exactly.

NaN and infinity in the output are always wrong, even where the answer has them: a judge that
accepts NaN accepts garbage (DMOJ issue #279).
"""

from __future__ import annotations

import math
from typing import Literal

from cpbot.judge.checkers.base import OK, CheckInput, CheckResult
from cpbot.judge.checkers.text import token_diff
from cpbot.judge.model import Verdict

Mode = Literal["either", "abs", "rel"]


def _number(token: bytes) -> float | None:
    try:
        return float(token)
    except ValueError:
        return None


def close_enough(got: float, want: float, eps: float, mode: Mode) -> bool:
    if not math.isfinite(got):
        return False
    if not math.isfinite(want):
        return False
    err = abs(got - want)
    # a tiny slack for the decimal rounding of the epsilon itself, as testlib does
    eps += 1e-15
    if mode == "abs":
        return err <= eps
    if mode == "rel":
        return err <= eps * abs(want)
    return err <= eps or err <= eps * abs(want)


class FloatsChecker:
    def __init__(self, eps: float, mode: Mode = "either") -> None:
        if not eps > 0:
            raise ValueError("epsilon must be positive")
        self.eps = eps
        self.mode = mode
        self.name = f"float:{eps:g}" if mode == "either" else f"float-{mode}:{eps:g}"

    def check(self, files: CheckInput) -> CheckResult:
        output = files.output()
        got, want = output.split(), files.answer().split()
        for i in range(max(len(got), len(want))):
            if i >= len(got) or i >= len(want):
                g = got[i] if i < len(got) else None
                w = want[i] if i < len(want) else None
                message = "output ends early" if g is None else "extra output"
                return CheckResult(Verdict.WA, message, token_diff(output, i, w, g))
            w_num = _number(want[i])
            if w_num is None:
                if got[i] != want[i]:
                    return CheckResult(Verdict.WA, f"token {i + 1} differs", token_diff(output, i, want[i], got[i]))
                continue
            g_num = _number(got[i])
            if g_num is None or not close_enough(g_num, w_num, self.eps, self.mode):
                why = "not a number" if g_num is None else f"off by {abs(g_num - w_num):.3g} (eps {self.eps:g})"
                if g_num is not None and not math.isfinite(g_num):
                    why = "NaN or infinity is never accepted"
                return CheckResult(Verdict.WA, f"token {i + 1}: {why}", token_diff(output, i, want[i], got[i]))
        return OK
