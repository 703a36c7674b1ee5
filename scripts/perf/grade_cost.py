"""Where the CPU of a `cpbot grade` goes: the programs' own work against everything else.

Grades GENERATIONS against DATASET in this process, as `cpbot grade -j JOBS` does (transcript run
included, in a throw-away data dir), and prints:

- wall time, and the CPU of the whole grading: this process (the driver's threads) and its children
  (the sandbox's launchers, warm interpreters and every program they ran), as the kernel counts them;
- the programs' own CPU (the launcher's per-test measure, summed over the tests that ran), split into
  passing and failing generations, and tests run;
- the rest, per test, per generation: the sandbox's cost around the programs (children's CPU minus the
  programs'), and the driver's;
- the driver's CPU by phase (loading problems, syntax prechecks, judging, transcripts), measured with
  the thread CPU clock around each call;
- the cores kept busy (all CPU over wall) and the slots kept busy (time with a run queued or going), and
  where the slots' idle time went: before their first run, between two generations, between the tests of
  one generation, after their last run; the last generations to finish and the longest (wall, waits included);
- the tests run after a generation's first failure, and their CPU;
- with `all_tests=1` (every test run): what the failing generations would cost, stopped at their first
  failure, under other orders of their tests (dataset order, private tests first, largest input first,
  and the bound of a failing test first).

    python scripts/perf/grade_cost.py DATASET.jsonl[.gz] GENERATIONS.json[.gz] [--jobs 2] [--limit N]
        [--dump FILE] [--json] [GRADE OPTIONS]

GRADE OPTIONS are `grade`'s keyword options as `name=value` (`lcb_preamble=1` by default, as grade_speed);
`--dump` writes every judged program's per-test verdicts and CPU.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from grade_speed import plain_copy  # this folder is on the path when a script here runs


def cpu_of(who: int) -> float:
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime


class Phases:
    """Thread CPU seconds spent inside wrapped calls, by phase (a call inside another counts in both)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                with self._lock:
                    self.seconds[name] += time.thread_time() - started
                    self.calls[name] += 1

        return timed


class SlotUse:
    """Per slot, the time it had a run queued or going (from the first start to the last reply), and where
    its idle time went: before its first run, after its last, and the gaps between runs, told apart by
    whether the runs on either side judged the same generation (a test handed over to the next) or not
    (one generation's end to the next's start, a syntax precheck run counting as neither's)."""

    def __init__(self) -> None:
        self.pending: dict[int, int] = defaultdict(int)
        self.since: dict[int, float] = {}
        self.busy: dict[int, float] = defaultdict(float)
        self.idle_from: dict[int, tuple[float, Any]] = {}  # slot -> (last reply, the generation it ran)
        self.gaps: dict[str, float] = defaultdict(float)
        self.gap_count: dict[str, int] = defaultdict(int)
        self.first: dict[int, float] = {}
        self.generation = threading.local()  # what the calling thread is judging (None: a precheck)
        self._lock = threading.Lock()

    def started(self, slot: Any) -> None:
        now, mine = time.perf_counter(), getattr(self.generation, "key", None)
        with self._lock:
            if self.pending[id(slot)] == 0:
                self.since[id(slot)] = now
                self.first.setdefault(id(slot), now)
                if id(slot) in self.idle_from:
                    at, before = self.idle_from.pop(id(slot))
                    kind = "within a generation" if mine is not None and mine == before else "between generations"
                    self.gaps[kind] += now - at
                    self.gap_count[kind] += 1
            self.pending[id(slot)] += 1

    def replied(self, slot: Any) -> None:
        now, mine = time.perf_counter(), getattr(self.generation, "key", None)
        with self._lock:
            self.pending[id(slot)] -= 1
            if self.pending[id(slot)] == 0:
                self.busy[id(slot)] += now - self.since.pop(id(slot))
                self.idle_from[id(slot)] = (now, mine)

    def idle(self, started: float, ended: float, slots: int) -> dict[str, Any]:
        """Idle slot-seconds by cause over the grading from `started` to `ended` (`slots` in the pool)."""
        found = {k: round(v, 2) for k, v in self.gaps.items()}
        found["before the first run"] = round(
            sum(t - started for t in self.first.values()) + (slots - len(self.first)) * (ended - started), 2
        )
        found["after the last run"] = round(sum(ended - at for at, _ in self.idle_from.values()), 2)
        found["gaps"] = dict(self.gap_count)
        return found


@contextlib.contextmanager
def patched(obj: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


ORDERS: dict[str, Callable[[dict[str, Any]], list[int]]] = {
    "dataset order": lambda g: list(range(1, g["tests"] + 1)),
    "private tests first": lambda g: sorted(
        range(1, g["tests"] + 1), key=lambda i: not g["names"][i - 1].startswith("private")
    ),
    "largest input first": lambda g: sorted(range(1, g["tests"] + 1), key=lambda i: -g["input_bytes"][i - 1]),
    # a bound no order reaches without knowing the verdicts: a failing test first
    "a failing test first": lambda g: sorted(range(1, g["tests"] + 1), key=lambda i: g["results"][i - 1][1] == "AC"),
}


def order_costs(dumped: list[dict[str, Any]], sandbox_ms: float) -> dict[str, dict[str, float]]:
    """From every test's result (an --all-tests grading): what the failing generations would cost stopped at
    their first failure, per order of their tests: runs, the programs' CPU, and that plus the sandbox's."""
    found = {}
    for name, order in ORDERS.items():
        runs, cpu_ms = 0, 0.0
        for g in dumped:
            if g["verdict"] == "AC" or len(g["results"]) != g["tests"]:
                continue
            for i in order(g):
                _, verdict, ms = g["results"][i - 1]
                runs, cpu_ms = runs + 1, cpu_ms + ms
                if verdict != "AC":
                    break
        found[name] = {
            "runs": runs,
            "programs_cpu_s": round(cpu_ms / 1000, 2),
            "with_sandbox_s": round((cpu_ms + runs * sandbox_ms) / 1000, 2),
        }
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("generations", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, help="only the first N problems of the generations file")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--dump", type=Path, help="write every judged program's per-test results (JSON)")
    parser.add_argument("options", nargs="*", help="grade's keyword options, name=value")
    args = parser.parse_intermixed_args()
    tmp = Path(tempfile.mkdtemp(prefix="grade-cost-"))
    os.environ["CPBOT_DATA_DIR"] = str(tmp / "data")
    os.environ["CPBOT_CACHE_DIR"] = str(tmp / "cache")

    from cpbot.bot.bench import grade as grading
    from cpbot.bot.bench.datasets import open_dataset
    from cpbot.bot.bench.executors import LocalExecutor
    from cpbot.bot.bench.livecodebench import make_selection
    from cpbot.bot.store.transcripts import TranscriptStore
    from cpbot.judge.languages.python import default_warm_python
    from cpbot.judge.model import Verdict
    from cpbot.judge.sandbox import Sandbox
    from cpbot.judge.sandbox.pool import Slot

    options: dict[str, Any] = {"lcb_preamble": True}
    for item in args.options:
        name, _, value = item.partition("=")
        options[name] = value not in ("0", "false", "")
    generations_file = plain_copy(args.generations, tmp)
    if args.limit:
        items = json.loads(generations_file.read_text())[: args.limit]
        generations_file = tmp / "generations.json"
        generations_file.write_text(json.dumps(items))
    found = grading.read_generations(generations_file, "python3")
    data = open_dataset(str(plain_copy(args.dataset, tmp)))
    plan = grading.GradePlan(
        dataset=data, generations_file=str(generations_file), selection=make_selection(None, None, (), ()),
        default_language="python3", **options,
    )  # fmt: skip

    phases = Phases()
    program_cpu: dict[tuple[str, bool], float] = defaultdict(float)  # (passing?, ...) -> seconds
    tests_run: dict[bool, int] = defaultdict(int)
    gens: dict[bool, int] = defaultdict(int)
    judge_problem = grading.judge_problem
    after_failure: dict[str, float] = defaultdict(float)  # tests run after a generation's first failure
    dumped: list[dict[str, Any]] = []
    use = SlotUse()
    spans: list[tuple[float, float, str]] = []  # each judging: start, end, problem

    def judged(*a: Any, **k: Any) -> Any:
        use.generation.key = begun = time.perf_counter()
        try:
            report = judge_problem(*a, **k)
        finally:
            use.generation.key = None
            spans.append((begun, time.perf_counter(), a[1].id))
        accepted = report.verdict == Verdict.AC
        program_cpu[("programs", accepted)] += sum(r.cpu_ms for r in report.results) / 1000
        tests_run[accepted] += len(report.results)
        gens[accepted] += 1
        failed_at = next((r.index for r in report.results if r.verdict != Verdict.AC), None)
        if failed_at is not None:
            beyond = [r for r in report.results if r.index > failed_at]
            after_failure["tests"] += len(beyond)
            after_failure["cpu_s"] += sum(r.cpu_ms for r in beyond) / 1000
        solution, problem = a[0], a[1]
        tests = a[2]
        dumped.append(
            {
                "question_id": problem.id,
                "language": solution.language,
                "verdict": str(report.verdict),
                "tests": len(tests),
                "names": [t.name for t in tests],
                "input_bytes": [len(t.input) for t in tests],
                "results": [[r.index, str(r.verdict), r.cpu_ms] for r in report.results],
            }
        )
        return report

    slot_start, slot_wait = Slot.start, Slot.wait

    def start(self: Any, *a: Any, **k: Any) -> Any:
        use.started(self)
        return slot_start(self, *a, **k)

    def wait(self: Any) -> Any:
        try:
            return slot_wait(self)
        finally:
            use.replied(self)

    started_cpu_self, started_cpu_children = cpu_of(resource.RUSAGE_SELF), cpu_of(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    sandbox = Sandbox(warm_python=default_warm_python())
    with contextlib.ExitStack() as stack:
        stack.enter_context(patched(Slot, "start", start))
        stack.enter_context(patched(Slot, "wait", wait))
        stack.enter_context(patched(grading, "judge_problem", phases.wrap("judging", judged)))
        stack.enter_context(patched(grading._problems, "get", phases.wrap("loading", grading._problems.get)))
        stack.enter_context(
            patched(grading, "precheck_solutions", phases.wrap("prechecks", grading.precheck_solutions))
        )
        stack.enter_context(patched(grading, "eval_all", phases.wrap("eval_all", grading.eval_all)))
        with TranscriptStore() as store:
            stack.enter_context(patched(store, "record", phases.wrap("transcripts", store.record)))
            run_id = grading.start_grade(store, plan)
            executor = LocalExecutor(args.jobs, sandbox=sandbox)
            graded = phases.wrap("grading", grading.run_grade)
            report = graded(store, run_id, plan, found, sandbox, executor=executor)
            eval_all = grading.eval_all(plan.dataset, report, found)
            (tmp / "eval.json").write_text(json.dumps(eval_all))
    grading_wall = time.perf_counter() - started
    idle = use.idle(started, started + grading_wall, sandbox.size)
    sandbox.close()
    wall = time.perf_counter() - started
    driver = cpu_of(resource.RUSAGE_SELF) - started_cpu_self
    children = cpu_of(resource.RUSAGE_CHILDREN) - started_cpu_children
    programs = sum(program_cpu.values())
    tests = sum(tests_run.values())
    n = sum(p.n for p in report.problems)
    figures = {
        "generations": n,
        "jobs": args.jobs,
        "wall_s": round(wall, 2),
        "grading_wall_s": round(grading_wall, 2),
        "cpu_s": round(driver + children, 2),
        "driver_cpu_s": round(driver, 2),
        "children_cpu_s": round(children, 2),
        "cores_busy": round((driver + children) / wall, 2),
        "slots_busy": round(sum(use.busy.values()) / grading_wall, 2),  # slots with a run queued or going
        "slot_idle_s": idle,
        "last_to_finish": [
            f"{qid} {begun - started:.1f}-{end - started:.1f}s"
            for begun, end, qid in sorted(spans, key=lambda x: x[1])[-3:]
        ],
        "longest": [f"{qid} {end - begun:.1f}s" for begun, end, qid in sorted(spans, key=lambda x: x[0] - x[1])[:5]],
        "programs_cpu_s": {
            "passing": round(program_cpu[("programs", True)], 2),
            "failing": round(program_cpu[("programs", False)], 2),
        },
        "generations_judged": {"passing": gens[True], "failing": gens[False]},
        "tests_run": {"passing": tests_run[True], "failing": tests_run[False]},
        "after_first_failure": {k: round(v, 2) for k, v in after_failure.items()},
        "sandbox_around_programs_ms_per_test": round(1000 * (children - programs) / max(tests, 1), 2),
        "driver_ms_per_generation": round(1000 * driver / max(n, 1), 2),
        "driver_phases_s": {k: round(v, 2) for k, v in phases.seconds.items()},
        "driver_phase_calls": dict(phases.calls),
        "passed": sum(p.correct for p in report.problems),
        "eval": str(tmp / "eval.json"),
    }
    if options.get("all_tests"):
        figures["failing_under_orders"] = order_costs(dumped, figures["sandbox_around_programs_ms_per_test"])
    if args.dump:
        args.dump.write_text(json.dumps(dumped))
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    for key, value in figures.items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
