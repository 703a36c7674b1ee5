"""Reading code and JSON out of a model's reply, whatever prose surrounds them.

`extract_code` finds the fenced blocks (```cpp, ```c++, ```python, ```py, unlabelled, ~~~ too), keeps
those in the wanted language (unlabelled blocks are recognised by their content), and returns the last
complete one, preferring whole programs over snippets. A reply with no code, code only in another
language, or code cut off (an unterminated fence whose code is visibly incomplete, or a reply that
stopped for length) raises `ExtractionError`, whose `reason` says which.

`json_candidates` yields the JSON objects in a reply, for structured output from servers that ignore
the requested format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

import json5
from pydantic import BaseModel, ConfigDict

from cpbot.agents.reasoning import split_reply
from cpbot.core.errors import ModelError
from cpbot.core.registry import LANGUAGE_SPECS, Family
from cpbot.judge.languages import PROFILES, language_profile
from cpbot.judge.model import Language, Solution

Reason = Literal["empty", "no_code", "wrong_language", "truncated", "no_json"]

FAMILY_NAMES: dict[str, str] = {p.family: p.title for p in PROFILES.values()}

# Info-string words (the first word after the fence, lower-cased) and the language they mean.
_TAGS: dict[str, str] = {
    **dict.fromkeys(["java"], "java"),
    **dict.fromkeys(["kotlin", "kt"], "kotlin"),
    **dict.fromkeys(["rust", "rs"], "rust"),
    **dict.fromkeys(["go", "golang"], "go"),
    **dict.fromkeys(["javascript", "js", "typescript", "ts", "node"], "javascript"),
    **dict.fromkeys(["csharp", "c#", "cs"], "c#"),
    **dict.fromkeys(["ruby", "rb", "swift", "scala", "haskell", "php", "pascal", "ocaml"], None),
    # the judged families last: their profiles' words win over the guesses above
    **{tag: p.family.value for p in PROFILES.values() for tag in (p.fence, *p.fence_tags)},
    **{spec.name: spec.family.value for spec in LANGUAGE_SPECS},  # cpp17, pypy3, ...
}
# Info strings that announce data or prose, never a program.
_NOT_CODE = {
    "text", "txt", "plaintext", "plain", "output", "input", "console", "shell", "bash", "sh", "json",
    "yaml", "markdown", "md", "diff", "math", "latex", "tex", "none",
}  # fmt: skip

_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*)$")


class ExtractionError(ModelError):
    """The reply has no usable code (or JSON); `reason` is one of empty, no_code, wrong_language,
    truncated, no_json."""

    def __init__(self, reason: Reason, message: str, hint: str = "", *, in_reasoning: bool = False) -> None:
        super().__init__(message, hint)
        self.reason = reason
        self.in_reasoning = in_reasoning  # truncated before the answer began


class ExtractedCode(BaseModel):
    """The program found in a reply, where it was, and anything odd about it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    code: str
    family: Family
    tag: str = ""  # the fence's info word; empty when unlabelled or unfenced
    block_index: int = -1  # which fenced block (0-based); -1 when the reply had no fence
    blocks_found: int = 0
    notes: list[str] = []

    def solution(self, language: Language) -> Solution:
        """The code as a judge `Solution` in `language`."""
        return Solution(language=language, source=self.code)


@dataclass(frozen=True)
class Block:
    """One fenced block: its info word, the language it is in (if known), its code, and if it was closed."""

    index: int
    tag: str
    language: str | None
    code: str
    complete: bool
    lead: str = ""  # the prose just before the block (up to three lines)

    @property
    def empty(self) -> bool:
        return not self.code.strip()


def family_of(language: str) -> Family:
    """The family of a language (cpp17 -> cpp), an alias (c++), a family or a fence word (py -> python)."""
    return language_profile(language).family


# ---- recognising languages -----------------------------------------------------------------------

# Telltales of languages cpbot does not judge, to say a reply is in the wrong language; a judged family's
# profile replaces its entry here.
_OTHER_SIGNS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("java", (r"public\s+static\s+void\s+main", r"\bSystem\.(?:out|in)\b", r"^\s*import\s+java\.")),
    ("rust", (r"\bfn\s+main\s*\(\s*\)", r"\blet\s+mut\b", r"\bprintln!\s*\(")),
    ("go", (r"^\s*package\s+main\b", r"\bfunc\s+main\s*\(\s*\)", r"\bfmt\.")),
)
_SIGNS: dict[str, list[re.Pattern[str]]] = {
    name: [re.compile(sign, re.MULTILINE) for sign in signs]
    for name, signs in (
        *((p.family.value, p.signs) for p in PROFILES.values()),
        *((name, signs) for name, signs in _OTHER_SIGNS if name not in PROFILES),
    )
}


def guess_language(code: str) -> str | None:
    """The language `code` most looks like (by telltale constructs), or None for data and prose."""
    scores = {lang: sum(1 for p in signs if p.search(code)) for lang, signs in _SIGNS.items()}
    best = max(scores, key=lambda lang: scores[lang])
    if scores[best] == 0:
        return None
    # for some languages one weak sign (Python: a lone `print(`) is not enough to call a block code
    profile = PROFILES.get(best)  # type: ignore[call-overload]
    return best if scores[best] >= (profile.min_signs if profile else 1) else None


def _looks_whole(code: str, family: Family) -> bool:
    """A full program (or a LeetCode class), not a snippet quoted to explain something."""
    return bool(re.search(PROFILES[family].whole_program, code, re.MULTILINE))


# ---- truncation ----------------------------------------------------------------------------------


def is_cut(code: str, family: Family) -> bool:
    """True when `code` visibly stops before its end."""
    return PROFILES[family].is_cut(code)


# ---- blocks --------------------------------------------------------------------------------------


def strip_reasoning(text: str) -> tuple[str, bool]:
    """The answer part of a reply (without <think> sections, harmony analysis and the like), and whether
    the reply ended inside its reasoning; see `agents.reasoning`."""
    split = split_reply(text)
    return split.answer, split.open_reasoning


# a fence opened at the end of a line of prose: "Here is the code: ```cpp"
_FENCE_AFTER_PROSE = re.compile(r"^(?P<prose>[^`]*?\S)[ \t]*(?P<fence>`{3,})(?P<info>[A-Za-z0-9+#._-]*)[ \t]*$")
_LEAD_LINES = 3  # lines of prose before a block that say what it is


def _opening(line: str) -> tuple[str, str, str] | None:
    """(fence, info, prose before it) when `line` opens a fenced block."""
    if m := _FENCE.match(line):
        return m.group("fence"), m.group("info"), ""
    m = _FENCE_AFTER_PROSE.match(line)
    if m and (m.group("info") or m.group("prose").rstrip().endswith(":")):
        return m.group("fence"), m.group("info"), m.group("prose")
    return None


def find_blocks(text: str) -> list[Block]:
    """Every fenced block of `text`, in order, with the prose just before it; the last may be
    unterminated. A closing fence may carry prose after it or be glued to the last line of code."""
    blocks: list[Block] = []
    lines = text.splitlines()
    prose: list[str] = []
    i = 0
    while i < len(lines):
        opening = _opening(lines[i])
        if not opening:
            if lines[i].strip():
                prose.append(lines[i].strip())
            i += 1
            continue
        fence, info, before = opening
        if before:
            prose.append(before)
        info = info.strip().lower()
        tag = info.split()[0].strip("{}.") if info else ""
        body: list[str] = []
        complete = False
        after = ""
        i += 1
        while i < len(lines):
            line = lines[i]
            stripped = line.strip()
            if stripped.startswith(fence[0] * len(fence)):
                rest = stripped.lstrip(fence[0])
                if not rest or not re.fullmatch(r"[A-Za-z0-9+#._{}-]+", rest):
                    complete = True  # a closing fence, maybe with prose after it on the same line
                    after = rest.strip()
                    break
                break  # a new opening fence: the model never closed this block
            # a closing fence glued to the last line of code: `}```
            if stripped.endswith(fence) and not _FENCE.match(line) and fence[0] == "`":
                body.append(line.rstrip()[: -len(fence)])
                complete = True
                break
            body.append(line)
            i += 1
        if complete:
            i += 1
        code = "\n".join(body).strip("\n") + "\n"
        if tag in _TAGS:
            language = _TAGS[tag] or tag
        elif tag in _NOT_CODE:
            language = None
        else:
            language = guess_language(code)
        lead = "\n".join(prose[-_LEAD_LINES:])
        blocks.append(Block(len(blocks), tag, language, code, complete, lead))
        prose = [after] if after else []
    return blocks


# What the prose before a block says it is: not the answer (a brute force, a checker, a test, an old
# version), or the answer after corrections.
_HELPER_WORDS = re.compile(
    r"brute[- ]?force|\bnaive\b|\bbrute\b|for (?:checking|comparison|verification|cross-checking|testing|stress)|"
    r"stress[- ]?test|\bchecker\b|\bvalidator\b|\bgenerator\b|random (?:tests?|inputs?)|"
    r"test harness|unit tests?|\bto (?:test|verify|check) (?:it|this|the|your|against)\b",
    re.IGNORECASE,
)
_OLD_VERSION = re.compile(
    r"\b(?:original|previous|earlier|old|buggy|incorrect|wrong|first) (?:version|code|attempt|program|solution)|"
    r"\byour (?:code|program|solution)\b",
    re.IGNORECASE,
)
_ANSWER = re.compile(
    r"\b(?:corrected|fixed|final|updated|revised|improved|optimi[sz]ed|complete|full) (?:version|code|program|"
    r"solution|implementation|answer)|\bfinal\b|\bcorrected\b|\bhere is the (?:solution|program|code)\b",
    re.IGNORECASE,
)
# the shape of a helper rather than the answer: a random input generator, a harness running programs
_HELPER_SHAPE = re.compile(
    r"\bsubprocess\b|\bimport random\b|\brandom\.(?:randint|choice|seed)|\bmt19937\b|\bsrand\s*\(|\brand\s*\(\s*\)"
)
_READS_INPUT = re.compile(r"\binput\s*\(|\bsys\.stdin\b|\bcin\s*>>|\bscanf\s*\(|\bgetline\s*\(|\bgetchar\s*\(")


def block_role(block: Block) -> Literal["answer", "helper", "unknown"]:
    """What the prose before a block (and its shape) says it is: the answer, a helper (a brute force,
    generator, checker, test or an old version), or nothing either way."""
    lead = block.lead.splitlines()[-1] if block.lead else ""
    if _HELPER_WORDS.search(lead):
        return "helper"
    if _ANSWER.search(lead):
        return "answer"
    if _OLD_VERSION.search(lead):
        return "helper"
    if _HELPER_SHAPE.search(block.code) and not _READS_INPUT.search(block.code):
        return "helper"  # prints random data without reading any: a generator
    if re.search(r"\bsubprocess\b", block.code):
        return "helper"
    return "unknown"


def _choose(blocks: list[Block], family: Family) -> tuple[Block, list[str]]:
    """The block that is the answer: whole programs over snippets, then not a helper, then one the
    prose calls the answer, then the last."""
    roles = {b.index: block_role(b) for b in blocks}

    def rank(b: Block) -> tuple[bool, bool, bool, int]:
        role = roles[b.index]
        return (_looks_whole(b.code, family), role != "helper", role == "answer", b.index)

    chosen = max(blocks, key=rank)
    notes = []
    skipped = [b.index + 1 for b in blocks if roles[b.index] == "helper" and b is not chosen]
    if skipped:
        notes.append(f"skipped block(s) {', '.join(map(str, skipped))}: the text calls them a helper, not the answer")
    if roles[chosen.index] == "helper":
        notes.append(f"block {chosen.index + 1} looks like a helper but is the only program")
    return chosen, notes


def _unfenced(text: str, family: Family) -> str | None:
    """The program in a reply without fences, if it is plainly one."""
    profile = PROFILES[family]
    if profile.unfenced_start:
        lines = text.splitlines()
        first = next((k for k, ln in enumerate(lines) if re.match(profile.unfenced_start, ln)), None)
        last = max(
            (k for k, ln in enumerate(lines) if ln.strip().startswith("}") or ln.rstrip().endswith("}")), default=None
        )
        if first is None or last is None or last < first:
            return None
        code = "\n".join(lines[first : last + 1]) + "\n"
        return code if re.search(profile.unfenced_whole, code) else None
    code = text.strip() + "\n"
    if guess_language(code) == family and (profile.syntax_error is None or profile.syntax_error(code) is None):
        return code
    return None


def _name(language: str) -> str:
    return FAMILY_NAMES.get(language, language.capitalize() if language.islower() else language)


def extract_code(
    text: str | None, language: str, *, finish_reason: str | None = None, reasoning: str | None = None
) -> ExtractedCode:
    """The program in `language` (cpp17, python3, ... or a family) from a model's reply.

    `text` is the reply's content (any reasoning in it is split off first, see `agents.reasoning`);
    `reasoning` is a separate reasoning field. Code is taken from the answer; only when the answer has
    none is the reasoning's last complete program used, with a note saying so.
    Raises `ExtractionError` when the reply is empty, has no code, has code only in another language,
    or its code is cut off (`in_reasoning` when it stopped before the answer began).
    """
    family = family_of(language)
    split = split_reply(text, reasoning)
    answer = split.answer
    stopped_for_length = finish_reason == "length"
    if not answer.strip():
        if split.open_reasoning or (stopped_for_length and split.reasoning):
            raise ExtractionError(
                "truncated",
                "the model ran out of output tokens while reasoning, before its answer began",
                hint="raise the per-reply output limit (max_output_tokens), or lower the reasoning effort",
                in_reasoning=True,
            )
        if not split.reasoning:
            raise ExtractionError(
                "empty",
                "the model's reply is empty",
                hint="the server returned no text: check the model name and the output token limit, then retry",
            )
    try:
        return _from_answer(answer, family, stopped_for_length)
    except ExtractionError as e:
        if e.reason not in ("empty", "no_code") or not split.reasoning:
            raise
        mined = _from_reasoning(split.reasoning, family)
        if mined is None:
            if not answer.strip():
                raise ExtractionError(
                    "no_code",
                    "the model's answer is empty and its reasoning holds no complete program",
                    hint=f"ask for one complete {FAMILY_NAMES[family]} program in a ```{family} block",
                ) from None
            raise
        return mined


def _from_reasoning(reasoning: str, family: Family) -> ExtractedCode | None:
    """The reasoning's last complete whole program in `family`, noted as such; None when there is none."""
    blocks = [b for b in find_blocks(reasoning) if b.language == family and b.complete and not b.empty]
    whole = [b for b in blocks if _looks_whole(b.code, family)]
    if not whole:
        return None
    chosen = whole[-1]
    return ExtractedCode(
        code=chosen.code,
        family=family,
        tag=chosen.tag,
        block_index=chosen.index,
        blocks_found=len(blocks),
        notes=["the answer had no code: took the last complete program from the model's reasoning"],
    )


def _from_answer(body: str, family: Family, stopped_for_length: bool) -> ExtractedCode:
    want = FAMILY_NAMES[family]
    if not body.strip():
        raise ExtractionError("empty", "the model's answer is empty", hint="retry, or check the output token limit")
    blocks = find_blocks(body)
    notes: list[str] = []
    empty = [b for b in blocks if b.empty]
    blocks = [b for b in blocks if not b.empty]
    if empty:
        notes.append(f"ignored {len(empty)} empty code block(s)")

    if not blocks:
        if empty and not all(b.complete for b in empty):
            raise ExtractionError(
                "truncated", "the model's reply stops right after opening a code block", hint=_TRUNCATED_HINT
            )
        code = _unfenced(_outside_blocks(body) if empty else body, family)
        if code is None:
            other = guess_language(body)
            if other is not None and other != family:
                raise ExtractionError(
                    "wrong_language",
                    f"the model answered in {_name(other)}, not {want}",
                    hint=f"ask again for {want}, or choose the language it wrote",
                )
            raise ExtractionError(
                "no_code",
                f"the model's reply has no code ({len(body.strip())} characters of prose)"
                if not empty
                else "the model's reply has only empty code blocks",
                hint=f"ask for one complete {want} program in a ```{family} block",
            )
        if stopped_for_length and is_cut(code, family):
            raise ExtractionError("truncated", f"the model's {want} code is cut off", hint=_TRUNCATED_HINT)
        return ExtractedCode(code=code, family=family, notes=[*notes, "the reply had no code fence"])

    wanted = [b for b in blocks if b.language == family]
    complete = [b for b in wanted if b.complete]
    unfinished = next((b for b in wanted if not b.complete), None)  # only the last block can be open
    if unfinished is not None:
        if stopped_for_length or is_cut(unfinished.code, family):
            whole = [b for b in complete if _looks_whole(b.code, family)]
            if not whole:
                raise ExtractionError(
                    "truncated",
                    f"the model's {want} code is cut off (the reply ends inside a code block"
                    + (", stopped by the token limit)" if stopped_for_length else ")"),
                    hint=_TRUNCATED_HINT,
                )
            notes.append(f"block {unfinished.index + 1} was cut off; using the last complete one")
        else:
            complete.append(unfinished)
            notes.append("the closing fence was missing")
    if not complete:
        others = sorted({b.language for b in blocks if b.language is not None and b.language != family})
        if others:
            raise ExtractionError(
                "wrong_language",
                f"the model wrote {', '.join(_name(o) for o in others)} code, not {want}",
                hint=f"ask again for {want}, or choose the language it wrote",
            )
        raise ExtractionError(
            "no_code",
            f"the model's reply has {len(blocks)} fenced block(s) but none holds {want} code",
            hint=f"ask for one complete {want} program in a ```{family} block",
        )
    chosen, why = _choose(complete, family)
    notes += why
    if len(complete) > 1:
        notes.append(f"{len(complete)} {want} blocks; took block {chosen.index + 1}")
    return ExtractedCode(
        code=chosen.code,
        family=family,
        tag=chosen.tag,
        block_index=chosen.index,
        blocks_found=len(blocks),
        notes=notes,
    )


def _outside_blocks(text: str) -> str:
    """`text` without its fence lines (for a reply whose only fences are empty)."""
    return "\n".join(ln for ln in text.splitlines() if not _opening(ln) and not _FENCE.match(ln))


_TRUNCATED_HINT = "raise the completion token limit (max_tokens), or ask for shorter code"


# ---- JSON ----------------------------------------------------------------------------------------


_NO_VALUE = object()


MAX_JSON_DEPTH = 64  # a model's answer object is a few levels deep; deeper is noise, or an attack


def loads_lenient(text: str) -> Any:
    """A JSON value as models write it: strict JSON, else JSON5 (comments, trailing commas, single
    quotes, unquoted keys), else with Python's True/False/None; `_NO_VALUE` when it is none of these or
    nests deeper than `MAX_JSON_DEPTH`."""
    text = text.strip()
    if not text:
        return _NO_VALUE
    try:
        return _shallow(json.loads(text))
    except ValueError:
        pass
    except RecursionError:  # the parser's own bound, far past ours
        return _NO_VALUE
    for attempt in (text, re.sub(r"\b(True|False|None)\b", lambda m: _PY_LITERALS[m.group(1)], text)):
        try:
            return _shallow(json5.loads(attempt))
        except (ValueError, TypeError, RecursionError):
            continue
    return _NO_VALUE


def _shallow(value: Any) -> Any:
    """`value` when it nests at most `MAX_JSON_DEPTH` deep, else `_NO_VALUE` (checked without recursion)."""
    level = [value]
    for _ in range(MAX_JSON_DEPTH + 1):
        level = [
            child
            for item in level
            if isinstance(item, dict | list)
            for child in (item.values() if isinstance(item, dict) else item)
            if isinstance(child, dict | list)
        ]
        if not level:
            return value
    return _NO_VALUE


_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}


SPAN_STEPS = 2_000_000  # characters `_spans` may look at in all: unclosed brackets would make it quadratic


def _spans(text: str) -> list[tuple[int, int]]:
    """The balanced top-level `{...}` and `[...]` spans of `text` (quotes respected), in order; those
    found within `SPAN_STEPS` characters read."""
    spans: list[tuple[int, int]] = []
    i, n = 0, len(text)
    steps = [SPAN_STEPS]
    while i < n and steps[0] > 0:
        if text[i] not in "{[":
            i += 1
            continue
        end = _matching(text, i, steps)
        if end is None:
            i += 1
            continue
        spans.append((i, end))
        i = end
    return spans


def _matching(text: str, start: int, steps: list[int]) -> int | None:
    """The index after the bracket closing the one at `start`, or None when it is never closed (or
    `steps[0]`, the characters left to read, runs out before it is)."""
    stack: list[str] = []
    quote: str | None = None
    i = start
    end = min(len(text), start + steps[0])
    found: int | None = None
    while i < end:
        ch = text[i]
        if quote is not None:
            if ch == "\\":
                i += 2
                continue
            if ch == quote or (ch == "\n" and quote == "'"):
                quote = None
        elif ch in "\"'" and (ch == '"' or stack):
            # a single quote opens a string only where JSON5 allows one (after ':', ',', '[', '{')
            if ch == '"' or _last_mark(text, i) in ":,[{":
                quote = ch
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if not stack or stack.pop() != ch:
                break
            if not stack:
                found = i + 1
                break
        i += 1
    steps[0] -= min(i, end) - start + 1
    return found


def _last_mark(text: str, i: int) -> str:
    """The last character before `i` that is not white space ("" at the start)."""
    j = i - 1
    while j >= 0 and text[j].isspace():
        j -= 1
    return text[j] if j >= 0 else ""


def json_candidates(
    text: str, reasoning: str | None = None
) -> Iterator[tuple[Literal["whole", "fence", "inline", "reasoning"], Any]]:
    """The JSON values in a reply, most likely first, each with where it was found: the whole answer,
    fenced blocks (last first), the `{...}`/`[...]` spans of the prose (last first: a model that writes
    several settles on the last), then the same in the reasoning, which is read only after the answer."""
    split = split_reply(text or "", reasoning)
    seen: set[str] = set()

    def values(body: str) -> Iterator[tuple[Literal["whole", "fence", "inline"], Any]]:
        whole = loads_lenient(body)
        if whole is not _NO_VALUE and isinstance(whole, dict | list):
            yield "whole", whole
        for block in reversed(find_blocks(body)):
            if block.tag in ("json", "json5", "jsonc", "javascript", "js", "") or block.language is None:
                value = loads_lenient(block.code)
                if value is not _NO_VALUE and isinstance(value, dict | list):
                    yield "fence", value
        for start, end in reversed(_spans(body)):
            value = loads_lenient(body[start:end])
            if value is not _NO_VALUE:
                yield "inline", value

    for where, value in values(split.answer):
        key = json.dumps(value, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            yield where, value
    if split.reasoning:
        for _, value in values(split.reasoning):
            yield "reasoning", value


def extract_json(text: str) -> dict[str, Any]:
    """The first JSON object found in a reply; `ExtractionError` (no_json) when there is none."""
    for _, value in json_candidates(text):
        if isinstance(value, dict):
            return value
    raise ExtractionError(
        "no_json",
        "the model's reply has no JSON object",
        hint="the server may not support structured output; try another model or server",
    )
