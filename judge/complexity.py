"""Fitting complexity classes to measured (n, cost) points.

Each class is a small non-negative least-squares model: a constant, the linear cost every solution pays
to read its input, and the class's own leading term (BigO(Bench) fits a + b*f(n); the linear term is
added because reading input dilutes e.g. a sort's log factor). Errors are weighed by the expected
noise of each point, so the largest points do not drown the others. The simplest class whose error
is within a tolerance of the best wins (the simplicity bias); a leading term that explains too little
of the cost does not count.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

CLASSES = ("O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2)", "O(n^3)", "O(2^n)")
MAX_EXPONENTIAL_N = 60  # 2^n beyond this is not a size anyone profiles


def _log(n: float) -> float:
    return math.log2(max(n, 2.0))


TERMS: dict[str, Callable[[float], float]] = {
    "1": lambda n: 1.0,
    "log n": _log,
    "n": lambda n: n,
    "n log n": lambda n: n * _log(n),
    "n^2": lambda n: n * n,
    "n^3": lambda n: n**3,
    "2^n": lambda n: 2.0**n,
}
# the terms of each class's model; the last one is the class's own leading term
BASES: dict[str, tuple[str, ...]] = {
    "O(1)": ("1",),
    "O(log n)": ("1", "log n"),
    "O(n)": ("1", "n"),
    "O(n log n)": ("1", "n", "n log n"),
    "O(n^2)": ("1", "n", "n^2"),
    "O(n^3)": ("1", "n", "n^3"),
    "O(2^n)": ("1", "n", "2^n"),
}


@dataclass(frozen=True)
class Noise:
    """Expected noise of one measured cost: a fixed part (start-up jitter left after subtracting the
    baseline) plus a relative part. Errors are counted in these units, so small points count less.
    `min_leading_share` is how much of the cost at the largest size a class's own term must explain."""

    absolute: float
    relative: float
    min_leading_share: float
    poor_fit: float  # a best error beyond this many noise units: no class describes the data well


TIME_NOISE = Noise(absolute=0.3, relative=0.01, min_leading_share=0.5, poor_fit=3.0)  # CPU milliseconds
# Instruction counts repeat exactly; what is left is how far real code is from a clean a + b*f(n). Exact
# data can show a log factor that is a small share of the count (a set insert is mostly reading input).
# Data-dependent branches (a running maximum, say) move counts by a percent or so: still a good fit.
COUNT_NOISE = Noise(absolute=2000.0, relative=0.003, min_leading_share=0.1, poor_fit=10.0)


@dataclass(frozen=True)
class ClassFit:
    name: str
    error: float  # root mean square of the errors, in units of the expected measurement noise
    coefficients: dict[str, float]

    def predict(self, n: float) -> float:
        return sum(c * TERMS[t](n) for t, c in self.coefficients.items())


@dataclass(frozen=True)
class Fit:
    best: ClassFit
    fits: list[ClassFit]
    ambiguous: bool
    slope: float | None
    r2: float | None


def _solve(rows: list[list[float]], rhs: list[float]) -> list[float] | None:
    """Least squares via the normal equations (at most three unknowns); None when the columns are dependent.

    Columns are scaled to unit length first, so the pivot test does not depend on the units of the data."""
    k = len(rows[0])
    norms = [math.sqrt(sum(r[i] ** 2 for r in rows)) for i in range(k)]
    if any(norm == 0 for norm in norms):
        return None
    rows = [[x / norm for x, norm in zip(r, norms, strict=True)] for r in rows]
    a = [[sum(r[i] * r[j] for r in rows) for j in range(k)] for i in range(k)]
    b = [sum(r[i] * y for r, y in zip(rows, rhs, strict=True)) for i in range(k)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for r in range(k):
            if r != col:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
                b[r] -= factor * b[col]
    return [b[i] / a[i][i] / norms[i] for i in range(k)]


def fit_class(name: str, sizes: list[float], costs: list[float], noise: Noise = TIME_NOISE) -> ClassFit:
    """The best non-negative fit of one class (its leading term required); error inf if it cannot explain the data."""
    terms = BASES[name]
    leading = terms[-1]
    n_max = max(sizes)
    if leading == "2^n" and n_max > MAX_EXPONENTIAL_N:
        return ClassFit(name, math.inf, {})
    scale = {t: TERMS[t](n_max) or 1.0 for t in terms}
    best = ClassFit(name, math.inf, {})
    others = terms[:-1]
    for k in range(len(others) + 1):
        for subset in combinations(others, k):
            chosen = (*subset, leading)
            # errors in noise units: every row divided by its point's expected noise
            sigma = [noise.absolute + noise.relative * c for c in costs]
            rows = [[TERMS[t](n) / scale[t] / w for t in chosen] for n, w in zip(sizes, sigma, strict=True)]
            coef = _solve(rows, [c / w for c, w in zip(costs, sigma, strict=True)])
            if coef is None or any(x < 0 for x in coef):
                continue
            coefficients = {t: x / scale[t] for t, x in zip(chosen, coef, strict=True)}
            fit = ClassFit(name, 0.0, coefficients)
            top = fit.predict(n_max)
            share = coefficients[leading] * TERMS[leading](n_max)
            if leading != "1" and top > 0 and share < noise.min_leading_share * top:
                continue
            error = math.sqrt(
                sum(((fit.predict(n) - c) / w) ** 2 for n, c, w in zip(sizes, costs, sigma, strict=True)) / len(costs)
            )
            if error < best.error:
                best = ClassFit(name, error, coefficients)
    return best


def loglog_line(sizes: list[float], costs: list[float]) -> tuple[float | None, float | None]:
    """Slope and R^2 of log(cost) against log(n): a sanity figure, not the classifier."""
    if len(sizes) < 2:
        return None, None
    xs = [math.log(n) for n in sizes]
    ys = [math.log(c) for c in costs]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None, None
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    ss_tot = sum((y - my) ** 2 for y in ys)
    ss_res = sum((y - (my + slope * (x - mx))) ** 2 for x, y in zip(xs, ys, strict=True))
    return slope, (1 - ss_res / ss_tot) if ss_tot > 0 else 1.0


def choose(
    sizes: list[float], costs: list[float], classes: tuple[str, ...] = CLASSES, noise: Noise = TIME_NOISE
) -> Fit:
    """Fit every class and choose the simplest one within tolerance of the best."""
    fits = [fit_class(c, sizes, costs, noise) for c in classes]
    finite = [f for f in fits if math.isfinite(f.error)]
    slope, r2 = loglog_line(sizes, costs)
    best_error = min(f.error for f in finite)
    # a simpler class is kept unless a more complex one fits clearly better than noise explains
    tolerance = max(1.0, 0.5 * best_error)
    chosen = next(f for f in finite if f.error <= best_error + tolerance)
    # another class within the same tolerance could as well have been the answer
    ambiguous = any(f.name != chosen.name and f.error <= best_error + tolerance for f in finite)
    if chosen.name in ("O(1)", "O(log n)") or len(sizes) < 4 or best_error > noise.poor_fit:
        ambiguous = True
    return Fit(chosen, fits, ambiguous, slope, r2)
