"""What the input validator adds to the gate's model-free checks: stress and profile of one lab problem's
reference with and without the solve's `InputGate` (the folder's validator.py), and the self-check alone.

Each configuration runs `--rounds` times, alternating, after one round not counted (the generator's inputs
and the brute force's answers are memoised per process: that round makes them for both), and the median
wall time is printed with the number of validator runs. Say the machine's load with the figures (`uptime`).

    python scripts/perf/validator_cost.py [--lab tests/fixtures/lab/static_range_sum] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from cpbot.agents.roles.validator import check_validator
from cpbot.judge.build import build_program_file, build_solution
from cpbot.judge.checkers import builtin_checker
from cpbot.judge.model import Problem, Solution
from cpbot.judge.profile import profile_program
from cpbot.judge.sandbox import default_sandbox
from cpbot.judge.stress import stress_programs
from cpbot.judge.validator import InputGate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lab", type=Path, default=Path("tests/fixtures/lab/static_range_sum"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=200, help="stress runs (sizes 1..8)")
    parser.add_argument("--max-n", type=int, default=100_000, help="profile up to this size")
    args = parser.parse_args()
    folder: Path = args.lab
    sandbox = default_sandbox()
    problem = Problem.model_validate_json((folder / "problem.json").read_text())
    validator = Solution(language="python3", source=(folder / "validator.py").read_text())
    started = time.monotonic()
    checked = check_validator(validator, problem, sandbox)
    print(f"self-check: {time.monotonic() - started:.2f} s ({checked.note})")
    reference, brute, generator = (
        build_program_file(folder / name, sandbox, role="program") for name in ("reference.cpp", "brute.py", "gen.py")
    )
    program = build_solution(validator, sandbox).program
    assert program is not None
    times: dict[str, list[float]] = {}
    runs: dict[str, int] = {}
    for round_number in range(args.rounds + 1):
        for gated in (False, True):
            gate = InputGate(program, sandbox) if gated else None
            name = "with validator" if gated else "without"
            started = time.monotonic()
            stress_programs(
                reference,
                brute,
                generator,
                checker=builtin_checker("tokens"),
                limits=problem.limits,
                sandbox=sandbox,
                max_runs=args.runs,
                max_size=8,
                gate=gate,
            )
            middle = time.monotonic()
            profile_program(
                reference,
                generator,
                max_n=args.max_n,
                limits=problem.limits,
                sandbox=sandbox,
                repeats=1,
                count=False,
                largest_seeds=8,
                gate=gate,
            )
            ended = time.monotonic()
            if not round_number:
                continue
            times.setdefault(f"stress {name}", []).append(middle - started)
            times.setdefault(f"profile {name}", []).append(ended - middle)
            if gate is not None:
                runs["validated"] = sum(gate.admitted.values()) + sum(gate.dropped.values())
    for key, values in times.items():
        print(f"{key:<26} median {statistics.median(values):7.2f} s  (of {len(values)})")
    print(f"validator runs per round (stress + profile, memoised per input): {runs.get('validated', 0)}")


if __name__ == "__main__":
    main()
