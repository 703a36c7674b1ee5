"""`cpbot verify` on a Polygon package: a real one (kborozdin/palindromic-length, a subset of its tests), read
from problem.xml, judged with its testlib checker and validator."""

from __future__ import annotations

import shutil
from pathlib import Path

from cpbot.bot.verify.checks import verify_package
from cpbot.bot.verify.report import Status
from cpbot.judge.packages import read_package
from cpbot.judge.packages.model import Expected
from tests.paths import FIXTURES

PALINDROMES = FIXTURES / "packages" / "polygon" / "palindromes"


def test_problem_xml_gives_the_limits_checker_validator_and_each_solutions_tag():
    package = read_package(PALINDROMES)
    assert package.format == "polygon" and package.time.fixed_s == 15 and package.memory_mb == 1024
    assert Path(package.output_checker).name == "check.cpp"  # std::ncmp, as a testlib source
    assert [(v.path.name, v.protocol) for v in package.input_validators] == [("ololo.cpp", "testlib")]
    assert {s.path.name: s.expected for s in package.submissions} == {
        "adamant.cpp": Expected.ACCEPTED,  # tag main
        "eertree.cpp": Expected.ACCEPTED,
        "predict.cpp": Expected.WRONG_ANSWER,
        "N2.cpp": Expected.REJECTED,
    }
    assert len(package.tests) == 56 and package.tests[0].name == "tests/01" and package.tests[0].answer is not None
    assert any("463 of 519 tests" in n for n in package.notes)  # the fixture keeps the small ones
    assert any("Windows line ends" in n for n in package.notes)


def test_a_testlib_validator_rejects_a_windows_line_end_and_the_testlib_checker_judges(tmp_path, sandbox):
    root = tmp_path / "palindromes"
    shutil.copytree(PALINDROMES, root, ignore=shutil.ignore_patterns("tests", "solutions"))
    (root / "tests").mkdir()
    for name in ("01", "02", "03"):
        given = (PALINDROMES / "tests" / name).read_bytes()
        (root / "tests" / name).write_bytes(given if name == "01" else given.replace(b"\r\n", b"\n"))
        shutil.copy(PALINDROMES / "tests" / f"{name}.a", root / "tests" / f"{name}.a")
    (root / "solutions").mkdir()
    shutil.copy(PALINDROMES / "solutions" / "eertree.cpp", root / "solutions")
    report = verify_package(read_package(root), sandbox)
    rows = {(f.check, f.subject): (f.status, f.evidence) for f in report.findings}
    status, evidence = rows[("input-validators", "ololo.cpp on tests/01")]
    assert status is Status.ERROR and "EOLN" in evidence
    assert not any(subject.endswith(("tests/02", "tests/03")) for _, subject in rows)
    assert rows[("submissions", "solutions/eertree.cpp")][0] is Status.OK
    assert report.time_limit_s == 15 and report.tle_margin_s == 15  # Polygon: the stated limit, no margin
