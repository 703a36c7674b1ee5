"""The knowledge retriever: BM25 over cpbot's own algorithm notes in `templates/knowledge/*.md`.

Pure Python and offline. A note is one technique: a `# Title`, a `tags:` line (Codeforces tag names,
as the selector uses), a `keywords:` line, then when to use it, how, complexity and pitfalls. The
title, tags and keywords are repeated in the indexed text so that a query naming the technique finds
its note first; tags the selector chose add a bonus to the notes that carry them.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import resources

from pydantic import BaseModel, ConfigDict

from cpbot.agents.roles.common import RoleError
from cpbot.judge.model import Problem

ROLE = "knowledge"

K1 = 1.2
B = 0.75
TITLE_WEIGHT = 3
KEYWORD_WEIGHT = 2
TAG_BONUS = 0.5  # of the best score, for each selected tag a note carries

_STOP = frozenset([
    "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "do", "does", "each", "for", "from",
    "has", "have", "how", "if", "in", "into", "is", "it", "its", "of", "on", "one", "or", "so", "such", "than",
    "that", "the", "their", "then", "there", "these", "this", "to", "was", "we", "were", "what", "when",
    "where", "which", "while", "will", "with", "you", "your", "given", "output", "input", "print", "test",
    "line", "lines", "number", "numbers", "integer", "integers", "first", "second", "contains", "following",
    "case", "cases", "example", "examples", "note", "only", "all", "any",
])  # fmt: skip


class Note(BaseModel):
    """One knowledge note."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str  # the file name without .md
    title: str
    tags: list[str]
    keywords: list[str]
    body: str  # the text after the header lines

    def text(self) -> str:
        """The note as shown to a model."""
        return f"## {self.title}\n{self.body.strip()}"


class Hit(BaseModel):
    """A note and how well it matched."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    note: Note
    score: float


def _stem(word: str) -> str:
    # a light stemmer: enough to match "trees"/"tree", "queries"/"query", "sorted"/"sorting"/"sort"
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif re.search(r"(?:ss|x|z|ch|sh)es$", word):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def tokenize(text: str) -> list[str]:
    """Lower-case word stems, without stop words and bare numbers."""
    text = re.sub(r"\b0\s*(?:or|and|-|/|,)\s*1\b", " zeroone ", text.lower().replace("'", ""))  # 0-1 BFS, 0/1 weights
    words = re.findall(r"[a-z0-9]+", text)
    return [_stem(w) for w in words if w not in _STOP and not w.isdigit()]


def parse_note(name: str, text: str) -> Note:
    """A note from its file text; `RoleError` when the header lines are missing."""
    lines = text.strip().splitlines()
    if len(lines) < 3 or not lines[0].startswith("# "):
        raise RoleError(f"knowledge note {name!r} has no '# Title' line", hint="see templates/knowledge/")
    header: dict[str, list[str]] = {}
    rest = 1  # the first line after the header lines
    while rest < len(lines) and (m := re.match(r"^(tags|keywords):\s*(.*)$", lines[rest])):
        header[m.group(1)] = [v.strip() for v in m.group(2).split(",") if v.strip()]
        rest += 1
    if "tags" not in header:
        raise RoleError(f"knowledge note {name!r} has no 'tags:' line", hint="see templates/knowledge/")
    return Note(
        name=name,
        title=lines[0][2:].strip(),
        tags=header["tags"],
        keywords=header.get("keywords", []),
        body="\n".join(lines[rest:]).strip(),
    )


class KnowledgeBase:
    """An Okapi BM25 index over notes."""

    def __init__(self, notes: Iterable[Note]) -> None:
        self.notes = list(notes)
        self._docs: list[Counter[str]] = []
        for note in self.notes:
            terms = (
                tokenize(note.title) * TITLE_WEIGHT
                + tokenize(" ".join(note.tags)) * KEYWORD_WEIGHT
                + tokenize(" ".join(note.keywords)) * KEYWORD_WEIGHT
                + tokenize(note.body)
            )
            self._docs.append(Counter(terms))
        self._lengths = [sum(d.values()) for d in self._docs]
        self._avg = sum(self._lengths) / max(len(self._docs), 1)
        df: Counter[str] = Counter()
        for doc in self._docs:
            df.update(doc.keys())
        n = len(self._docs)
        self._idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    @classmethod
    def load(cls) -> KnowledgeBase:
        """The notes shipped in `templates/knowledge/`."""
        folder = resources.files("cpbot.templates").joinpath("knowledge")
        notes = [
            parse_note(entry.name[:-3], entry.read_text(encoding="utf-8"))
            for entry in sorted(folder.iterdir(), key=lambda e: e.name)
            if entry.name.endswith(".md")
        ]
        if not notes:
            raise RoleError("no knowledge notes found", hint="they live in templates/knowledge/*.md")
        return cls(notes)

    def get(self, name: str) -> Note | None:
        """The note called `name`, if any."""
        return next((n for n in self.notes if n.name == name), None)

    def scores(self, query: str) -> list[float]:
        """The BM25 score of every note for `query` (repeated query words count once)."""
        terms = set(tokenize(query))
        out = []
        for doc, length in zip(self._docs, self._lengths, strict=True):
            norm = K1 * (1 - B + B * length / self._avg)
            score = 0.0
            for t in terms:
                f = doc.get(t, 0)
                if f:
                    score += self._idf[t] * f * (K1 + 1) / (f + norm)
            out.append(score)
        return out

    def search(self, query: str, *, k: int = 3, tags: Sequence[str] = ()) -> list[Hit]:
        """The `k` best notes for `query`, best first; notes carrying any of `tags` get a bonus."""
        scores = self.scores(query)
        wanted = {t.lower() for t in tags}
        if wanted:
            top = max(scores, default=0.0) or 1.0
            for i, note in enumerate(self.notes):
                shared = wanted & {t.lower() for t in note.tags}
                scores[i] += TAG_BONUS * top * len(shared)
        ranked = sorted(range(len(self.notes)), key=lambda i: (-scores[i], self.notes[i].name))
        return [Hit(note=self.notes[i], score=round(scores[i], 4)) for i in ranked[:k] if scores[i] > 0]


@lru_cache(maxsize=1)
def default_knowledge() -> KnowledgeBase:
    """The shipped notes, indexed once per process."""
    return KnowledgeBase.load()


def retrieve(problem: Problem, tags: Sequence[str] = (), *, k: int = 3, kb: KnowledgeBase | None = None) -> list[Note]:
    """The `k` notes most relevant to `problem` and the selector's `tags`."""
    kb = kb or default_knowledge()
    query = " ".join([problem.title, problem.statement, problem.input_spec, " ".join(tags), " ".join(problem.tags)])
    return [hit.note for hit in kb.search(query, k=k, tags=[*tags, *problem.tags])]


def notes_text(notes: Sequence[Note]) -> str:
    """Notes as one block of prompt text."""
    if not notes:
        return "(no notes)"
    return "\n\n".join(note.text() for note in notes)
