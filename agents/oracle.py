"""Which answer of an input is believed: a panel of independently drawn brute forces, weighed with the
candidates' own outputs, so that no single model output is the expected answer.

The test designer is asked more than once, independently; each brute force that passes the samples sits on
the panel. On one input (outputs already put in the problem checker's classes, `selection.as_judged`):
- the brute forces decide when two or more of them print one answer and more print it than any other
  (AICodeforcer wants independent brute forces to agree before one is used);
- otherwise (one brute force answered, or they split evenly) the candidates' outputs weigh in, each distinct
  program one vote (rStar-Coder's mutual verification): an answer a brute force prints is believed when at
  least two independent programs print it and more print it than any other answer, and, when the brute forces
  split, no candidate prints another brute force's answer (candidates that follow a brute force may share its
  mistake: an overflow, `<` for `<=`; a brute force no program follows is simply wrong);
- otherwise no answer is believed: the input keeps no expected output (it still catches crashes and time-outs)
  and the solve records that it had no agreeing oracle there.
A brute force whose answer loses loses its vote on that input. Candidates alone never make an answer: a
group of candidates sharing one mistake is not evidence that the mistake is right. Before any vote, an answer
the problem's checker refutes is out: given it as the jury's, the checker finds another program's output better
(testlib's FAIL), as a least difference one candidate beats. Two wrong brute forces printing different answers
of one wrong value (which the checker groups) cannot then outvote a right one.

Everything here is pure except `run_panel`, which runs the panel on inputs; the strategy weighs its probes
with `weigh` (`agents/strategies/panel.py`) and the stress tester compares with the panel (`judge/stress.py`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from cpbot.agents.selection import Accepts, Outcome, Probe, Refutes, as_judged, normalize
from cpbot.judge.model import Limits, Problem, Solution
from cpbot.judge.sandbox import Sandbox

MIN_SOURCES = 2  # independent programs that must print an answer before it is believed
TIME_OUT = "TLE"  # a brute force out of time is slow, not wrong (it answers no larger input)


class Consensus(BaseModel):
    """What the panel and the candidates say about one input."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    answer: str | None = None  # the believed answer (its class key), None when none is
    seats: list[int] = []  # panel seats that printed an answer (not a failed run)
    failed: list[int] = []  # panel seats whose run failed (crashed, ran out of time or memory)
    crashed: list[int] = []  # of those, the ones that did not merely run out of time
    brutes_for: list[int] = []  # panel seats (indices) that print it
    outvoted: list[int] = []  # panel seats that answered otherwise and lost their vote
    refuted: list[int] = []  # of those, the seats whose answer the checker showed wrong (another output beats it)
    candidates_for: int = 0  # distinct candidate programs that print it
    by: str = ""  # "brute forces" (they agree among themselves) or "brute force and candidates"
    reason: str = ""  # why no answer is believed ("" when one is)

    @property
    def answered(self) -> int:
        return len(self.seats)

    @property
    def split(self) -> bool:
        """The brute forces answered differently and nothing settled it (another brute force could)."""
        return self.answer is None and self.answered > 1 and not self.outvoted


def agree(
    brute_keys: Sequence[str | None], candidate_votes: Mapping[str, int], refuted: Collection[str] = ()
) -> Consensus:
    """The believed answer on one input from the panel's outputs (`brute_keys`, one per seat: the output's key,
    "!VERDICT" for a failed run, None for a seat that did not run it) and the candidates' votes (output key ->
    how many distinct candidate programs, not identical to a brute force, print it; failed runs left out).
    `refuted`: output keys the problem's checker shows wrong; they are neither believed nor a rival answer, and
    the seats printing them lose their vote."""
    answers: dict[str, list[int]] = {}
    for seat, key in enumerate(brute_keys):
        if key is not None and not key.startswith("!"):
            answers.setdefault(key, []).append(seat)
    seats = sorted(seat for seated in answers.values() for seat in seated)
    failed = [seat for seat, key in enumerate(brute_keys) if key is not None and key.startswith("!")]
    crashed = [seat for seat in failed if brute_keys[seat] != f"!{TIME_OUT}"]
    wrong = sorted(seat for key, seated in answers.items() if key in refuted for seat in seated)
    standing = {key: seated for key, seated in answers.items() if key not in refuted}
    votes = {key: n for key, n in candidate_votes.items() if key not in refuted}
    consensus = _consensus(standing, votes)
    if wrong and not standing:
        consensus = consensus.model_copy(update={"reason": "the checker shows every brute force's answer wrong"})
    return consensus.model_copy(
        update={
            "seats": seats,
            "failed": failed,
            "crashed": crashed,
            "outvoted": sorted({*consensus.outvoted, *wrong}),
            "refuted": wrong,
        }
    )


def _consensus(answers: Mapping[str, list[int]], candidate_votes: Mapping[str, int]) -> Consensus:
    if not answers:
        return Consensus(reason="no brute force answered")
    ranked = sorted(answers, key=lambda k: len(answers[k]), reverse=True)
    top = ranked[0]
    runner_up = len(answers[ranked[1]]) if len(ranked) > 1 else 0
    if len(answers[top]) >= MIN_SOURCES and len(answers[top]) > runner_up:
        return _believed(top, answers, candidate_votes, "brute forces")
    support = {k: len(seats) + candidate_votes.get(k, 0) for k, seats in answers.items()}
    rivals = {k: v for k, v in candidate_votes.items() if not k.startswith("!") and k not in answers}
    best = max(support, key=lambda k: support[k])
    others = [v for k, v in [*support.items(), *rivals.items()] if k != best]
    # brute forces that split are settled by the candidates only when no candidate sides with the others (a brute
    # force printing what no program prints is simply wrong; one some candidates follow may share their mistake)
    unbacked = all(candidate_votes.get(k, 0) == 0 for k in answers if k != best)
    if support[best] >= MIN_SOURCES and support[best] > max(others, default=0) and unbacked:
        return _believed(best, answers, candidate_votes, "brute force and candidates")
    rival = max(rivals.values(), default=0)
    if rival >= MIN_SOURCES and rival > support[best]:
        # an answer no brute force prints has the most independent programs: every brute force loses its vote
        lost = sorted(seat for seats in answers.values() for seat in seats)
        return Consensus(outvoted=lost, reason="the candidates outvote the brute forces")
    if len(answers) > 1:
        why = f"the brute forces disagree ({len(answers)} answers) and no answer has a majority"
    elif rival >= support[best]:
        why = "as many candidates print another answer as confirm the only brute force that answered"
    else:
        why = "one brute force answered and no independent program confirms it"
    return Consensus(reason=why)


def _believed(key: str, answers: Mapping[str, list[int]], votes: Mapping[str, int], by: str) -> Consensus:
    lost = sorted(seat for k, seats in answers.items() if k != key for seat in seats)
    return Consensus(
        answer=key,
        brutes_for=list(answers[key]),
        outvoted=lost,
        candidates_for=votes.get(key, 0),
        by=by,
    )


class PanelVerdict(BaseModel):
    """What the panel's consensus over a solve's inputs says about the oracle as a whole."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    believed: int = 0  # inputs with a believed answer
    unsettled: int = 0  # inputs the panel answered where no answer is believed
    # seats that lost their vote on some input, never answered one, or crashed where another answered: not stressed
    # against
    dismissed: list[int] = []
    confirmed: list[int] = []  # seats that printed a believed answer confirmed by another independent program
    reasons: list[str] = []  # the distinct reasons of unsettled inputs


def weigh_panel(consensuses: Sequence[Consensus]) -> PanelVerdict:
    """The consensus of every input summed up: which seats keep their place on the panel, which are confirmed."""
    silent = {seat for c in consensuses for seat in c.failed} - {seat for c in consensuses for seat in c.seats}
    # a brute force that crashes (or runs out of memory) on an input another one answers is not trusted either
    broken = {seat for c in consensuses if c.seats for seat in c.crashed}
    dismissed = sorted({seat for c in consensuses for seat in c.outvoted} | silent | broken)
    confirmed = {
        seat
        for c in consensuses
        if c.answer is not None and len(c.brutes_for) + c.candidates_for >= MIN_SOURCES
        for seat in c.brutes_for
    }
    unsettled = [c for c in consensuses if c.answer is None and c.answered]
    return PanelVerdict(
        believed=sum(c.answer is not None for c in consensuses),
        unsettled=len(unsettled),
        dismissed=dismissed,
        confirmed=sorted(confirmed - set(dismissed)),
        reasons=list(dict.fromkeys(c.reason for c in unsettled)),
    )


def no_agreeing_oracle(panel: int, verdict: PanelVerdict) -> str:
    """Why the solve has no agreeing oracle ("" when it has one): no brute force, none left on the panel, one left
    that no independent program ever confirmed, or inputs where the panel answered and no answer is believed."""
    kept = panel - len(verdict.dismissed)
    if panel == 0:
        return "no brute force passed the samples"
    if kept <= 0:
        return "no brute force is left that answered and kept its vote (outvoted, or too slow)"
    if verdict.unsettled:
        return f"no agreeing oracle on {verdict.unsettled} inputs: {verdict.reasons[0]}"
    if not verdict.confirmed:
        return "no answer of the brute force was confirmed by an independent program"
    return ""


def run_panel(
    probes: Sequence[Probe], brutes: Sequence[Solution], problem: Problem, sandbox: Sandbox, limits: Limits
) -> list[Probe]:
    """The probes with each brute force's output filled in (`Probe.answers`, by seat) where it is not yet. The
    statement-size probes are left out (no brute force answers them in time), and so is every size above one
    where a seat failed: what it cannot do at one size it cannot do beyond."""
    from cpbot.agents.roles.stresser import runnable
    from cpbot.judge.build import build_solution
    from cpbot.judge.execute import execute

    programs = [build_solution(runnable(brute, problem), sandbox).program for brute in brutes]
    failed_at: dict[int, int] = {}  # seat -> the smallest size it failed at
    filled = []
    for probe in probes:
        answers = [*probe.answers, *[None] * (len(brutes) - len(probe.answers))]
        for seat, program in enumerate(programs):
            beyond = probe.size is not None and seat in failed_at and probe.size > failed_at[seat]
            if answers[seat] is not None or program is None or probe.origin == "large" or beyond:
                continue
            run = execute(program, probe.input.encode(), sandbox, limits=limits)
            answers[seat] = run.stdout.decode(errors="replace") if run.verdict is None else f"!{run.verdict}"
            if run.verdict is not None and probe.size is not None:
                failed_at[seat] = min(failed_at.get(seat, probe.size), probe.size)
        filled.append(probe.model_copy(update={"answers": answers}))
    return filled


def _seat_outcome(answer: str | None) -> Outcome:
    if answer is None:
        return Outcome(failure="NOT RUN")
    return Outcome(failure=answer[1:]) if answer.startswith("!") else Outcome(output=normalize(answer))


def weigh(
    probes: Sequence[Probe],
    behaviours: Mapping[int, Sequence[Outcome]],
    sources: Mapping[int, str],
    brute_sources: Sequence[str],
    accepts: Accepts | None,
    refutes: Refutes | None = None,
) -> tuple[list[Probe], list[Consensus]]:
    """Each probe with its believed answer as the oracle (`agree` over the panel's `answers` and the candidates'
    outcomes, compared as the problem's checker does), and the consensus behind it. `behaviours`: candidate
    iteration -> outcome per probe; `sources`: candidate iteration -> program key; `brute_sources`: the panel's
    program keys (a candidate identical to a brute force is not an independent vote); `refutes`: whether the
    checker shows an answer wrong by another output (`selection.CheckerComparison.refutes`). A probe the arbiter
    answered keeps its answer."""
    seats = len(brute_sources)
    bare = [p.model_copy(update={"oracle": None}) if p.oracle_from != "model" else p for p in probes]
    panel = {-(seat + 1): [_seat_outcome(_seat(p, seat)) for p in probes] for seat in range(seats)}
    judged = as_judged(bare, {**panel, **behaviours}, accepts)
    weighed, consensuses = [], []
    for i, probe in enumerate(probes):
        if probe.oracle_from == "model":
            weighed.append(probe)
            consensuses.append(Consensus(answer=probe.oracle, reason=""))
            continue
        keys = [judged[-(seat + 1)][i].key if _seat(probe, seat) is not None else None for seat in range(seats)]
        votes: dict[str, set[str]] = {}
        for it, outcomes in judged.items():
            if it >= 0 and not outcomes[i].failure and sources[it] not in brute_sources:
                votes.setdefault(outcomes[i].key, set()).add(sources[it])
        refuted = _refuted(probe, keys, votes, refutes) if refutes is not None else set()
        consensus = agree(keys, {key: len(programs) for key, programs in votes.items()}, refuted)
        consensuses.append(consensus)
        answer = consensus.answer
        weighed.append(
            probe.model_copy(
                update={
                    "oracle": answer,
                    "oracle_from": "brute" if answer is not None else None,
                    "expected": _seat(probe, consensus.brutes_for[0]) if answer is not None else None,
                    "doubted": keys[consensus.outvoted[0]] if consensus.outvoted else None,
                }
            )
        )
    return weighed, consensuses


def _refuted(probe: Probe, keys: Sequence[str | None], votes: Mapping[str, object], refutes: Refutes) -> set[str]:
    """The brute forces' answers (their class keys) that another answer on the probe, a brute force's or a
    candidate's, shows wrong."""
    answers = {key for key in keys if key is not None and not key.startswith("!")}
    others = answers | set(votes)
    return {key for key in answers if any(other != key and refutes(probe, other, key) for other in others)}


def _seat(probe: Probe, seat: int) -> str | None:
    return probe.answers[seat] if seat < len(probe.answers) else None
