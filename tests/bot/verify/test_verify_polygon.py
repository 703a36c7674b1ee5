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


SUM_MAIN = "print(sum(map(int, open(0).read().split()[1:])))\n"
SUM_SMALL = "print(sum(map(int, open(0).read().split()[1:4])))\n"  # right while there are at most 3 numbers
GEN = "import random, sys\nn = int(sys.argv[1])\nrandom.seed(int(sys.argv[2]))\nprint(n)\nprint(*(random.randint(1, 9) for _ in range(n)))\n"  # noqa: E501
NOT_DETERMINISTIC = GEN.replace("random.seed(int(sys.argv[2]))", "random.seed()")


def _generated_package(root: Path, generator: str) -> Path:
    """A Polygon package that holds its sample and makes its other two tests with `gen N SEED`."""
    tests = '<test method="manual" sample="true"/><test method="generated" cmd="gen 5 1"/>'
    tests += '<test method="generated" cmd="gen 30 2"/>'
    xml = (
        '<problem short-name="sum"><names><name language="english" value="Sum"/></names>'
        '<judging><testset name="tests"><time-limit>2000</time-limit><memory-limit>268435456</memory-limit>'
        f"<input-path-pattern>tests/%02d</input-path-pattern><tests>{tests}</tests></testset></judging>"
        '<files><executables><executable><source path="files/gen.py" type="python.3"/></executable></executables>'
        "</files><assets><solutions>"
        '<solution tag="main"><source path="solutions/main.py" type="python.3"/></solution>'
        '<solution tag="wrong-answer"><source path="solutions/small.py" type="python.3"/></solution>'
        "</solutions></assets></problem>"
    )
    files = {"problem.xml": xml, "files/gen.py": generator, "solutions/main.py": SUM_MAIN}
    files |= {"solutions/small.py": SUM_SMALL, "tests/01": "2\n3 4\n", "tests/01.a": "7\n"}
    files |= {"statement-sections/english/input.tex": "N, then N numbers.\n"}
    files |= {"statement-sections/english/legend.tex": "Print the sum.\n"}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_generated_tests_are_made_by_the_packages_generator_and_answered_by_the_main_solution(tmp_path, sandbox):
    package = read_package(_generated_package(tmp_path / "sum", GEN))
    assert [(t.name, t.generator.name, t.args) for t in package.generated] == [
        ("tests/02", "gen.py", ["5", "1"]),
        ("tests/03", "gen.py", ["30", "2"]),
    ]
    assert package.reference is not None and package.reference.name == "main.py"
    assert package.statement == "Print the sum.\n\nN, then N numbers.\n"  # Polygon's sections, legend first
    report = verify_package(package, sandbox)
    rows = {(f.check, f.subject): f for f in report.findings}
    assert rows[("generators", "1 generators")].status is Status.OK
    # the wrong solution passes the held sample and fails only on a generated test
    assert {s.path: s.at_limit for s in report.submissions} == {"solutions/main.py": "AC", "solutions/small.py": "WA"}


def test_a_generator_giving_other_bytes_on_a_second_run_is_an_error(tmp_path, sandbox):
    report = verify_package(read_package(_generated_package(tmp_path / "sum", NOT_DETERMINISTIC)), sandbox)
    errors = [f for f in report.findings if f.check == "generators" and f.status is Status.ERROR]
    assert {f.subject for f in errors} == {"tests/02", "tests/03"} and "not deterministic" in errors[0].evidence
