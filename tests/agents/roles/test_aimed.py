"""The request aimed at one program: reading its reply, and nothing of it trusted before it is checked."""

from __future__ import annotations

from cpbot.agents.roles.aimed import AimedDraft, check, read_aimed
from cpbot.judge.build import build_solution
from cpbot.judge.model import Solution
from cpbot.judge.validator import InputGate
from tests.agents.roles.helpers import sum_problem
from tests.agents.roles.test_validator import STRICT

BRUTE = Solution(language="python3", source="a, b = map(int, input().split())\nprint(a + b)\n")
SLOW_ON_LARGE_A = Solution(
    language="python3", source="a, b = map(int, input().split())\nwhile a > 1000:\n    pass\nprint(a + b)\n"
)


def test_inputs_come_before_the_slow_generator_and_none_means_none():
    draft = read_aimed("Overflow:\n```text\n1 2\n```\n## Slow input generator\nnone\n", "python3")
    assert draft == AimedDraft(inputs=["1 2\n"], slow_generator=None)
    with_generator = read_aimed("```text\n3 4\n```\n## Slow input generator\n```python\nprint(1, 1)\n```\n", "python3")
    assert with_generator.inputs == ["3 4\n"] and with_generator.slow_generator == "print(1, 1)\n"


def test_aimed_inputs_are_validated_answered_and_the_slow_one_kept_only_when_the_program_fails(sandbox):
    gate = InputGate(build_solution(Solution(language="python3", source=STRICT), sandbox).program, sandbox)
    generator = "import sys\nn = int(sys.argv[1])\nprint(n, 1)\n"
    draft = AimedDraft(inputs=["5 6\n", "0 6\n"], slow_generator=generator)
    result = check(draft, sum_problem(), SLOW_ON_LARGE_A, brute=BRUTE, gate=gate, size=10**6, sandbox=sandbox)
    assert [(t.name, t.input, t.output) for t in result.tests] == [
        ("aimed-1", "5 6\n", "11\n"),
        ("aimed-slow", "1000000 1\n", None),
    ]
    assert result.summary == "1 of 2 aimed inputs kept; slow input at N=1000000: TLE"
    assert any("the validator rejects it" in d for d in result.dropped) and gate.dropped["aimed"] == 1
    fast = check(draft, sum_problem(), BRUTE, brute=BRUTE, gate=gate, size=10**6, sandbox=sandbox)
    assert [t.name for t in fast.tests] == ["aimed-1"] and "slow input at N=1000000:" in fast.summary
