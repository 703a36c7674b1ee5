"""`cpbot verify` on Library Checker's layout: info.toml, generators run with seeds (twice: the same bytes), the
answers from sol/correct.cpp, the solutions' expected verdicts; a real problem from the repository and a small one
with a planted non-deterministic generator."""

from __future__ import annotations

import shutil
from pathlib import Path

from cpbot.bot.verify.checks import verify_package
from cpbot.bot.verify.report import Status
from cpbot.judge.packages import read_package
from cpbot.judge.packages.model import Expected
from tests.paths import FIXTURES

STATIC_RANGE_SUM = FIXTURES / "packages" / "library_checker" / "data_structure" / "static_range_sum"
CORRECT = '#include <cstdio>\nint main() { long long a, b; scanf("%lld %lld", &a, &b); printf("%lld\\n", a + b); }\n'
SEEDED = "import random, sys\nrandom.seed(int(sys.argv[1]))\nprint(random.randint(0, MAX), random.randint(0, 9))\n"


def _problem(root: Path, generators: dict[str, str]) -> Path:
    (root / "gen").mkdir(parents=True)
    (root / "sol").mkdir()
    (root / "sol" / "correct.cpp").write_text(CORRECT, encoding="utf-8")
    (root / "sol" / "wa.py").write_text("a, b = map(int, input().split())\nprint(a - b)\n", encoding="utf-8")
    tests = "".join(f'[[tests]]\nname = "{name}"\nnumber = 2\n' for name in generators)
    (root / "info.toml").write_text(f'title = "Sum"\ntimelimit = 2.0\n{tests}'
                                    '[[solutions]]\nname = "wa.py"\nexpect = "WA"\n[params]\nMAX = 1000\n')  # fmt: skip
    for name, source in generators.items():
        (root / "gen" / name).write_text(source.replace("MAX", "1000"), encoding="utf-8")
    return root


def test_info_toml_gives_the_generated_tests_the_reference_and_params_h():
    package = read_package(STATIC_RANGE_SUM)
    assert package.format == "library-checker" and package.time.fixed_s == 5.0
    assert [t.name for t in package.tests] == ["example_00"]
    assert [(g.name, g.args) for g in package.generated][:2] == [("random_00", ["0"]), ("random_01", ["1"])]
    assert len(package.generated) == 10 and package.reference == STATIC_RANGE_SUM.resolve() / "sol" / "correct.cpp"
    assert "#define MAX_N (long long)500000\n" in package.headers["params.h"]
    assert package.include_dirs == [(FIXTURES / "packages" / "library_checker" / "common").resolve()]
    assert {s.path.name: s.expected for s in package.submissions} == {
        "correct.cpp": Expected.ACCEPTED,
        "wa.cpp": Expected.WRONG_ANSWER,
    }


def test_a_generator_giving_other_bytes_on_a_second_run_is_caught(tmp_path, sandbox):
    noisy = "import time\nprint(time.time_ns(), 1)\n"  # never the same twice
    root = _problem(tmp_path / "sum", {"random.py": SEEDED, "noisy.py": noisy})
    report = verify_package(read_package(root), sandbox)
    generators = {f.subject: f.status for f in report.findings if f.check == "generators"}
    assert generators == {"noisy_00": Status.ERROR, "noisy_01": Status.ERROR}
    statuses = {f.subject: f.status for f in report.findings if f.check == "submissions"}
    assert statuses == {"sol/correct.cpp": Status.OK, "sol/wa.py": Status.OK}
    clean = _problem(tmp_path / "clean", {"random.py": SEEDED})
    report = verify_package(read_package(clean), sandbox)
    assert report.passed
    assert [f.evidence for f in report.findings if f.check == "generators"] == [
        "the same bytes twice for all 2 tests they make"
    ]


def test_a_bound_no_test_reaches_is_reported_from_the_testlib_validators_overview(tmp_path, sandbox):
    shutil.copytree(STATIC_RANGE_SUM.parent.parent / "common", tmp_path / "common")
    # seed 0 gives "5 0", seed 1 "5 9": b reaches both its bounds, a neither
    fixed = "import sys\nprint(5, 9 * int(sys.argv[1]))\n"
    root = _problem(tmp_path / "category" / "sum", {"fixed.py": fixed})
    (root / "verifier.cpp").write_text(
        '#include "testlib.h"\n#include "params.h"\n'
        "int main(int argc, char* argv[]) { registerValidation(argc, argv);\n"
        '  inf.readInt(0, MAX, "a"); inf.readSpace(); inf.readInt(0, 9, "b"); inf.readEoln(); inf.readEof(); }\n',
        encoding="utf-8",
    )
    report = verify_package(read_package(root), sandbox)
    assert ("input-validators", "verifier.cpp", Status.OK) in {(f.check, f.subject, f.status) for f in report.findings}
    assert [(f.subject, f.status, f.evidence) for f in report.findings if f.check == "bounds"] == [
        ("verifier.cpp: a", Status.WARNING, "BOUND NOT REACHED: no test has a at its minimum"),
        ("verifier.cpp: a", Status.WARNING, "BOUND NOT REACHED: no test has a at its maximum"),
    ]


def test_the_statement_is_task_md_in_english_with_its_parameters_filled_in():
    statement = read_package(STATIC_RANGE_SUM).statement
    assert "$1 \\leq N \\leq 500000$" in statement and "## Constraints" in statement
    assert "@{" not in statement and "lang" not in statement
