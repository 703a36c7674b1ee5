"""BM25 over cpbot's own notes: typical queries find the right technique."""

from __future__ import annotations

import re

import pytest

from cpbot.agents.roles.common import RoleError
from cpbot.agents.roles.knowledge import KnowledgeBase, Note, default_knowledge, parse_note, retrieve, tokenize
from tests.agents.roles.helpers import GYM, codeforces, sum_problem


def test_there_are_about_fifty_notes_each_with_the_four_parts():
    kb = default_knowledge()
    assert len(kb.notes) >= 50
    for note in kb.notes:
        assert note.tags and note.keywords, note.name
        for part in ("When to use:", "How", "Complexity:", "Pitfalls:"):
            assert re.search(rf"^{part}", note.body, re.MULTILINE), f"{note.name} lacks {part}"


@pytest.mark.parametrize(
    ("query", "note"),
    [
        ("shortest path in a graph with weighted edges", "dijkstra"),
        ("binary indexed tree: prefix sums with point updates", "fenwick-tree"),
        ("minimize the maximum sum when splitting into k parts", "binary-search-on-answer"),
        ("count numbers between L and R whose digit sum is divisible", "digit-dp"),
        ("print the answer modulo 998244353 using the inverse", "modular-arithmetic"),
        ("RecursionError maximum recursion depth exceeded in DFS", "python-recursion-depth"),
        ("merge groups and check if two elements are in the same group", "dsu"),
        ("find all occurrences of a pattern in the text", "kmp-prefix-function"),
        ("longest increasing subsequence", "lis-dp"),
        ("next greater element to the right", "monotonic-stack"),
        ("visit all cities travelling salesman with n up to 16", "bitmask-dp"),
        ("maximum in every sliding window of length k", "monotonic-deque"),
        ("flush the output after every query in the interactive problem", "interactive-binary-search"),
        ("n-th fibonacci number for n up to 1e18", "matrix-exponentiation"),
        ("convex hull of points using cross products", "geometry-basics"),
        ("primes up to 10^7", "sieve"),
        ("static range minimum query without updates", "sparse-table"),
        ("lowest common ancestor of two nodes", "lca-binary-lifting"),
        ("maximum xor of two numbers in the array", "trie"),
        ("Alice and Bob play nim, who wins", "game-theory"),
        ("edges with weight 0 or 1", "zero-one-bfs"),
        ("product of two numbers up to 1e9 overflows int", "integer-overflow"),
        ("time limit exceeded reading a million numbers in Python", "fast-io"),
    ],
)
def test_typical_queries_find_the_right_note_first(query, note):
    hits = default_knowledge().search(query, k=3)
    assert hits and hits[0].note.name == note, [h.note.name for h in hits]


def test_selected_tags_lift_notes_that_carry_them():
    kb = default_knowledge()
    plain = [h.note.name for h in kb.search("count the connected components", k=3)]
    tagged = [h.note.name for h in kb.search("count the connected components", k=3, tags=["dsu"])]
    assert plain[0] == "dfs-components"
    assert tagged[0] == "dsu"


def test_retrieve_reads_the_whole_problem():
    grid = codeforces(GYM, "The Bifrost")  # a grid of '.' and '#' cells to travel through
    names = [n.name for n in retrieve(grid, k=5)]
    assert "bfs" in names[:2]


def test_a_query_with_no_known_word_finds_nothing():
    assert default_knowledge().search("zzzz qqqq", k=3) == []
    assert retrieve(sum_problem(title="", statement="", input_spec=""), k=3) == []


def test_tokenize_stems_and_drops_stop_words_and_numbers():
    assert tokenize("The queries on trees, 200000 of them") == ["query", "tree", "them"]


def test_a_note_without_header_lines_is_an_error():
    with pytest.raises(RoleError, match="no 'tags:' line"):
        parse_note("x", "# Title\nno tags here\nbody")
    with pytest.raises(RoleError, match="Title"):
        parse_note("x", "just text\nmore\nmore")


def test_a_custom_base_ranks_by_bm25():
    notes = [
        Note(name="a", title="Apples", tags=["fruit"], keywords=["red"], body="apples apples pears"),
        Note(name="b", title="Pears", tags=["fruit"], keywords=["green"], body="pears"),
    ]
    hits = KnowledgeBase(notes).search("green pears", k=2)
    assert [h.note.name for h in hits] == ["b", "a"]
    assert hits[0].score > hits[1].score > 0
