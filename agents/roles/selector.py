"""The algorithm selector: technique tags from a fixed list, in one or more branches (alternative routes).

The list follows Codeforces' tag names (so a scraped problem's tags and the knowledge notes' tags speak
the same language) plus "prefix sums". Whatever the model writes is mapped onto the list: common
synonyms are translated ("dynamic programming" -> "dp", "union find" -> "dsu"), unknown tags are
dropped and reported, and a branch left without tags disappears.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from cpbot.agents.chat import ChatModel, LLMReply
from cpbot.agents.prompts import render_prompt
from cpbot.agents.roles.common import RoleError, ask_structured, problem_text
from cpbot.judge.model import Problem

ROLE = "selector"

TAGS: dict[str, str] = {
    "2-sat": "boolean variables with constraints on pairs, solved through an implication graph",
    "binary search": "search over a sorted order or over a monotone answer",
    "bitmasks": "sets as bits, subset enumeration, bitwise operations",
    "brute force": "try every candidate; fine when the constraints are small",
    "chinese remainder theorem": "combine congruences with different moduli",
    "combinatorics": "counting arrangements and selections, binomial coefficients",
    "constructive algorithms": "build any object that satisfies the conditions",
    "data structures": "segment trees, Fenwick trees, heaps, stacks, balanced trees, sparse tables",
    "dfs and similar": "graph traversals: DFS, BFS, flood fill, components",
    "divide and conquer": "split the input, solve the halves, combine",
    "dp": "dynamic programming over states with optimal substructure",
    "dsu": "disjoint set union: merge groups, ask whether two items share one",
    "expression parsing": "evaluate or transform formulas and bracket sequences",
    "fft": "fast polynomial multiplication (FFT or NTT)",
    "flows": "maximum flow, minimum cut",
    "games": "two-player games with optimal play, Grundy numbers",
    "geometry": "points, lines, polygons, cross products",
    "graph matchings": "bipartite matching, assignment",
    "graphs": "vertices and edges in general",
    "greedy": "locally best choices justified by an exchange argument",
    "hashing": "hash maps and polynomial string hashes",
    "implementation": "careful simulation of what the statement says",
    "interactive": "the program talks to the judge through queries",
    "math": "formulas, arithmetic, parity, modular arithmetic",
    "matrices": "matrix operations and fast matrix powers",
    "meet-in-the-middle": "enumerate two halves separately and combine",
    "number theory": "primes, divisors, gcd, modular inverses",
    "prefix sums": "cumulative sums and difference arrays",
    "probabilities": "expected values and probabilities",
    "schedules": "ordering jobs in time",
    "shortest paths": "Dijkstra, BFS, Bellman-Ford, Floyd-Warshall",
    "sortings": "sort and process in order, sweep lines",
    "string suffix structures": "suffix arrays and automata",
    "strings": "string algorithms: prefix function, Z-function, palindromes",
    "ternary search": "extremes of unimodal functions",
    "trees": "rooted and unrooted trees, LCA, tree DP",
    "two pointers": "two indices moving in one direction, sliding windows",
}


def _key(tag: str) -> str:
    return re.sub(r"[\s_\-]+", " ", tag.strip().strip("'\"`").lower()).strip()


_SYNONYMS: dict[str, str] = {
    _key(alias): tag
    for tag, aliases in {
        "dp": ["dynamic programming", "dp on trees", "tree dp", "memoization", "knapsack", "digit dp", "bitmask dp"],
        "dfs and similar": ["dfs", "bfs", "graph traversal", "flood fill", "depth first search",
                            "breadth first search"],
        "dsu": ["union find", "disjoint set", "disjoint set union", "union-find"],
        "sortings": ["sorting", "sort", "sweep line", "sweep"],
        "data structures": ["segment tree", "fenwick tree", "binary indexed tree", "bit", "heap", "priority queue",
                            "stack", "monotonic stack", "deque", "sparse table", "set", "map", "trie"],
        "math": ["mathematics", "arithmetic", "modular arithmetic"],
        "number theory": ["primes", "sieve", "gcd", "divisors", "modular inverse"],
        "bitmasks": ["bitmask", "bit manipulation", "bitwise", "xor"],
        "strings": ["string", "kmp", "z function", "prefix function", "palindromes"],
        "two pointers": ["sliding window", "two pointer"],
        "prefix sums": ["prefix sum", "difference array", "cumulative sums"],
        "shortest paths": ["dijkstra", "bellman ford", "floyd warshall", "shortest path", "0 1 bfs"],
        "trees": ["tree", "lca", "binary lifting"],
        "graphs": ["graph", "graph theory"],
        "brute force": ["bruteforce", "exhaustive search", "backtracking", "enumeration"],
        "implementation": ["simulation", "ad hoc"],
        "constructive algorithms": ["constructive", "construction"],
        "games": ["game theory", "game", "nim", "sprague grundy"],
        "probabilities": ["probability", "expected value", "expectation"],
        "matrices": ["matrix", "matrix exponentiation"],
        "hashing": ["hash", "hash map", "rolling hash", "string hashing"],
        "flows": ["flow", "max flow", "min cut", "network flow"],
        "graph matchings": ["matching", "bipartite matching"],
        "meet-in-the-middle": ["meet in the middle", "mitm"],
        "ternary search": ["ternary"],
        "chinese remainder theorem": ["crt"],
        "string suffix structures": ["suffix array", "suffix automaton", "suffix tree"],
        "fft": ["ntt", "polynomial multiplication", "convolution"],
        "2-sat": ["2sat", "two sat"],
        "binary search": ["binary search on answer", "binary search on the answer", "bisection", "parametric search"],
        "divide and conquer": ["divide & conquer", "dnc", "d&c"],
        "combinatorics": ["counting", "binomial coefficients"],
    }.items()
    for alias in [tag, *aliases]
}  # fmt: skip


class Branch(BaseModel):
    """One route: the tags of its techniques and why they fit."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tags: list[str]
    rationale: str = ""


class Selection(BaseModel):
    """The selector's answer: branches, best first, and the tags it could not map."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    branches: list[Branch]
    dropped: list[str] = []

    @property
    def tags(self) -> list[str]:
        """Every tag of every branch, once, in order."""
        return list(dict.fromkeys(t for b in self.branches for t in b.tags))


class _RawBranch(BaseModel):
    model_config = ConfigDict(extra="ignore")

    tags: list[str]
    rationale: str = ""


class SelectorReply(BaseModel):
    """The answer the model is asked for."""

    model_config = ConfigDict(extra="ignore")

    branches: list[_RawBranch]


def normalize_tag(tag: str) -> str | None:
    """The list's name for `tag` (itself, or the tag a synonym stands for), or None."""
    key = _key(tag)
    return _SYNONYMS.get(key) or next((t for t in TAGS if _key(t) == key), None)


def tag_list_text() -> str:
    """The tag list with descriptions, one per line, for the prompt."""
    return "\n".join(f"- {tag}: {about}" for tag, about in TAGS.items())


def select_algorithms(model: ChatModel, problem: Problem, *, max_branches: int = 3) -> Selection:
    """Branches of technique tags for `problem`, at most `max_branches`, best first."""
    messages = render_prompt(
        "selector", problem=problem_text(problem), tag_list=tag_list_text(), max_branches=max_branches
    )
    raw, reply = ask_structured(model, ROLE, messages, SelectorReply)
    branches = raw.branches if raw is not None else read_branches_prose(reply)
    selection = _normalize(branches, max_branches)
    if not selection.branches:
        found = f" (unknown tags: {', '.join(selection.dropped)})" if selection.dropped else ""
        raise RoleError(f"the selector named no known technique{found}", hint="retry; tags must come from the list")
    return selection


FALLBACK_TAG = "implementation"


def fallback_selection(problem: Problem) -> Selection:
    """What to try when the selector's reply is unusable: the problem's own tags (a scraped problem has
    them) that are on the list, else a generic implementation branch."""
    tags = list(dict.fromkeys(t for t in map(normalize_tag, problem.tags) if t is not None)) or [FALLBACK_TAG]
    why = "the selector's reply was unusable; " + ("the problem's own tags" if problem.tags else "a generic route")
    return Selection(branches=[Branch(tags=tags, rationale=why)])


def select_or_fall_back(model: ChatModel, problem: Problem, *, max_branches: int = 3) -> tuple[Selection, str | None]:
    """`select_algorithms`, or `fallback_selection` with the reason when the reply cannot be used: a bad
    selector reply should not end a solve that can go on without it."""
    try:
        return select_algorithms(model, problem, max_branches=max_branches), None
    except RoleError as e:
        return fallback_selection(problem), e.message


def _normalize(branches: list[_RawBranch], max_branches: int) -> Selection:
    out: list[Branch] = []
    dropped: list[str] = []
    for raw in branches:
        tags: list[str] = []
        for tag in raw.tags:
            name = normalize_tag(tag)
            if name is None:
                dropped.append(tag)
            elif name not in tags:
                tags.append(name)
        if tags and all(b.tags != tags for b in out):
            out.append(Branch(tags=tags, rationale=raw.rationale.strip()))
    return Selection(branches=out[:max_branches], dropped=list(dict.fromkeys(dropped)))


_OPTION = re.compile(r"^\W*(?:option|branch|approach|route)\s*\d*\s*[:.)\-]\s*(.+)$", re.IGNORECASE)
_RATIONALE = re.compile(r"^\W*(?:rationale|why|reason)\s*[:\-]\s*(.+)$", re.IGNORECASE)


def read_branches_prose(reply: LLMReply) -> list[_RawBranch]:
    """Branches from a prose reply: `Option 1: [dp, greedy]` (or without brackets, or a bracketed list on
    its own line), each optionally followed by a `Rationale:` line."""
    branches: list[_RawBranch] = []
    for line in reply.text.splitlines():
        if (m := _RATIONALE.match(line)) and branches and not branches[-1].rationale:
            branches[-1] = _RawBranch(tags=branches[-1].tags, rationale=m.group(1).strip())
            continue
        bracket = re.search(r"\[([^\]]+)\]", line)
        option = _OPTION.match(line)
        if bracket:
            items, rest = bracket.group(1), line[bracket.end() :]
        elif option:
            items, rest = re.split(r"\s[-—]\s", option.group(1), maxsplit=1)[0], ""
        else:
            continue
        tags = [t for t in (x.strip() for x in items.split(",")) if t]
        rationale = re.sub(r"^\W*(?:rationale\W*)?", "", rest, flags=re.IGNORECASE).strip()
        branches.append(_RawBranch(tags=tags, rationale=rationale))
    return branches
