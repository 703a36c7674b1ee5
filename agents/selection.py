"""Choosing one program among several candidates by what they do on the same inputs.

The candidates that passed the samples run on a common set of probes (generated tests, generator inputs
of small and large sizes, inputs written to tell two candidates apart). Candidates whose outputs the
problem's checker takes for the same answer on every probe form one group (AlphaCode 2's clustering by
behaviour): on a problem that accepts several answers or a tolerance, right programs that print different
accepted answers are one group, and a program is judged against the oracle by that checker too. A brute
force that passed the samples answers the small probes (ALGO's oracle); a group is ranked by how often it
disagrees with that oracle, then by how often it crashed or ran out of time, then by its size (CodeT's
agreement: many independent programs printing the same answers are more likely right), then by who was
drawn first.
When the two best groups cannot be told apart by this evidence, the strategy asks for inputs on which
they differ and judges them with the oracle, or asks the model which output is right (S*).

Everything here is pure (no model, no sandbox) except `observe`, which runs one program on the probes.
Candidates are named by the iteration of their `code` envelope, so every event points at the transcript.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cpbot.judge.checkers.base import Checker, CheckInput, CheckResult
from cpbot.judge.model import Problem, Solution, TestCase, Verdict
from cpbot.judge.sandbox import Sandbox

# how much of an input or an output an event keeps
SHOWN_CHARS = 300
IDLE_RETRIES = 2  # runs again of a probe killed for wall time while it barely had the CPU


class Probe(BaseModel):
    """One input every candidate runs on, and the brute force's answer when it gave one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input: str
    origin: Literal["generated", "small", "large", "distinguishing"]
    size: int | None = None  # the generator's N, when the generator wrote it
    oracle: str | None = None  # the right output as far as known, normalized (`Outcome.key` form)
    oracle_from: Literal["brute", "model"] | None = None  # who said so: the brute force, or the arbiter
    expected: str | None = None  # the brute force's output as printed, for a test made from the probe
    doubted: str | None = None  # the brute force's answer, set aside because the candidates outvoted it
    # each brute force of the panel's output as printed, by seat ("!VERDICT" when its run failed, None when it
    # was not run: too slow at a smaller size); `oracle` is what they agree on (agents/oracle.py)
    answers: list[str | None] = []


def probe_of(test: TestCase, origin: Literal["generated", "distinguishing"]) -> Probe:
    """A probe from a test: its answer, when it has one, is the brute force's (normalized as outputs are)."""
    return Probe(
        input=test.input,
        origin=origin,
        oracle=normalize(test.output) if test.output is not None else None,
        oracle_from="brute" if test.output is not None else None,
        expected=test.output,
    )


class Outcome(BaseModel):
    """What one program did on one probe: its normalized output, or the verdict of a failed run."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    output: str = ""
    failure: str = ""  # "TLE", "RE", "MLE", ... (empty when it ran to the end)
    cpu_ms: float = 0.0  # not compared: programs that print the same are told apart by speed only within a group

    @property
    def key(self) -> str:
        """What grouping compares: the output, or the failure marked so it never equals an output."""
        return f"!{self.failure}" if self.failure else self.output


class Group(BaseModel):
    """Candidates with the same behaviour on every probe, and the evidence about that behaviour."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    members: list[int]  # candidate iterations, in draw order
    signature: list[str]  # `Outcome.key` per probe
    oracle_agreed: int = 0
    oracle_disagreed: int = 0
    failures: int = 0  # probes where it crashed or ran out of time or memory
    programs: int = 0  # distinct programs among the members (a program drawn twice is one vote); 0: not counted

    @property
    def independent(self) -> int:
        """How many independent programs behave this way (the members when sources were not told)."""
        return self.programs or len(self.members)

    @property
    def representative(self) -> int:
        """The first drawn member."""
        return self.members[0]


class Disagreement(BaseModel):
    """A probe on which two groups print different things (shortened for the transcript)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    probe: int  # index into the probes
    origin: str
    size: int | None = None
    input: str
    outputs: list[str]  # per group compared, in the order given
    oracle: str | None = None


def normalize(text: str) -> str:
    """Output as its whitespace-separated tokens (whether two outputs are the same answer is the checker's call:
    `as_judged`)."""
    return " ".join(text.split())


# whether the problem's checker accepts an output (the second argument) with another (the third) as the answer
Accepts = Callable[[Probe, str, str], bool]
# whether an output (the second argument) shows another (the third) wrong, by the problem's checker
Refutes = Callable[[Probe, str, str], bool]


# checkers for which two outputs are the same answer only when their tokens are (selection compares tokens)
TOKEN_CHECKERS = ("tokens", "exact", "lines")


class CheckerComparison:
    """The problem's checker comparing two outputs on a probe, each pair checked once (the same pairs come back at
    every ranking)."""

    def __init__(self, checker: Checker) -> None:
        self.checker = checker
        self.known: dict[tuple[str, str, str], CheckResult] = {}

    def _check(self, probe: Probe, output: str, answer: str) -> CheckResult:
        key = (probe.input, output, answer)
        if key not in self.known:
            self.known[key] = self.checker.check(CheckInput(probe.input.encode(), output.encode(), answer.encode()))
        return self.known[key]

    def accepts(self, probe: Probe, output: str, answer: str) -> bool:
        """Whether the checker accepts `output` with `answer` as the jury's."""
        return self._check(probe, output, answer).verdict == Verdict.AC

    def refutes(self, probe: Probe, output: str, answer: str) -> bool:
        """Whether `output` shows `answer` wrong: given it as the jury's, the checker blames the jury (testlib's
        FAIL, as when the output is better than the jury's answer)."""
        return self._check(probe, output, answer).jury_fault


def checker_comparison(problem: Problem, sandbox: Sandbox) -> CheckerComparison | None:
    """The problem's checker as a comparison of two outputs; None when outputs compare as their tokens. Raises
    `CpbotError` when the checker cannot be made."""
    from cpbot.judge.kinds import problem_kind

    spec = problem_kind(problem.kind).checker_spec(problem)
    if spec in TOKEN_CHECKERS:
        return None  # outputs are kept as their tokens: equal tokens are all such a checker accepts
    return CheckerComparison(problem_kind(problem.kind).checker(problem, sandbox))


def as_judged(
    probes: Sequence[Probe], behaviours: Mapping[int, Sequence[Outcome]], accepts: Accepts | None
) -> dict[int, list[Outcome]]:
    """The outcomes with every output replaced by the first output of its class on that probe, the oracle's first:
    an output is in the oracle's class when the checker accepts it with the oracle's answer as the jury's (as the
    judge would), and in another output's class when the checker accepts each with the other as the answer (both
    ways: a checker that only checks the output's validity, reading the answer for its value alone, is not
    symmetric). Then grouping, the oracle's agreement and the votes compare answers as the problem does: two
    right programs printing different valid answers, or the same number to different digits, agree.
    `accepts` None: outputs as they are (exact tokens)."""
    if accepts is None:
        return {it: list(outcomes) for it, outcomes in behaviours.items()}
    judged: dict[int, list[Outcome]] = {it: [] for it in behaviours}
    for i, probe in enumerate(probes):
        firsts: list[str] = []
        for it in sorted(behaviours):
            outcome = behaviours[it][i]
            if not outcome.failure:
                first = _class_of(outcome.output, probe, firsts, accepts)
                if first != outcome.output:
                    outcome = outcome.model_copy(update={"output": first})
            judged[it].append(outcome)
    return judged


def _class_of(output: str, probe: Probe, firsts: list[str], accepts: Accepts) -> str:
    """The first output of `output`'s class on `probe` (`output` itself, added to `firsts`, when it starts one)."""
    oracle = probe.oracle
    if oracle is not None and (output == oracle or accepts(probe, output, oracle)):
        return oracle
    for first in firsts:
        if output == first or (accepts(probe, output, first) and accepts(probe, first, output)):
            return first
    firsts.append(output)
    return output


def group_by_behaviour(
    behaviours: Mapping[int, Sequence[Outcome]], sources: Mapping[int, str] | None = None
) -> list[Group]:
    """Candidates (iteration -> outcome per probe) grouped by identical outcomes, in order of first member;
    with `sources` (iteration -> program key) each group also counts its distinct programs."""
    groups: dict[tuple[str, ...], list[int]] = {}
    for candidate in sorted(behaviours):
        signature = tuple(o.key for o in behaviours[candidate])
        groups.setdefault(signature, []).append(candidate)
    return [
        Group(
            members=members,
            signature=list(signature),
            programs=len({sources[m] for m in members}) if sources is not None else 0,
        )
        for signature, members in groups.items()
    ]


def score(group: Group, probes: Sequence[Probe]) -> Group:
    """`group` with its agreement with the oracle and its failures counted over `probes`."""
    agreed = disagreed = failures = 0
    for key, probe in zip(group.signature, probes, strict=True):
        if key.startswith("!"):
            failures += 1
        if probe.oracle is not None:
            if key == probe.oracle:
                agreed += 1
            else:
                disagreed += 1
    return group.model_copy(update={"oracle_agreed": agreed, "oracle_disagreed": disagreed, "failures": failures})


def rank_key(group: Group) -> tuple[int, int, int, int]:
    """Fewer disagreements with the oracle, then fewer failed runs, then more members, then drawn first."""
    return (group.oracle_disagreed, group.failures, -len(group.members), group.representative)


def rank_groups(groups: Sequence[Group], probes: Sequence[Probe]) -> list[Group]:
    """The groups scored on `probes`, best first (see `rank_key`)."""
    return sorted((score(g, probes) for g in groups), key=rank_key)


def settled_by_evidence(best: Group, second: Group) -> bool:
    """True when the oracle or failed runs put `best` ahead of `second` (size and draw order do not count)."""
    return rank_key(best)[:2] < rank_key(second)[:2]


MAJORITY = 2  # how many times the independent programs of another group a group needs to win on numbers alone


def unsupported(groups: Sequence[Group], *, votes: bool = True) -> str:
    """Why the first group's lead is not supported by the evidence ("" when it is): against every other group,
    the oracle or failed runs must put it ahead, or it must have at least `MAJORITY` times as many independent
    programs (CodeT's agreement). A lead by draw order, or by one more vote, is a guess. `votes=False`: numbers
    do not count (outputs that differ may all be right, `unjudged_answers`), only the oracle and failed runs."""
    if not groups:
        return ""
    best = groups[0]
    for other in groups[1:]:
        if settled_by_evidence(best, other) or (votes and best.independent >= MAJORITY * other.independent):
            continue
        return (
            f"the group of candidate {best.representative} ({best.independent} programs) and the group of candidate "
            f"{other.representative} ({other.independent}) differ and nothing tells which is right"
            + ("" if votes else " (the problem accepts several answers and its checker compares with one)")
        )
    return ""


def unjudged_answers(problem: Problem) -> str:
    """Why different outputs may all be right with nothing here to tell ("" when the checker can): the statement
    accepts several answers while the problem's checker compares an output with one answer (a built-in
    comparison, or a function problem's harness), not a checker program that judges an output on its own."""
    from cpbot.judge.checkers import builtin_checker
    from cpbot.judge.harness.checker import accepts_several_answers
    from cpbot.judge.kinds import problem_kind

    text = "\n".join((problem.statement, problem.output_spec, problem.notes))
    if problem.checker != "special" and not accepts_several_answers(text):
        return ""
    spec = problem_kind(problem.kind).checker_spec(problem)
    if isinstance(spec, str) and builtin_checker(spec) is None:
        return ""  # a checker program (a special judge) decides whether an output is valid
    return "the statement accepts several answers and the checker compares an output with one answer"


def fastest_first(members: Sequence[int], behaviours: Mapping[int, Sequence[Outcome]]) -> list[int]:
    """Programs of one group (the same outputs everywhere), the one that used the least CPU time on the probes
    first (then draw order): a program as right as the others but slower may still run out of time where the
    probes did not reach (a profile cut short on a busy machine)."""
    return sorted(members, key=lambda m: (sum(o.cpu_ms for o in behaviours.get(m, ())), m))


def differing(a: Group, b: Group) -> list[int]:
    """The probe indices where two groups' outcomes differ."""
    return [i for i, (x, y) in enumerate(zip(a.signature, b.signature, strict=True)) if x != y]


def disagreements(groups: Sequence[Group], probes: Sequence[Probe], limit: int = 3) -> list[Disagreement]:
    """Up to `limit` probes where the first two groups differ (smallest inputs first), for the transcript
    and the prompts."""
    if len(groups) < 2:
        return []
    found = sorted(differing(groups[0], groups[1]), key=lambda i: len(probes[i].input))[:limit]
    return [disagreement(i, probes, groups[:2]) for i in found]


def disagreement(i: int, probes: Sequence[Probe], groups: Sequence[Group]) -> Disagreement:
    """Probe `i` and what each of `groups` printed on it, shortened for the transcript."""
    probe = probes[i]
    return Disagreement(
        probe=i,
        origin=probe.origin,
        size=probe.size,
        input=probe.input[:SHOWN_CHARS],
        outputs=[g.signature[i][:SHOWN_CHARS] for g in groups],
        oracle=probe.oracle[:SHOWN_CHARS] if probe.oracle is not None else None,
    )


def oracle_tiebreak(a: Sequence[Outcome], b: Sequence[Outcome], probes: Sequence[Probe]) -> Literal["a", "b"] | None:
    """Which of two programs the oracle supports on the probes where they differ: the one that matches it
    more often (a failed run never matches); None when the oracle does not tell them apart. Outcomes as
    `as_judged` gives them, so that "matches" is the checker's acceptance."""
    a_right = b_right = 0
    for x, y, probe in zip(a, b, probes, strict=True):
        if probe.oracle is None or x.key == y.key:
            continue
        a_right += x.key == probe.oracle
        b_right += y.key == probe.oracle
    if a_right == b_right:
        return None
    return "a" if a_right > b_right else "b"


_CHOICE = re.compile(r"\banswer\b\W{0,3}\b(?:output\s+)?([AB])\b", re.IGNORECASE)


def read_choice(text: str) -> Literal["a", "b"] | None:
    """The model's pick between output A and output B: the last "Answer: A" (or B) it wrote, or a last line
    that is only the letter; None when it names neither (a letter inside code or prose does not count)."""
    picks = [m.group(1).upper() for m in _CHOICE.finditer(text) if m.group(1) in "AB"]
    if not picks:
        last = text.strip().splitlines()[-1].strip(" *.`") if text.strip() else ""
        picks = [last] if last in ("A", "B") else []
    if not picks:
        return None
    return "a" if picks[-1] == "A" else "b"


def why_chosen(groups: Sequence[Group]) -> str:
    """One sentence on why the first group won, for the transcript and the solve's reason."""
    best = groups[0]
    names = ", ".join(str(m) for m in best.members)
    checked = best.oracle_agreed + best.oracle_disagreed
    parts = [f"group of {len(best.members)} (candidates {names})"]
    if checked:
        parts.append(f"agrees with the oracle on {best.oracle_agreed} of {checked} inputs")
    parts.append(f"{best.failures} failed runs" if best.failures else "no failed run")
    if len(groups) == 1:
        parts.append("every candidate behaves the same")
    else:
        other = groups[1]
        if settled_by_evidence(best, other):
            parts.append(
                f"the next group disagrees with the oracle on {other.oracle_disagreed} and failed {other.failures} runs"
            )
        else:
            parts.append(f"no evidence beyond agreement: the next group has {len(other.members)} members")
    return "; ".join(parts)


def observe(solution: Solution, problem: Problem, probes: Sequence[Probe], sandbox: Sandbox) -> list[Outcome]:
    """Run `solution` on every probe under the problem's limits (function problems through the harness). A program
    that used up its CPU time on a statement-size probe is not run on the statement-size probes after it that are
    as large (they are TLE too): each would spend the whole limit again, the costliest runs of selection."""
    from cpbot.agents.roles.stresser import runnable
    from cpbot.judge.build import build_solution
    from cpbot.judge.execute import execute

    build = build_solution(runnable(solution, problem), sandbox)
    if build.program is None:
        return [Outcome(failure="CE") for _ in probes]
    outcomes = []
    too_slow_at: int | None = None  # the least statement-size probe it ran out of time on
    for probe in probes:
        if probe.origin == "large" and too_slow_at is not None and (probe.size or 0) >= too_slow_at:
            # out of time at the statement's size already: another input as large would only spend the limit again
            outcomes.append(Outcome(failure=str(Verdict.TLE)))
            continue
        run = execute(build.program, probe.input.encode(), sandbox, limits=problem.limits)
        for _ in range(IDLE_RETRIES):
            if not run.message.startswith("idle"):
                break
            # out of wall time while barely running: the machine is busy, not the program slow
            run = execute(build.program, probe.input.encode(), sandbox, limits=problem.limits)
        if run.verdict is not None:
            outcomes.append(Outcome(failure=str(run.verdict)))
            spent = run.run.cpu_ms >= problem.limits.time_ms  # its own CPU time, not a busy machine's wait
            if run.verdict == Verdict.TLE and spent and probe.origin == "large" and probe.size is not None:
                too_slow_at = min(too_slow_at or probe.size, probe.size)
        else:
            output = normalize(run.stdout.decode(errors="replace"))
            outcomes.append(Outcome(output=output, cpu_ms=run.run.cpu_ms))
    return outcomes
