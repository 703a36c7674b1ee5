"""Block chains: reading marked blocks and unit tests, assembling programs and running one block's test."""

from __future__ import annotations

import pytest

from cpbot.agents.extract import ExtractionError
from cpbot.agents.roles.blocks import format_rules, read_block, read_chain, run_unit_test
from cpbot.judge.model import Verdict
from tests.agents.roles.helpers import leetcode, sum_problem

REPLY = """## Plan
1. add the numbers
2. read and print

```python
# block: add
def add(a, b):
    return a + b
```
```python
# test: add
assert add(1, 2) == 3
```
```python
# test: ghost
assert True
```
```python
# block: main
a, b = map(int, input().split())
print(add(a, b))
```
```cpp
// block: add
int add(int a, int b) { return a + b; }
```
"""


def test_marked_blocks_become_a_chain_with_unit_tests_and_a_plan():
    chain = read_chain(REPLY, "python3")
    assert [b.name for b in chain.blocks] == ["add", "main"]  # the C++ block is another language
    assert chain.block("add").test == "assert add(1, 2) == 3\n" and chain.main.test is None
    assert chain.plan == ["add the numbers", "read and print"]
    assert chain.notes == ["code block 5 is in cpp, not python3: left out", "unit test for unknown block ghost dropped"]
    assert chain.program().endswith("print(add(a, b))\n") and chain.program().startswith("def add")
    # a stdio block's test runs without main (which would read input); a function problem's keeps it
    assert "input()" not in chain.test_program("add") and "input()" in chain.test_program("add", "function")
    assert chain.test_program("main") is None
    assert read_chain(chain.text(), "python3").blocks == chain.blocks  # text() is what the model writes


def test_a_reply_without_markers_is_one_main_block_and_no_code_is_an_error():
    chain = read_chain("```python\nprint(1)\n```", "python3")
    assert [b.name for b in chain.blocks] == ["main"] and chain.notes[0].startswith("no marked blocks")
    with pytest.raises(ExtractionError):
        read_chain("I would add the numbers.", "python3")


def test_read_block_takes_only_a_marked_block_of_the_chain():
    chain = read_chain(REPLY, "python3")
    new = read_block("```python\n# block: add\ndef add(a, b):\n    return b + a\n```", chain)
    assert new is not None and new.name == "add" and "b + a" in new.source
    assert read_block("```python\nprint(1)\n```", chain) is None  # a whole program is not a block
    assert read_block("```python\n# block: other\nx = 1\n```", chain) is None


def test_a_unit_test_passes_or_fails_on_the_block_it_tests(sandbox):
    chain = read_chain(REPLY, "python3")
    problem = sum_problem()
    assert run_unit_test(chain, "add", problem, sandbox=sandbox).verdict == Verdict.AC
    broken = chain.replace("add", "def add(a, b):\n    return a - b\n")
    assert broken.block("add").test == chain.block("add").test  # the test stays with the block
    report = run_unit_test(broken, "add", problem, sandbox=sandbox)
    assert report.verdict == Verdict.RE and "AssertionError" in report.results[0].stderr


def test_format_rules_name_the_markers_and_what_main_is():
    assert "`# block: main`" in format_rules("python3", "stdio") and "reads the input" in format_rules(
        "python3", "stdio"
    )
    cpp = format_rules("cpp17", "stdio")
    assert "`// test: NAME`" in cpp and "int main()" in cpp
    assert "the class the judge calls" in format_rules("python3", leetcode("lc_decode-ways_example_block").kind)
