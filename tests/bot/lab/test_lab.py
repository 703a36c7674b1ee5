"""The verification lab: its arithmetic, and which configuration catches which wrong program."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cpbot.agents.verification import GateParams
from cpbot.bot.lab.dataset import LabSpec, load_dataset, load_problem
from cpbot.bot.lab.measure import CandidateResult, figures, merge, run_problem, summarize
from cpbot.core.errors import CpbotError
from tests.paths import FIXTURES

LAB = FIXTURES / "lab"
ROOT = Path(__file__).parents[3]


def result(label: str, passed: list[bool], kind: str = "wa", seconds: float = 1.0) -> CandidateResult:
    configs = ("samples", "generated", "stress", "profile", "ladder")
    return CandidateResult(
        problem="p",
        file=f"{label}-{kind}",
        label=label,
        kind=kind,
        origin="mutant",
        oracle=True,
        hidden_ok=label == "right",
        passed=dict(zip(configs, passed, strict=True)),
        seconds={c: seconds * (i + 1) for i, c in enumerate(configs)},
    )


def test_precision_counts_right_programs_among_those_let_through_and_recall_among_right_ones():
    rows = [
        result("right", [True, True, True, True, True]),
        result("right", [True, True, True, True, False]),  # a right program the ladder refuses
        result("wrong", [True, True, False, False, False]),
        result("wrong", [True, True, True, True, False]),
        result("wrong", [True, False, False, False, False]),
    ]
    samples, ladder = figures(rows, "samples"), figures(rows, "ladder")
    assert (samples.let_through, samples.right_let_through, samples.wrong_let_through) == (5, 2, 3)
    assert samples.precision == 0.4 and samples.recall == 1.0
    assert (ladder.let_through, ladder.precision, ladder.recall) == (1, 1.0, 0.5)
    assert figures(rows, "profile").precision == round(2 / 3, 4)
    assert samples.seconds_per_candidate == 1.0 and ladder.seconds_per_candidate == 5.0


def test_nothing_let_through_has_no_precision_and_mismatched_labels_are_listed():
    rows = [result("wrong", [False] * 5)]
    assert figures(rows, "samples").precision is None
    mislabelled = result("right", [True] * 5).model_copy(update={"hidden_ok": False})
    report = summarize([*rows, mislabelled], GateParams(), problems=1)
    assert report.label_mismatches == ["p/right-wa: labelled right, fails the hidden tests"]
    assert set(report.slices) == {"oracle", "origin:mutant", "kind:wa"}


def test_reports_of_separate_runs_merge_into_one():
    one = summarize([result("right", [True] * 5)], GateParams(), problems=1)
    two = summarize([result("wrong", [True, False, False, False, False])], GateParams(), problems=1)
    merged = merge([one, two])
    assert merged.problems == 2 and merged.overall[0].precision == 0.5 and merged.overall[1].precision == 1.0
    with pytest.raises(CpbotError, match="different gate parameters"):
        merge([one, summarize([], GateParams(stress_size=4), problems=1)])


# static_range_sum in Python: right, and wrong in ways only one check sees first
RIGHT = """import sys
d = sys.stdin.read().split()
n, q = int(d[0]), int(d[1])
pre = [0]
for x in d[2:2 + n]:
    pre.append(pre[-1] + int(x))
out = []
for i in range(q):
    l, r = int(d[2 + n + 2 * i]), int(d[3 + n + 2 * i])
    out.append(pre[r] - pre[l] + BUG)
print("\\n".join(map(str, out)))
"""
WRONG = {
    "samples": "1",  # always off
    "generated": "(n == 1)",  # the generated inputs have sizes 1..tests
    "stress": "(n == 3)",  # past the generated sizes, within the small stress
    "ladder": "(n > 20)",  # past the small stress's sizes
}


@pytest.fixture
def static_range_sum(tmp_path: Path):
    folder = tmp_path / "static_range_sum"
    shutil.copytree(LAB / "static_range_sum", folder, ignore=shutil.ignore_patterns("candidates", "m*_*.cpp"))
    (folder / "candidates").mkdir()
    candidates = [{"file": "candidates/right.py", "label": "right", "kind": "right", "origin": "mutant"}]
    (folder / "candidates/right.py").write_text(RIGHT.replace("BUG", "0"))
    for config, bug in WRONG.items():
        (folder / f"candidates/{config}.py").write_text(RIGHT.replace("BUG", bug))
        candidates.append({"file": f"candidates/{config}.py", "label": "wrong", "kind": "wa", "origin": "mutant"})
    spec = json.loads((folder / "lab.json").read_text())
    spec["candidates"] = candidates
    spec["hidden"] = {"generated": [{"n": n, "seed": 7000 + n} for n in (1, 3, 5, 30)], "files": []}
    (folder / "lab.json").write_text(json.dumps(spec))
    return load_problem(folder)


@pytest.mark.slow
def test_each_wrong_program_is_caught_by_the_first_check_that_can_see_it(static_range_sum):
    # runs and sizes bound every search (not seconds), so the outcome does not depend on the machine's load
    params = GateParams(
        tests=1, stress_runs=30, stress_seconds=600, profile=False, max_n=32, ladder_seconds=600, ladder_brute_ms=20_000
    )
    results = {Path(r.file).stem: r for r in run_problem(static_range_sum, params)}
    assert results["right"].caught_by is None and results["right"].hidden_ok
    for config in WRONG:
        assert results[config].caught_by == config, results[config].detail
        assert not results[config].hidden_ok
    report = summarize(list(results.values()), params, problems=1)
    assert [f.wrong_let_through for f in report.overall] == [3, 2, 1, 1, 0]
    assert report.overall[-1].precision == 1.0 and report.overall[-1].recall == 1.0


def test_the_dataset_reads_and_every_candidate_file_exists():
    problems = load_dataset(LAB)
    assert len(problems) >= 30
    for lab in problems:
        assert isinstance(lab.spec, LabSpec) and lab.problem.samples, lab.name
        for c in lab.spec.candidates:
            assert (lab.folder / c.file).is_file(), f"{lab.name}/{c.file}"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["static_range_sum", "lca", "closest_values"])
def test_labels_hold_on_the_hidden_tests(name):
    check = subprocess.run(
        [sys.executable, str(ROOT / "scripts/lab/check_labels.py"), str(LAB), "--problem", name],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr
