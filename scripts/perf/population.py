"""Strategies against a model that samples: how often the final answer is right on the hidden tests.

The population model (`cpbot.testing.population_server`) serves each lab problem's candidates
(`tests/fixtures/lab/`, right and wrong-but-sample-passing programs) with a set pass@1: a stand-in
for a model whose every program is a draw. Each strategy solves each problem once per seed and
pass@1, against a population model of its own, so every strategy meets the same draws; its final
program is judged on the problem's hidden tests (`bot.lab.dataset.hidden_tests`).
Per strategy and pass@1 it prints: solves; the final answer's hidden-test AC rate; how often a wrong
program was returned as "solved"; the ceiling (solves whose draws held a right program) and the AC
rate within it; the first draw's AC rate (the population's pass@1 as drawn); mean calls, tokens and
wall seconds per solve. Solves run one after another; the population model answers at once unless
`--latency` says otherwise.

    python scripts/perf/population.py [--lab tests/fixtures/lab] [--strategies direct cpbot]
        [--pass-at-1 0.3 0.6] [--seeds 1 2] [--only a b] [--max-calls 40] [--options '{"cpbot": {...}}']
        [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from cpbot.agents.budget import Budget
from cpbot.agents.llm import LLMClient, LLMConfig
from cpbot.agents.solve import solve
from cpbot.bot.lab.dataset import LabProblem, hidden_tests, load_dataset
from cpbot.core.errors import CpbotError
from cpbot.judge.model import Verdict
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import default_sandbox
from cpbot.testing.population_server import PopulationModel, load_lab
from cpbot.testing.scripted_server import ScriptedServer

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Solve:
    """One solve of one problem by one strategy, and how its answer fared on the hidden tests."""

    strategy: str
    pass_at_1: float
    seed: int
    problem: str
    status: str
    hidden_ac: bool
    hidden_verdict: str  # of the final program on the hidden tests ("" when there is none)
    final: str  # the final program's file in the lab folder ("" when none, "?" when not a drawn one)
    ceiling: bool  # a right program was among the draws of this solve
    first_right: bool | None  # the first program drawn was right (None: nothing drawn)
    draws: int
    calls: int
    tokens: int
    seconds: float
    error: str = ""


def language_of(lab: LabProblem) -> str:
    """The solve's language: the candidates' (C++ unless they are all Python)."""
    files = [c.file for c in lab.spec.candidates]
    return "python3" if files and all(f.endswith(".py") for f in files) else "cpp17"


def run_one(
    lab: LabProblem, strategy: str, model: PopulationModel, client: LLMClient, args: argparse.Namespace, seed: int
) -> Solve:
    """Solve `lab` with `strategy` and judge the answer on the hidden tests."""
    before = len(model.draws)
    started = time.perf_counter()
    options = json.loads(args.options).get(strategy, {}) if args.options else {}
    budget = Budget(max_calls=args.max_calls, max_tokens=None, max_seconds=args.max_seconds)
    error, status, calls, tokens, hidden_ac, verdict, final = "", "failed", 0, 0, False, "", ""
    try:
        result = solve(
            lab.problem, strategy=strategy, language=language_of(lab), model=client, budget=budget, options=options
        )
        status, calls, tokens = result.status, result.calls, result.tokens
        if result.solution is not None:
            report = judge_problem(result.solution, lab.problem, hidden_tests(lab), stop_on_failure=True)
            hidden_ac, verdict = report.verdict == Verdict.AC, str(report.verdict)
            by_source = {p.source.strip(): p.name for pop in model.populations for p in pop.programs}
            final = by_source.get(result.solution.source.strip(), "?")
    except CpbotError as e:
        error = e.message
    drawn = [d for d in model.draws[before:] if d.problem_id == lab.problem.id]
    return Solve(
        strategy=strategy,
        pass_at_1=model.pass_at_1,
        seed=seed,
        problem=lab.name,
        status=status,
        hidden_ac=hidden_ac,
        hidden_verdict=verdict,
        final=final,
        ceiling=any(d.right for d in drawn),
        first_right=drawn[0].right if drawn else None,
        draws=len(drawn),
        calls=calls,
        tokens=tokens,
        seconds=round(time.perf_counter() - started, 2),
        error=error,
    )


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "-"


def table(solves: list[Solve]) -> list[str]:
    """One line per strategy and pass@1."""
    lines = [
        "strategy     pass@1  solves  hidden AC       wrong as solved  ceiling         AC within ceiling  "
        "first draw AC   draws  calls  tokens   seconds"
    ]
    groups: dict[tuple[str, float], list[Solve]] = {}
    for s in solves:
        groups.setdefault((s.strategy, s.pass_at_1), []).append(s)
    for (strategy, p), group in groups.items():
        n = len(group)
        ac = sum(s.hidden_ac for s in group)
        wrong_solved = sum(s.status == "solved" and not s.hidden_ac for s in group)
        ceiling = [s for s in group if s.ceiling]
        firsts = [s for s in group if s.first_right is not None]
        lines.append(
            f"{strategy:<12} {p:<6g}  {n:<6}  {share(ac, n):<15} {share(wrong_solved, n):<16} "
            f"{share(len(ceiling), n):<15} {share(sum(s.hidden_ac for s in ceiling), len(ceiling)):<18} "
            f"{share(sum(bool(s.first_right) for s in firsts), len(firsts)):<15} "
            f"{statistics.mean(s.draws for s in group):<6.1f} {statistics.mean(s.calls for s in group):<6.1f} "
            f"{statistics.mean(s.tokens for s in group):<8.0f} {statistics.mean(s.seconds for s in group):.1f}"
        )
    return lines


def show(one: Solve, *, as_json: bool) -> None:
    """One solve as it ends: a JSON line on stdout, or a progress line on stderr."""
    if as_json:
        print(json.dumps(asdict(one)), flush=True)
        return
    print(
        f"  {one.strategy} p={one.pass_at_1:g} seed={one.seed} {one.problem}: {one.status} {one.final}, "
        f"hidden {one.hidden_verdict or '-'}, "
        f"{one.draws} draws, {one.calls} calls, {one.seconds} s {one.error}",
        file=sys.stderr,
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lab", type=Path, default=REPO / "tests" / "fixtures" / "lab")
    parser.add_argument("--strategies", nargs="+", default=["direct", "cpbot"])
    parser.add_argument("--pass-at-1", type=float, nargs="+", default=[0.3, 0.6])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--only", nargs="+", default=None, help="problem folder names")
    parser.add_argument("--max-calls", type=int, default=40)
    parser.add_argument("--max-seconds", type=float, default=900.0)
    parser.add_argument("--max-in-flight", type=int, default=8)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per reply (0)")
    parser.add_argument("--options", default="", help='strategy options as JSON, e.g. {"cpbot": {"tests": 3}}')
    parser.add_argument("--json", action="store_true", help="print every solve as JSON lines too")
    args = parser.parse_args(argv)
    labs = load_dataset(args.lab, set(args.only) if args.only else None)
    populations = [p for p in load_lab(args.lab) if p.problem_id in {lab.problem.id for lab in labs}]
    default_sandbox()  # started once, before the clock of the first solve
    usable = []
    for lab in labs:
        try:
            hidden_tests(lab)  # made and cached before any solve is timed
        except CpbotError as e:
            print(f"  {lab.name} left out: its hidden tests cannot be made ({e.message})", file=sys.stderr)
            continue
        usable.append(lab)
    labs = usable
    solves: list[Solve] = []
    for p in args.pass_at_1:
        for seed in args.seeds:
            for strategy in args.strategies:
                # a model of its own per strategy: every strategy meets the same draws for the same seed
                model = PopulationModel(populations, pass_at_1=p, seed=seed, latency_s=args.latency)
                with ScriptedServer(default=model) as server:
                    config = LLMConfig(
                        base_url=server.base_url, api_key="sk-x", model="population", max_in_flight=args.max_in_flight
                    )
                    with LLMClient(config, probe=False) as client:
                        for lab in labs:
                            solves.append(run_one(lab, strategy, model, client, args, seed))
                            show(solves[-1], as_json=args.json)
    print("\n".join(table(solves)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
