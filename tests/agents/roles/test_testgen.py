"""The test generator: inputs, generator and brute force from a reply, each checked before use."""

from __future__ import annotations

import pytest

from cpbot.agents.roles.common import RoleError
from cpbot.agents.roles.testgen import (
    InputShape,
    check_draft,
    format_issue,
    generate_tests,
    read_draft,
    sample_shape,
    validate_inputs,
)
from cpbot.judge.model import Solution
from tests.agents.roles.helpers import codeforces, leetcode, sent_text, sum_problem
from tests.agents.support.scripted_server import Reply

GOOD_GENERATOR = (
    "import random, sys\nn, seed = int(sys.argv[1]), int(sys.argv[2])\nrandom.seed(seed)\n"
    "print(random.randint(1, n), random.randint(1, n))\n"
)
BRUTE = "a, b = map(int, input().split())\nassert a >= 1 and b >= 1\nprint(a + b)\n"


def reply(inputs: list[str], generator: str = GOOD_GENERATOR, brute: str = BRUTE) -> str:
    blocks = "\n".join(f"```text\n{text}```" for text in inputs)
    return (
        f"Some thoughts first.\n\n## Inputs\n{blocks}\n\n## Generator\n```python\n{generator}```\n\n"
        f"## Brute force\n```python\n{brute}```\n"
    )


def test_valid_inputs_get_the_brute_forces_answers_and_the_rest_is_dropped(scripted_server, make_client, sandbox):
    inputs = ["3 4\n", "1 2\n", "x y\n", "1 2 3\n", "0 0\n", "1000000000 1000000000\n"]
    server = scripted_server([Reply(reply(inputs))])
    suite = generate_tests(make_client(server), sum_problem(), count=6, sandbox=sandbox)
    got = [(t.input, t.output, t.origin) for t in suite.tests.tests]
    assert got == [("3 4\n", "7\n", "generated"), ("1000000000 1000000000\n", "2000000000\n", "generated")]
    assert suite.brute is not None and suite.generator is not None
    reasons = "\n".join(suite.dropped)
    assert "input 2 dropped: it repeats a sample" in reasons
    assert "input 3 dropped: it holds 'x'" in reasons
    assert "input 4 dropped: its first line has 3 values, the samples' have 2" in reasons
    assert "the brute force fails on it (RE)" in reasons
    assert suite.tests.reason == "2 of 6 generated inputs kept, answers from the brute force"
    text = sent_text(server.requests[0])
    assert "Write 6 new small inputs" in text and "`generator N SEED`" in text and "Print $a + b$" in text


def test_a_brute_force_that_fails_the_samples_is_not_trusted(scripted_server, make_client, sandbox):
    server = scripted_server([Reply(reply(["3 4\n"], brute="a, b = map(int, input().split())\nprint(a * b)\n"))])
    suite = generate_tests(make_client(server), sum_problem(), sandbox=sandbox)
    assert suite.brute is None
    assert [(t.input, t.output) for t in suite.tests.tests] == [("3 4\n", None)]
    assert any("brute force discarded: WA on the samples" in d for d in suite.dropped)
    assert suite.tests.reason.endswith("without answers (no trusted brute force)")


@pytest.mark.parametrize(
    ("generator", "why"),
    [
        ("import sys\nprint(1, 2)\n", "ignores N"),
        ("import sys\nn = int(sys.argv[1])\nprint('a', n)\n", "malformed: it holds 'a'"),
        ("import sys\nraise SystemExit(3)\n", "generator failed for n=1"),
        ("def broken(:\n", "does not build"),
    ],
)
def test_a_bad_generator_is_discarded_with_the_reason(scripted_server, make_client, sandbox, generator, why):
    server = scripted_server([Reply(reply(["3 4\n"], generator=generator))])
    suite = generate_tests(make_client(server), sum_problem(), sandbox=sandbox)
    assert suite.generator is None
    assert any(why in d for d in suite.dropped), suite.dropped


def test_a_reply_without_headings_is_read_by_what_its_blocks_hold():
    text = f"```\n5 6\n```\n```python\n{GOOD_GENERATOR}```\n```python\n{BRUTE}```\n"
    draft = read_draft(text, "python3")
    assert draft.inputs == ["5 6\n"]
    assert draft.generator is not None and "argv" in draft.generator
    assert draft.brute is not None and "assert a >= 1" in draft.brute


def test_a_brute_force_in_the_other_language_is_kept_with_its_language(sandbox):
    cpp_brute = (
        "#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << std::endl; }\n"
    )
    text = (
        f"## Inputs\n```text\n5 6\n```\n## Generator\n```python\n{GOOD_GENERATOR}```\n"
        f"## Brute force\n```cpp\n{cpp_brute}```\n"
    )
    draft = read_draft(text, "python3")
    assert draft.brute == cpp_brute and draft.languages == {"brute": "cpp17"} and not draft.problems
    suite = check_draft(draft, sum_problem(), sandbox=sandbox)
    assert suite.brute is not None and suite.brute.language == "cpp17"
    assert suite.generator is not None and suite.generator.language == "python3"
    assert [t.output for t in suite.tests.tests] == ["11\n"]


def test_a_missing_program_is_reported_not_invented():
    draft = read_draft("## Inputs\n```text\n1 1\n```\n## Generator\nnone\n## Brute force\nnone", "python3")
    assert draft.generator is None and draft.brute is None
    assert [p.split(" (")[0] for p in draft.problems] == ["no usable generator", "no usable brute force"]


def test_multi_test_inputs_need_a_valid_test_count():
    shape = sample_shape(codeforces("cf_1702A_modern_single_line_cases"))  # t <= 10^4
    assert shape.multi_test and shape.max_tests == 10_000 and shape.numeric
    assert format_issue("2\n5\n7\n", shape) is None
    assert "test count" in (format_issue("0\n", shape) or "")
    assert "exceeds the bound 10000" in (format_issue("20000\n1\n", shape) or "")


def test_function_problem_inputs_are_json_lines():
    shape = sample_shape(leetcode("lc_decode-ways_example_block"))
    assert shape.kind == "function" and shape.lines == 1
    assert format_issue('"226"\n', shape) is None
    assert "not a JSON value" in (format_issue("226abc\n", shape) or "")
    assert "has 2 lines" in (format_issue('"1"\n"2"\n', shape) or "")


def test_empty_and_huge_inputs_are_invalid():
    assert format_issue("  \n", InputShape()) == "it is empty"
    assert "larger than" in (format_issue("1 " * (1 << 20), InputShape()) or "")


def test_inputs_without_a_brute_force_need_no_sandbox():
    tests, brute, dropped = validate_inputs(["5 6", "7 8\n"], sum_problem())
    assert [t.input for t in tests] == ["5 6\n", "7 8\n"] and all(t.output is None for t in tests)
    assert brute is None and dropped == []


def test_interactive_problems_are_refused(scripted_server, make_client):
    server = scripted_server([])
    with pytest.raises(RoleError, match="interactive"):
        generate_tests(make_client(server), codeforces("cf_2220D2_interactive"))
    assert server.requests == []


def test_the_brute_force_of_a_function_problem_runs_through_the_harness(sandbox):
    problem = leetcode("lc_decode-ways_example_block")
    brute = Solution(
        language="python3",
        source=(
            "class Solution:\n    def numDecodings(self, s: str) -> int:\n"
            "        def go(i):\n            if i == len(s):\n                return 1\n"
            "            if s[i] == '0':\n                return 0\n"
            "            total = go(i + 1)\n"
            "            if i + 1 < len(s) and 10 <= int(s[i:i + 2]) <= 26:\n                total += go(i + 2)\n"
            "            return total\n        return go(0)\n"
        ),
    )
    tests, trusted, dropped = validate_inputs(['"1111"\n'], problem, brute=brute, sandbox=sandbox)
    assert trusted is not None, dropped
    assert [(t.input, (t.output or "").strip()) for t in tests] == [('"1111"\n', "5")]


SLOW_BRUTE = (
    "import sys\n"
    "data = sys.stdin.read().split()\n"
    "if data in (['1', '2'], ['10', '20']):\n"
    "    print(int(data[0]) + int(data[1]))\n"
    "elif data == ['2', '2']:\n"
    "    print(4)\n"
    "else:\n"
    "    while True:\n"
    "        pass\n"
)


def test_a_brute_force_out_of_time_on_the_first_inputs_is_discarded_and_the_inputs_kept(sandbox, monkeypatch):
    import cpbot.agents.roles.testgen as testgen
    from cpbot.judge.model import Limits

    monkeypatch.setattr(testgen, "BRUTE_TIME_MS", 200)  # the brute force's own limit, so its time-outs come fast
    problem = sum_problem(limits=Limits(time_ms=100, memory_mb=256))
    brute = Solution(language="python3", source=SLOW_BRUTE)  # knows the samples, never finishes on anything else
    tests, trusted, dropped = validate_inputs(["5 6", "7 8", "3 4"], problem, brute=brute, sandbox=sandbox)
    assert trusted is None and any("brute force discarded: out of time" in d for d in dropped), dropped
    assert [t.input for t in tests] == ["5 6\n", "7 8\n", "3 4\n"] and all(t.output is None for t in tests)
    # one that answers an input is kept: an input it then runs out of time on is the one dropped
    tests, trusted, dropped = validate_inputs(["2 2", "5 6", "7 8"], problem, brute=brute, sandbox=sandbox)
    assert trusted is not None and [(t.input, t.output) for t in tests] == [("2 2\n", "4\n")]
    assert sum("dropped: the brute force fails on it (TLE)" in d for d in dropped) == 2, dropped
