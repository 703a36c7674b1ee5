"""What the performance scripts share: where the repository's data is, a three-round solve loop, and
running LeetCodeDataset references through the harness. Built on cpbot's public functions only (these
scripts import neither `tests` nor underscore names of cpbot)."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cpbot.agents.budget import Attempt, BestAttempt, BudgetExhausted, BudgetTracker
from cpbot.agents.envelopes import FinalAnswer
from cpbot.agents.extract import extract_code
from cpbot.agents.llm import LLMClient
from cpbot.agents.tracing import ReportEvent, Tracer
from cpbot.judge.harness import build_program, checker_for
from cpbot.judge.harness.dataset import DatasetItem, dataset_path
from cpbot.judge.model import JudgeReport, Limits, Solution, Verdict
from cpbot.judge.runner import judge_solution

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"  # recorded pages (data, read as files)
LEETCODE_DATASET = dataset_path(FIXTURES / "datasets")
COMPLEXITY_SUITE = REPO / "tests" / "judge" / "complexity"  # programs of known complexity (data)


# ---- a solve loop for the orchestration figures --------------------------------------------------

Judge = Callable[[Solution], JudgeReport]


def sum_judge(solution: Solution) -> JudgeReport:
    """A stand-in judge with no cost: accepts a program that adds (`a + b`), fails anything else."""
    ok = "a + b" in solution.source
    return JudgeReport(verdict=Verdict.AC if ok else Verdict.WA, passed=2 if ok else 1, total=2)


def three_round_solve(
    client: LLMClient, *, task_id: str, tracer: Tracer, budget: BudgetTracker, judge: Judge = sum_judge, rounds: int = 3
) -> FinalAnswer:
    """Ask for a program, judge it, send back the verdict, up to `rounds` times; everything traced."""
    llm = client.bind(task_id=task_id, budget=budget, tracer=tracer)
    best = BestAttempt()
    messages = [
        {"role": "system", "content": "Write one complete python3 program in a fenced block."},
        {"role": "user", "content": "Read a and b, print their sum."},
    ]
    reason = f"no accepted program after {rounds} rounds"
    for iteration in range(rounds):
        try:
            reply = llm.complete("coder", messages)
        except BudgetExhausted as e:
            reason = f"budget exhausted: {e.reason}"
            break
        solution = Solution(language="python3", source=extract_code(reply.text, "python3").code)
        report = judge(solution)
        tracer.emit(ReportEvent.of(report, task_id=task_id, iteration=iteration))
        best.offer(Attempt(iteration=iteration, solution=solution, report=report, tokens=reply.usage.total_tokens))
        if report.verdict == Verdict.AC:
            reason = "accepted on every test"
            break
        messages += [
            {"role": "assistant", "content": reply.text},
            {"role": "user", "content": f"Your program got {report.verdict}. Fix it."},
        ]
    return best.final_answer(reason, tracker=budget)


# ---- LeetCodeDataset references through the harness ----------------------------------------------

# Generous: the references are judged for the harness's sake, not for speed.
DATASET_LIMITS = Limits(time_ms=6000, memory_mb=1024)

# Appended to a reference: every result it returns is changed, so a judge that accepts it is vacuous.
PLANTED = """


def _cpbot_planted(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + "#"
    if isinstance(value, list):
        return value[:-1] if value else [0]
    return value


_cpbot_original = Solution.{method}
Solution.{method} = lambda self, *args, **kwargs: _cpbot_planted(_cpbot_original(self, *args, **kwargs))
"""


@dataclass
class ItemOutcome:
    """How one problem fared: its verdict, why it failed, and per-case times."""

    task: str
    verdict: Verdict
    cause: str = ""
    cpu_ms: list[float] = field(default_factory=list)
    wall_ms: list[float] = field(default_factory=list)


def run_item(item: DatasetItem, *, planted: bool = False, jobs: int = 2) -> ItemOutcome:
    """Judge the reference (or its planted-bug variant) on the item's usable cases with the real judge."""
    task = item.problem.id.split(":", 1)[1]
    if not item.tests:
        return ItemOutcome(task, Verdict.IE, "dataset: no usable case")
    solution = item.reference
    if planted:
        assert item.problem.signature is not None
        method = item.problem.signature.methods[0].name
        solution = Solution(language=solution.language, source=solution.source + PLANTED.format(method=method))
    program = build_program(solution, item.problem.signature)
    report = judge_solution(
        program,
        item.tests,
        limits=DATASET_LIMITS,
        checker=checker_for(item.problem),
        jobs=jobs,
        stop_on_failure=planted,
    )
    outcome = ItemOutcome(
        task, report.verdict, cpu_ms=[r.cpu_ms for r in report.results], wall_ms=[r.wall_ms for r in report.results]
    )
    failure = report.first_failure
    if report.verdict == Verdict.CE:
        outcome.cause = "CE: " + report.compile_log.strip().splitlines()[-1][:100]
    elif failure is not None:
        message = (failure.checker_message or failure.stderr).strip()
        line = message.splitlines()[-1] if message else "no message"
        outcome.cause = f"{failure.verdict}: {(line.split(':', 1)[0] if ':' in line[:40] else line)[:80]}"
    return outcome


@dataclass
class Summary:
    """The figures harness_dataset.py prints."""

    problems: int
    ac: int
    failures: list[ItemOutcome]
    causes: Counter
    cases: int
    median_cpu_ms: float
    median_wall_ms: float

    @property
    def ac_rate(self) -> float:
        return self.ac / self.problems if self.problems else 0.0


def summarize(outcomes: list[ItemOutcome]) -> Summary:
    failures = [o for o in outcomes if o.verdict != Verdict.AC]
    cpu = [t for o in outcomes for t in o.cpu_ms]
    wall = [t for o in outcomes for t in o.wall_ms]
    return Summary(
        problems=len(outcomes),
        ac=len(outcomes) - len(failures),
        failures=failures,
        causes=Counter(o.cause.split(":", 1)[0] if o.cause.startswith("dataset") else o.cause for o in failures),
        cases=len(cpu),
        median_cpu_ms=statistics.median(cpu) if cpu else 0.0,
        median_wall_ms=statistics.median(wall) if wall else 0.0,
    )
