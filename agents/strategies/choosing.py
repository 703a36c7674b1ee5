"""Choosing among a `cpbot` solve's candidates by behaviour (`agents/selection.py` holds the pure rules): they run
on common inputs (probes), are grouped by their answers as the problem's checker compares them, and the groups
are ranked by the answers the panel of brute forces is believed on (`agents/strategies/panel.py`); two tied
groups are told apart by the distinguisher's inputs, then the arbiter; the probes that tell groups apart become
tests. `Cpbot._choose` draws the candidates and settles the chosen group's programs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from cpbot.agents import interactive_checks, oracle, selection, verification
from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.parallel import gather, values
from cpbot.agents.roles import distinguisher, testgen
from cpbot.agents.selection import Group, Outcome, Probe
from cpbot.agents.strategies import input_gate
from cpbot.agents.strategies.base import SolveContext, source_key
from cpbot.agents.strategies.panel import Panel
from cpbot.agents.strategies.solve_run import SolveRun, emit, hidden_data_generator
from cpbot.agents.verification import GateParams
from cpbot.core.errors import CpbotError
from cpbot.judge.build import build_solution
from cpbot.judge.generator import generate
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import TestCase

# generator sizes every candidate runs on: small enough for most brute forces, then the statement's bound
PROBE_SIZES = (2, 4, 8, 16, 32, 128, 512)
PROBE_SEEDS = (1, 2)
ARBITER_MAX_CHARS = 2000  # a longer input is beyond what a model can work out by hand


def comparable(ctx: SolveContext) -> bool:
    """Candidates of this problem can be compared on common inputs: its kind is stressed, or it is judged
    through the interactor the test designer wrote."""
    return problem_kind(ctx.problem.kind).stress_applies or hidden_data_generator(ctx) is not None


@dataclass(frozen=True)
class Chooser:
    """Chooses among the candidates of a solve (the `SolveRun` passed in) with `panel` as the oracle."""

    panel: Panel
    gate: GateParams  # the statement's largest size (`verification.profile_size`) is a probe size

    def choose(
        self, run: SolveRun, drawn: dict[int, CodeAttempt], kept: list[int], *, compare: bool
    ) -> tuple[list[Group], dict[int, list[Outcome]], str]:
        """The groups of the candidates that pass the samples (`kept`), best first, their outcomes on the probes,
        and why the best group is chosen. With `compare`, they are compared on probes answered by the panel, a
        tie is broken with the distinguisher and the arbiter, and the probes that tell groups apart become tests;
        else the first is kept."""
        ctx = run.ctx
        groups = [Group(members=kept, signature=[])]
        unjudged = selection.unjudged_answers(ctx.problem)  # outputs that differ may all be right
        probes: list[Probe] = []
        behaviours: dict[int, list[Outcome]] = {}
        interactive = hidden_data_generator(ctx) is not None
        if compare:
            no_generator = ctx.evidence.generator is None and problem_kind(ctx.problem.kind).stress_applies
            if no_generator and self.panel.brutes > 1:
                # no designer reply's generator passed its checks (it ignored N, broke the format): without one there
                # are no probes beyond the generated tests and no stress; the one extra designer reply is asked now
                self.panel.ask_tiebreaker(run, "no generator passed its checks")
            probes = self._probes(run)
            if unjudged:
                # the brute force prints one of several right answers: agreeing with it or not tells nothing, and
                # inputs to tell two groups apart would only find two right answers
                probes = [p.model_copy(update={"oracle": None, "oracle_from": None}) for p in probes]
                ctx.note("no oracle among candidates", why=unjudged)
            behaviours = self._observe(run, drawn, kept, probes)
            ctx.tracker.check()
            probes = self.panel.weigh(run, drawn, probes, behaviours)
            groups = self._rank(run, drawn, probes, behaviours)
            emit(
                ctx,
                "grouped",
                candidates=kept,
                probes=len(probes),
                groups=groups,
                disagreements=selection.disagreements(groups, probes),
                reason=f"{len(groups)} groups by their answers (as the problem's checker compares them) on "
                f"{len(probes)} inputs",
            )
            # (through an interactor there are no outputs to show a distinguisher or an arbiter, only verdicts)
            tied = len(groups) > 1 and not selection.settled_by_evidence(groups[0], groups[1])
            if tied and not unjudged and not interactive:
                groups = self._distinguish(run, drawn, probes, behaviours, groups)
            self._adopt_probes(run, probes, groups)
        why = selection.why_chosen(groups) if probes else f"{len(kept)} candidates pass the samples; the first is kept"
        if len(kept) > 1 and not probes:
            ctx.skip("selection", f"{len(kept)} candidates pass the samples and were compared on no input")
        guess = selection.unsupported(groups, votes=not unjudged) if probes else ""
        if guess:
            ctx.evidence.doubt = ctx.evidence.doubt or f"chosen among candidates on a guess: {guess}"
            why += f"; not solved on this alone: {guess}"
        emit(ctx, "chosen", candidates=[groups[0].representative], groups=groups, reason=why)
        return groups, behaviours, why

    def _probes(self, run: SolveRun) -> list[Probe]:
        """The inputs candidates are compared on: the generated tests, then generator inputs of growing
        size (answered by the brute force while it keeps up), then the statement's largest size."""
        ctx = run.ctx
        evidence, problem, sandbox = ctx.evidence, ctx.problem, ctx.sandbox
        hidden = hidden_data_generator(ctx)
        if hidden is not None and sandbox is not None:
            return interactive_checks.probes(hidden, sandbox)
        probes = [selection.probe_of(t, "generated") for t in evidence.tests]
        if evidence.generator is None:
            return probes
        generator = build_solution(evidence.generator, sandbox).program
        if generator is None:
            return probes
        largest = verification.profile_size(problem, self.gate)
        sizes = [(n, "small") for n in PROBE_SIZES if largest is None or n < largest]
        sizes += [(largest, "large")] if largest else []
        for size, origin in sizes:
            for seed in PROBE_SEEDS:
                data = None
                # a generator too slow at the largest size (a busy machine) still gives a tenth of it
                for n in (size, size // 10) if origin == "large" else (size,):
                    try:
                        data, size = generate(generator, n, seed, sandbox), n
                        break
                    except CpbotError as e:
                        ctx.note("probe not generated", size=n, seed=seed, error=e.message)
                if data is None or not input_gate.admitted(ctx, data, "probe"):
                    continue
                probes.append(Probe(input=data.decode(errors="replace"), origin=origin, size=size))  # type: ignore[arg-type]
        # the panel of brute forces answers the small ones (agents/oracle.py); `Panel.weigh` says which to believe
        return oracle.run_panel(probes, evidence.brutes, problem, sandbox, self.panel.limits)

    def _observe(
        self, run: SolveRun, drawn: dict[int, CodeAttempt], members: Sequence[int], probes: Sequence[Probe]
    ) -> dict[int, list[Outcome]]:
        """Each candidate's outcomes on `probes`; a program drawn twice runs once. Distinct programs run side by side,
        one per sandbox slot (an interactive run takes two slots: those run one at a time)."""
        ctx = run.ctx
        # through the interactor an outcome is its verdict; else the output, compared as the checker judges
        interactive = hidden_data_generator(ctx) is not None
        observe = interactive_checks.observe if interactive else selection.observe
        keys = {it: source_key(drawn[it].solution()) for it in members}
        programs = {keys[it]: drawn[it].solution() for it in members}
        workers = 1 if interactive or ctx.sandbox is None else ctx.sandbox.size
        calls = [partial(observe, solution, ctx.problem, probes, ctx.sandbox) for solution in programs.values()]
        seen = dict(zip(programs, values(gather(calls, max_workers=workers)), strict=True))
        return {it: list(seen[keys[it]]) for it in members}

    def _rank(
        self,
        run: SolveRun,
        drawn: dict[int, CodeAttempt],
        probes: Sequence[Probe],
        behaviours: dict[int, list[Outcome]],
    ) -> list[Group]:
        """The candidates grouped by their answers as the checker judges them, and ranked (a program drawn twice
        counts once as a vote)."""
        sources = {it: source_key(drawn[it].solution()) for it in behaviours}
        judged = selection.as_judged(probes, behaviours, self.panel.accepts(run))
        return selection.rank_groups(selection.group_by_behaviour(judged, sources), probes)

    def _distinguish(
        self,
        run: SolveRun,
        drawn: dict[int, CodeAttempt],
        probes: list[Probe],
        behaviours: dict[int, list[Outcome]],
        groups: list[Group],
    ) -> list[Group]:
        """The two best groups are tied on evidence: inputs written to tell them apart, answered by the
        brute force (S*); then, if still tied, the model's word on one input where they differ."""
        ctx = run.ctx
        problem = ctx.problem
        a, b = groups[0], groups[1]
        # a brute force that kept its vote drops the inputs it cannot run on (the panel answers them: `Panel.weigh`)
        brute = next((b for seat, b in enumerate(ctx.evidence.brutes) if seat not in run.dismissed), None)
        if brute is not None:
            ctx.route("distinguisher", groups=[a.representative, b.representative])
            texts = distinguisher.distinguishing_inputs(
                ctx.model,
                problem,
                drawn[a.representative].solution(),
                drawn[b.representative].solution(),
                selection.disagreements(groups, probes),
            )
            tests, _, dropped = testgen.validate_inputs(
                texts, problem, brute=brute, sandbox=ctx.sandbox, gate=ctx.evidence.inputs.gate
            )
            new = [selection.probe_of(t, "distinguishing") for t in tests]
            for it, outcomes in self._observe(run, drawn, list(behaviours), new).items():
                behaviours[it].extend(outcomes)
            probes[:] = self.panel.weigh(run, drawn, [*probes, *new], behaviours)
            groups = self._rank(run, drawn, probes, behaviours)
            emit(
                ctx,
                "distinguished",
                candidates=[a.representative, b.representative],
                probes=len(new),
                groups=groups,
                disagreements=selection.disagreements(groups, probes),
                reason=f"{len(new)} of {len(texts)} inputs kept" + "".join(f"; {d}" for d in dropped[:3]),
            )
            if len(groups) < 2 or selection.settled_by_evidence(groups[0], groups[1]):
                return groups
        a, b = groups[0], groups[1]
        differ = [i for i in selection.differing(a, b) if len(probes[i].input) <= ARBITER_MAX_CHARS]
        if not differ:
            return groups
        i = min(differ, key=lambda j: len(probes[j].input))
        ctx.route("arbiter", groups=[a.representative, b.representative])
        pick = distinguisher.pick_output(ctx.model, problem, probes[i].input, a.signature[i], b.signature[i])
        if pick is not None:
            chosen = (a if pick == "a" else b).signature[i]
            probes[i] = probes[i].model_copy(update={"oracle": chosen, "oracle_from": "model"})
            groups = selection.rank_groups(groups, probes)
        emit(
            ctx,
            "arbitrated",
            candidates=[a.representative, b.representative],
            groups=groups,
            disagreements=[selection.disagreement(i, probes, [a, b])],
            reason="the model named neither output"
            if pick is None
            else f"the model says the group of candidate {(a if pick == 'a' else b).representative} is right",
        )
        return groups

    def _adopt_probes(self, run: SolveRun, probes: Sequence[Probe], groups: Sequence[Group]) -> None:
        """Probes the brute force answered where groups differ, or where the best group is wrong, become tests:
        the chosen program is debugged and gated on them, and the final ranking sees every candidate fail them."""
        best = groups[0]
        differ = {i for g in groups[1:] for i in selection.differing(best, g)}
        wrong = {i for i, p in enumerate(probes) if p.oracle_from == "brute" and best.signature[i] != p.oracle}
        adopted = [
            TestCase(input=p.input, output=p.expected, origin="generated", name=f"probe-{i + 1}")
            for i, p in enumerate(probes)
            if i in differ | wrong and p.oracle_from == "brute" and p.expected is not None
        ]
        if hidden_data_generator(run.ctx) is not None:  # the interactor judges them: no answer needed
            adopted = interactive_checks.distinguishing_tests(probes, groups)
        if adopted:
            run.ctx.adopt_tests(adopted)
            run.tests.extend(adopted)
