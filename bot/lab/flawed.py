"""The lab with a fallible test designer (`cpbot lab --flaws`): how often "solved" is right when the designer's
brute force or generator is flawed (cpbot/testing/flaws.py), before and after the panel of brute forces.

For each problem and each flaw its data allows (and "right", no flaw), every candidate goes through the gate's
checks twice:
- `one reply`: the designer's one reply, flawed, trusted whole (cpbot's gate before step 19): its brute force
  answers the generated tests and is the stress oracle, its generator makes the inputs;
- `panel`: two independent replies, the flawed one and a right one (agents/oracle.py): the generated tests and
  small generator inputs are answered by what the brute forces agree on, weighed with the outputs of the
  problem's candidates (standing in for the ones a solve draws); a brute force that loses its vote is not
  stressed against; stress skips and counts inputs the brute forces disagree on; without an agreeing oracle a
  program that passes every check is `unverified`, not solved.
A "solved" claim is a candidate that passes every check (and, for the panel, has an agreeing oracle); precision
is the share of claims right on the hidden tests, recall the share of right candidates claimed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cpbot.agents import oracle, selection, verification
from cpbot.agents.envelopes import GeneratedTests
from cpbot.agents.roles import testgen
from cpbot.agents.strategies.base import source_key
from cpbot.agents.verification import GateParams
from cpbot.bot.lab.dataset import LabProblem
from cpbot.bot.lab.measure import CONFIGS, CandidateResult, ProblemChecks, lab_inputs, run_candidate, share
from cpbot.core.errors import CpbotError
from cpbot.core.registry import LANGUAGE_BY_EXTENSION
from cpbot.judge.build import build_solution
from cpbot.judge.generator import generate
from cpbot.judge.model import SCHEMA_VERSION, Limits, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import Sandbox, default_sandbox
from cpbot.testing.flaws import Code, Design
from cpbot.testing.population_server import load_lab_folder

Mode = Literal["one reply", "panel"]
MODES: tuple[Mode, ...] = ("one reply", "panel")
PROBE_SIZES = (2, 4, 8, 16)  # generator inputs the panel and the candidates also answer (as the strategy's probes)
PROBE_SEED = 700
ORACLE_LIMITS = Limits(time_ms=2000, memory_mb=512)
LAST = CONFIGS[-1]  # passing every check


class FlawFigures(BaseModel):
    """What "solved" means under one flaw and one mode, over every candidate it was measured on."""

    model_config = ConfigDict(extra="forbid")

    flaw: str
    mode: str
    candidates: int
    right: int
    claimed: int
    right_claimed: int
    wrong_claimed: int
    unverified: int  # passed every check, not claimed: no agreeing oracle
    precision: float | None
    recall: float | None


class FlawRow(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mode: str
    result: CandidateResult


class FlawReport(BaseModel):
    """`cpbot lab --flaws --json`."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    params: GateParams
    problems: int
    rows: list[FlawRow]
    figures: list[FlawFigures]


def claimed(result: CandidateResult, mode: str) -> bool:
    """Whether the gate calls this candidate solved: every check passed (and an agreeing oracle, with a panel)."""
    return result.passed[LAST] and (mode != "panel" or not result.unverified)


def flaw_figures(rows: Sequence[FlawRow]) -> list[FlawFigures]:
    """Precision and recall of "solved" per flaw and mode."""
    keys = list(dict.fromkeys((r.result.flaw, r.mode) for r in rows))
    out = []
    for flaw, mode in keys:
        mine = [r.result for r in rows if (r.result.flaw, r.mode) == (flaw, mode)]
        claims = [r for r in mine if claimed(r, mode)]
        right_claims = [r for r in claims if r.hidden_ok]
        right = [r for r in mine if r.hidden_ok]
        out.append(
            FlawFigures(
                flaw=flaw,
                mode=mode,
                candidates=len(mine),
                right=len(right),
                claimed=len(claims),
                right_claimed=len(right_claims),
                wrong_claimed=len(claims) - len(right_claims),
                unverified=sum(r.passed[LAST] and not claimed(r, mode) for r in mine),
                precision=share(len(right_claims), len(claims)),
                recall=share(len(right_claims), len(right)),
            )
        )
    return out


def _solution(code: Code | None) -> Solution | None:
    if code is None:
        return None
    suffix = "." + code.name.rsplit(".", 1)[-1] if "." in code.name else ""
    language = LANGUAGE_BY_EXTENSION.get(suffix) or ("python3" if code.family == "python" else "cpp17")
    return Solution(language=language, source=code.source)  # type: ignore[arg-type]


def one_reply_checks(lab: LabProblem, params: GateParams, sandbox: Sandbox, design: Design) -> ProblemChecks:
    """The checks with one designer reply trusted whole: its inputs answered by its brute force."""
    generator, brute = _solution(design.generator), _solution(design.brute)
    inputs = lab_inputs(generator, params.tests, sandbox) if generator is not None else []
    suite = verification.generated_suite(inputs, lab.problem, brute=brute, generator=generator, sandbox=sandbox)
    return ProblemChecks(lab, params, sandbox, suite=suite)


def panel_checks(lab: LabProblem, params: GateParams, sandbox: Sandbox, designs: Sequence[Design]) -> ProblemChecks:
    """The checks with a panel of the designs' brute forces, weighed with the problem's candidates (see the module)."""
    problem = lab.problem
    brutes: list[Solution] = []
    for brute in (_solution(d.brute) for d in designs):
        if brute is None or source_key(brute) in {source_key(b) for b in brutes}:
            continue
        if judge_problem(brute, problem, sandbox=sandbox).verdict == Verdict.AC:
            brutes.append(brute)
    generators = [g for g in (_solution(d.generator) for d in designs) if g is not None]
    generator = next((g for g in generators if testgen.validate_generator(g, problem, sandbox=sandbox) is None), None)
    inputs = lab_inputs(generator, params.tests, sandbox) if generator is not None else []
    shaped = testgen.check_suite(inputs, problem, brute=None, generator=generator, sandbox=sandbox)
    probes = [selection.Probe(input=t.input, origin="generated") for t in shaped.tests.tests]
    probes += _generator_probes(generator, sandbox)
    probes = oracle.run_panel(probes, brutes, problem, sandbox, ORACLE_LIMITS)
    candidates = {i: lab.program(c.file) for i, c in enumerate(lab.spec.candidates)}
    behaviours = {i: selection.observe(s, problem, probes, sandbox) for i, s in candidates.items()}
    sources = {i: source_key(s) for i, s in candidates.items()}
    try:
        accepts = selection.checker_accepts(problem, sandbox)
    except CpbotError:
        accepts = None
    weighed, consensus = oracle.weigh(probes, behaviours, sources, [source_key(b) for b in brutes], accepts)
    verdict = oracle.weigh_panel(consensus)
    kept = [b for seat, b in enumerate(brutes) if seat not in verdict.dismissed]
    # an input every brute force fails on is probably invalid, and dropped (as the test designer's suite does)
    tests = [
        TestCase(input=p.input, output=p.expected, origin="generated", name=f"generated-{i + 1}")
        for i, p in enumerate(weighed)
        if p.origin == "generated" and not (p.answers and all(a is not None and a.startswith("!") for a in p.answers))
    ]
    suite = testgen.GeneratedSuite(
        tests=GeneratedTests(tests=tests, reason=f"{len(tests)} generated inputs, answered by the panel's agreement"),
        generator=shaped.generator,
        brute=kept[0] if kept else None,
    )
    no_oracle = oracle.no_agreeing_oracle(len(brutes), verdict)
    return ProblemChecks(lab, params, sandbox, suite=suite, panel=kept[1:], no_oracle=no_oracle, strict=True)


def _generator_probes(generator: Solution | None, sandbox: Sandbox) -> list[selection.Probe]:
    program = build_solution(generator, sandbox).program if generator is not None else None
    if program is None:
        return []
    probes = []
    for size in PROBE_SIZES:
        try:
            data = generate(program, size, PROBE_SEED + size, sandbox)
        except CpbotError:
            continue
        probes.append(selection.Probe(input=data.decode(errors="replace"), origin="small", size=size))
    return probes


def run_flawed_problem(
    lab: LabProblem, params: GateParams, flaws: Sequence[str] = (), sandbox: Sandbox | None = None
) -> list[FlawRow]:
    """Every candidate of `lab` under each flaw (and none), in both modes. For each flaw, the first design of the
    problem's (for `shared_defect`: one wrong candidate, chosen by the problem's name so runs agree)."""
    sandbox = sandbox or default_sandbox()
    right, flawed = load_lab_folder(lab.folder).designs()
    rows: list[FlawRow] = []
    wanted = [f for f in flawed if not flaws or f in flaws]
    for flaw in ["right", *sorted(wanted)]:
        design = right if flaw == "right" else _pick(flawed[flaw], lab.name)
        for mode in MODES:
            if mode == "one reply":
                checks = one_reply_checks(lab, params, sandbox, design)
            else:
                checks = panel_checks(lab, params, sandbox, [design, right])
            for candidate in lab.spec.candidates:
                result = run_candidate(checks, candidate).model_copy(update={"flaw": flaw})
                rows.append(FlawRow(mode=mode, result=result))
    return rows


def _pick(designs: Sequence[Design], name: str) -> Design:
    return designs[sum(name.encode()) % len(designs)]


def _worker(lab: LabProblem, params: GateParams, flaws: Sequence[str]) -> list[FlawRow]:
    return run_flawed_problem(lab, params, flaws)


def run_flawed_lab(
    problems: Sequence[LabProblem],
    params: GateParams,
    *,
    flaws: Sequence[str] = (),
    jobs: int = 1,
    progress: Callable[[FlawRow], None] | None = None,
) -> FlawReport:
    """`run_flawed_problem` on every problem (`jobs` at a time, each in its own process)."""
    rows: list[FlawRow] = []
    if jobs <= 1:
        batches = (run_flawed_problem(lab, params, flaws) for lab in problems)
    else:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=jobs)
        batches = pool.map(_worker, problems, [params] * len(problems), [flaws] * len(problems))
    for batch in batches:
        rows += batch
        for row in batch if progress else ():
            progress(row)  # type: ignore[misc]
    return FlawReport(params=params, problems=len(problems), rows=rows, figures=flaw_figures(rows))


def flaw_table(report: FlawReport) -> str:
    """The report as a Markdown table: per flaw, "solved" before (one reply) and after (the panel)."""

    def share(v: float | None) -> str:
        return "-" if v is None else f"{100 * v:.1f}%"

    lines = [
        f"{report.problems} problems, {len({(r.result.problem, r.result.file) for r in report.rows})} candidates",
        "",
        "| flaw | designer replies | precision of solved | recall | wrong called solved | right called solved "
        "| unverified |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for f in report.figures:
        lines.append(
            f"| {f.flaw} | {f.mode} | {share(f.precision)} | {share(f.recall)} | "
            f"{f.wrong_claimed}/{f.candidates - f.right} | {f.right_claimed}/{f.right} | {f.unverified} |"
        )
    return "\n".join(lines)
