"""The reply corpus (tests/agents/replies/*.txt): replies written for cpbot in the published formats of
the model families it meets (reasoning sections, harmony channels, reasoning fields, several code
blocks, JSON as models write it, prose decisions, BlockChain markers), each with what must be read
from it. One parametrized test checks them all."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cpbot.agents.chat import LLMReply
from cpbot.agents.extract import ExtractionError, extract_code
from cpbot.agents.roles.blocks import read_chain
from cpbot.agents.roles.checker import CheckerReply, read_decision
from cpbot.agents.roles.planner import PlanDraft
from cpbot.agents.roles.selector import SelectorReply
from cpbot.agents.structured import StructuredOutputError, read_structured

CORPUS = Path(__file__).parent / "replies"
SCHEMAS: dict[str, Any] = {"plan": PlanDraft, "checker": CheckerReply, "selector": SelectorReply, "any": dict}


@dataclass
class Case:
    name: str
    expect: dict[str, Any]
    content: str
    reasoning: str


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(CORPUS.glob("*.txt")):
        chunks = path.read_text(encoding="utf-8").split("\n=== ")[1:]
        for chunk in chunks:
            name, _, rest = chunk.partition("\n")
            header, _, body = rest.partition("--- content\n")
            content, _, reasoning = body.partition("--- reasoning\n")
            cases.append(Case(f"{path.stem}/{name.strip()}", tomllib.loads(header), content, reasoning))
    return cases


CASES = load_cases()


def test_the_corpus_is_large_enough_and_names_are_unique():
    assert len(CASES) >= 60
    assert len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_reply(case: Case) -> None:
    e = case.expect
    kind = e["expect"]
    finish = e.get("finish", "stop")
    if kind == "code":
        got = extract_code(case.content, e["lang"], finish_reason=finish, reasoning=case.reasoning)
        lines = got.code.strip("\n").splitlines()
        if "first" in e:
            assert lines[0] == e["first"]
        for text in e.get("contains", []):
            assert text in got.code
        for text in e.get("lacks", []):
            assert text not in got.code
        if "note" in e:
            assert any(e["note"] in note for note in got.notes), got.notes
        assert got.code.strip()
        assert not got.code.lstrip().startswith(("```", "~~~"))
    elif kind == "error" and "schema" not in e:
        with pytest.raises(ExtractionError) as raised:
            extract_code(case.content, e.get("lang", "python3"), finish_reason=finish, reasoning=case.reasoning)
        assert raised.value.reason == e["reason"]
        if "in_reasoning" in e:
            assert raised.value.in_reasoning == e["in_reasoning"]
            assert ("while reasoning" in raised.value.message) == e["in_reasoning"]
    elif kind in ("json", "error"):
        reply = LLMReply(call_id="c", role="r", model="m", text=case.content, reasoning=case.reasoning)
        schema = SCHEMAS[e["schema"]]
        fmt = {"type": "json_object"} if schema is dict else schema
        if kind == "error":
            with pytest.raises(StructuredOutputError):
                read_structured(reply, fmt)
            return
        parsed = read_structured(reply, fmt).parsed
        value = parsed if isinstance(parsed, dict) else parsed.model_dump()
        for key, want in e["value"].items():
            if key == "count":
                assert len(next(v for v in value.values() if isinstance(v, list))) == want
            else:
                assert value[key] == want, value
    elif kind == "decision":
        decision, reason = read_decision(case.content)
        assert decision == e["decision"]
        assert e["reason_contains"] in reason
    elif kind == "chain":
        chain = read_chain(case.content, e["lang"])
        assert [b.name for b in chain.blocks] == e["blocks"]
        for name in e.get("tests", []):
            assert chain.block(name).test is not None
        if "chain_note" in e:
            assert any(e["chain_note"] in note for note in chain.notes), chain.notes
    else:
        raise AssertionError(f"unknown expectation {kind!r} in {case.name}")
