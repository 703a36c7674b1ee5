"""Mutated fixture pages either parse into whole problems or raise the project's errors; nothing else.

Hypothesis drops nodes, cuts text, swaps and removes attributes, and truncates pages (Codeforces), or
drops keys, cuts strings and changes types (LeetCode). Runs are derandomized so the suite is
deterministic.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpbot.core.errors import FetchError, ParseError
from cpbot.judge.model import Problem
from cpbot.scrapers.codeforces.parse import parse_problems
from cpbot.scrapers.htmltools import class_xpath
from cpbot.scrapers.leetcode.parse import parse_question
from tests.scrapers.scraper_support import FIXTURES

SETTINGS = {
    "derandomize": True,
    "deadline": None,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}
MUTATIONS = ("drop", "cut", "swap_attrs", "strip_class", "truncate")


def _files(site: str, suffix: str) -> list[Any]:
    folder = FIXTURES / site
    assert folder.is_dir(), f"recorded fixtures missing from the repository: {folder}"
    found = sorted(folder.glob(f"*{suffix}"))
    return [pytest.param(p, id=p.stem) for p in found if not p.name.endswith(".expected.json")]


def _targets(doc: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
    """The elements of the statements (mutating a page's scripts and menus teaches nothing)."""
    roots = doc.xpath(f"//div[{class_xpath('problem-statement')}]") or [doc]
    return [el for root in roots for el in root.iter() if isinstance(el.tag, str)]


def _mutate(html: str, data: st.DataObject) -> str:
    doc = lxml.html.document_fromstring(html)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        targets = _targets(doc)
        kind = data.draw(st.sampled_from(MUTATIONS), label="kind")
        if kind == "truncate":
            text = lxml.html.tostring(doc, encoding="unicode")
            return text[: data.draw(st.integers(0, len(text)), label="cut at")]
        el = targets[data.draw(st.integers(0, len(targets) - 1), label="element")]
        if kind == "drop" and el.getparent() is not None:
            el.drop_tree()
        elif kind == "cut":
            text = el.text or ""
            el.text = text[: data.draw(st.integers(0, len(text)), label="keep")]
        elif kind == "swap_attrs":
            other = targets[data.draw(st.integers(0, len(targets) - 1), label="other")]
            a, b = dict(el.attrib), dict(other.attrib)
            el.attrib.clear()
            other.attrib.clear()
            el.attrib.update(b)
            other.attrib.update(a)
        elif kind == "strip_class":
            classes = (el.get("class") or "").split()
            if classes:
                dropped = data.draw(st.sampled_from(classes), label="class")
                el.set("class", " ".join(c for c in classes if c != dropped))
    return lxml.html.tostring(doc, encoding="unicode")


def _check_codeforces(html: str) -> None:
    try:
        problems = parse_problems(html)
    except ParseError:
        return
    assert problems and all(isinstance(p, Problem) and p.samples for p in problems)


@pytest.mark.parametrize("path", _files("codeforces", ".html"))
def test_mutated_codeforces_pages_give_problems_or_parse_errors(path: Path) -> None:
    html = path.read_text(encoding="utf-8")
    examples = 4 if len(html) > 100_000 else 25

    @settings(max_examples=examples, **SETTINGS)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        _check_codeforces(_mutate(html, data))

    run()


_WRONG_VALUES = st.sampled_from([None, 0, -1, "", "x", [], {}, [1], {"a": 1}, True, 1e300])


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            found.append((*prefix, k))
            found += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found.append((*prefix, i))
            found += _paths(v, (*prefix, i))
    return found


def _mutate_json(payload: Any, data: st.DataObject) -> Any:
    payload = copy.deepcopy(payload)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        paths = _paths(payload)
        if not paths:
            break
        path = paths[data.draw(st.integers(0, len(paths) - 1), label="path")]
        parent = payload
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        kind = data.draw(st.sampled_from(("drop", "cut", "retype")), label="kind")
        if kind == "drop":
            del parent[key]
        elif kind == "cut" and isinstance(parent[key], str):
            parent[key] = parent[key][: data.draw(st.integers(0, len(parent[key])), label="keep")]
        else:
            parent[key] = copy.deepcopy(data.draw(_WRONG_VALUES, label="value"))  # never share the samples
    return payload


@pytest.mark.parametrize("path", _files("leetcode", ".json"))
def test_mutated_leetcode_answers_give_problems_or_the_projects_errors(path: Path) -> None:
    payload = json.loads(path.read_text(encoding="utf-8"))

    @settings(max_examples=40, **SETTINGS)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        mutated = _mutate_json(payload, data)
        try:
            problem = parse_question(json.dumps(mutated))
        except (ParseError, FetchError):  # FetchError: the payload says premium or unknown problem
            return
        assert isinstance(problem, Problem) and problem.samples and problem.signature is not None

    run()
