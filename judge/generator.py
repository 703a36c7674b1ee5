"""Input generators: a program run as `GENERATOR N SEED` that prints one valid input of size N."""

from __future__ import annotations

from cpbot.core.errors import CpbotError
from cpbot.judge.execute import execute
from cpbot.judge.languages import Program
from cpbot.judge.memo import BytesLRU
from cpbot.judge.model import Limits
from cpbot.judge.sandbox import RunLimits, Sandbox
from cpbot.judge.verdicts import STARVED_RETRIES, is_starved

GENERATOR_TIME_MS = 10_000
GENERATOR_LIMITS = Limits(time_ms=GENERATOR_TIME_MS, memory_mb=1024, output_mb=256)
# a generator's input is a function of (N, seed): made once per process for every check that asks for it
INPUTS: BytesLRU[bytes] = BytesLRU(len)


class GeneratorError(CpbotError):
    """The generator failed: names the size and seed, so the user can reproduce it."""


class IgnoresN(GeneratorError):
    """The generator's input does not change with N: every size would be the same test."""


def generate(generator: Program, n: int, seed: int, sandbox: Sandbox, time_ms: int = GENERATOR_TIME_MS) -> bytes:
    """One input of size `n`; a crash, silence or a hang is a `GeneratorError`, never an input."""
    key = (tuple(generator.argv), generator.key, n, seed, time_ms) if generator.key else None
    made = INPUTS.get(key) if key else None
    if made is not None:
        return made
    limits = RunLimits(cpu_ms=time_ms, wall_ms=2 * time_ms, address_space_kb=2 << 20, output_bytes=256 << 20)
    for _ in range(1 + STARVED_RETRIES):  # a busy machine's starving is not the generator's slowness
        ex = execute(
            generator, b"", sandbox, limits=GENERATOR_LIMITS, args=[str(n), str(seed)], run_limits_override=limits
        )
        if not is_starved(ex.run):
            break
    where = f"generator failed for n={n}, seed={seed}"
    hint = "run it by hand as `GENERATOR N SEED`; it must print one input and exit 0"
    if ex.run.killed:
        raise GeneratorError(f"{where}: it did not finish within {time_ms / 1000:g} s", hint=hint)
    if ex.run.status != "exited" or ex.run.exit_code:
        why = ex.message or ex.run.status
        tail = ex.stderr.strip().splitlines()[-1:] or [""]
        raise GeneratorError(f"{where}: {why} {tail[0]}".rstrip(), hint=hint)
    if not ex.stdout.strip():
        raise GeneratorError(f"{where}: it printed nothing", hint=hint)
    if key:
        INPUTS.put(key, ex.stdout)
    return ex.stdout


def check_uses_n(
    generator: Program, small: int, large: int, seed: int, sandbox: Sandbox, time_ms: int = GENERATOR_TIME_MS
) -> None:
    """A generator whose output does not change with N would make every size the same test."""
    if small == large:
        return
    if generate(generator, small, seed, sandbox, time_ms) == generate(generator, large, seed, sandbox, time_ms):
        raise IgnoresN(
            f"generator ignores N: n={small} and n={large} (seed {seed}) give the same input",
            hint="the generator must read N from argv[1] and print an input of that size",
        )
