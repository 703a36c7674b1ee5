"""`cpbot verify` on Kattis packages: a real one from problemtools' examples, and small ones with planted
defects, each caught by its named check."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from cpbot.bot.cli.main import main
from cpbot.bot.verify.checks import limit_finding, perturbed, time_limit, verify_package
from cpbot.bot.verify.report import Status
from cpbot.judge.packages import read_package
from tests.paths import FIXTURES

DIFFERENT = FIXTURES / "packages" / "kattis" / "different"
GUESS = FIXTURES / "packages" / "kattis" / "guess"

SUM = "a, b = map(int, input().split())\nprint(a + b)\n"
VALIDATE = (
    "import re, sys\n"
    "line = sys.stdin.read()\n"
    "ok = re.fullmatch(r'(0|[1-9][0-9]*) (0|[1-9][0-9]*)\\n', line)\n"
    "sys.exit(42 if ok and all(int(x) <= 100 for x in line.split()) else 43)\n"
)


def _package(root: Path, *, tests: dict[str, tuple[str, str]], submissions: dict[str, str], yaml: str = "",
             output_validator: str | None = None) -> Path:  # fmt: skip
    (root / "problem.yaml").parent.mkdir(parents=True, exist_ok=True)
    (root / "problem.yaml").write_text(f"name: Sum\n{yaml}", encoding="utf-8")
    for name, (given, answer) in tests.items():
        path = root / "data" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".in").write_text(given, encoding="utf-8")
        path.with_suffix(".ans").write_text(answer, encoding="utf-8")
    for name, source in submissions.items():
        path = root / "submissions" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    (root / "input_validators").mkdir()
    (root / "input_validators" / "validate.py").write_text(VALIDATE, encoding="utf-8")
    if output_validator is not None:
        folder = root / "output_validators" / "check"
        folder.mkdir(parents=True)
        (folder / "check.py").write_text(output_validator, encoding="utf-8")
    return root


def test_problemtools_example_package_verifies_with_each_submission_getting_its_folders_verdict(capsys):
    assert main(["verify", str(DIFFERENT), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["passed"] is True and report["format"] == "kattis-legacy"
    got = {s["path"]: (s["expected"], s["at_limit"]) for s in report["submissions"]}
    assert got == {
        "accepted/different.cc": ("accepted", "AC"),
        "accepted/different_py3.py": ("accepted", "AC"),
        "accepted/different_stdio.cc": ("accepted", "AC"),
        "accepted/different_py2.py": ("accepted", None),  # Python 2: not judged, and said so
        "wrong_answer/different_int.cc": ("wrong_answer", "WA"),
        "wrong_answer/different_no_abs.cc": ("wrong_answer", "WA"),
        "time_limit_exceeded/different_linear_search.cc": ("time_limit_exceeded", "TLE"),
    }
    # legacy rules: the slowest accepted test x 5, up to whole seconds; its problem.yaml asks TLE submissions to
    # fail at 4 x that too (time_safety_margin: 4)
    assert report["time_limit_s"] == 1 and report["tle_margin_s"] == 4
    checks = {(f["check"], f["subject"]): f["status"] for f in report["findings"]}
    assert checks[("input-validators", "validate.py")] == "ok"
    assert checks[("input-validators", "different.ctd")] == "skipped"
    assert checks[("output-validator", "different_validator")] == "ok"
    assert any("Python 2" in n for n in report["notes"])


def test_planted_defects_are_each_caught_by_their_check(tmp_path, sandbox):
    root = _package(
        tmp_path / "sum",
        tests={"sample/1": ("1 2\n", "3\n"), "secret/big": ("1000 1\n", "1001\n"), "secret/zero": ("01 2\n", "3\n")},
        submissions={"accepted/sum.py": SUM, "accepted/diff.py": SUM.replace("a + b", "a - b")},
    )
    report = verify_package(read_package(root), sandbox)
    errors = {(f.check, f.subject) for f in report.findings if f.status is Status.ERROR}
    assert errors == {
        ("input-validators", "validate.py on secret/big"),  # a test outside the bounds
        ("input-validators", "validate.py on secret/zero"),  # a leading zero
        ("submissions", "accepted/diff.py"),  # a wrong submission marked accepted
    }
    assert not report.passed
    lax = _package(
        tmp_path / "lax",
        tests={"sample/1": ("1 2\n", "3\n")},
        submissions={"accepted/sum.py": SUM},
        output_validator="import sys\nsys.exit(42)\n",  # accepts anything
        yaml="validation: custom\n",
    )
    report = verify_package(read_package(lax), sandbox)
    assert {(f.check, f.subject) for f in report.findings if f.status is Status.ERROR} == {
        ("output-validator", "check")
    }


def test_a_clean_package_passes_and_a_wrong_answer_submission_must_fail(tmp_path, sandbox):
    root = _package(
        tmp_path / "sum",
        tests={"sample/1": ("1 2\n", "3\n"), "secret/1": ("10 20\n", "30\n")},
        submissions={"accepted/sum.py": SUM, "wrong_answer/also_right.py": SUM},
        yaml="problem_format_version: 2023-07-draft\n",
    )
    report = verify_package(read_package(root), sandbox)
    statuses = {f.subject: f.status for f in report.findings if f.check == "submissions"}
    assert statuses == {"accepted/sum.py": Status.OK, "wrong_answer/also_right.py": Status.ERROR}
    assert report.time_limit_s == 1.0 and report.tle_margin_s == 1.5  # 2023-07: x 2.0 up to 1 s, then x 1.5


def test_the_time_limit_follows_the_formats_multipliers_and_resolution(tmp_path):
    root = _package(tmp_path / "p", tests={"sample/1": ("1 2\n", "3\n")}, submissions={"accepted/a.py": SUM},
                    yaml="problem_format_version: 2023-07\nlimits:\n  time_resolution: 0.5\n")  # fmt: skip
    package = read_package(root)
    assert time_limit(0.3, package) == 1.0  # 0.6 s up to 0.5 s steps
    assert time_limit(0.01, package) == 0.5


def test_perturbed_answers_differ_from_the_answer():
    for answer in ("3\n", "1 2\n3 4\n", "YES\n"):
        assert all(output != answer for _, output in perturbed(answer))


def test_an_interactive_package_is_judged_with_its_validator_as_the_interactor(tmp_path, sandbox):
    """problemtools' guess: the validator talks to the submission (Kattis protocol); one that rejects before the
    submission spins counts as WA, and a submission that exits early gets WA, not a judge error (SIGPIPE)."""
    root = tmp_path / "guess"
    shutil.copytree(GUESS, root, ignore=shutil.ignore_patterns("submissions"))
    for name in ("accepted/guess.cc", "wrong_answer/guess.py", "wrong_answer/guess_tle.cc",
                 "run_time_error/guess_rte_after_correct.cc"):  # fmt: skip
        (root / "submissions" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(GUESS / "submissions" / name, root / "submissions" / name)
    report = verify_package(read_package(root), sandbox)
    got = {s.path: s.at_limit for s in report.submissions}
    assert got == {
        "accepted/guess.cc": "AC",
        "wrong_answer/guess.py": "WA",
        "wrong_answer/guess_tle.cc": "WA",
        "run_time_error/guess_rte_after_correct.cc": "RTE",
    }
    assert report.passed and report.tle_margin_s == 4  # its problem.yaml: time_limit_to_tle 4


def test_a_validator_that_accepts_near_misses_is_caught_and_a_strict_one_passes(tmp_path, sandbox):
    root = _package(tmp_path / "sum", tests={"sample/1": ("1 2\n", "3\n")}, submissions={"accepted/sum.py": SUM})
    report = verify_package(read_package(root), sandbox)
    assert [(f.status, f.evidence) for f in report.findings if f.check == "validator-mutations"] == [
        (Status.OK, "rejects all 5 near misses of 1 tests")
    ]
    lax = "import sys\na, b = map(int, sys.stdin.read().split())\nsys.exit(42 if a <= 100 and b <= 100 else 43)\n"
    (root / "input_validators" / "validate.py").write_text(lax, encoding="utf-8")
    report = verify_package(read_package(root), sandbox)
    accepted = {f.evidence for f in report.findings if f.check == "validator-mutations"}
    assert accepted == {"accepts it with a leading zero", "accepts it with a trailing space on the first line"}


def test_a_stated_time_limit_without_margin_is_a_warning(tmp_path):
    root = _package(tmp_path / "p", tests={"sample/1": ("1 2\n", "3\n")}, submissions={"accepted/a.py": SUM},
                    yaml="problem_format_version: 2023-07\nlimits:\n  time_limit: 1\n")  # fmt: skip
    package = read_package(root)
    tight = limit_finding(600.0, 1.0, package)  # 600 ms x 2.0 does not fit into 1 s
    assert tight.status is Status.WARNING and "without margin" in tight.evidence
    assert limit_finding(400.0, 1.0, package).status is Status.OK
    # a limit set from the runs has its margin by construction
    derived = _package(tmp_path / "q", tests={"sample/1": ("1 2\n", "3\n")}, submissions={"accepted/a.py": SUM})
    assert limit_finding(600.0, 3.0, read_package(derived)).status is Status.OK


def test_a_partially_accepted_submission_must_pass_some_groups_of_secret_and_not_all(tmp_path, sandbox):
    # small.py is right while a + b < 10: it passes the group of small tests, not the group of large ones
    small = "a, b = map(int, input().split())\nprint(a + b if a + b < 10 else 0)\n"
    tests = {"sample/1": ("1 2\n", "3\n"), "secret/small/1": ("2 3\n", "5\n"), "secret/large/1": ("50 60\n", "110\n")}
    submissions = {"accepted/sum.py": SUM, "partially_accepted/small.py": small, "partially_accepted/all.py": SUM}
    report = verify_package(read_package(_package(tmp_path / "p", tests=tests, submissions=submissions)), sandbox)
    got = {s.path: (s.at_limit, s.at_margin) for s in report.submissions}
    assert got["partially_accepted/small.py"] == ("PAC", "PAC")
    assert got["partially_accepted/all.py"] == ("AC", "AC")
    rows = {f.subject: (f.status, f.evidence) for f in report.findings if f.check == "submissions"}
    assert rows["partially_accepted/small.py"][0] is Status.OK
    assert rows["partially_accepted/all.py"] == (Status.ERROR, "got AC, expected PAC")
