"""The complexity profiler: run a solution on generated inputs of growing size, fit, extrapolate.

Sizes double up to the problem's maximum (8-10 of them) or until a run fails or passes the time limit; each
size runs a few times and keeps the minimum CPU time (noise only adds) and the peak memory. The cost of
starting the program (measured at n = 1) is subtracted and only points clearly above it are fitted
(see judge/complexity.py). The fitted curve is extrapolated to the maximum n and compared with the
limits: that verdict matters more to a contest bot than the class label.

Where valgrind is installed, the class is read from executed-instruction counts instead of time
(judge/counting.py): counts are exact and blind to caches, so memory-bound programs keep their class.
The sizes that ran quickly natively are counted, in parallel on the sandbox's slots; time still
decides how long the program will take at the maximum n.

How a program runs (and is counted) on an input is its problem kind's to say (`ProblemKind.input_runner`, a
`judge/runners.py` `InputRunner`): alone, reading it, or through an interactor that reads it as hidden data (an
interactive problem: the program's own CPU time and instructions are measured, and an answer the interactor
rejects is a failed point).
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from cpbot.judge.complexity import COUNT_NOISE, choose, fit_class
from cpbot.judge.counting import find_valgrind
from cpbot.judge.generator import GENERATOR_TIME_MS, GeneratorError, IgnoresN, generate
from cpbot.judge.languages import Program
from cpbot.judge.model import Limits, ProfilePoint, ProfileReport, Verdict
from cpbot.judge.runners import Alone, InputRunner
from cpbot.judge.sandbox import Sandbox
from cpbot.judge.validator import InputGate
from cpbot.judge.verdicts import STARVED_RETRIES, is_starved

MIN_MS_ABOVE_BASELINE = 5.0
MIN_KB_ABOVE_BASELINE = 2048
MIN_POINTS = 5
REFINE_ROUNDS = 2
COUNT_NATIVE_MS = 60.0  # sizes whose native run took at most this long are counted
COUNT_SIZES = 6
MIN_COUNT_POINTS = 4
MIN_INSTRUCTIONS_ABOVE_BASELINE = 20000
MIN_EXTENDED_SIZE = 8  # counting below the schedule stops here: smaller inputs say little about growth
Progress = Callable[[ProfilePoint], None]


class InvalidInput(GeneratorError):
    """A generated input the solve's input gate drops: it breaks the constraints."""


def size_schedule(max_n: int, count: int = 10) -> list[int]:
    """Doubling sizes ending at max_n (small maxima get evenly spaced sizes instead)."""
    if max_n <= 64:
        step = max(1, max_n // count)
        sizes = list(range(max(2, max_n - step * (count - 1)), max_n + 1, step))
    else:
        sizes = [max(2, round(max_n / 2**k)) for k in range(count - 1, -1, -1)]
    sizes = sorted(set(sizes) | {max_n})
    return [n for n in sizes if n >= 2] or [max_n]


def _status(verdict: Verdict | None) -> str:
    named = {None: "ok", Verdict.TLE: "tle", Verdict.MLE: "mle", Verdict.WA: "wrong", Verdict.PE: "wrong"}
    return named.get(verdict, "crash")  # WA and PE only through an interactor: no output is checked otherwise


class _Profiler:
    def __init__(
        self,
        program: Program,
        generator: Program,
        limits: Limits,
        sandbox: Sandbox,
        seed: int,
        repeats: int,
        progress: Progress | None,
        generator_time_ms: int,
        gate: InputGate | None = None,
        runner: InputRunner | None = None,
    ) -> None:
        self.gate = gate
        self.runner = runner or Alone(sandbox)
        self.generator_time_ms = generator_time_ms
        self.program, self.generator, self.limits = program, generator, limits
        self.sandbox, self.seed, self.repeats, self.progress = sandbox, seed, repeats, progress
        self.sizes_by_input: dict[bytes, int] = {}
        # the seed of the input a size's point was kept from, when not `seed` (the slowest of several inputs)
        self.kept_seed: dict[int, int] = {}

    def input(self, n: int, seed: int | None = None) -> bytes:
        seed = self.kept_seed.get(n, self.seed) if seed is None else seed
        data = generate(self.generator, n, seed, self.sandbox, self.generator_time_ms)
        if self.gate is not None and (why := self.gate.admit(data, "profile")) is not None:
            raise InvalidInput(
                f"the generator's input for n={n}, seed={seed} breaks the constraints: {why}",
                hint="a profile on invalid inputs says nothing about the program",
            )
        return data

    def measure_other(self, n: int, seed: int) -> ProfilePoint | None:
        """The point at size `n` on the input of another `seed`; None when that input was measured already
        (a generator that ignores its seed) or breaks the constraints."""
        try:
            data = self.input(n, seed)
        except InvalidInput:
            return None  # dropped (and counted by the gate): the other seeds still show the worst case
        if hashlib.sha256(data).digest() in self.sizes_by_input:
            return None
        return self._run(n, data)

    def measure(self, n: int) -> ProfilePoint:
        data = self.input(n, self.seed)
        digest = hashlib.sha256(data).digest()
        if digest in self.sizes_by_input:
            raise IgnoresN(
                f"generator ignores N: n={self.sizes_by_input[digest]} and n={n} "
                f"(seed {self.seed}) give the same input",
                hint="the generator must read N from argv[1] and print an input of that size",
            )
        self.sizes_by_input[digest] = n
        return self._run(n, data)

    def _run(self, n: int, data: bytes) -> ProfilePoint:
        cpu, peak, status = math.inf, 0, "ok"
        for _ in range(self.repeats):
            ex = self.runner(self.program, data, self.limits)
            for _ in range(STARVED_RETRIES):  # a busy machine's starving is not the program's time
                if not is_starved(ex.run):
                    break
                ex = self.runner(self.program, data, self.limits)
            cpu, peak = min(cpu, ex.run.cpu_ms), max(peak, ex.run.peak_kb)
            status = _status(ex.verdict)
            if status != "ok":  # a failing run is not repeated: it says what it has to say
                break
        point = ProfilePoint(size=n, cpu_ms=round(cpu, 3), peak_kb=peak, status=status)  # type: ignore[arg-type]
        if self.progress:
            self.progress(point)
        return point

    def count(self, points: list[ProfilePoint], valgrind: str) -> list[ProfilePoint]:
        """The same points with instruction counts for those that ran quickly (the baseline first)."""
        cheap = [p for p in points[1:] if p.status == "ok" and p.cpu_ms <= COUNT_NATIVE_MS]
        chosen = {points[0].size, *_spread([p.size for p in cheap], COUNT_SIZES)}

        def one(point: ProfilePoint) -> ProfilePoint:
            if point.size not in chosen:
                return point
            counted = self.runner.count(
                self.program, self.input(point.size), self.limits, native_cpu_ms=point.cpu_ms, valgrind=valgrind
            )
            return point.model_copy(update={"instructions": counted.instructions})

        with ThreadPoolExecutor(max_workers=max(1, self.sandbox.size)) as pool:
            return list(pool.map(one, points))


def _spread(sizes: list[int], count: int) -> list[int]:
    """Up to `count` of `sizes`, from the largest down, each at most half the one before: exact counts
    need a wide range more than many points (midpoints added by refining sit too close together)."""
    picked: list[int] = []
    for n in sorted(sizes, reverse=True):
        if len(picked) == count:
            break
        if not picked or n * 2 <= picked[-1] * 1.05:
            picked.append(n)
    return picked


def profile_program(
    program: Program,
    generator: Program,
    *,
    max_n: int,
    limits: Limits,
    sandbox: Sandbox,
    sizes: list[int] | None = None,
    repeats: int = 3,
    seed: int = 1,
    progress: Progress | None = None,
    generator_time_ms: int = GENERATOR_TIME_MS,
    count: bool = True,
    largest_seeds: int = 1,
    gate: InputGate | None = None,
    runner: InputRunner | None = None,
) -> ProfileReport:
    """Profile a built program; a crash or a TLE at some size is a marked point, not an abort. An input the
    `gate` drops raises `GeneratorError`: no profile rests on inputs that break the constraints.

    `runner` runs (and counts) the program on each input (default: alone, reading it; an interactive problem's
    kind gives one through its interactor). `count=False` (or no valgrind) reads the class from CPU time alone.
    The largest size runs on `largest_seeds` inputs (seeds `seed`, `seed + 1`, ...) and keeps the slowest.
    """
    schedule = sizes or size_schedule(max_n)
    prof = _Profiler(program, generator, limits, sandbox, seed, repeats, progress, generator_time_ms, gate, runner)
    baseline = prof.measure(1)
    points: list[ProfilePoint] = []
    for n in schedule:
        point = prof.measure(n)
        points.append(point)
        if point.status != "ok":  # larger sizes only fail again, slower
            break
    if points and points[-1].status == "ok":
        points[-1] = _worst_of_seeds(prof, points[-1], largest_seeds)
    for _ in range(REFINE_ROUNDS):
        if len(usable_points(points, baseline)) >= MIN_POINTS:
            break
        points = _refine(points, baseline, prof)
    valgrind = find_valgrind() if count else None
    if valgrind:
        points = _extend_down(points, prof)
        baseline, *points = prof.count([baseline, *points], valgrind)
    return _report(points, baseline, max_n, limits)


def _worst_of_seeds(prof: _Profiler, point: ProfilePoint, seeds: int) -> ProfilePoint:
    """The slowest of `point` and the same size on `seeds - 1` other inputs: a generator's rarer shapes (a
    long path, a pattern that defeats a heuristic) decide the worst case, not its first input alone."""
    worst = point
    for k in range(1, seeds):
        other = prof.measure_other(point.size, prof.seed + k)
        if other is not None and (other.status != "ok", other.cpu_ms) > (worst.status != "ok", worst.cpu_ms):
            worst = other
            prof.kept_seed[point.size] = prof.seed + k  # counted later on this input, not the first seed's
        if worst.status != "ok":
            break
    return worst


def _extend_down(points: list[ProfilePoint], prof: _Profiler) -> list[ProfilePoint]:
    """Halve below the smallest size until enough sizes are quick enough to count (a program already
    slow at the schedule's first size - a quadratic one in Python, say - is counted at smaller n)."""
    cheap = [p.size for p in points if p.status == "ok" and p.cpu_ms <= COUNT_NATIVE_MS]
    n = min((p.size for p in points), default=2) // 2
    added = []
    while len(_spread(cheap, COUNT_SIZES)) < COUNT_SIZES and n >= MIN_EXTENDED_SIZE:
        point = prof.measure(n)
        added.append(point)
        if point.status == "ok" and point.cpu_ms <= COUNT_NATIVE_MS:
            cheap.append(n)
        n //= 2
    return sorted(points + added, key=lambda p: p.size)


def usable_points(points: list[ProfilePoint], baseline: ProfilePoint) -> list[ProfilePoint]:
    """Points that ran fine and clearly above the start-up cost: the ones growth can be read from."""
    return [p for p in points if p.status == "ok" and p.cpu_ms - baseline.cpu_ms >= MIN_MS_ABOVE_BASELINE]


def fitted_time(report: ProfileReport) -> Callable[[float], float] | None:
    """The profiler's fitted CPU time in ms at size n: the start-up cost (the report's first point, n = 1)
    plus the reported class fitted to the usable points' time above it. None without a class or a usable
    point. The prediction at the maximum n, the PNG and the HTML export's plot all draw this one curve."""
    if report.complexity is None or len(report.points) < 2:
        return None
    baseline, *points = report.points
    timed = usable_points(points, baseline)
    if not timed:
        return None
    fit = fit_class(report.complexity, [p.size for p in timed], [p.cpu_ms - baseline.cpu_ms for p in timed])
    if not math.isfinite(fit.error):
        return None
    return lambda n: baseline.cpu_ms + fit.predict(n)


def _counted(points: list[ProfilePoint], baseline: ProfilePoint) -> list[ProfilePoint]:
    """Points whose instruction count grew clearly above the start-up's."""
    if baseline.instructions is None:
        return []
    return [
        p
        for p in points
        if p.instructions is not None and p.instructions - baseline.instructions >= MIN_INSTRUCTIONS_ABOVE_BASELINE
    ]


def _refine(points: list[ProfilePoint], baseline: ProfilePoint, prof: _Profiler) -> list[ProfilePoint]:
    """Add geometric midpoints where the cost visibly grows, between sizes that ran within the limits:
    once a size failed, nothing at or near it runs again (each such run costs the whole time limit)."""
    done = {p.size for p in points}
    added = []
    for lo, hi in itertools.pairwise(points):
        if hi.status != "ok":
            break
        if hi.cpu_ms - baseline.cpu_ms < MIN_MS_ABOVE_BASELINE / 4:
            continue
        mid = round(math.sqrt(lo.size * hi.size))
        if mid not in done and lo.size < mid < hi.size:
            point = prof.measure(mid)
            added.append(point)
            done.add(mid)
    return sorted(points + added, key=lambda p: p.size)


def _classify(report: ProfileReport, points: list[ProfilePoint], baseline: ProfilePoint) -> None:
    """Set the class, slope, R^2 and ambiguity: from counts when enough grew, else from time."""
    counted = _counted(points, baseline)
    timed = usable_points(points, baseline)
    if len(counted) >= MIN_COUNT_POINTS:
        base = baseline.instructions or 0
        fit = choose([p.size for p in counted], [(p.instructions or 0) - base for p in counted], noise=COUNT_NOISE)
        report.metric = "instructions"
    elif len(timed) >= 3:
        fit = choose([p.size for p in timed], [p.cpu_ms - baseline.cpu_ms for p in timed])
    else:
        # no growth measurable above start-up: constant (or logarithmic: neither clock nor count can tell)
        report.complexity = "O(1)"
        report.ambiguous = True
        if baseline.instructions is not None:
            report.metric = "instructions"
        return
    report.complexity = fit.best.name  # type: ignore[assignment]
    report.ambiguous = fit.ambiguous
    report.slope = None if fit.slope is None else round(fit.slope, 3)
    report.r2 = None if fit.r2 is None else round(fit.r2, 4)


def _time_at(report: ProfileReport, points: list[ProfilePoint], baseline: ProfilePoint, max_n: int) -> float:
    """CPU time predicted at max_n for the chosen class: the larger of the class fitted to the times and,
    with counts, the counted growth scaled from the largest measured time (memory stalls only ever add)."""
    ok = [p for p in points if p.status == "ok"]
    measured_max = max((p.cpu_ms for p in ok), default=baseline.cpu_ms)
    timed = usable_points(points, baseline)
    name = report.complexity or "O(1)"
    if name == "O(1)" or not timed:
        return measured_max
    guesses = [measured_max]
    curve = fitted_time(report)
    if curve is not None:
        guesses.append(curve(max_n))
    counted = _counted(points, baseline)
    if report.metric == "instructions" and counted:
        base = baseline.instructions or 0
        shape = fit_class(name, [p.size for p in counted], [(p.instructions or 0) - base for p in counted], COUNT_NOISE)
        top = timed[-1]
        if math.isfinite(shape.error) and shape.predict(top.size) > 0:
            growth = shape.predict(max_n) / shape.predict(top.size)
            guesses.append(baseline.cpu_ms + (top.cpu_ms - baseline.cpu_ms) * growth)
    return max(guesses)


def _report(points: list[ProfilePoint], baseline: ProfilePoint, max_n: int, limits: Limits) -> ProfileReport:
    report = ProfileReport(points=[baseline, *points])
    failures = [p for p in points if p.status != "ok" and p.size <= max_n]
    _classify(report, points, baseline)
    report.predicted_ms_at_max = round(_time_at(report, points, baseline, max_n), 1)
    report.predicted_kb_at_max = _memory_at(points, baseline, max_n)
    reasons = []
    if failures:
        first = failures[0]
        reasons.append(f"{first.status.upper()} at n={first.size} ({first.cpu_ms:.0f} ms)")
    fits_time = report.predicted_ms_at_max <= limits.time_ms
    fits_memory = report.predicted_kb_at_max <= limits.memory_mb * 1024
    report.efficient = not failures and fits_time and fits_memory
    read_from = "instruction counts" if report.metric == "instructions" else "CPU time"
    reasons.append(
        f"{report.complexity}{' (ambiguous)' if report.ambiguous else ''} from {read_from}: about "
        f"{report.predicted_ms_at_max:.0f} ms at n={max_n} against a limit of {limits.time_ms} ms"
    )
    reasons.append(f"memory about {report.predicted_kb_at_max / 1024:.0f} MB against {limits.memory_mb} MB")
    report.reason = "; ".join(reasons)
    return report


def _memory_at(points: list[ProfilePoint], baseline: ProfilePoint, max_n: int) -> int:
    """Peak memory extrapolated to max_n (linear-or-slower growth assumed beyond the measured sizes)."""
    ok = [p for p in points if p.status == "ok"]
    grown = [p for p in ok if p.peak_kb - baseline.peak_kb >= MIN_KB_ABOVE_BASELINE]
    if len(grown) < 3:
        return max((p.peak_kb for p in ok), default=baseline.peak_kb)
    fit = choose(
        [p.size for p in grown],
        [p.peak_kb - baseline.peak_kb for p in grown],
        classes=("O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2)", "O(n^3)"),
    )
    return int(baseline.peak_kb + fit.best.predict(max_n))
