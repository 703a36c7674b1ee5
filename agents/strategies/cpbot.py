"""`cpbot` (the default): a fast path, checker-routed guarded debugging, verification beyond the samples,
and planning with selection and knowledge when the fast program cannot be made right.

1. Fast path: one program from the statement alone.
2. Settling a program (the fast one, then each planned one) is one loop over the tests known so far:
   - A failing program goes to the error checker (MAS-Algorithm): FIX sends it to the debug block that
     fits the first failure (`debugger.choose_block`), RETHINK abandons it for the planner. A fix that
     breaks a test that passed before is rejected and the previous program kept (AlphaCodium's test
     anchors); `debugs` fixes per program at most.
   - Once it passes every known test, the tests grow: the test generator writes inputs, a generator and
     a brute force once per solve (all validated: answers come from a brute force that passed the
     samples; inputs it fails on are dropped), and the program is judged on the samples plus them.
   - Then it is stressed against the brute force on small random inputs; a difference becomes a new
     test (origin "stress"), so the counterexample reaches the checker and the debug prompt.
   - Then it is profiled against the limits with the generator (judge/profile.py via the analyst). Too
     slow with the right complexity (or slower than its plan): the optimizer proposes a faster version,
     kept only if it still passes every test. Too slow by design: back to the planner with the
     analyst's patch.
   A program that passes all of this (each step that is possible: no brute force means no stress, no
   size bound means no profile) ends the solve.
3. Deep path, `plans` times: the selector proposes algorithm families, knowledge notes are retrieved for
   them, the planner plans (or plans again from why the last program was abandoned: the judge's report,
   the checker's RETHINK, the analyst's patch), the static pruner rejects plans that cannot meet the
   limits (re-planned without writing code), the coder starts from the STD-IO skeleton, and the program
   is settled as above.

Generated tests, stress counterexamples, stress and profile reports are recorded in the context's
evidence, so the result carries them for the submit gate. Every accepted fix adds a lesson to the run's
`KnowledgePool`, and the pool's lessons are handed to the coder of later problems of the same run.
`verify=False` skips step 2's verification (samples only); `stress_rounds=0` or `profile=False` skip one part.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from cpbot.agents import interactive_checks, oracle, selection, verification
from cpbot.agents.budget import BudgetExhausted
from cpbot.agents.envelopes import CheckerDecision, CodeAttempt, JudgeFeedback, Payload, Plan, StressFeedback
from cpbot.agents.extract import ExtractionError
from cpbot.agents.llm_failures import LLMError
from cpbot.agents.parallel import gather
from cpbot.agents.roles import (
    analyst,
    checker,
    coder,
    debugger,
    distinguisher,
    knowledge,
    optimizer,
    planner,
    pruner,
    testgen,
)
from cpbot.agents.roles.common import RoleError, feedback_text
from cpbot.agents.roles.knowledge import Note
from cpbot.agents.roles.stdio import skeleton_for
from cpbot.agents.selection import Group, Outcome, Probe
from cpbot.agents.strategies import fallbacks, input_gate
from cpbot.agents.strategies.base import Lesson, SolveContext, regressions, source_key, verdict_line
from cpbot.agents.tracing import SelectionEvent
from cpbot.agents.verification import GateParams
from cpbot.core.errors import CpbotError
from cpbot.judge.build import build_solution
from cpbot.judge.generator import generate
from cpbot.judge.kinds import problem_kind
from cpbot.judge.model import JudgeReport, Limits, Problem, ProfileReport, Solution, TestCase, Verdict


def _lessons_note(ctx: SolveContext) -> list[Note]:
    text = ctx.knowledge.text()
    if not text:
        return []
    return [
        Note(name="run-lessons", title="Lessons from earlier problems of this run", tags=[], keywords=[], body=text)
    ]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _symptom(report: JudgeReport) -> str:
    first = report.first_failure
    if first is not None and first.diff is not None:
        return f"{first.verdict}: expected {first.diff.expected!r}, got {first.diff.got!r}"
    return verdict_line(report)


# a concurrent call of the draw that failed alone: the others go on (all of them failing ends the solve with the first)
_UNUSABLE = (ExtractionError, RoleError, BudgetExhausted, LLMError)

# generator sizes every candidate runs on: small enough for most brute forces, then the statement's bound
PROBE_SIZES = (2, 4, 8, 16, 32, 128, 512)
PROBE_SEEDS = (1, 2)
ORACLE_LIMITS = Limits(time_ms=2000, memory_mb=512)  # a brute force slower than this answers no larger size
ARBITER_MAX_CHARS = 2000  # a longer input is beyond what a model can work out by hand


@dataclass
class _Run:
    """The state of one solve: the tests known so far and what verification has used up."""

    ctx: SolveContext
    tests: list[TestCase]
    generated: bool = False
    stress_runs: int = 0
    optimizes: int = 0
    profiled: dict[str, tuple[ProfileReport, analyst.Analysis]] = field(default_factory=dict)
    previous_profile: ProfileReport | None = None
    dismissed: set[int] = field(default_factory=set)  # panel seats that lost their vote: no stress against them
    confirmed: set[int] = field(default_factory=set)  # panel seats an independent program agreed with
    tiebreaker_asked: bool = False  # a brute force was asked for to break the panel's tie (once per solve)
    comparison: selection.CheckerComparison | None = None  # the problem's checker comparing two outputs
    comparison_made: bool = False
    weighed: bool = False  # the candidates' outputs were weighed against the panel (`_weigh_oracle`)


@dataclass
class _Outcome:
    """How settling a program ended: `done` (with the reason), or the feedback for the next plan."""

    done: bool
    reason: str
    feedback: Payload | None = None


@dataclass
class Cpbot:
    """cpbot's own workflow; see the module's docstring for the options' roles."""

    debugs: int = 3
    plans: int = 2
    verify: bool = True
    # how hard the gate's checks try (agents/verification.py owns them and their defaults); each of its fields is
    # also an option of its own name (`make(stress_runs=...)`, `--strategy-option stress_runs=...`)
    gate: GateParams = field(default_factory=GateParams)
    optimizes: int = 1  # optimizer proposals per solve
    # programs drawn at once for the fast path and chosen among (1: one program, settled alone); 8 is what the
    # population figures support (docs/strategies.md)
    candidates: int = 8
    # test designer requests per solve, drawn independently: each brute force that passes the samples sits on the
    # panel whose agreed answers are the expected ones (agents/oracle.py)
    brutes: int = 2
    name: str = "cpbot"

    # ---- the settling loop ----------------------------------------------------------------------

    def _settle(self, run: _Run, attempt: CodeAttempt, iteration: int, plan: Plan | None, phase: str) -> _Outcome:
        ctx = run.ctx
        report = ctx.judge(attempt, iteration, run.tests, branch=phase)
        steps = run_failures = 0
        while True:
            if report.verdict == Verdict.IE:
                return _Outcome(True, f"the judge failed: {report.reason}")
            if not report.accepted:
                if steps >= self.debugs:
                    summary = f"the last program got {verdict_line(report)} after {steps} fixes"
                    return _Outcome(
                        False, summary, JudgeFeedback(report=report, code_iteration=iteration, summary=summary)
                    )
                decision = self._check(run, attempt, report, plan, phase)
                if decision.decision == "RETHINK":
                    ctx.route("planner", phase=phase, why="rethink")
                    return _Outcome(False, f"the checker asked for a new plan: {decision.reason}", decision)
                block = debugger.choose_block(report, earlier_failures=run_failures)
                if block is None:
                    return _Outcome(False, verdict_line(report), JudgeFeedback(report=report, code_iteration=iteration))
                if block != "wrong_answer":
                    run_failures += 1
                steps += 1
                ctx.route(f"debug_{block}", phase=phase, step=steps, verdict=str(report.verdict))
                candidate = debugger.debug(
                    ctx.model, ctx.problem, attempt, report, tests=run.tests, plan=plan, block=block
                )
                candidate, candidate_it = ctx.code(candidate, sender=debugger.ROLE)
                new = ctx.judge(candidate, candidate_it, run.tests, branch=phase)
                broken = regressions(report, new)
                if broken:
                    ctx.note("fix rejected", phase=phase, step=steps, broke=broken)
                    continue
                if new.accepted:
                    ctx.knowledge.add(Lesson(problem_id=ctx.problem.id, symptom=_symptom(report), fix=candidate.notes))
                attempt, iteration, report = candidate, candidate_it, new
                continue
            if not self.verify:
                return _Outcome(True, f"accepted on {_count(report.total, 'test')}")
            if not run.generated:
                run.generated = True
                if self._generate(run, phase):
                    report = ctx.judge(attempt, iteration, run.tests, branch=phase)
                    continue
            found = self._stress(run, attempt, iteration, phase)
            if found is not None:
                run.tests.append(found)
                report = ctx.judge(attempt, iteration, run.tests, branch=phase)
                continue
            profiled = self._profile(run, attempt, iteration, plan, phase)
            if profiled is None or profiled[1].verdict.efficient or profiled[1].patch is None:
                return _Outcome(True, self._summary(run, attempt, profiled[0] if profiled else None))
            profile, analysis = profiled
            if analysis.patch.target == "coder" and run.optimizes < self.optimizes:
                run.optimizes += 1
                kept = self._optimize(run, attempt, profile, phase)
                if kept is not None:
                    attempt, iteration, report = kept
                    continue
            ctx.route("planner", phase=phase, why="too slow")
            patch = ctx.send(analysis.patch, sender=analyst.ROLE).payload
            return _Outcome(False, f"the program is too slow: {profile.reason}", patch)

    def _check(
        self, run: _Run, attempt: CodeAttempt, report: JudgeReport, plan: Plan | None, phase: str
    ) -> CheckerDecision:
        ctx = run.ctx
        ctx.route("checker", phase=phase)
        try:
            decision = checker.check(ctx.model, ctx.problem, attempt, report, plan=plan, tests=run.tests)
        except RoleError as e:
            ctx.note("checker unreadable", phase=phase, error=e.message)
            decision = CheckerDecision(decision="FIX", reason=f"no readable decision ({e.message}); fixing")
        ctx.send(decision, sender=checker.ROLE)
        return decision

    # ---- verification beyond the samples --------------------------------------------------------

    def _generate(self, run: _Run, phase: str) -> bool:
        """Generate and validate tests once per solve; True when any joined the tests."""
        ctx = run.ctx
        kind = problem_kind(ctx.problem.kind)
        if not kind.stress_applies:
            ctx.note("no generated tests", why=kind.why_not_stressed)
            return False
        ctx.route("testgen", phase=phase, k=self.brutes)
        suites = gather([partial(self._ask_tests, ctx)] * max(1, self.brutes))
        usable = [s for s in suites if isinstance(s, testgen.GeneratedSuite)]
        for failure in (s for s in suites if isinstance(s, Exception)):
            if not usable or not isinstance(failure, _UNUSABLE):
                raise failure
            ctx.note("generated tests not usable", error=failure.message)
        adopted = [self._adopt_suite(run, suite) for suite in usable]
        self._answer_tests(run)
        return any(adopted)

    def _ask_tests(self, ctx: SolveContext) -> testgen.GeneratedSuite:
        return testgen.generate_tests(ctx.model, ctx.problem, count=self.gate.tests, sandbox=ctx.sandbox)

    def _adopt_suite(self, run: _Run, suite: testgen.GeneratedSuite) -> bool:
        """The checked tests, generator and brute force join the solve's evidence, and the checked validator
        opens the solve's input gate (`agents/inputs.py`); True when any test joined."""
        ctx = run.ctx
        ctx.send(suite.tests, sender=testgen.ROLE)
        if suite.dropped:
            ctx.note("generated tests dropped", reasons=suite.dropped)
        input_gate.adopt(ctx, suite, verification.profile_size(ctx.problem, self.gate))
        ctx.adopt_tests(suite.tests.tests, generator=suite.generator, brute=suite.brute)
        run.tests.extend(suite.tests.tests)
        return bool(suite.tests.tests)

    def _stress(self, run: _Run, attempt: CodeAttempt, iteration: int, phase: str) -> TestCase | None:
        """Stress a program not stressed yet; the counterexample as a new test, or None."""
        ctx = run.ctx
        evidence = ctx.evidence
        hidden = _hidden_data_generator(ctx)
        if hidden is None and (evidence.generator is None or not problem_kind(ctx.problem.kind).stress_applies):
            return None
        if source_key(attempt.solution()) in evidence.stress:
            return None
        if run.stress_runs >= self.gate.stress_rounds:
            rounds = self.gate.stress_rounds
            why = "stress is switched off (stress_rounds=0)" if not rounds else f"the {rounds} stress runs were used"
            ctx.skip("stress", why, phase=phase)
            return None
        panel = [b for seat, b in enumerate(evidence.brutes) if seat not in run.dismissed]
        if hidden is None:
            if not evidence.brutes:
                if self.brutes > 1:
                    self._no_oracle(run, "no brute force passed the samples")
                return None
            if not panel:
                ctx.skip("stress", "every brute force lost its vote", phase=phase)
                return None
            kept = [seat for seat in range(len(evidence.brutes)) if seat not in run.dismissed]
            if len(panel) == 1 and self.brutes > 1 and kept[0] not in run.confirmed:
                # a second brute force was asked for and none agrees with this one: nothing confirms its answers
                self._no_oracle(run, "one brute force, with no second one or independent program agreeing with it")
            if len(panel) == 1 and run.weighed and evidence.no_agreeing_oracle:
                # weighed against the candidates, its answers were not confirmed everywhere: a counterexample of its
                # would only teach the debugger its mistake
                ctx.skip("stress", "the only brute force left is not an agreeing oracle", phase=phase)
                return None
        run.stress_runs += 1
        ctx.route("stress", phase=phase, brutes=len(panel))
        try:
            if hidden is not None:  # an interactive problem: the written interactor judges generated hidden data
                assert ctx.sandbox is not None
                report = interactive_checks.stress(
                    attempt.solution(), ctx.problem, hidden, self.gate, seed=run.stress_runs, sandbox=ctx.sandbox
                )
            else:
                report = input_gate.stress(ctx, attempt.solution(), self.gate, seed=run.stress_runs, panel=panel)
        except CpbotError as e:
            ctx.skip("stress", f"the stress run was inconclusive: {e.message}", phase=phase)
            return None
        if not input_gate.stress_usable(ctx, report, phase):
            return None
        ctx.record_stress(attempt, report, iteration)
        if report.contested:
            self._no_oracle(run, f"the brute forces disagreed with no majority on {report.contested} stress inputs")
        failure = report.failure
        ctx.send(
            StressFeedback(
                found=failure is not None,
                trials=report.runs,
                input=failure.input if failure else "",
                expected=failure.expected if failure else "",
                got=failure.got if failure else "",
                code_iteration=iteration,
            ),
            sender="stress",
        )
        if failure is None:
            size = verification.profile_size(ctx.problem, self.gate)
            # the aimed inputs' answers come from a brute force that kept its vote (one confirmed first), never from
            # one the panel set aside
            kept = [seat for seat in range(len(evidence.brutes)) if seat not in run.dismissed]
            seat = next((s for s in kept if s in run.confirmed), kept[0] if kept else None)
            brute = evidence.brutes[seat] if seat is not None else None
            return input_gate.aimed_case(ctx, run.tests, attempt, brute=brute, count=self.gate.aimed, size=size)
        return ctx.add_stress_case(failure)

    def _profile(
        self, run: _Run, attempt: CodeAttempt, iteration: int, plan: Plan | None, phase: str
    ) -> tuple[ProfileReport, analyst.Analysis] | None:
        """Profile and analyse a program (once per program); None when it cannot be profiled. An interactive
        problem's program is profiled through the interactor on its writer's hidden data."""
        ctx = run.ctx
        generator = _hidden_data_generator(ctx) or ctx.evidence.inputs.slow_generator or ctx.evidence.generator
        key = source_key(attempt.solution())
        if key in run.profiled:
            return run.profiled[key]
        if not self.gate.profile:
            ctx.skip("profile", "profiling is switched off (profile=false)", phase=phase)
            return None
        if generator is None or not problem_kind(ctx.problem.kind).profile_applies:
            return None
        if not verification.profile_size(ctx.problem, self.gate):
            ctx.skip("profile", "the statement gives no size bound", phase=phase)
            return None
        ctx.route("profiler", phase=phase)
        try:
            profile = input_gate.profile(ctx, attempt.solution(), generator, self.gate)
        except CpbotError as e:
            input_gate.profile_failed(ctx, e)
            ctx.skip("profile", e.message, phase=phase)
            return None
        ctx.record_profile(attempt, profile, iteration)
        ctx.route("analyst", phase=phase)
        analysis = analyst.analyse(
            profile,
            plan=plan,
            attempt=attempt,
            previous=run.previous_profile,
            model=ctx.model,
            code_iteration=iteration,
        )
        ctx.send(analysis.verdict, sender=analyst.ROLE)
        run.previous_profile = profile
        run.profiled[key] = (profile, analysis)
        return profile, analysis

    def _optimize(
        self, run: _Run, attempt: CodeAttempt, profile: ProfileReport, phase: str
    ) -> tuple[CodeAttempt, int, JudgeReport] | None:
        """A faster version that still passes every test, or None (the change is dropped)."""
        ctx = run.ctx
        ctx.route("optimizer", phase=phase)
        candidate = optimizer.propose_optimization(ctx.model, ctx.problem, attempt, profile=profile)
        candidate_it = 0
        if candidate is not None:
            candidate, candidate_it = ctx.code(candidate, sender=optimizer.ROLE)

        def judge(solution: Solution, problem: Problem, tests: list[TestCase]) -> JudgeReport:
            assert candidate is not None  # keep_if_passing judges only a proposed candidate
            return ctx.judge(candidate, candidate_it, tests, branch=phase)

        outcome = optimizer.keep_if_passing(attempt, candidate, ctx.problem, run.tests, judge=judge)
        ctx.note("optimization kept" if outcome.accepted else "optimization dropped", reason=outcome.reason)
        if not outcome.accepted or candidate is None or outcome.report is None:
            return None
        return candidate, candidate_it, outcome.report

    def _summary(self, run: _Run, attempt: CodeAttempt, profile: ProfileReport | None) -> str:
        evidence = run.ctx.evidence
        parts = [f"accepted on {_count(len(run.ctx.problem.samples), 'sample')}"]
        if evidence.tests:
            parts[0] += f" and {_count(len(evidence.tests), 'generated test')}"
        stress = evidence.stress.get(source_key(attempt.solution()))
        parts.append(f"stress clean ({stress.runs} runs)" if stress is not None else "not stressed")
        parts.append(f"profile: {profile.reason}" if profile is not None else "not profiled")
        return "; ".join(parts)

    # ---- selection among candidates -------------------------------------------------------------

    def _emit(self, ctx: SolveContext, step: str, **fields: Any) -> None:
        ctx.tracer.emit(SelectionEvent(task_id=ctx.task_id, step=step, **fields))

    def _draw(self, run: _Run, lessons: list[Note]) -> dict[int, CodeAttempt]:
        """`candidates` programs from the statement alone, asked for at once, with the test designer's inputs,
        generator and brute force (which do not depend on the programs); by code iteration."""
        ctx = run.ctx
        ctx.route("coder", phase="candidates", k=self.candidates)
        write = partial(
            coder.write_code, ctx.model, ctx.problem, None, language=ctx.language, use_skeleton=False, knowledge=lessons
        )
        calls: list[Callable[[], Any]] = [write] * self.candidates
        if self.verify and problem_kind(ctx.problem.kind).stress_applies and not run.generated:
            ctx.route("testgen", phase="candidates", k=self.brutes)
            calls += [partial(self._ask_tests, ctx)] * max(1, self.brutes)
        results = gather(calls)
        for suite in results[self.candidates :]:
            if isinstance(suite, testgen.GeneratedSuite):
                run.generated = True
                self._adopt_suite(run, suite)
            elif isinstance(suite, _UNUSABLE):
                ctx.note("generated tests not usable yet", error=suite.message)  # asked again when settling
            else:
                raise suite
        if run.generated:
            self._answer_tests(run)
        drawn: dict[int, CodeAttempt] = {}
        failed: list[Exception] = []
        for result in results[: self.candidates]:
            if isinstance(result, _UNUSABLE):
                failed.append(result)
            elif isinstance(result, Exception):
                raise result
            else:
                attempt, iteration = ctx.code(result, sender=coder.ROLE)
                drawn[iteration] = attempt
        self._emit(
            ctx,
            "drawn",
            candidates=list(drawn),
            reason=f"{len(drawn)} of {self.candidates} replies held a program"
            + "".join(f"; {e.message}" for e in failed[:3] if isinstance(e, CpbotError)),
        )
        if not drawn:
            raise failed[0]
        return drawn

    def _probes(self, run: _Run) -> list[Probe]:
        """The inputs candidates are compared on: the generated tests, then generator inputs of growing
        size (answered by the brute force while it keeps up), then the statement's largest size."""
        ctx = run.ctx
        evidence, problem, sandbox = ctx.evidence, ctx.problem, ctx.sandbox
        hidden = _hidden_data_generator(ctx)
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
        # the panel of brute forces answers the small ones (agents/oracle.py); `_weigh_oracle` says which to believe
        return oracle.run_panel(probes, evidence.brutes, problem, sandbox, ORACLE_LIMITS)

    def _observe(
        self, run: _Run, drawn: dict[int, CodeAttempt], members: Sequence[int], probes: Sequence[Probe]
    ) -> dict[int, list[Outcome]]:
        """Each candidate's outcomes on `probes`; a program drawn twice runs once."""
        ctx = run.ctx
        seen: dict[str, list[Outcome]] = {}
        behaviours = {}
        # through the interactor an outcome is its verdict; else the output, compared as the checker judges
        observe = interactive_checks.observe if _hidden_data_generator(ctx) is not None else selection.observe
        for it in members:
            solution = drawn[it].solution()
            key = source_key(solution)
            if key not in seen:
                seen[key] = observe(solution, ctx.problem, probes, ctx.sandbox)
            behaviours[it] = list(seen[key])
        return behaviours

    def _comparison(self, run: _Run) -> selection.CheckerComparison | None:
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

    def _accepts(self, run: _Run) -> selection.Accepts | None:
        comparison = self._comparison(run)
        return comparison.accepts if comparison is not None else None

    def _refutes(self, run: _Run) -> selection.Refutes | None:
        comparison = self._comparison(run)
        return comparison.refutes if comparison is not None else None

    def _rank(
        self, run: _Run, drawn: dict[int, CodeAttempt], probes: Sequence[Probe], behaviours: dict[int, list[Outcome]]
    ) -> list[Group]:
        """The candidates grouped by their answers as the checker judges them, and ranked (a program drawn twice
        counts once as a vote)."""
        sources = {it: source_key(drawn[it].solution()) for it in behaviours}
        judged = selection.as_judged(probes, behaviours, self._accepts(run))
        return selection.rank_groups(selection.group_by_behaviour(judged, sources), probes)

    def _weigh_oracle(
        self, run: _Run, drawn: dict[int, CodeAttempt], probes: list[Probe], behaviours: dict[int, list[Outcome]]
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
            self._no_oracle(run, unjudged)  # a brute force prints one of several right answers: it tells nothing
            return probes
        if not brutes:
            if not unjudged and self.brutes > 1 and self._ask_tiebreaker(run, "no brute force passed the samples"):
                return self._weigh_oracle(run, drawn, probes, behaviours)
            return probes
        probes = oracle.run_panel(probes, brutes, ctx.problem, ctx.sandbox, ORACLE_LIMITS)
        sources = {it: source_key(drawn[it].solution()) for it in behaviours}
        panel_keys = [source_key(b) for b in brutes]
        weighed, consensus = oracle.weigh(
            probes, behaviours, sources, panel_keys, self._accepts(run), refutes=self._refutes(run)
        )
        verdict = oracle.weigh_panel(consensus)
        if any(c.split for c in consensus) and self._ask_tiebreaker(run, "the brute forces disagree"):
            return self._weigh_oracle(run, drawn, probes, behaviours)
        # no agreeing oracle (every brute force lost its vote, or inputs where nothing confirms the one left): with a
        # panel asked for, one more is drawn
        left = set(range(len(brutes))) - set(verdict.dismissed) - run.dismissed
        missing = oracle.no_agreeing_oracle(len(brutes) - len(run.dismissed), verdict)
        ask = "every brute force lost its vote" if not left else "no agreeing oracle"
        if missing and self.brutes > 1 and self._ask_tiebreaker(run, ask):
            return self._weigh_oracle(run, drawn, probes, behaviours)
        run.weighed = True
        run.confirmed |= set(verdict.confirmed)
        newly = set(verdict.dismissed) - run.dismissed
        run.dismissed |= newly
        run.confirmed -= run.dismissed
        self._answer_tests(run, weighed)
        why = oracle.no_agreeing_oracle(len(brutes), verdict)
        if why:
            self._no_oracle(run, why)
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
            judged = selection.as_judged(weighed, behaviours, self._accepts(run))
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
            self._emit(
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

    def _ask_tiebreaker(self, run: _Run, why: str) -> bool:
        """The brute forces split with no majority, none is left that kept its vote, or no generator passed its
        checks (`why`): one more independently drawn designer reply, once per solve (AICodeforcer's agreement of
        independent brute forces); True when its brute force joined the panel."""
        ctx = run.ctx
        if run.tiebreaker_asked or not self.brutes:
            return False
        run.tiebreaker_asked = True
        ctx.route("testgen", phase="candidates", why=why)
        try:
            suite = self._ask_tests(ctx)
        except _UNUSABLE as e:
            ctx.note("no brute force to break the tie", error=e.message)
            return False
        before = len(ctx.evidence.brutes)
        # its brute force, and its generator when the solve has none: the tests were weighed already
        generator = suite.generator if ctx.evidence.generator is None else None
        if suite.brute is not None or generator is not None:
            ctx.adopt_tests([], brute=suite.brute, generator=generator)
        return len(ctx.evidence.brutes) > before

    def _answer_tests(self, run: _Run, probes: Sequence[Probe] | None = None) -> None:
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
                ORACLE_LIMITS,
            )
            probes, _ = oracle.weigh(asked, {}, {}, [source_key(b) for b in ctx.evidence.brutes], self._accepts(run))
        answers = {p.input: p.expected for p in probes if p.origin in ("generated", "distinguishing")}

        def answered(test: TestCase) -> TestCase:
            if test.origin != "generated" or test.input not in answers or answers[test.input] == test.output:
                return test
            return test.model_copy(update={"output": answers[test.input]})

        run.tests = [answered(t) for t in run.tests]
        ctx.evidence.tests[:] = [answered(t) for t in ctx.evidence.tests]

    def _no_oracle(self, run: _Run, why: str) -> None:
        """Record that the solve has no agreeing oracle (`Evidence.no_agreeing_oracle`): what it answers is at best
        unverified (`agents/solve.py` `missing_evidence`)."""
        evidence = run.ctx.evidence
        if not evidence.no_agreeing_oracle:
            evidence.no_agreeing_oracle = why
            run.ctx.note("no agreeing oracle", why=why)

    def _distinguish(
        self,
        run: _Run,
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
        # a brute force that kept its vote drops the inputs it cannot run on (the panel answers them: `_weigh_oracle`)
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
            probes[:] = self._weigh_oracle(run, drawn, [*probes, *new], behaviours)
            groups = self._rank(run, drawn, probes, behaviours)
            self._emit(
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
        self._emit(
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

    def _adopt_probes(self, run: _Run, probes: Sequence[Probe], groups: Sequence[Group]) -> None:
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
        if _hidden_data_generator(run.ctx) is not None:  # the interactor judges them: no answer needed
            adopted = interactive_checks.distinguishing_tests(probes, groups)
        if adopted:
            run.ctx.adopt_tests(adopted)
            run.tests.extend(adopted)

    def _choose(self, run: _Run, lessons: list[Note]) -> _Outcome:
        """Draw `candidates` programs, keep those that pass the samples, group them by behaviour, break ties
        with the oracle and the distinguisher, and settle the best group's representative (see
        `agents.selection`)."""
        ctx = run.ctx
        drawn = self._draw(run, lessons)
        reports = {it: ctx.judge(attempt, it, branch="candidates") for it, attempt in drawn.items()}
        kept = [it for it, report in reports.items() if report.accepted]
        rejected = {it: verdict_line(report) for it, report in reports.items() if not report.accepted}
        self._emit(ctx, "filtered", candidates=kept, rejected=rejected, reason=f"{len(kept)} pass the samples")
        if not kept:
            best = max(drawn, key=lambda it: (reports[it].passed, -it))
            ctx.note("no candidate passes the samples", debugging=best)
            return self._settle(run, drawn[best], best, None, "candidates")
        groups = [Group(members=kept, signature=[])]
        unjudged = selection.unjudged_answers(ctx.problem)  # outputs that differ may all be right
        probes: list[Probe] = []
        behaviours: dict[int, list[Outcome]] = {}
        interactive = _hidden_data_generator(ctx) is not None
        comparable = problem_kind(ctx.problem.kind).stress_applies or interactive
        if len(kept) > 1 and self.verify and comparable:
            if not run.generated:
                run.generated = True
                self._generate(run, "candidates")
            if ctx.evidence.generator is None and self.brutes > 1 and problem_kind(ctx.problem.kind).stress_applies:
                # no designer reply's generator passed its checks (it ignored N, broke the format): without one there
                # are no probes beyond the generated tests and no stress; the one extra designer reply is asked now
                self._ask_tiebreaker(run, "no generator passed its checks")
            probes = self._probes(run)
            if unjudged:
                # the brute force prints one of several right answers: agreeing with it or not tells nothing, and
                # inputs to tell two groups apart would only find two right answers
                probes = [p.model_copy(update={"oracle": None, "oracle_from": None}) for p in probes]
                ctx.note("no oracle among candidates", why=unjudged)
            behaviours = self._observe(run, drawn, kept, probes)
            ctx.tracker.check()
            probes = self._weigh_oracle(run, drawn, probes, behaviours)
            groups = self._rank(run, drawn, probes, behaviours)
            self._emit(
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
        self._emit(ctx, "chosen", candidates=[groups[0].representative], groups=groups, reason=why)
        outcome = _Outcome(False, "no group settled")
        tried = 0
        for rank, group in enumerate(groups[:3]):
            if rank and group.oracle_disagreed:
                break  # a worse group is not worth debugging: plan instead
            # the group's programs behave the same on the probes but may differ beyond them (speed, larger sizes):
            # the fastest is settled first, and when it cannot be, a different program of the same group
            distinct = {source_key(drawn[it].solution()): it for it in reversed(group.members)}
            for it in selection.fastest_first(sorted(distinct.values()), behaviours)[:2]:
                if tried:
                    ctx.note("next candidate", candidate=it, group=group.representative, why=outcome.reason)
                tried += 1
                outcome = self._settle(run, drawn[it], it, None, "candidates")
                if outcome.done:
                    return _Outcome(True, f"{outcome.reason}; chosen among {len(drawn)} candidates: {why}")
        return outcome

    # ---- the workflow ---------------------------------------------------------------------------

    def run(self, ctx: SolveContext) -> str:
        """Fast path, then planned attempts, each settled by the loop above; see the module's docstring."""
        run = _Run(ctx=ctx, tests=list(ctx.problem.samples))
        lessons = _lessons_note(ctx)
        if self.candidates > 1:
            outcome = self._choose(run, lessons)
        else:
            ctx.route("coder", phase="fast")
            attempt = coder.write_code(
                ctx.model, ctx.problem, None, language=ctx.language, use_skeleton=False, knowledge=lessons
            )
            attempt, iteration = ctx.code(attempt, sender=coder.ROLE)
            outcome = self._settle(run, attempt, iteration, None, "fast")
        if outcome.done:
            return outcome.reason
        plan: Plan | None = None
        for cycle in range(1, self.plans + 1):
            ctx.route("selector", cycle=cycle)
            tags = fallbacks.select(ctx).tags
            notes = [*knowledge.retrieve(ctx.problem, tags), *lessons]
            ctx.route("planner", cycle=cycle, tags=tags)
            if plan is None:
                why = [] if outcome.feedback is None else [_feedback_note(outcome.feedback)]
                plan = fallbacks.plan(ctx, tags=tags, knowledge=[*notes, *why])
            else:
                feedback = outcome.feedback or outcome.reason
                plan = fallbacks.replan(ctx, plan, feedback, tags=tags, knowledge=notes)
            plan_it = ctx.send(plan, sender=planner.ROLE).header.iteration
            decision = pruner.prune(plan, ctx.problem, language=ctx.language)
            ctx.send(decision.model_copy(update={"plan_iteration": plan_it}), sender=pruner.ROLE)
            if not decision.accepted:
                ctx.route("planner", cycle=cycle, why="pruned")
                plan = fallbacks.replan(ctx, plan, decision, tags=tags, knowledge=notes)
                plan_it = ctx.send(plan, sender=planner.ROLE).header.iteration
            template = skeleton_for(ctx.problem, ctx.language)
            ctx.route("coder", cycle=cycle)
            attempt = coder.write_code(
                ctx.model,
                ctx.problem,
                plan,
                language=ctx.language,
                template=template,
                knowledge=notes,
                plan_iteration=plan_it,
            )
            attempt, iteration = ctx.code(attempt, sender=coder.ROLE)
            outcome = self._settle(run, attempt, iteration, plan, f"plan {cycle}")
            if outcome.done:
                return f"{outcome.reason} (plan {cycle})"
        return f"no program settled after {self.plans} plans: {outcome.reason}"


def _hidden_data_generator(ctx: SolveContext) -> Solution | None:
    """The generator of hidden data of the interactor the test designer wrote, when the problem is judged
    through it (`agents/answers.py`): its inputs are stressed and grouped on through the interactor."""
    written = ctx.evidence.interactor
    return written.generator if written is not None else None


def _feedback_note(feedback: Payload) -> Note:
    """Why the fast program was abandoned, as a note for the first plan (there is no earlier plan to revise)."""
    return Note(
        name="why-plan",
        title="Why the first program, written without a plan, was abandoned",
        tags=[],
        keywords=[],
        body=feedback_text(feedback),
    )


def make(**options: Any) -> Cpbot:
    """The registry's constructor (`debugs=`, `plans=`, `verify=`, `optimizes=`, `candidates=`, and every field of
    `GateParams` by its name: `stress_runs=`, `max_n=`, `count=`, ...)."""
    gate = {name: options.pop(name) for name in list(options) if name in GateParams.model_fields}
    return Cpbot(**options, gate=GateParams(**gate))
