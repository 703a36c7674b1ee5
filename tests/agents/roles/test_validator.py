"""The input validator: its self-check (accepts the samples, rejects near-invalid variants of them), and the
generated inputs and generators it drops."""

from __future__ import annotations

import pytest

from cpbot.agents.roles.testgen import check_suite, read_draft
from cpbot.agents.roles.validator import check_validator, mutations, quantities
from cpbot.judge.build import build_solution
from cpbot.judge.generator import generate
from cpbot.judge.model import Limits, Problem, Solution, TestCase
from cpbot.judge.validator import InputGate
from tests.agents.roles.helpers import sum_problem
from tests.paths import FIXTURES

# checks the sum problem's input token by token: 1 <= a, b <= 10^9, written plainly, one line, nothing more
STRICT = r"""import re, sys
data = sys.stdin.read()
if not data.endswith("\n") or data.count("\n") != 1:
    sys.exit("expected exactly one line")
parts = data[:-1].split(" ")
if len(parts) != 2:
    sys.exit(f"expected 2 values, got {len(parts)}")
for name, text in zip("ab", parts):
    if not re.fullmatch(r"[1-9][0-9]*", text) or not 1 <= int(text) <= 10**9:
        sys.exit(f"{name} = {text!r} is not an integer in [1, 10^9]")
    print(f"seen {name} {text} {text}")
"""
LAX_FORMAT = "a, b = map(int, input().split())\nassert 1 <= a <= 10**9 and 1 <= b <= 10**9\n"  # takes 01
NO_BOUNDS = "a, b = input().split(' ')\nassert a.isdigit() and b.strip().isdigit() and a[0] != '0'\n"
TOO_STRICT = "a, b = map(int, input().split())\nassert a < b <= 10\n"  # rejects the second sample


def py(source: str) -> Solution:
    return Solution(language="python3", source=source)


def max_sum_problem() -> Problem:
    """n and n values 1 <= a_i <= 1000: the largest sum of a contiguous part is the sum of all values."""
    return Problem(
        id="local:max-sum",
        title="Largest Part",
        statement="Print the largest sum of a non-empty contiguous part of the sequence.",
        input_spec="The first line holds $n$ ($1 \\le n \\le 100$), the second $n$ integers $a_i$ "
        "($1 \\le a_i \\le 1000$).",
        output_spec="One integer.",
        limits=Limits(time_ms=1000, memory_mb=256),
        samples=[TestCase(input="3\n1 2 3\n", output="6\n"), TestCase(input="1\n7\n", output="7\n")],
    )


def test_variants_are_built_from_the_samples_and_the_parsed_bounds():
    variants: dict[str, str] = {}
    for m in mutations(max_sum_problem()):
        variants.setdefault(m.what, m.text)  # the first sample's
    assert variants["an empty input"] == ""
    assert variants["the last value removed"] == "3\n1 2\n"
    assert variants["an extra value at the end"] == "3\n1 2 3 1\n"
    assert variants["the first value made negative"] == "-3\n1 2 3\n"
    assert variants["a leading zero on the first value"] == "03\n1 2 3\n"
    assert variants["a value one past the bound a_i <= 1000"] == "3\n1 2 1001\n"
    assert variants["a value one below the bound 1 <= a_i"] == "3\n1 2 0\n"
    # a statement whose values may be negative gets no "made negative" variant
    signed = max_sum_problem().model_copy(
        update={"input_spec": "The first line holds $n$, the second $n$ integers $a_i$ ($-1000 \\le a_i \\le 1000$)."}
    )
    assert "the first value made negative" not in {m.what for m in mutations(signed)}


def test_the_prompt_lists_the_quantities_the_validator_reports():
    assert quantities(max_sum_problem()) == "- n: 1 <= n <= 100\n- a_i: 1 <= a_i <= 1000"


def test_a_strict_validator_passes_its_self_check(sandbox):
    checked = check_validator(py(STRICT), sum_problem(), sandbox)
    assert checked.validator is not None
    assert checked.note == f"validator accepts 2 samples and rejects {len(mutations(sum_problem()))} variants"


def test_a_validator_that_fails_the_self_check_is_discarded_with_the_variant_it_got_wrong(sandbox):
    lax = check_validator(py(LAX_FORMAT), sum_problem(), sandbox)
    assert lax.validator is None
    assert lax.note.startswith("validator discarded: it accepts a sample with a leading zero on the first value")
    unbounded = check_validator(py(NO_BOUNDS), sum_problem(), sandbox)
    assert unbounded.validator is None and "it accepts a sample with the last value above every bound" in unbounded.note
    strict = check_validator(py(TOO_STRICT), sum_problem(), sandbox)
    assert strict.validator is None and strict.note.startswith("validator discarded: it rejects sample 2")


def test_a_function_problem_s_validator_reads_one_json_argument_a_line_and_is_checked_on_their_variants(sandbox):
    problem = Problem.model_validate_json((FIXTURES / "lab" / "lcb_3196" / "problem.json").read_text())
    variants = [(m.what, m.text) for m in mutations(problem)]
    assert ("the last argument left out", "[1,2,6,4]\n") in variants
    assert ("an extra argument", "[1,2,6,4]\n3\n1\n") in variants
    assert ("the last number above every bound (100000000000001)", "[1,2,6,4]\n100000000000001\n") in variants
    lax = "import json, sys\nnums = json.loads(sys.stdin.readline())\nassert isinstance(nums, list)\n"
    discarded = check_validator(py(lax), problem, sandbox)
    assert discarded.validator is None and "it accepts a sample with an extra argument" in discarded.note
    # a stdio validator reading the JSON lines as numbers rejects the samples themselves
    assert check_validator(py(STRICT), problem, sandbox).validator is None
    strict = (FIXTURES / "lab" / "lcb_3196" / "validator.py").read_text()
    checked = check_validator(py(strict), problem, sandbox)
    assert checked.validator is not None and checked.note == "validator accepts 2 samples and rejects 7 variants"


def test_a_reply_s_validator_drops_invalid_inputs_and_they_are_counted(sandbox):
    reply = (
        "## Inputs\n```text\n3 4\n```\n```text\n0 5\n```\n```text\n07 1\n```\n\n"
        "## Generator\n```python\nimport sys\nn = int(sys.argv[1])\nprint(n, 1)\n```\n\n"
        "## Brute force\n```python\na, b = map(int, input().split())\nprint(a + b)\n```\n\n"
        f"## Validator\n```python\n{STRICT}```\n"
    )
    draft = read_draft(reply, "python3")
    assert draft.validator is not None and "seen" in draft.validator
    suite = check_suite(
        draft.inputs,
        sum_problem(),
        brute=py(draft.brute or ""),
        generator=py(draft.generator or ""),
        validator=py(draft.validator),
        sandbox=sandbox,
    )
    assert [t.input for t in suite.tests.tests] == ["3 4\n"]  # the shape check alone keeps all three
    assert suite.invalid == 2 and suite.validator is not None
    assert any("input 2 dropped: the validator rejects it (a = '0'" in d for d in suite.dropped)
    assert any("input 3 dropped: the validator rejects it (a = '07'" in d for d in suite.dropped)


def test_a_generator_none_of_whose_inputs_is_valid_is_discarded(sandbox):
    negative = "import sys\nn = int(sys.argv[1])\nprint(n, -n)\n"
    suite = check_suite([], sum_problem(), brute=None, generator=py(negative), validator=py(STRICT), sandbox=sandbox)
    assert suite.generator is None
    assert any(
        d.startswith("generator discarded: none of its first inputs passes the validator (N=1, seed 1: b = '-1'")
        for d in suite.dropped
    )
    # one that breaks the constraints only sometimes is kept: its invalid inputs are dropped where they are used
    sometimes = "import sys\nn, seed = int(sys.argv[1]), int(sys.argv[2])\nprint(n, -n if seed % 2 else n)\n"
    kept = check_suite([], sum_problem(), brute=None, generator=py(sometimes), validator=py(STRICT), sandbox=sandbox)
    assert kept.generator is not None


def test_without_a_usable_validator_inputs_are_checked_for_shape_only(sandbox):
    suite = check_suite(["0 5\n"], sum_problem(), brute=None, generator=None, validator=py(LAX_FORMAT), sandbox=sandbox)
    assert suite.validator is None and [t.input for t in suite.tests.tests] == ["0 5\n"]
    assert suite.validator_note.endswith("inputs checked for shape only")
    assert any(d.startswith("validator discarded") for d in suite.dropped)


@pytest.mark.parametrize("folder", sorted(p.parent.name for p in (FIXTURES / "lab").glob("*/validator.py")))
def test_the_lab_s_validators_pass_their_self_check_and_accept_their_generator_s_inputs(folder, sandbox):
    path = FIXTURES / "lab" / folder
    problem = Problem.model_validate_json((path / "problem.json").read_text())
    checked = check_validator(py((path / "validator.py").read_text()), problem, sandbox)
    assert checked.validator is not None, checked.note
    gate = InputGate(build_solution(checked.validator, sandbox).program, sandbox)
    generator = build_solution(py((path / "gen.py").read_text()), sandbox).program
    assert generator is not None
    for n, seed in ((1, 1), (7, 2), (300, 3)):
        assert gate.admit(generate(generator, n, seed, sandbox), "generated") is None
    assert "N" in gate.seen
