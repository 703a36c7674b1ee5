"""The lab with a fallible test designer (`cpbot lab --flaws`): how often "solved" is right when the designer's
brute force or generator is flawed (cpbot/testing/flaws.py), before and after the panel of brute forces.

For each problem and each flaw its data allows (and "right", no flaw), every candidate goes through the gate's
checks twice:
- `one reply`: the designer's one reply, flawed, trusted whole (cpbot's gate before step 19): its brute force
  answers the generated tests and is the stress oracle, its generator makes the inputs;
- `panel`: independent replies, the flawed one, a right one and a third drawn as the population model's
  `--designer` draws its replies (`right`: a right one again, the same program; `flawed`: a flawed one;
  `mixed`: either, half the time; cpbot/testing/flaws.py `DesignDraws`), as the `cpbot` strategy uses them
  (agents/oracle.py): the generated tests and small generator inputs are answered by what the brute forces
  agree on, weighed with the outputs of the problem's candidates (standing in for the ones a solve draws); a
  brute force that loses its vote is not stressed against; stress skips and counts inputs the brute forces
  disagree on; the folder's validator (the designer's, checked on the samples first) drops every generated,
  stress and profile input that breaks the constraints; without an agreeing oracle a program that passes every
  check is `unverified`, not solved.
The flaw `no_checker` is a "print any" problem given without its checker: one reply compares outputs as tokens
(as the gate did before step 19); the panel judges through the checker the designer writes (the folder's checker,
used only once it passes `checker_writer.vet_checker` on the samples, as `agents/answers.py` adopts one), and
without one calls nothing solved. The hidden tests always judge with the problem's own checker.
A "solved" claim is a candidate that passes every check (and, for the panel, has an agreeing oracle); precision
is the share of claims right on the hidden tests, recall the share of right candidates claimed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from cpbot.agents import oracle, selection, verification
from cpbot.agents.envelopes import GeneratedTests
from cpbot.agents.roles import checker_writer, testgen
from cpbot.agents.roles.validator import check_validator
from cpbot.agents.strategies.base import source_key
from cpbot.agents.verification import GateParams
from cpbot.bot.lab.dataset import LabProblem
from cpbot.bot.lab.measure import CONFIGS, CandidateResult, ProblemChecks, lab_inputs, run_candidate, share
from cpbot.core.errors import ConfigError, CpbotError
from cpbot.core.registry import LANGUAGE_BY_EXTENSION
from cpbot.judge.build import build_solution
from cpbot.judge.generator import generate
from cpbot.judge.model import SCHEMA_VERSION, Limits, Problem, Solution, TestCase, Verdict
from cpbot.judge.runner import judge_problem
from cpbot.judge.sandbox import Sandbox, default_sandbox
from cpbot.judge.validator import InputGate
from cpbot.testing.flaws import Code, Design, DesignDraws, DesignerMode
from cpbot.testing.population_server import load_lab_folder

Mode = Literal["one reply", "panel"]
MODES: tuple[Mode, ...] = ("one reply", "panel")
PROBE_SIZES = (2, 4, 8, 16)  # generator inputs the panel and the candidates also answer (as the strategy's probes)
PROBE_SEED = 700
ORACLE_LIMITS = Limits(time_ms=2000, memory_mb=512)
LAST = CONFIGS[-1]  # passing every check
NO_CHECKER = "no_checker"  # the flaw whose problem is given without its checker
DRAW_SEED = 0  # the seed of the panel's third reply (DesignDraws), so runs agree


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
    third: str = ""  # panel: the flaw of its third reply ("right": none)


class FlawReport(BaseModel):
    """`cpbot lab --flaws --json`."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    params: GateParams
    designer: str = "right"  # how the panel's third reply was drawn
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


def given(lab: LabProblem, flaw: str) -> Problem:
    """The problem as the gate is handed it: without its checker under the flaw `no_checker`."""
    return lab.problem.model_copy(update={"checker": "tokens"}) if flaw == NO_CHECKER else lab.problem


def written_checker(lab: LabProblem, problem: Problem, sandbox: Sandbox) -> tuple[Problem, str]:
    """The panel's problem when the one given lacks the checker a "print any" statement needs: with the checker
    the designer writes (the folder's own) once it passes the samples' check, else as given, with why nothing can
    be called solved on it (as `agents/answers.py` and `selection.unjudged_answers` decide in a solve)."""
    if not checker_writer.needs_checker(problem):
        return problem, ""
    source = lab.folder / Path(lab.problem.checker).name
    if source.suffix in LANGUAGE_BY_EXTENSION and source.is_file():
        written = lab.program(source.name)
        if not checker_writer.vet_checker(written, problem, sandbox):
            return lab.problem, ""
    return problem, f"no checker: {checker_writer.needs_checker(problem)}"


def one_reply_checks(lab: LabProblem, params: GateParams, sandbox: Sandbox, design: Design) -> ProblemChecks:
    """The checks with one designer reply trusted whole: its inputs answered by its brute force."""
    problem = given(lab, design.flaw)
    generator, brute = _solution(design.generator), _solution(design.brute)
    inputs = lab_inputs(generator, params.tests, sandbox) if generator is not None else []
    suite = verification.generated_suite(inputs, problem, brute=brute, generator=generator, sandbox=sandbox)
    return ProblemChecks(lab, params, sandbox, suite=suite, judged_as=problem)


def input_gate(lab: LabProblem, problem: Problem, sandbox: Sandbox) -> InputGate | None:
    """The door of the panel's inputs: the folder's validator once it passes its self-check (None without)."""
    checked = check_validator(lab.optional(lab.spec.validator), problem, sandbox)
    program = build_solution(checked.validator, sandbox).program if checked.validator is not None else None
    return InputGate(program, sandbox) if program is not None else None


def panel_checks(lab: LabProblem, params: GateParams, sandbox: Sandbox, designs: Sequence[Design]) -> ProblemChecks:
    """The checks with a panel of the designs' brute forces, weighed with the problem's candidates (see the module);
    the first design's flaw decides the problem as given."""
    problem, no_checker = written_checker(lab, given(lab, designs[0].flaw), sandbox)
    gate = input_gate(lab, problem, sandbox)
    brutes: list[Solution] = []
    for brute in (_solution(d.brute) for d in designs):
        if brute is None or source_key(brute) in {source_key(b) for b in brutes}:
            continue
        if judge_problem(brute, problem, sandbox=sandbox).verdict == Verdict.AC:
            brutes.append(brute)
    generators = [g for g in (_solution(d.generator) for d in designs) if g is not None]
    usable = [g for g in generators if testgen.validate_generator(g, problem, sandbox=sandbox, gate=gate) is None]
    made = [lab_inputs(g, params.tests, sandbox) for g in usable]
    # the first generator whose inputs all pass the validator (one breaking the constraints only at times is kept
    # by validate_generator, its invalid inputs dropped where used); else the first usable one
    best = next((i for i, m in enumerate(made) if gate is None or all(gate.check(x.encode()).valid for x in m)), 0)
    generator, inputs = (usable[best], made[best]) if usable else (None, [])
    validator = lab.optional(lab.spec.validator) if gate is not None else None
    shaped = testgen.check_suite(inputs, problem, brute=None, generator=generator, validator=validator, sandbox=sandbox)
    probes = [selection.Probe(input=t.input, origin="generated") for t in shaped.tests.tests]
    probes += _generator_probes(generator, sandbox, gate)
    probes = oracle.run_panel(probes, brutes, problem, sandbox, ORACLE_LIMITS)
    candidates = {i: lab.program(c.file) for i, c in enumerate(lab.spec.candidates)}
    behaviours = {i: selection.observe(s, problem, probes, sandbox) for i, s in candidates.items()}
    sources = {i: source_key(s) for i, s in candidates.items()}
    try:
        comparison = selection.checker_comparison(problem, sandbox)
    except CpbotError:
        comparison = None
    accepts, refutes = (comparison.accepts, comparison.refutes) if comparison is not None else (None, None)
    weighed, consensus = oracle.weigh(
        probes, behaviours, sources, [source_key(b) for b in brutes], accepts, refutes=refutes
    )
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
    no_oracle = "; ".join(why for why in (no_checker, oracle.no_agreeing_oracle(len(brutes), verdict)) if why)
    return ProblemChecks(
        lab,
        params,
        sandbox,
        suite=suite,
        panel=kept[1:],
        no_oracle=no_oracle,
        strict=True,
        gate=gate,
        judged_as=problem,
    )


def _generator_probes(generator: Solution | None, sandbox: Sandbox, gate: InputGate | None) -> list[selection.Probe]:
    program = build_solution(generator, sandbox).program if generator is not None else None
    if program is None:
        return []
    probes = []
    for size in PROBE_SIZES:
        try:
            data = generate(program, size, PROBE_SEED + size, sandbox)
        except CpbotError:
            continue
        if gate is not None and not gate.check(data).valid:
            continue  # an input breaking the constraints is never asked of anyone
        probes.append(selection.Probe(input=data.decode(errors="replace"), origin="small", size=size))
    return probes


def run_flawed_problem(
    lab: LabProblem,
    params: GateParams,
    flaws: Sequence[str] = (),
    sandbox: Sandbox | None = None,
    designer: DesignerMode = "right",
) -> list[FlawRow]:
    """Every candidate of `lab` under each flaw (and none), in both modes. For each flaw, one design of the
    problem's (for `shared_defect`: one wrong candidate, chosen by the problem's name so runs agree); the panel's
    third reply drawn by `designer` (see the module), the same for the same problem and flaw."""
    sandbox = sandbox or default_sandbox()
    right, flawed = load_lab_folder(lab.folder).designs()
    rows: list[FlawRow] = []
    wanted = [f for f in flawed if not flaws or f in flaws]
    for flaw in ["right", *sorted(wanted)]:
        design = right if flaw == "right" else _pick(flawed[flaw], lab.name)
        third = DesignDraws(designer, DRAW_SEED).draw(f"{lab.name}:{flaw}", right, flawed)
        for mode in MODES:
            if mode == "one reply":
                checks = one_reply_checks(lab, params, sandbox, design)
            else:
                checks = panel_checks(lab, params, sandbox, [design, right, third])
            for candidate in lab.spec.candidates:
                result = run_candidate(checks, candidate).model_copy(update={"flaw": flaw})
                rows.append(FlawRow(mode=mode, result=result, third=third.label if mode == "panel" else ""))
    return rows


def _pick(designs: Sequence[Design], name: str) -> Design:
    return designs[sum(name.encode()) % len(designs)]


def _worker(lab: LabProblem, params: GateParams, flaws: Sequence[str], designer: DesignerMode) -> list[FlawRow]:
    return run_flawed_problem(lab, params, flaws, designer=designer)


def run_flawed_lab(
    problems: Sequence[LabProblem],
    params: GateParams,
    *,
    flaws: Sequence[str] = (),
    designer: DesignerMode = "right",
    jobs: int = 1,
    progress: Callable[[FlawRow], None] | None = None,
) -> FlawReport:
    """`run_flawed_problem` on every problem (`jobs` at a time, each in its own process)."""
    rows: list[FlawRow] = []
    if jobs <= 1:
        batches = (run_flawed_problem(lab, params, flaws, designer=designer) for lab in problems)
    else:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=jobs)
        count = len(problems)
        batches = pool.map(_worker, problems, [params] * count, [flaws] * count, [designer] * count)
    for batch in batches:
        rows += batch
        for row in batch if progress else ():
            progress(row)  # type: ignore[misc]
    return FlawReport(params=params, designer=designer, problems=len(problems), rows=rows, figures=flaw_figures(rows))


def merge_flaw_reports(reports: Sequence[FlawReport], listed: set[tuple[str, str]]) -> FlawReport:
    """One report from several `--flaws --json` runs of one setting (say, one per problem), on the candidates
    `listed` as (problem, file)."""
    settings = {(r.params, r.designer) for r in reports}
    if len(settings) != 1:
        raise ConfigError("the reports were made with different settings", hint="merge runs of one setting")
    params, designer = settings.pop()
    rows = [row for r in reports for row in r.rows if (row.result.problem, row.result.file) in listed]
    problems = len({row.result.problem for row in rows})
    return FlawReport(params=params, designer=designer, problems=problems, rows=rows, figures=flaw_figures(rows))


def flaw_table(report: FlawReport) -> str:
    """The report as a Markdown table: per flaw, "solved" before (one reply) and after (the panel)."""

    def share(v: float | None) -> str:
        return "-" if v is None else f"{100 * v:.1f}%"

    lines = [
        f"{report.problems} problems, {len({(r.result.problem, r.result.file) for r in report.rows})} candidates; "
        f"the panel's third reply drawn by --designer {report.designer}",
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
