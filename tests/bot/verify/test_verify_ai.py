"""`cpbot verify PACKAGE --ai`: the model's programs on a package whose tests are weak (Static Range Sum, every sum
of data/secret within 32 bits). A program summing in 32 bits passes every test of the package; the gate, with the
package's accepted submissions as the oracle, finds it wrong and gives the smallest input that shows it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cpbot.agents.solve import SolveResult
from cpbot.agents.verification import GateParams
from cpbot.bot.cli.main import main
from cpbot.bot.verify.ai import AiCheck
from cpbot.bot.verify.checks import verify_package
from cpbot.bot.verify.report import Status, text
from cpbot.core.errors import ModelError
from cpbot.judge.model import Problem, Solution
from cpbot.judge.packages import read_package
from cpbot.testing.population_server import PopulationModel, load_lab
from cpbot.testing.scripted_server import ScriptedServer
from tests.paths import FIXTURES

WEAK = FIXTURES / "packages" / "kattis" / "static_range_sum_weak"
LAB = FIXTURES / "lab" / "static_range_sum"  # the same problem, with labelled right and wrong programs
GEN = (LAB / "gen.py").read_text()
# a light gate: small stress only (tiny inputs find a 32-bit overflow), no ladder, no profile
LIGHT = ["profile=false", "ladder_seconds=0", "stress_runs=40", "tests=2"]

READ = "import sys\nd = sys.stdin.read().split()\nn, q = int(d[0]), int(d[1])\na = list(map(int, d[2:2 + n]))\n"
QUERIES = "qs = [(int(d[2 + n + 2 * i]), int(d[3 + n + 2 * i])) for i in range(q)]\n"
RIGHT = READ + QUERIES + "print('\\n'.join(str(sum(a[l:r])) for l, r in qs))\n"
# sums in a signed 32-bit integer, as `int` in C++ would
INT32 = (
    READ
    + QUERIES
    + "w = lambda v: (v + 2**31) % 2**32 - 2**31\nprint('\\n'.join(str(w(sum(a[l:r]))) for l, r in qs))\n"
)
# right within the constraints (a_i <= 10^9), wrong past them
CLAMPED = READ.replace("map(int,", "map(lambda x: min(int(x), 10**9),") + QUERIES
CLAMPED += "print('\\n'.join(str(sum(a[l:r])) for l, r in qs))\n"
ZERO = READ + QUERIES + "print('\\n'.join('0' for _ in qs))\n"
# a generator writing values past the bound 10^9 (the package's validator rejects its inputs)
PAST_BOUND = GEN.replace("hi = random.choice([n, 10**9])", "hi = 3 * 10**9")


def _answers(given: str) -> list[int]:
    d = list(map(int, given.split()))
    n, q = d[0], d[1]
    a = d[2 : 2 + n]
    return [sum(a[d[2 + n + 2 * i] : d[3 + n + 2 * i]]) for i in range(q)]


def test_ai_finds_the_population_programs_that_pass_weak_tests_and_writes_their_breaking_tests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # pass@1 0: every program the model hands out sums in 32 bits (the lab's wa.cpp)
    model = PopulationModel(load_lab(LAB), pass_at_1=0.0, seed=1)
    hacks = tmp_path / "hacks"
    with ScriptedServer(default=model) as server:
        args = ["verify", str(WEAK), "--ai", "--strategy", "direct", "-k", "1", "--json", "--save-hacks", str(hacks)]
        args += ["--base-url", server.base_url, "--model", "population", "--api-key", "sk-x", "--max-calls", "6"]
        for option in ("candidates=1", "profile=false", "ladder_seconds=0", "aimed=0", "stress_rounds=1"):
            args += ["--strategy-option", f"cpbot:{option}"]
        for setting in LIGHT:
            args += ["--set", setting]
        code = main(args)
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["passed"] is False  # a wrong program gets past the tests: the package fails
    ai = report["ai"]
    assert [(p["strategy"], p["on_tests"], p["wrong"]) for p in ai["programs"]] == [
        ("cpbot", "AC", True),
        ("direct", "AC", True),
    ]
    assert {d.program for d in model.draws} == {"candidates/wa.cpp"}
    assert [(r["strategy"], r["passed_tests"], r["wrong_past_tests"], r["solve_rate"]) for r in ai["rates"]] == [
        ("cpbot", 1, 1, 0.0),
        ("direct", 1, 1, 0.0),
    ]
    assert ai["oracle"] == ["accepted/correct.cpp", "accepted/prefix.py"]
    errors = [f for f in report["findings"] if f["check"] == "ai" and f["status"] == "error"]
    assert [f["subject"] for f in errors] == ["cpbot#1", "direct#1"]
    for program in ai["programs"]:
        breaking = program["breaking"]
        assert program["breaking_valid"] is True and program["transcript"]
        # the oracle's answer is the right one, and the program's differs from it
        assert list(map(int, breaking["expected"].split())) == _answers(breaking["input"])
        assert breaking["got"].split() != breaking["expected"].split()
        assert any(v > 2**31 - 1 for v in _answers(breaking["input"]))  # only a sum past 32 bits shows it
    # both programs are the same and break alike: one test written, ready for data/secret
    assert sorted(p.name for p in hacks.iterdir()) == ["ai-hack-000.ans", "ai-hack-000.in"]
    given = (hacks / "ai-hack-000.in").read_text()
    assert list(map(int, (hacks / "ai-hack-000.ans").read_text().split())) == _answers(given)


class FakeSolves:
    """Solves without a model: run i of any strategy returns `programs[i]` with `generator`."""

    def __init__(self, programs: list[str | Exception], generator: str | None = GEN) -> None:
        self.programs, self.generator, self.calls = programs, generator, 0

    def __call__(self, problem: Problem, strategy: str, run: int) -> tuple[SolveResult, str]:
        self.problem = problem
        program = self.programs[self.calls]
        self.calls += 1
        if isinstance(program, Exception):
            raise program
        generator = Solution(language="python3", source=self.generator) if self.generator else None
        result = SolveResult(problem_id=problem.id, strategy=strategy, language="python3", status="unverified",
                             solution=Solution(language="python3", source=program), generator=generator)  # fmt: skip
        return result, f"run-{self.calls}"


def _check(solves: FakeSolves, tmp_path: Path, k: int) -> AiCheck:
    params = GateParams.model_validate(dict(s.split("=") for s in LIGHT))
    return AiCheck(strategies=["direct"], k=k, model="fake", solve=solves, params=params, save_hacks=tmp_path)


def test_a_right_program_is_clean_a_failing_one_is_named_by_its_test_and_a_failed_solve_is_a_row(
    sandbox, tmp_path: Path
) -> None:
    solves = FakeSolves([RIGHT, ZERO, ModelError("the endpoint refused")])
    report = verify_package(read_package(WEAK), sandbox, after=_check(solves, tmp_path, 3))
    assert solves.problem.title == "Static Range Sum" and "## Constraints" in solves.problem.statement
    assert [s.input for s in solves.problem.samples] == [(WEAK / "data" / "sample" / "1.in").read_text()]
    ai = report.ai
    assert ai is not None
    right, zero, failed = ai.programs
    assert (right.on_tests, right.gate, right.wrong) == ("AC", "clean", False)
    assert (zero.on_tests, zero.failed_test, zero.gate) == ("WA", "sample/1", "")
    assert (failed.status, failed.reason, failed.on_tests) == ("error", "the endpoint refused", None)
    assert ai.rates[0].solve_rate == round(1 / 3, 4)
    assert report.passed  # nothing wrong got past the tests
    assert [f.status for f in report.findings if f.check == "ai"] == [Status.OK]
    assert list(tmp_path.iterdir()) == []
    assert "direct#1" in text(report) and "solve rate" in text(report)


def test_a_program_caught_only_past_the_constraints_is_a_warning_not_a_hole_in_the_tests(
    sandbox, tmp_path: Path
) -> None:
    solves = FakeSolves([CLAMPED], generator=PAST_BOUND)
    report = verify_package(read_package(WEAK), sandbox, after=_check(solves, tmp_path, 1))
    (program,) = report.ai.programs  # type: ignore[union-attr]
    # the generated tests (the generator at sizes 1 and 2) already hold values past 10^9
    assert program.on_tests == "AC" and program.gate == "caught by generated"
    assert program.breaking is not None and max(map(int, program.breaking.input.split())) > 10**9
    assert program.breaking_valid is False and program.wrong is False and program.saved == ""
    findings = [f for f in report.findings if f.check == "ai"]
    assert [f.status for f in findings] == [Status.WARNING, Status.OK]
    assert report.passed


def test_without_a_generator_a_passing_program_is_unchecked_and_said_so(sandbox, tmp_path: Path) -> None:
    solves = FakeSolves([INT32], generator=None)
    report = verify_package(read_package(WEAK), sandbox, after=_check(solves, tmp_path, 1))
    (program,) = report.ai.programs  # type: ignore[union-attr]
    assert program.on_tests == "AC" and program.gate == "unchecked" and not program.wrong
    assert "no solve wrote an input generator" in program.gate_detail
    assert any(f.check == "ai" and f.status is Status.WARNING for f in report.findings)


def test_ai_refuses_a_package_with_a_custom_output_validator_before_checking_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    package = tmp_path / "different"
    shutil.copytree(FIXTURES / "packages" / "kattis" / "different", package)
    assert main(["verify", str(package), "--ai", "--api-key", "sk-x", "--base-url", "http://127.0.0.1:9/v1"]) == 2
    assert "custom output validator" in capsys.readouterr().err


def test_an_option_of_ai_without_ai_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(WEAK), "-k", "2"]) == 2
    assert "-k is an option of --ai" in capsys.readouterr().err
