"""LiveCodeBench's release format: loading (both encodings of private tests, hostile pickles refused),
signatures from starter code, the checkers a statement asks for, the release-window filters, and
programs judged right on the project's sample (tests/fixtures/datasets/livecodebench/)."""

from __future__ import annotations

import base64
import json
import os
import pickle
import zlib
from datetime import datetime
from pathlib import Path

import pytest

from cpbot.bot.bench import livecodebench as lcb
from cpbot.bot.bench.datasets import open_dataset
from cpbot.bot.bench.pickled_text import UnsafePickle, pickled_string
from cpbot.core.errors import ConfigError
from cpbot.judge.checkers import builtin_checker
from cpbot.judge.checkers.base import CheckInput
from cpbot.judge.model import Solution, Verdict
from cpbot.judge.runner import judge_problem
from tests.bot.bench.lcb_programs import RIGHT, SUM_EVEN, SUM_TWO
from tests.paths import DATASETS, REPO

SAMPLE = DATASETS / "livecodebench" / "sample.jsonl"
ALL_KEYS = ["abc900_a", "3001", "3150", "3210", "1999_C", "abc901_b", "2050_D", "3400"]


def raw_rows() -> dict[str, dict]:
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    return {r["question_id"]: r for r in rows}


def compressed(obj: object) -> str:
    return base64.b64encode(zlib.compress(pickle.dumps(obj))).decode("ascii")


def test_the_sample_is_what_its_generator_writes(tmp_path, monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_sample", SAMPLE.parent / "make_sample.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "OUT", tmp_path / "sample.jsonl")
    monkeypatch.setattr(module, "RIGHT_OUT", tmp_path / "right.json")
    module.main()
    assert (tmp_path / "sample.jsonl").read_bytes() == SAMPLE.read_bytes()
    assert (tmp_path / "right.json").read_bytes() == (SAMPLE.parent / "right.json").read_bytes()
    # the README's offline example grades on a copy of the sample
    assert (REPO / "examples" / "grade" / "release.jsonl").read_bytes() == SAMPLE.read_bytes()


def test_a_release_file_is_recognised_and_read_in_file_order():
    dataset = open_dataset(str(SAMPLE))
    assert dataset.kind == "livecodebench"
    assert dataset.problem_keys() == ALL_KEYS
    assert open_dataset(str(SAMPLE.parent)).kind == "livecodebench"  # a folder of release files


def test_private_tests_are_read_from_both_encodings():
    rows = raw_rows()
    assert rows["1999_C"]["private_test_cases"].startswith("[")  # the plain JSON string
    assert not rows["3001"]["private_test_cases"].startswith("[")  # base64 of zlib of a pickle
    plain = lcb.decode_row(rows["1999_C"])
    packed = lcb.decode_row(rows["3001"])
    assert len(plain.private_test_cases) == 3 and plain.private_test_cases[0].testtype is lcb.LcbTestType.STDIN
    assert len(packed.private_test_cases) == 4
    assert packed.private_test_cases[-1].input == "[2000000000, 2000000000, 3]"
    assert packed.metadata == {"func_name": "sumEven"} and packed.functional
    assert plain.metadata == {} and not plain.functional
    assert plain.contest_date == datetime(2024, 8, 13, 14, 35)
    assert packed.platform is lcb.Platform.LEETCODE and packed.difficulty == "easy"


class Hostile:
    """Unpickling this runs a shell command (it must never be unpickled)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_a_hostile_pickle_is_refused_without_running(tmp_path):
    marker = tmp_path / "ran"
    row = {**raw_rows()["3001"], "private_test_cases": compressed(Hostile(marker))}
    with pytest.raises(UnsafePickle, match="refused to read a pickle") as caught:
        lcb.decode_row(row)
    assert "3001" in caught.value.message
    assert not marker.exists()
    # the same pickle really would run it: the refusal is what kept it from running
    pickle.loads(pickle.dumps(Hostile(marker)))
    assert marker.exists()


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (pickle.dumps(["[]"]), "opcode"),  # a list holding the string, not the string
        (pickle.dumps("[]") + b"junk", "follow the pickle"),
        (pickle.dumps(("a", "b")), "opcode"),
        (pickle.dumps(3), "opcode"),
        (b"\x80\x04not a pickle", "not a readable pickle"),
    ],
)
def test_only_a_pickle_of_one_string_is_read(data, why):
    with pytest.raises(UnsafePickle, match=why):
        pickled_string(data)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_pickled_string_is_read_in_every_protocol(protocol):
    text = '[{"input": "1\\n", "output": "é\\n"}]' * 50
    assert pickled_string(pickle.dumps(text, protocol=protocol)) == text


def test_private_tests_that_are_neither_json_nor_compressed_are_an_error():
    row = {**raw_rows()["3001"], "private_test_cases": "%%% not base64 %%%"}
    with pytest.raises(ConfigError, match="neither a JSON list nor base64"):
        lcb.decode_row(row)


def test_a_functional_signature_comes_from_the_starter_code_type_hints():
    starter = (
        "class Solution:\n    def f(self, root: Optional[TreeNode], words: List[List[str]], x: float, "
        "flags: List[bool]) -> List[int]:\n        "
    )
    test = {"input": '[1,null,2]\n[["a","b"],[]]\n1.5\n[true]', "output": "[1, 3000000000]", "testtype": "functional"}
    row = {
        **raw_rows()["3001"],
        "starter_code": starter,
        "public_test_cases": json.dumps([test]),
        "private_test_cases": json.dumps([]),
        "metadata": json.dumps({"func_name": "f"}),
    }
    problem, tests = lcb.to_problem(lcb.decode_row(row))
    method = problem.signature.methods[0]
    assert [(p.name, p.type) for p in method.params] == [
        ("root", "TreeNode"),
        ("words", "string[][]"),
        ("x", "double"),
        ("flags", "boolean[]"),
    ]
    assert method.return_type == "long[]"  # 3000000000 does not fit in 32 bits
    assert tests[0].input == '[1,null,2]\n[["a","b"],[]]\n1.5\n[true]\n'
    assert tests[0].output == "[1,3000000000]\n"
    assert problem.samples == [tests[0].model_copy(update={"origin": "sample"})]


def test_a_functional_test_with_the_wrong_number_of_lines_is_an_error():
    rows = raw_rows()
    test = {"input": "[1]\n[2]", "output": "1", "testtype": "functional"}
    row = {**rows["3001"], "public_test_cases": json.dumps([test])}
    with pytest.raises(ConfigError, match="2 input lines for 1 parameters"):
        lcb.to_problem(lcb.decode_row(row))


def test_public_and_private_tests_are_judged_and_public_ones_are_the_samples():
    item = open_dataset(str(SAMPLE)).load("abc900_a")
    assert [t.name for t in item.hidden] == ["public-1", "public-2", *(f"private-{i}" for i in range(1, 5))]
    assert [t.input for t in item.problem.samples] == ["3 4\n", "-5 5\n"]
    assert item.problem.id == "livecodebench:abc900_a" and item.problem.difficulty == "easy"
    assert item.problem.limits.time_ms == lcb.DEFAULT_TIME_LIMIT_MS


def test_a_statement_allowing_an_error_gets_the_float_checker_and_others_decimal_lines():
    assert lcb.statement_checker("Print A+B.") == "decimal-lines"
    allowed = "Your output is correct if the absolute or relative error from the true answer is at most 10^{-6}."
    assert lcb.statement_checker(allowed) == "float:1e-6"


def check(spec: str, output: str, answer: str, tmp_path: Path) -> Verdict:
    (tmp_path / "in").write_text("")
    (tmp_path / "out").write_text(output)
    (tmp_path / "ans").write_text(answer)
    return builtin_checker(spec).check(CheckInput(tmp_path / "in", tmp_path / "out", tmp_path / "ans")).verdict


@pytest.mark.parametrize(
    ("output", "answer", "verdict"),
    [
        ("3\n", "3\n", Verdict.AC),
        ("  1 2  \n\n", "1 2", Verdict.AC),  # surrounding blanks and a trailing empty line
        ("1.50 -0\n", "1.5 0\n", Verdict.AC),  # numbers compared as decimals
        ("0.3333333\n", "0.3333333333\n", Verdict.WA),  # no tolerance
        ("1 2\n", "1\n2\n", Verdict.WA),  # the line count matters
        ("Yes\n", "yes\n", Verdict.WA),
        ("nan\n", "nan\n", Verdict.AC),  # equal text is equal
        ("nan\n", "NaN\n", Verdict.WA),  # but NaN is never a number that matches
    ],
)
def test_decimal_lines_compares_like_livecodebench(output, answer, verdict, tmp_path):
    assert check("decimal-lines", output, answer, tmp_path) == verdict


def test_the_release_window_platform_and_difficulty_filters():
    dataset = open_dataset(str(SAMPLE))
    pick = dataset.problem_keys
    assert pick(lcb.make_selection(since="2024-08-01", until="2025-02-01")) == ["1999_C", "abc901_b", "2050_D", "3400"]
    # bounds are inclusive; a bare date is its midnight (as LiveCodeBench's --start_date/--end_date)
    assert pick(lcb.make_selection(since="2024-05-11", until="2024-07-06")) == ["3150", "3210"]
    assert pick(lcb.make_selection(until="2024-08-13")) == ["abc900_a", "3001", "3150", "3210"]
    assert pick(lcb.make_selection(until="2024-08-13T14:35:00")) == ["abc900_a", "3001", "3150", "3210", "1999_C"]
    assert pick(lcb.make_selection(until="2024-08-13T16:35:00+02:00")) == pick(
        lcb.make_selection(until="2024-08-13T14:35")
    )
    assert pick(lcb.make_selection(platforms=("atcoder", "Codeforces"))) == ["abc900_a", "1999_C", "abc901_b", "2050_D"]
    assert pick(lcb.make_selection(difficulties=("hard",))) == ["2050_D", "3400"]
    assert pick(lcb.make_selection(since="2024-01-01", platforms=("leetcode",), difficulties=("easy",))) == ["3210"]
    with pytest.raises(ConfigError, match="unknown platforms 'topcoder'"):
        lcb.make_selection(platforms=("topcoder",))
    with pytest.raises(ConfigError, match="bad date"):
        lcb.make_selection(since="last year")


def test_filters_are_refused_on_other_datasets():
    with pytest.raises(ConfigError, match="select LiveCodeBench problems"):
        open_dataset(str(DATASETS / "kickstart")).problem_keys(lcb.make_selection(difficulties=("easy",)))


@pytest.fixture(scope="module")
def quick_sample():
    """The sample with a 1 s limit, so the slow programs are stopped sooner."""
    return open_dataset(str(SAMPLE)).model_copy(update={"time_limit_ms": 1000})


def test_right_programs_pass_every_problem_of_the_sample(quick_sample, sandbox):
    for key, source in RIGHT.items():
        item = quick_sample.load(key)
        report = judge_problem(Solution(language="python3", source=source), item.problem, item.hidden, sandbox=sandbox)
        assert report.accepted, (key, report.reason)
        assert report.passed == len(item.hidden)


@pytest.mark.parametrize("language", ["python3", "cpp17"])
@pytest.mark.parametrize(
    ("kind", "verdict"), [("right", Verdict.AC), ("wrong", Verdict.WA), ("crash", Verdict.RE), ("slow", Verdict.TLE)]
)
@pytest.mark.parametrize(("key", "programs"), [("abc900_a", SUM_TWO), ("3001", SUM_EVEN)], ids=["stdin", "functional"])
def test_programs_get_their_verdicts(key, programs, language, kind, verdict, quick_sample, sandbox):
    # a program that never ends is TLE at any limit: a short one spends less CPU proving it
    sample = quick_sample.model_copy(update={"time_limit_ms": 250}) if kind == "slow" else quick_sample
    item = sample.load(key)
    solution = Solution(language=language, source=programs[language][kind])
    report = judge_problem(solution, item.problem, item.hidden, sandbox=sandbox, stop_on_failure=kind != "right")
    assert report.verdict == verdict, report.reason


def test_the_cpp_int_overflow_fails_only_the_test_beyond_32_bits(quick_sample, sandbox):
    item = quick_sample.load("3001")
    report = judge_problem(
        Solution(language="cpp17", source=SUM_EVEN["cpp17"]["wrong"]), item.problem, item.hidden, sandbox=sandbox
    )
    assert [r.name for r in report.results if r.verdict != Verdict.AC] == ["private-4"]


def test_an_answer_within_the_stated_tolerance_is_accepted(quick_sample, sandbox):
    item = quick_sample.load("abc901_b")
    assert item.problem.checker == "float:1e-6"
    rounded = "n = int(input())\na = list(map(int, input().split()))\nprint(f'{sum(a) / n:.3f}')\n"
    good = judge_problem(
        Solution(language="python3", source=RIGHT["abc901_b"]), item.problem, item.hidden, sandbox=sandbox
    )
    bad = judge_problem(Solution(language="python3", source=rounded), item.problem, item.hidden, sandbox=sandbox)
    assert good.accepted
    assert bad.verdict == Verdict.WA


def test_lines_with_their_fields_in_another_order_are_indexed_too(tmp_path):
    rows = list(raw_rows().values())
    shuffled = [{k: r[k] for k in reversed(list(r))} for r in rows]  # the tests come before question_id
    release = tmp_path / "test.jsonl"
    release.write_text("".join(json.dumps(r) + "\n" for r in shuffled), encoding="utf-8")
    dataset = open_dataset(str(release))
    assert dataset.problem_keys() == ALL_KEYS
    assert dataset.problem_keys(lcb.make_selection(difficulties=("hard",))) == ["2050_D", "3400"]
    assert dataset.load("1999_C").hidden == open_dataset(str(SAMPLE)).load("1999_C").hidden
