"""The stress tester: a solution against a brute force on many small generated inputs, then shrink.

Sizes start at 1 and grow slowly (several seeds per size), so the first failure is already small; the
shrinker then retries every smaller size with a range of seeds and keeps the smallest failing input.
Everything is a function of the seed, so a run can be reproduced exactly.

`stress_ladder` goes on where small inputs stop: the same comparison at sizes that double, as long as
the brute force answers within a CPU-time cut-off. Some wrong programs agree with the brute force on every small input:
a 32-bit sum or count that overflows only past a few dozen large values, a product past size 8, a
greedy whose counterexample needs more elements than small random inputs hold, an off-by-one at a
block or buffer boundary.

Both are bounded by counts (runs, sizes, seeds per size) and by CPU time, never by the clock, so a
busy machine gets the same checks as a quiet one, only later: a run the machine starved of CPU (killed
at its wall-clock limit while waiting for a processor) is run again, and skipped (and reported) if it
starves every time. A wall-clock bound (`max_seconds`) stays as a safety net only; the report says
when it stopped a search early (`StressReport.time_limited`).
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cpbot.core.errors import CpbotError
from cpbot.judge.checkers import Checker, CheckInput
from cpbot.judge.execute import Execution, execute
from cpbot.judge.generator import GENERATOR_TIME_MS, GeneratorError, check_uses_n, generate
from cpbot.judge.languages import Program
from cpbot.judge.memo import BytesLRU
from cpbot.judge.model import Limits, StressFailure, StressReport, Verdict
from cpbot.judge.sandbox import RunLimits, Sandbox
from cpbot.judge.validator import InputGate
from cpbot.judge.verdicts import STARVED_RETRIES, is_starved, run_limits

SEEDS_PER_SIZE = 10
SHRINK_SEEDS = 40
# a search whose first inputs are all invalid stops here: the generator breaks the constraints
MAX_INVALID_BEFORE_ANY = 20
LADDER_BRUTE_WALL_FACTOR = 10  # the ladder's brute force is cut off by CPU time; wall time only stops a hang
# the brute force's run on an input, kept for the next candidate stressed with the same brute force and input
BRUTE_RUNS: BytesLRU[Execution] = BytesLRU(lambda ex: len(ex.stdout) + len(ex.stderr) + 256)


class BruteForceError(CpbotError):
    """The brute force itself failed: its output cannot serve as the answer."""


@dataclass(frozen=True)
class StressProgress:
    """Where a stress search is, after each compared input (for a progress line)."""

    runs: int  # inputs compared, shrinking included
    size: int  # the size of the last input
    largest: int  # the largest size reached
    slowest_ms: float  # the solution's slowest run so far (CPU)
    found_size: int | None = None  # the smallest failing size so far, once one is found (then it shrinks)


OnProgress = Callable[[StressProgress], None]


class _Stress:
    def __init__(
        self,
        solution: Program,
        brute: Program,
        generator: Program,
        checker: Checker,
        limits: Limits,
        sandbox: Sandbox,
        workdir: Path,
        generator_time_ms: int,
        brute_limits: Limits | None = None,
        brute_run_limits: RunLimits | None = None,
        gate: InputGate | None = None,
        origin: str = "stress",
        panel: Sequence[Program] = (),
    ) -> None:
        self.gate, self.origin = gate, origin
        self.generator_time_ms = generator_time_ms
        self.panel = [brute, *panel]  # every brute force whose answers are weighed (the first is `brute`)
        self.contested = 0  # inputs skipped: the brute forces disagreed and no answer had a majority
        self.solution, self.brute, self.generator = solution, brute, generator
        self.checker, self.limits, self.sandbox, self.workdir = checker, limits, sandbox, workdir
        self.brute_limits = brute_limits or limits
        self.brute_run_limits = brute_run_limits
        self.runs = 0
        self.starved = 0  # inputs skipped: a program starved of CPU on every try
        self.invalid = 0  # inputs dropped: the validator rejects them
        self.largest = 0
        self.slowest_ms = 0.0
        self.found_size: int | None = None
        self.progress: OnProgress | None = None

    def _execute(self, program: Program, data: bytes, limits: Limits, override: RunLimits | None = None) -> Execution:
        """Run `program`; again when the machine starved it of CPU (its verdict would be the machine's)."""
        for _ in range(STARVED_RETRIES):
            ex = execute(program, data, self.sandbox, limits=limits, run_limits_override=override)
            if not is_starved(ex.run):
                return ex
        return execute(program, data, self.sandbox, limits=limits, run_limits_override=override)

    def _brute(self, data: bytes, brute: Program | None = None) -> Execution:
        """A brute force's run on `data` (a run made for an earlier candidate when there is one)."""
        brute = brute or self.brute
        if not brute.key:
            return self._execute(brute, data, self.brute_limits, self.brute_run_limits)
        override = self.brute_run_limits.model_dump_json() if self.brute_run_limits else ""
        key = (
            tuple(brute.argv),
            brute.key,
            hashlib.sha256(data).digest(),
            self.brute_limits.model_dump_json(),
            override,
        )
        ran = BRUTE_RUNS.get(key)
        if ran is None:
            ran = self._execute(brute, data, self.brute_limits, self.brute_run_limits)
            if not is_starved(ran.run):
                BRUTE_RUNS.put(key, ran)
        return ran

    def failure(self, size: int, seed: int) -> StressFailure | None:
        """Run one generated case; the failure it shows, or None when the solution agrees (or when the
        machine starved a program of CPU on every try: the input is skipped and counted in `starved`)."""
        found = self._compare(size, seed)
        self.largest = max(self.largest, size)
        if found is not None:
            self.found_size = min(size, self.found_size or size)
        if self.progress is not None:
            self.progress(StressProgress(self.runs, size, self.largest, self.slowest_ms, self.found_size))
        return found

    def _compare(self, size: int, seed: int) -> StressFailure | None:
        self.runs += 1
        data = generate(self.generator, size, seed, self.sandbox, self.generator_time_ms)
        if self.gate is not None and self.gate.admit(data, self.origin) is not None:
            self.invalid += 1
            return None
        runs = [self._brute(data, program) for program in self.panel]
        if any(is_starved(run.run) for run in runs):
            self.starved += 1
            return None
        for seat, run in enumerate(runs):
            if run.verdict is not None:
                which = "the brute force" if len(runs) == 1 else f"brute force {seat + 1} of {len(runs)}"
                raise BruteForceError(
                    f"{which} failed for n={size}, seed={seed}: {run.verdict} ({run.message})",
                    hint="the brute force must solve every generated input; check it, or lower --max-size",
                )
        brute = self._agreed(data, runs)
        if brute is None:
            self.contested += 1
            return None
        sol = self._execute(self.solution, data, self.limits)
        if is_starved(sol.run):
            self.starved += 1
            return None
        self.slowest_ms = max(self.slowest_ms, sol.run.cpu_ms)
        verdict, message = sol.verdict, sol.message
        if verdict is None:
            inp, out, ans = (self.workdir / name for name in ("input", "output", "answer"))
            inp.write_bytes(data)
            out.write_bytes(sol.stdout)
            ans.write_bytes(brute.stdout)
            check = self.checker.check(CheckInput(inp, out, ans))
            if check.verdict == Verdict.AC:
                return None
            verdict, message = check.verdict, check.message
        return StressFailure(
            size=size,
            seed=seed,
            input=data.decode(errors="replace"),
            expected=brute.stdout.decode(errors="replace"),
            got=sol.stdout.decode(errors="replace"),
            verdict=verdict,
            message=message,
        )

    def _agreed(self, data: bytes, runs: list[Execution]) -> Execution | None:
        """The run whose answer a majority of the panel gives (at least two seats when there are two or more,
        as the checker compares them: another seat's output judged with this one as the answer); None when
        no answer has one."""
        if len(runs) == 1:
            return runs[0]
        for reference in runs:
            agreeing = sum(other is reference or self._accepts(data, other.stdout, reference.stdout) for other in runs)
            if agreeing >= 2 and 2 * agreeing > len(runs):
                return reference
        return None

    def _accepts(self, data: bytes, output: bytes, answer: bytes) -> bool:
        if output == answer:
            return True
        inp, out, ans = (self.workdir / name for name in ("panel-input", "panel-output", "panel-answer"))
        inp.write_bytes(data)
        out.write_bytes(output)
        ans.write_bytes(answer)
        return self.checker.check(CheckInput(inp, out, ans)).verdict == Verdict.AC


def stress_programs(
    solution: Program,
    brute: Program,
    generator: Program,
    *,
    checker: Checker,
    limits: Limits,
    sandbox: Sandbox,
    max_runs: int = 200,
    max_seconds: float | None = None,
    max_size: int = 10,
    seed: int = 1,
    progress: OnProgress | None = None,
    generator_time_ms: int = GENERATOR_TIME_MS,
    gate: InputGate | None = None,
    panel: Sequence[Program] = (),
) -> StressReport:
    """Search for an input where `solution` and `brute` disagree within `max_runs` runs (`max_seconds`
    is a safety net only); shrink the first one found. `progress` hears of every compared input. With a
    `gate`, an input it drops is never compared (counted in `StressReport.invalid`), and a search whose first
    inputs are all dropped stops. With other brute forces on the `panel`, an input's answer is the one most of
    them agree on, and an input where they do not agree is skipped and counted (`StressReport.contested`): a
    counterexample is believed only when the brute forces agree on it."""
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="stress-", dir=sandbox.root))
    try:
        check_uses_n(generator, 1, max_size, seed, sandbox, generator_time_ms)
        st = _Stress(
            solution, brute, generator, checker, limits, sandbox, workdir, generator_time_ms, gate=gate, panel=panel
        )
        st.progress = progress
        found: StressFailure | None = None
        i = 0
        time_limited = False
        while i < max_runs:
            if max_seconds is not None and time.monotonic() - started >= max_seconds:
                time_limited = True
                break
            size = min(max_size, 1 + i // SEEDS_PER_SIZE)
            found = st.failure(size, seed + i)
            i += 1
            if found:
                break
            if st.invalid >= MAX_INVALID_BEFORE_ANY and st.invalid == st.runs - st.starved:
                break  # every input so far breaks the constraints: comparing on them proves nothing
        if found is None:
            largest = min(max_size, 1 + max(0, i - 1) // SEEDS_PER_SIZE)
            return StressReport(
                status="clean",
                runs=st.runs,
                seconds=round(time.monotonic() - started, 2),
                time_limited=time_limited,
                starved=st.starved,
                invalid=st.invalid,
                contested=st.contested,
                reason=f"no difference in {st.runs - st.invalid} runs (sizes 1..{largest})"
                + _cut_short(st, time_limited, max_seconds, f"of {max_runs}"),
            )
        first_size = found.size
        found = _shrink(st, found, seed)
        return StressReport(
            status="found",
            runs=st.runs,
            seconds=round(time.monotonic() - started, 2),
            failure=found,
            first_failure_size=first_size,
            starved=st.starved,
            invalid=st.invalid,
            contested=st.contested,
            reason=f"{found.verdict} on n={found.size}, seed={found.seed}: {found.message}",
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _cut_short(st: _Stress, time_limited: bool, max_seconds: float | None, planned: str) -> str:
    """What a clean report must admit: runs skipped for want of CPU, a search stopped by the safety net."""
    notes = []
    if time_limited:
        notes.append(f"stopped by the {max_seconds:g} s safety net after {st.runs} runs {planned}")
    if st.starved:
        notes.append(f"{st.starved} skipped: starved of CPU on every try")
    if st.invalid:
        notes.append(f"{st.invalid} generated inputs dropped: the validator rejects them")
    if st.contested:
        notes.append(f"{st.contested} skipped: the brute forces disagreed")
    return f" ({'; '.join(notes)})" if notes else ""


def _shrink(st: _Stress, found: StressFailure, seed: int) -> StressFailure:
    """The smallest failing input: smaller sizes first, then the shortest input at the smallest size."""
    best = found
    for size in range(1, found.size + 1):
        for s in range(seed, seed + SHRINK_SEEDS):
            if size == found.size and s == found.seed:
                continue
            failure = st.failure(size, s)
            if failure and (failure.size, len(failure.input)) < (best.size, len(best.input)):
                best = failure
        if best.size <= size:
            break
    return best


def stress_ladder(
    solution: Program,
    brute: Program,
    generator: Program,
    *,
    checker: Checker,
    limits: Limits,
    sandbox: Sandbox,
    sizes: list[int],
    seeds_per_size: int = 2,
    brute_ms: int = 2000,
    max_seconds: float | None = None,
    seed: int = 1,
    generator_time_ms: int = GENERATOR_TIME_MS,
    gate: InputGate | None = None,
    panel: Sequence[Program] = (),
) -> StressReport:
    """Compare `solution` with `brute` (with the `panel`: their agreed answer, as `stress_programs`) at each of
    `sizes` in turn (`seeds_per_size` inputs each) until they disagree or a brute force needs more than
    `brute_ms` of CPU time (or fails: it cannot be trusted beyond); `max_seconds` is a safety net only. A
    failure is reported at its size, not shrunk."""
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="ladder-", dir=sandbox.root))
    brute_limits = Limits(time_ms=brute_ms, memory_mb=max(limits.memory_mb, 1024), output_mb=limits.output_mb)
    brute_run_limits = run_limits(brute_limits).model_copy(
        update={"wall_ms": LADDER_BRUTE_WALL_FACTOR * brute_ms + 1000}
    )
    st = _Stress(
        solution,
        brute,
        generator,
        checker,
        limits,
        sandbox,
        workdir,
        generator_time_ms,
        brute_limits,
        brute_run_limits,
        gate=gate,
        origin="ladder",
        panel=panel,
    )
    reached = 0
    stop = "every size tried"
    time_limited = False
    try:
        for i, size in enumerate(sizes):
            for k in range(seeds_per_size):
                if max_seconds is not None and time.monotonic() - started >= max_seconds:
                    time_limited = True
                    stop = f"stopped by the {max_seconds:g} s safety net"
                    break
                try:
                    found = st.failure(size, seed + i * seeds_per_size + k)
                except (BruteForceError, GeneratorError) as e:
                    stop = f"at n={size}: {e.message}"
                    break
                if found is not None:
                    return StressReport(
                        status="found",
                        runs=st.runs,
                        seconds=round(time.monotonic() - started, 2),
                        failure=found,
                        first_failure_size=size,
                        starved=st.starved,
                        invalid=st.invalid,
                        contested=st.contested,
                        reason=f"{found.verdict} on n={size}, seed={found.seed} (size ladder): {found.message}",
                    )
            else:
                reached = size
                continue
            break
        starved = f"; {st.starved} skipped: starved of CPU on every try" if st.starved else ""
        starved += f"; {st.invalid} inputs dropped: the validator rejects them" if st.invalid else ""
        starved += f"; {st.contested} skipped: the brute forces disagreed" if st.contested else ""
        return StressReport(
            status="clean",
            runs=st.runs,
            seconds=round(time.monotonic() - started, 2),
            time_limited=time_limited,
            starved=st.starved,
            invalid=st.invalid,
            contested=st.contested,
            reason=f"no difference in {st.runs - st.invalid} runs at sizes up to {reached} ({stop}{starved})",
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
