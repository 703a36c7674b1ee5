"""The complexity analyst: turns the profiler's measurements into a verdict and routes the fix.

Efficient programs need nothing. For a slow one the analyst compares the measured growth class with
the class the plan claimed: code slower than its plan goes back to the coder (the implementation does
hidden extra work), a plan whose own class is too slow goes back to the planner, and a program in a
fast class that is still too slow (constant factors: I/O, recursion, hashing) goes to the coder.
When the profiler's fit is ambiguous and a model is at hand, the model picks the class from the
measurements (SwiftSolve's fallback); otherwise the fit stands. `perf_gain` is the relative drop of the
predicted time since the previous profile, for a caller's diminishing-returns stop.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict

from cpbot.agents.chat import ChatModel
from cpbot.agents.envelopes import CodeAttempt, ComplexityVerdict, Patch, Plan
from cpbot.agents.prompts import render_prompt
from cpbot.agents.roles.common import RoleError, ask_structured, fenced
from cpbot.agents.roles.constraints import problem_bounds
from cpbot.agents.roles.pruner import ComplexityParseError, evaluate, find_big_o
from cpbot.agents.roles.stresser import runnable
from cpbot.judge.build import build_solution
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import Problem, ProfileReport, Solution
from cpbot.judge.profile import profile_program
from cpbot.judge.sandbox import Sandbox, default_sandbox
from cpbot.judge.validator import InputGate

ROLE = "analyst"

Complexity = Literal["O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2)", "O(n^3)", "O(2^n)"]
CLASSES: tuple[Complexity, ...] = ("O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2)", "O(n^3)", "O(2^n)")
FAST_CLASSES = CLASSES[:4]  # classes where a slow program usually has a constant-factor problem
DIMINISHING = 0.05  # a gain below this is not worth another round

_GROWTH = {
    "O(1)": lambda n: 1.0,
    "O(log n)": lambda n: math.log2(n),
    "O(n)": lambda n: n,
    "O(n log n)": lambda n: n * math.log2(n),
    "O(n^2)": lambda n: n * n,
    "O(n^3)": lambda n: n**3,
}


class Analysis(BaseModel):
    """The analyst's verdict, the change it asks for (if any), and the classes it compared."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    verdict: ComplexityVerdict
    patch: Patch | None = None
    measured: Complexity | None = None
    claimed: Complexity | None = None


class _ClassReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    complexity: str
    why: str = ""


def rank(name: str) -> int:
    """The position of a class from fastest (0) to slowest."""
    return CLASSES.index(cast(Complexity, name))


def claimed_class(complexity: str) -> Complexity | None:
    """The growth class of a claimed complexity when every quantity grows together (n, m, q ~ N);
    None when it cannot be read."""
    found = find_big_o(complexity)
    inner = found[0] if found else complexity
    if not inner.strip():
        return None

    def sized(value: float) -> Callable[[str], float | None]:
        # a size is a short name (n, m, q, V, E) or a length; a word is not a quantity
        return lambda name: value if len(name) <= 2 or ".length" in name or name.startswith("|") else None

    try:
        small, _ = evaluate(inner, sized(20.0))
        large, _ = evaluate(inner, sized(40.0))
        if large / max(small, 1e-9) > 1e4:
            return "O(2^n)"
        lo, _ = evaluate(inner, sized(1e6))
        hi, _ = evaluate(inner, sized(2e6))
    except (ComplexityParseError, OverflowError, ValueError):
        return None
    ratio = math.log(max(hi, 1e-12) / max(lo, 1e-12))
    scores = {name: abs(ratio - math.log(f(2e6) / f(1e6))) for name, f in _GROWTH.items()}
    return cast(Complexity, min(scores, key=lambda k: scores[k]))


def normalize_class(text: str) -> Complexity | None:
    """A class named in `text` ("O(n log n)", "n^2", "O(N²)"), longest match first."""
    flat = text.lower().replace(" ", "").replace("²", "^2").replace("³", "^3").replace("*", "")
    for name in sorted(CLASSES, key=len, reverse=True):
        key = name.lower().replace(" ", "")
        if key in flat or key[2:-1] == flat:
            return name
    return None


def perf_gain(previous: ProfileReport | None, current: ProfileReport) -> float | None:
    """How much the predicted time at the maximum dropped since `previous`, as a share in [0, 1]."""
    if previous is None or not previous.predicted_ms_at_max or current.predicted_ms_at_max is None:
        return None
    gain = (previous.predicted_ms_at_max - current.predicted_ms_at_max) / previous.predicted_ms_at_max
    return round(min(1.0, max(0.0, gain)), 4)


def diminishing(analysis: Analysis, threshold: float = DIMINISHING) -> bool:
    """True when the last change gained less than `threshold`: another round is not worth it."""
    gain = analysis.verdict.perf_gain
    return gain is not None and gain < threshold


def points_text(report: ProfileReport) -> str:
    """The profile's points, one per line."""
    return "\n".join(f"n={p.size}: {p.cpu_ms:.1f} ms ({p.status})" for p in report.points) or "(no points)"


def ask_class(model: ChatModel, report: ProfileReport, attempt: CodeAttempt | None) -> Complexity | None:
    """The model's choice of class for an ambiguous profile; None when it names none."""
    messages = render_prompt(
        "analyst_classify",
        code=fenced(attempt.source, attempt.language) if attempt is not None else "(not shown)",
        points=points_text(report),
        guess=report.complexity or "none",
        classes=", ".join(CLASSES),
    )
    parsed, reply = ask_structured(model, ROLE, messages, _ClassReply)
    return normalize_class(parsed.complexity if parsed is not None else reply.text)


def analyse(
    report: ProfileReport,
    *,
    plan: Plan | None = None,
    attempt: CodeAttempt | None = None,
    previous: ProfileReport | None = None,
    model: ChatModel | None = None,
    code_iteration: int | None = None,
) -> Analysis:
    """The verdict on a profiled attempt and, when it is too slow, a patch for the coder or the planner."""
    measured = cast(Complexity | None, report.complexity)
    if report.ambiguous and model is not None and not report.efficient:
        measured = ask_class(model, report, attempt) or measured
    claimed = claimed_class(plan.complexity) if plan is not None and plan.complexity else None
    gain = perf_gain(previous, report)
    if report.efficient:
        verdict = ComplexityVerdict(efficient=True, advice=report.reason, perf_gain=gain)
        return Analysis(verdict=verdict, measured=measured, claimed=claimed)
    target, advice = _route(report, measured, claimed)
    verdict = ComplexityVerdict(efficient=False, target=target, advice=advice, perf_gain=gain)
    patch = Patch(target=target, instructions=advice, code_iteration=code_iteration)
    return Analysis(verdict=verdict, patch=patch, measured=measured, claimed=claimed)


def _route(
    report: ProfileReport, measured: Complexity | None, claimed: Complexity | None
) -> tuple[Literal["planner", "coder"], str]:
    facts = f"Profiling: {report.reason}."
    wrong = next((p for p in report.points if p.status == "wrong"), None)
    if wrong is not None:  # through an interactor: its verdict on the program's answer to a larger input
        return "coder", (
            f"{facts} The interactor rejects the program's answer at n={wrong.size}, an input larger than the tests. "
            "Look for overflow, an off-by-one that shows only on large inputs, or more questions than allowed."
        )
    failed = [p for p in report.points if p.status in ("crash", "mle")]
    if failed and (measured is None or measured in FAST_CLASSES):
        what = "crashes" if failed[0].status == "crash" else "runs out of memory"
        return "coder", (
            f"{facts} The program {what} at n={failed[0].size}. Look for deep recursion, oversized arrays or "
            "copies of large structures, and make it survive the largest input."
        )
    if measured is None:
        return "planner", f"{facts} The running time grows too fast for the limits: a faster algorithm is needed."
    if claimed is not None and rank(measured) > rank(claimed):
        return "coder", (
            f"{facts} The program grows like {measured}, but the plan promises {claimed}: the code does more "
            "work than the plan (a hidden inner loop, a linear search or erase in a loop, copying, string "
            f"concatenation, recursion without memoization). Bring the code to {claimed}."
        )
    if measured in FAST_CLASSES:
        return "coder", (
            f"{facts} The complexity ({measured}) is right but the constant factor is too large: read and "
            "write faster, avoid recursion and per-element allocations, prefer arrays to maps and sets."
        )
    return "planner", (
        f"{facts} The approach itself grows like {measured}, which cannot meet the limits at the largest "
        "inputs. Plan an algorithm with a lower complexity."
    )


def profile_attempt(
    attempt: CodeAttempt,
    generator: Solution,
    problem: Problem,
    *,
    max_n: int | None = None,
    sandbox: Sandbox | None = None,
    repeats: int = 3,
    seed: int = 1,
    count: bool = True,
    largest_seeds: int = 1,
    gate: InputGate | None = None,
) -> ProfileReport:
    """Build `attempt` and the input `generator` (run as `GENERATOR N SEED`; an interactive problem's generator
    prints its interactor's hidden data, and the attempt runs through the interactor) and profile it up to
    `max_n` (by default the statement's largest size bound); `count=False` reads growth from CPU time
    only, without counting instructions (much quicker, noisier); the largest size runs on
    `largest_seeds` inputs and keeps the slowest."""
    sandbox = sandbox or default_sandbox()
    max_n = max_n or problem_bounds(problem).max_size()
    if not max_n:
        raise RoleError(f"cannot profile {problem.id}: the statement gives no size bound", hint="pass max_n explicitly")
    program = build_solution(runnable(attempt.solution(), problem), sandbox)
    if program.program is None:
        raise RoleError("cannot profile an attempt that does not compile", hint="judge it first; debug the CE")
    built = build_solution(generator, sandbox)
    if built.program is None:
        raise RoleError(f"the input generator does not compile: {built.log.strip()[:500]}")
    runner = problem_kind(problem.kind).input_runner(problem, sandbox)  # an interactive one: through its interactor
    return profile_program(
        program.program,
        built.program,
        max_n=max_n,
        limits=problem.limits,
        sandbox=sandbox,
        repeats=repeats,
        seed=seed,
        count=count,
        largest_seeds=largest_seeds,
        gate=gate,
        runner=runner,
    )
