"""The panel of brute forces as the oracle of a `cpbot` solve, and what the solve does with its verdict: the
answers believed (weighed with the candidates' outputs by the pure rules of `agents/oracle.py`), a brute force
that loses its vote, one more designer reply when the panel cannot settle, the generated tests' answers, and a
solve left with no agreeing oracle."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cpbot.agents import oracle, selection
from cpbot.agents.envelopes import CodeAttempt
from cpbot.agents.roles import testgen
from cpbot.agents.selection import Outcome, Probe
from cpbot.agents.strategies.base import SolveContext, source_key
from cpbot.agents.strategies.solve_run import UNUSABLE, SolveRun, emit
from cpbot.core.errors import CpbotError
from cpbot.judge.model import Limits, TestCase


@dataclass(frozen=True)
class Panel:
    """The brute forces of a solve (`Evidence.brutes`) as its oracle; the solve's state is the `SolveRun` passed in."""

    brutes: int  # designer requests asked for per solve (`Cpbot.brutes`): more than one is a panel that must agree
    limits: Limits  # a brute force slower than this answers no larger size
    ask_tests: Callable[[SolveContext], testgen.GeneratedSuite]  # one more designer request (its brute force)

    def comparison(self, run: SolveRun) -> selection.CheckerComparison | None:
        """The problem's checker as a comparison of two outputs on a probe (`selection.checker_comparison`), made
        once per solve; None when outputs compare as tokens or the checker cannot be made."""
        if run.comparison_made:
            return run.comparison
        run.comparison_made = True
        ctx = run.ctx
        assert ctx.sandbox is not None
        try:
            run.comparison = selection.checker_comparison(ctx.problem, ctx.sandbox)
        except CpbotError as e:
            ctx.note("outputs compared as tokens", why=f"the checker cannot be made: {e.message}")
        return run.comparison

    def accepts(self, run: SolveRun) -> selection.Accepts | None:
        comparison = self.comparison(run)
        return comparison.accepts if comparison is not None else None

    def refutes(self, run: SolveRun) -> selection.Refutes | None:
        comparison = self.comparison(run)
        return comparison.refutes if comparison is not None else None

    def weigh(
        self, run: SolveRun, drawn: dict[int, CodeAttempt], probes: list[Probe], behaviours: dict[int, list[Outcome]]
    ) -> list[Probe]:
        """The probes with the answers believed (`oracle.weigh`: the panel of brute forces, weighed with the
        candidates' outputs) as their oracle. A brute force that loses its vote is not stressed against, and the
        transcript says so; the generated tests keep the believed answers (none where none is believed: they
        still catch crashes and time-outs); a solve with no agreeing oracle is not called solved."""
        ctx = run.ctx
        brutes = ctx.evidence.brutes
        if ctx.sandbox is None:
            return probes
        unjudged = selection.unjudged_answers(ctx.problem)
        if unjudged and brutes:
            self.no_oracle(run, unjudged)  # a brute force prints one of several right answers: it tells nothing
            return probes
        if not brutes:
            if not unjudged and self.brutes > 1 and self.ask_tiebreaker(run, "no brute force passed the samples"):
                return self.weigh(run, drawn, probes, behaviours)
            return probes
        probes = oracle.run_panel(probes, brutes, ctx.problem, ctx.sandbox, self.limits)
        sources = {it: source_key(drawn[it].solution()) for it in behaviours}
        panel_keys = [source_key(b) for b in brutes]
        weighed, consensus = oracle.weigh(
            probes, behaviours, sources, panel_keys, self.accepts(run), refutes=self.refutes(run)
        )
        verdict = oracle.weigh_panel(consensus)
        if any(c.split for c in consensus) and self.ask_tiebreaker(run, "the brute forces disagree"):
            return self.weigh(run, drawn, probes, behaviours)
        # no agreeing oracle (every brute force lost its vote, or inputs where nothing confirms the one left): with a
        # panel asked for, one more is drawn
        left = set(range(len(brutes))) - set(verdict.dismissed) - run.dismissed
        missing = oracle.no_agreeing_oracle(len(brutes) - len(run.dismissed), verdict)
        ask = "every brute force lost its vote" if not left else "no agreeing oracle"
        if missing and self.brutes > 1 and self.ask_tiebreaker(run, ask):
            return self.weigh(run, drawn, probes, behaviours)
        run.weighed = True
        run.confirmed |= set(verdict.confirmed)
        newly = set(verdict.dismissed) - run.dismissed
        run.dismissed |= newly
        run.confirmed -= run.dismissed
        self.answer_tests(run, weighed)
        why = oracle.no_agreeing_oracle(len(brutes), verdict)
        if why:
            self.no_oracle(run, why)
        outvoted = {seat for c in consensus for seat in c.outvoted} & newly
        if newly - outvoted:
            # never answered an input in time (too slow even at the smallest size), or crashed where another answered
            silent = ", ".join(str(seat + 1) for seat in sorted(newly - outvoted))
            ctx.note(
                "brute force left out",
                seats=sorted(s + 1 for s in newly - outvoted),
                reason=f"brute force {silent} of {len(brutes)} answered no input in time, or failed where another "
                "answered; it is not stressed against",
            )
        if outvoted:
            first = next(i for i, c in enumerate(consensus) if set(c.outvoted) & outvoted)
            c, shown = consensus[first], weighed[first]
            judged = selection.as_judged(weighed, behaviours, self.accepts(run))
            sides: dict[str, list[int]] = {}
            for it, outcomes in judged.items():
                if not outcomes[first].failure:
                    sides.setdefault(outcomes[first].key, []).append(it)
            winner = shown.oracle if shown.oracle is not None else max(sides, key=lambda k: len(sides[k]), default="")
            seats = ", ".join(str(seat + 1) for seat in sorted(outvoted))
            reason = (
                f"brute force {seats} of {len(brutes)} outvoted on {sum(bool(x.outvoted) for x in consensus)} inputs: "
                f"{len(c.brutes_for)} other brute forces and {len(sides.get(winner, []))} candidates print another "
                "answer; it loses its vote and is not stressed against"
            )
            ctx.note("brute force outvoted", seats=sorted(s + 1 for s in outvoted), reason=reason)
            emit(
                ctx,
                "doubted",
                candidates=sorted(sides.get(winner, [])),
                probes=sum(bool(x.outvoted) for x in consensus),
                disagreements=[
                    selection.Disagreement(
                        probe=first,
                        origin=shown.origin,
                        size=shown.size,
                        input=shown.input[: selection.SHOWN_CHARS],
                        outputs=[winner[: selection.SHOWN_CHARS]],
                        oracle=(shown.doubted or "")[: selection.SHOWN_CHARS],
                    )
                ],
                reason=reason,
            )
        return weighed

    def ask_tiebreaker(self, run: SolveRun, why: str) -> bool:
        """The brute forces split with no majority, none is left that kept its vote, or no generator passed its
        checks (`why`): one more independently drawn designer reply, once per solve (AICodeforcer's agreement of
        independent brute forces); True when its brute force joined the panel."""
        ctx = run.ctx
        if run.tiebreaker_asked or not self.brutes:
            return False
        run.tiebreaker_asked = True
        ctx.route("testgen", phase="candidates", why=why)
        try:
            suite = self.ask_tests(ctx)
        except UNUSABLE as e:
            ctx.note("no brute force to break the tie", error=e.message)
            return False
        before = len(ctx.evidence.brutes)
        # its brute force, and its generator when the solve has none: the tests were weighed already
        generator = suite.generator if ctx.evidence.generator is None else None
        if suite.brute is not None or generator is not None:
            ctx.adopt_tests([], brute=suite.brute, generator=generator)
        return len(ctx.evidence.brutes) > before

    def answer_tests(self, run: SolveRun, probes: Sequence[Probe] | None = None) -> None:
        """The generated tests' answers are the believed ones: from weighed `probes`, or (before any candidate ran)
        from the panel alone when it has two or more brute forces (the answer they agree on, else none)."""
        ctx = run.ctx
        if probes is None:
            if len(ctx.evidence.brutes) < 2 or ctx.sandbox is None:
                return  # one brute force: its answers stand until candidates weigh them
            tests = [t for t in ctx.evidence.tests if t.origin == "generated"]
            asked = oracle.run_panel(
                [selection.probe_of(t, "generated") for t in tests],
                ctx.evidence.brutes,
                ctx.problem,
                ctx.sandbox,
                self.limits,
            )
            probes, _ = oracle.weigh(asked, {}, {}, [source_key(b) for b in ctx.evidence.brutes], self.accepts(run))
        answers = {p.input: p.expected for p in probes if p.origin in ("generated", "distinguishing")}

        def answered(test: TestCase) -> TestCase:
            if test.origin != "generated" or test.input not in answers or answers[test.input] == test.output:
                return test
            return test.model_copy(update={"output": answers[test.input]})

        run.tests = [answered(t) for t in run.tests]
        ctx.evidence.tests[:] = [answered(t) for t in ctx.evidence.tests]

    def no_oracle(self, run: SolveRun, why: str) -> None:
        """Record that the solve has no agreeing oracle (`Evidence.no_agreeing_oracle`): what it answers is at best
        unverified (`agents/solve.py` `missing_evidence`)."""
        evidence = run.ctx.evidence
        if not evidence.no_agreeing_oracle:
            evidence.no_agreeing_oracle = why
            run.ctx.note("no agreeing oracle", why=why)
