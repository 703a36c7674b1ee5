"""Running LeetCodeDataset reference solutions through the harness (the dataset test's helpers).

A problem counts as AC when every usable case is AC. `plant_bug` derives a wrong solution from a
reference by changing every result it returns, so a comparison that accepts it would be vacuous.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field

from harness_local_judge import judge_tests

from cpbot.judge.harness import build_program, checker_for
from cpbot.judge.harness.dataset import DatasetItem
from cpbot.judge.model import Limits, Solution, Verdict

# Generous: the references are judged for the harness's sake, not for speed.
DATASET_LIMITS = Limits(time_ms=6000, memory_mb=1024)

_PLANTED = """


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


def plant_bug(solution: Solution, method: str) -> Solution:
    """The same solution with every result changed (negated bool, +1, one element dropped, ...)."""
    return Solution(language=solution.language, source=solution.source + _PLANTED.format(method=method))


@dataclass
class ItemOutcome:
    """How one problem fared: its verdict, why it failed, and per-case times."""

    task: str
    verdict: Verdict
    cause: str = ""
    cases: int = 0
    cpu_ms: list[float] = field(default_factory=list)
    wall_ms: list[float] = field(default_factory=list)


def run_item(item: DatasetItem, *, planted: bool = False, jobs: int = 2) -> ItemOutcome:
    """Judge the reference (or its planted-bug variant) on the item's usable cases."""
    task = item.problem.id.split(":", 1)[1]
    if not item.tests:
        return ItemOutcome(task, Verdict.IE, "dataset: no usable case")
    solution = item.reference
    if planted:
        assert item.problem.signature is not None
        solution = plant_bug(solution, item.problem.signature.methods[0].name)
    program = build_program(solution, item.problem.signature)
    report = judge_tests(
        program, item.tests, checker_for(item.problem), limits=DATASET_LIMITS, jobs=jobs, stop_on_failure=planted
    )
    outcome = ItemOutcome(
        task,
        report.verdict,
        cases=len(report.results),
        cpu_ms=[r.cpu_ms for r in report.results],
        wall_ms=[r.wall_ms for r in report.results],
    )
    failure = report.first_failure
    if report.verdict == Verdict.CE:
        outcome.cause = "CE: " + report.compile_log.strip().splitlines()[-1][:100]
    elif failure is not None:
        outcome.cause = f"{failure.verdict}: {_gist(failure.checker_message or failure.stderr)}"
    return outcome


def _gist(message: str) -> str:
    """The kind of a failure message, short enough to group by (an exception's class, a reason)."""
    line = message.strip().splitlines()[-1] if message.strip() else "no message"
    head = line.split(":", 1)[0] if ":" in line[:40] else line
    return head[:80]


@dataclass
class Summary:
    """The figures a dataset run sums up to."""

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
