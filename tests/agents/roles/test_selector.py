"""The algorithm selector: branches of tags from the fixed list, from JSON and from prose."""

from __future__ import annotations

import pytest

from cpbot.agents.roles.common import RoleError
from cpbot.agents.roles.knowledge import default_knowledge
from cpbot.agents.roles.selector import TAGS, normalize_tag, select_algorithms
from tests.agents.roles.helpers import GYM, as_json, codeforces, sent_text
from tests.agents.support.scripted_server import Reply


def test_structured_branches_are_mapped_onto_the_tag_list(scripted_server, make_client):
    reply = {
        "branches": [
            {"tags": ["Dynamic Programming", "bitmasks", "quantum sorting"], "rationale": "n is at most 20"},
            {"tags": ["brute-force"], "rationale": "tiny limits"},
            {"tags": ["nonsense"], "rationale": "nothing known"},
        ]
    }
    server = scripted_server([Reply(as_json(reply))])
    selection = select_algorithms(make_client(server), codeforces(GYM, "Batplane Missions"))
    assert [b.tags for b in selection.branches] == [["dp", "bitmasks"], ["brute force"]]
    assert selection.branches[0].rationale == "n is at most 20"
    assert selection.dropped == ["quantum sorting", "nonsense"]
    assert selection.tags == ["dp", "bitmasks", "brute force"]
    text = sent_text(server.requests[0])
    assert "Batplane" in text
    assert "- shortest paths: Dijkstra" in text  # the list with descriptions
    assert "at most 3 branches" in text


def test_prose_options_with_rationales_are_read(scripted_server, make_client):
    prose = (
        "Option1: [greedy, sortings]\nRationale: sort by deadline.\n\n"
        "Option2: [binary search, two pointers]\nRationale: the answer is monotone.\n"
        "Option 3: graphs, dfs\n"
    )
    server = scripted_server([Reply(prose)])
    selection = select_algorithms(make_client(server), codeforces(GYM, "Young Magneto"))
    assert [b.tags for b in selection.branches] == [
        ["greedy", "sortings"],
        ["binary search", "two pointers"],
        ["graphs", "dfs and similar"],
    ]
    assert selection.branches[1].rationale == "the answer is monotone."


def test_branches_are_capped_and_duplicates_merged(scripted_server, make_client):
    branches = [{"tags": ["dp"]}, {"tags": ["DP"]}, {"tags": ["greedy"]}, {"tags": ["math"]}]
    server = scripted_server([Reply(as_json({"branches": branches}))])
    selection = select_algorithms(make_client(server), codeforces(GYM, "Young Magneto"), max_branches=2)
    assert [b.tags for b in selection.branches] == [["dp"], ["greedy"]]


def test_no_known_tag_at_all_is_a_role_error(scripted_server, make_client):
    server = scripted_server([Reply(as_json({"branches": [{"tags": ["magic"]}]}))])
    with pytest.raises(RoleError, match="unknown tags: magic"):
        select_algorithms(make_client(server), codeforces(GYM, "Young Magneto"))


def test_synonyms_and_spellings():
    assert normalize_tag("Union-Find") == "dsu"
    assert normalize_tag("meet_in_the_middle") == "meet-in-the-middle"
    assert normalize_tag("  Shortest Paths ") == "shortest paths"
    assert normalize_tag("segment tree") == "data structures"
    assert normalize_tag("teleportation") is None


def test_every_knowledge_note_speaks_the_selectors_tags():
    for note in default_knowledge().notes:
        for tag in note.tags:
            assert tag in TAGS, f"{note.name}: {tag!r} is not a selector tag"
