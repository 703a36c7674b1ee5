"""Every recorded fixture with an `.expected.json` parses exactly as its expectation says.

New fixture files are picked up by themselves: the parameters are the `*.expected.json` files found
under `tests/fixtures/codeforces` and `tests/fixtures/leetcode`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cpbot.judge.model import Problem
from cpbot.scrapers.codeforces.parse import parse_problems
from cpbot.scrapers.leetcode.parse import parse_question, question_ids
from tests.scrapers.scraper_support import FIXTURES


def _expectations(site: str) -> list[Any]:
    folder = FIXTURES / site
    assert folder.is_dir(), f"recorded fixtures missing from the repository: {folder}"
    return [pytest.param(p, id=p.name.removesuffix(".expected.json")) for p in sorted(folder.glob("*.expected.json"))]


def _source(expected_path: Path, suffix: str) -> Path:
    return expected_path.with_name(expected_path.name.removesuffix(".expected.json") + suffix)


def _case_split(problem: Problem) -> list[list[list[str]] | None] | None:
    split = [
        None if s.cases is None else [case.removesuffix("\n").split("\n") for case in s.cases] for s in problem.samples
    ]
    return None if all(x is None for x in split) else split


def _assert_codeforces(problem: Problem, expected: dict[str, Any]) -> None:
    assert problem.site == "codeforces"
    assert problem.title == expected["title"]
    assert problem.index == expected["index"]
    if expected["time_limit_ms"] is not None:
        assert problem.limits.time_ms == expected["time_limit_ms"]
    if expected["memory_limit_mb"] is not None:
        assert problem.limits.memory_mb == expected["memory_limit_mb"]
    assert (problem.kind == "interactive") == expected["interactive"]
    if expected["samples"] is not None:
        got = [{"input": s.input, "output": s.output} for s in problem.samples]
        assert got == expected["samples"]  # byte for byte
    assert _case_split(problem) == expected["sample_case_split"]


@pytest.mark.parametrize("expected_path", _expectations("codeforces"))
def test_codeforces_fixture_parses_exactly_as_expected(expected_path: Path) -> None:
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    problems = parse_problems(_source(expected_path, ".html").read_bytes())
    _assert_codeforces(problems[0], expected)
    if "problems" in expected:
        assert len(problems) == len(expected["problems"])
        for problem, exp in zip(problems, expected["problems"], strict=True):
            _assert_codeforces(problem, exp)
    else:
        assert len(problems) == 1


@pytest.mark.parametrize("expected_path", _expectations("leetcode"))
def test_leetcode_fixture_parses_exactly_as_expected(expected_path: Path) -> None:
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    lc = expected["leetcode"]
    problem = parse_question(_source(expected_path, ".json").read_bytes())
    assert problem.site == "leetcode"
    assert problem.kind == "function"
    assert problem.title == (expected["title"] or "")
    ids = question_ids(problem)
    assert (ids["question_id"], ids["frontend_id"], ids["slug"]) == (lc["question_id"], lc["frontend_id"], lc["slug"])
    if lc["slug"]:
        assert problem.id == f"leetcode:{lc['slug']}"
    sig = problem.signature
    assert sig is not None
    assert (sig.kind == "design") == lc["is_design"]
    if lc["is_design"]:
        assert sig.class_name == lc["function_name"]
        assert sig.constructor is not None
        params = sig.constructor.params
        assert lc["return_type"] is None
        assert sig.methods, "a design class has methods"
    else:
        (method,) = sig.methods
        assert method.name == lc["function_name"]
        assert method.return_type == lc["return_type"]
        params = method.params
    assert [p.model_dump() for p in params] == lc["params"]
    assert [s.input for s in problem.samples] == [text + "\n" for text in lc["example_inputs"]]
    assert [s.output for s in problem.samples] == lc["example_outputs"]
