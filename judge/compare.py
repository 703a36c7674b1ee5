"""Statistics of scores on seeds: mean and spread, and the paired comparison of two programs.

Two programs scored on the same seeds are compared seed by seed (a paired t interval on the per-seed
differences): the inputs' own spread, which is much larger than the programs' difference on most
score-based problems, cancels out. Standard library only; Student's t quantiles are tabled.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

# Student's t, two-sided 95% (the 0.975 quantile), for 1..30 degrees of freedom
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
_Z975 = 1.959964


def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with `df` degrees of freedom (beyond the table: Cornish-Fisher's
    first correction to the normal quantile, within 0.001 of the exact value there)."""
    if df < 1:
        raise ValueError("a t quantile needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def mean(values: Sequence[float]) -> float:
    """The mean; 0 for no values."""
    return math.fsum(values) / len(values) if values else 0.0


def stdev(values: Sequence[float]) -> float:
    """The sample standard deviation; 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    m = mean(values)
    return math.sqrt(math.fsum((v - m) ** 2 for v in values) / (len(values) - 1))


class Comparison(BaseModel):
    """Program A against program B on the same seeds. `diff` is A's advantage per seed (A - B when
    larger is better, B - A when smaller is), its mean and 95% interval; `better` is the program the
    interval favours, or "tie" when it holds 0."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seeds: int
    mean_a: float
    mean_b: float
    mean_diff: float
    ci_low: float
    ci_high: float
    relative_diff: float  # mean_diff over B's mean (0 when B's mean is 0)
    better: Literal["a", "b", "tie"]


def compare_paired(
    a: Sequence[float], b: Sequence[float], *, objective: Literal["maximize", "minimize"] = "maximize"
) -> Comparison:
    """Compare two programs' scores on the same seeds, in the same order."""
    if len(a) != len(b):
        raise ValueError(f"paired scores need the same seeds: {len(a)} against {len(b)}")
    if not a:
        raise ValueError("no seeds to compare on")
    sign = 1.0 if objective == "maximize" else -1.0
    diffs = [sign * (x - y) for x, y in zip(a, b, strict=True)]
    d = mean(diffs)
    half = t975(len(diffs) - 1) * stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    low, high = d - half, d + half
    better: Literal["a", "b", "tie"] = "a" if low > 0 else "b" if high < 0 else "tie"
    mb = mean(b)
    return Comparison(
        seeds=len(diffs),
        mean_a=mean(a),
        mean_b=mb,
        mean_diff=d,
        ci_low=low,
        ci_high=high,
        relative_diff=d / abs(mb) if mb else 0.0,
        better=better,
    )
