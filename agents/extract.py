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
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from cpbot.core.errors import ModelError
from cpbot.core.registry import LANGUAGE_SPECS
from cpbot.judge.model import Language, Solution

Family = Literal["cpp", "python"]
Reason = Literal["empty", "no_code", "wrong_language", "truncated", "no_json"]

FAMILY_NAMES: dict[str, str] = {"cpp": "C++", "python": "Python"}

# Info-string words (the first word after the fence, lower-cased) and the language they mean.
_TAGS: dict[str, str] = {
    **dict.fromkeys(["cpp", "c++", "cxx", "cc", "c", "h", "hpp", "c++17", "c++20"], "cpp"),
    **dict.fromkeys(["python", "py", "py3", "pypy"], "python"),
    **{spec.name: spec.family.value for spec in LANGUAGE_SPECS},  # cpp17, pypy3, ...
    **dict.fromkeys(["java"], "java"),
    **dict.fromkeys(["kotlin", "kt"], "kotlin"),
    **dict.fromkeys(["rust", "rs"], "rust"),
    **dict.fromkeys(["go", "golang"], "go"),
    **dict.fromkeys(["javascript", "js", "typescript", "ts", "node"], "javascript"),
    **dict.fromkeys(["csharp", "c#", "cs"], "c#"),
    **dict.fromkeys(["ruby", "rb", "swift", "scala", "haskell", "php", "pascal", "ocaml"], None),
}
# Info strings that announce data or prose, never a program.
_NOT_CODE = {
    "text", "txt", "plaintext", "plain", "output", "input", "console", "shell", "bash", "sh", "json",
    "yaml", "markdown", "md", "diff", "math", "latex", "tex", "none",
}  # fmt: skip

_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*)$")
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


class ExtractionError(ModelError):
    """The reply has no usable code (or JSON); `reason` is one of empty, no_code, wrong_language,
    truncated, no_json."""

    def __init__(self, reason: Reason, message: str, hint: str = "") -> None:
        super().__init__(message, hint)
        self.reason = reason


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


def family_of(language: str) -> Family:
    """ "cpp" for cpp17/cpp20/cpp/c++, "python" for python3/pypy3/python/py."""
    name = language.lower()
    if name.startswith(("cpp", "c++")):
        return "cpp"
    if name.startswith(("python", "pypy", "py")):
        return "python"
    raise ValueError(f"no code family for language {language!r}")


# ---- recognising languages -----------------------------------------------------------------------

_SIGNS: dict[str, list[re.Pattern[str]]] = {
    "cpp": [
        re.compile(p, re.MULTILINE)
        for p in (
            r"^\s*#\s*include\s*[<\"]",
            r"\bint\s+main\s*\(",
            r"\bstd::",
            r"using\s+namespace\s+std\s*;",
            r"\bcin\s*>>|\bcout\s*<<",
            r"\b(?:long long|vector<|scanf\s*\(|printf\s*\()",
        )
    ],
    "python": [
        re.compile(p, re.MULTILINE)
        for p in (
            r"^\s*def\s+\w+\s*\(.*\)\s*(?:->\s*[^:]+)?:\s*$",
            r"^\s*(?:import\s+\w|from\s+[\w.]+\s+import\s)",
            r"\binput\s*\(\s*\)|\bsys\.stdin\b",
            r"\bprint\s*\(",
            r"^\s*(?:for|while|if|elif)\b[^\n;{]*:\s*$",
            r"\bself\b|\bNone\b|\bTrue\b|\bFalse\b",
        )
    ],
    "java": [
        re.compile(p, re.MULTILINE)
        for p in (r"public\s+static\s+void\s+main", r"\bSystem\.(?:out|in)\b", r"^\s*import\s+java\.")
    ],
    "rust": [re.compile(p, re.MULTILINE) for p in (r"\bfn\s+main\s*\(\s*\)", r"\blet\s+mut\b", r"\bprintln!\s*\(")],
    "go": [re.compile(p, re.MULTILINE) for p in (r"^\s*package\s+main\b", r"\bfunc\s+main\s*\(\s*\)", r"\bfmt\.")],
}


def guess_language(code: str) -> str | None:
    """The language `code` most looks like (by telltale constructs), or None for data and prose."""
    scores = {lang: sum(1 for p in signs if p.search(code)) for lang, signs in _SIGNS.items()}
    best = max(scores, key=lambda lang: scores[lang])
    if scores[best] == 0:
        return None
    # one weak sign (a lone `print(`) is not enough to call a block code
    return best if scores[best] >= 2 or best != "python" else None


def _looks_whole(code: str, family: Family) -> bool:
    """A full program (or a LeetCode class), not a snippet quoted to explain something."""
    if family == "cpp":
        return bool(re.search(r"\bmain\s*\(|\b(?:class|struct)\s+\w+", code))
    return bool(re.search(r"\binput\s*\(|\bsys\.stdin\b|^\s*(?:def|class)\s", code, re.MULTILINE))


# ---- truncation ----------------------------------------------------------------------------------


def cpp_is_cut(code: str) -> bool:
    """True when C++ code ends inside a block, comment or string: unbalanced braces when obviously cut."""
    depth = 0
    i, n = 0, len(code)
    while i < n:
        ch = code[i]
        if code.startswith("//", i):
            end = code.find("\n", i)
            i = n if end < 0 else end + 1
            continue
        if code.startswith("/*", i):
            end = code.find("*/", i + 2)
            if end < 0:
                return True
            i = end + 2
            continue
        raw = re.match(r'R"([^()\\ ]{0,16})\(', code[i:]) if ch == "R" else None
        if raw and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = code.find(close, i + raw.end())
            if end < 0:
                return True
            i = end + len(close)
            continue
        if ch in "\"'":
            j = i + 1
            while j < n and code[j] != ch and code[j] != "\n":
                j += 2 if code[j] == "\\" else 1
            if j >= n:
                return True
            i = j + 1
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        i += 1
    return depth > 0


_compile_lock = threading.Lock()


def python_error(code: str) -> SyntaxError | None:
    """The syntax error in `code`, or None if it compiles."""
    # compiling may warn (e.g. about escapes in strings); that is the program's business, not ours,
    # and the warnings filter is global, hence the lock
    with _compile_lock, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(code, "<reply>", "exec", dont_inherit=True)
        except SyntaxError as e:
            return e
        except ValueError as e:  # source with NUL bytes
            return SyntaxError(str(e))
    return None


def python_is_cut(code: str) -> bool:
    """True when Python code fails to compile because it stops early (open bracket, block or string)."""
    error = python_error(code)
    if error is None:
        return False
    message = (error.msg or "").lower()
    if any(s in message for s in ("never closed", "unterminated triple-quoted", "unexpected eof")):
        return True
    last_line = len(code.rstrip("\n").splitlines())
    return error.lineno is not None and error.lineno >= last_line and "expected an indented block" in message


def is_cut(code: str, family: Family) -> bool:
    """True when `code` visibly stops before its end."""
    return cpp_is_cut(code) if family == "cpp" else python_is_cut(code)


# ---- blocks --------------------------------------------------------------------------------------


def strip_reasoning(text: str) -> tuple[str, bool]:
    """The reply without <think>...</think> sections, and whether it ended inside one."""
    text = _THINK.sub("", text)
    start = text.find("<think>")
    if start >= 0:
        return text[:start], True
    return text, False


def find_blocks(text: str) -> list[Block]:
    """Every fenced block of `text`, in order; the last may be unterminated."""
    blocks: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        fence = opening.group("fence")
        info = opening.group("info").strip().lower()
        tag = info.split()[0].strip("{}.") if info else ""
        body: list[str] = []
        complete = False
        i += 1
        while i < len(lines):
            line = lines[i]
            stripped = line.strip()
            if stripped.startswith(fence[0] * len(fence)) and not stripped.strip(fence[0]):
                complete = True
                break
            # a closing fence glued to the last line of code: `}```
            if stripped.endswith(fence) and not _FENCE.match(line) and fence[0] == "`":
                body.append(line.rstrip()[: -len(fence)])
                complete = True
                break
            body.append(line)
            i += 1
        i += 1
        code = "\n".join(body).strip("\n") + "\n"
        if tag in _TAGS:
            language = _TAGS[tag] or tag
        elif tag in _NOT_CODE:
            language = None
        else:
            language = guess_language(code)
        blocks.append(Block(len(blocks), tag, language, code, complete))
    return blocks


def _unfenced(text: str, family: Family) -> str | None:
    """The program in a reply without fences, if it is plainly one."""
    if family == "cpp":
        lines = text.splitlines()
        first = next((k for k, ln in enumerate(lines) if re.match(r"\s*#\s*include\b", ln)), None)
        last = max((k for k, ln in enumerate(lines) if ln.strip().startswith("}")), default=None)
        if first is None or last is None or last < first:
            return None
        code = "\n".join(lines[first : last + 1]) + "\n"
        return code if re.search(r"\bmain\s*\(|\bclass\s+\w+", code) else None
    code = text.strip() + "\n"
    if guess_language(code) == "python" and python_error(code) is None:
        return code
    return None


def _name(language: str) -> str:
    return FAMILY_NAMES.get(language, language.capitalize() if language.islower() else language)


def extract_code(text: str | None, language: str, *, finish_reason: str | None = None) -> ExtractedCode:
    """The program in `language` (cpp17, python3, ... or a family) from a model's reply.

    Raises `ExtractionError` when the reply is empty, has no code, has code only in another language,
    or its code is cut off.
    """
    family = family_of(language)
    want = FAMILY_NAMES[family]
    if not text or not text.strip():
        raise ExtractionError(
            "empty",
            "the model's reply is empty",
            hint="the server returned no text: check the model name and the token limit, then retry",
        )
    body, cut_in_reasoning = strip_reasoning(text)
    if cut_in_reasoning and not find_blocks(body):
        raise ExtractionError(
            "truncated",
            "the model's reply stops inside its reasoning, before any code",
            hint="raise the completion token limit, or use a model that reasons less",
        )
    blocks = find_blocks(body)
    stopped_for_length = finish_reason == "length"
    notes: list[str] = []

    if not blocks:
        code = _unfenced(body, family)
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
                f"the model's reply has no code ({len(body.strip())} characters of prose)",
                hint=f"ask for one complete {want} program in a ```{family} block",
            )
        if stopped_for_length and is_cut(code, family):
            raise ExtractionError("truncated", f"the model's {want} code is cut off", hint=_TRUNCATED_HINT)
        return ExtractedCode(code=code, family=family, notes=["the reply had no code fence"])

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
    whole = [b for b in complete if _looks_whole(b.code, family)]
    chosen = (whole or complete)[-1]
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


_TRUNCATED_HINT = "raise the completion token limit (max_tokens), or ask for shorter code"


# ---- JSON ----------------------------------------------------------------------------------------


def json_candidates(text: str) -> Iterator[tuple[Literal["whole", "fence", "inline"], Any]]:
    """The JSON values in a reply, most likely first, each with where it was found: the whole text,
    fenced blocks (last first), then every top-level `{...}` in the prose, in order."""
    body, _ = strip_reasoning(text or "")
    try:
        yield "whole", json.loads(body.strip())
    except ValueError:
        pass
    for block in reversed(find_blocks(body)):
        if block.tag in ("json", "") or block.language is None:
            try:
                yield "fence", json.loads(block.code)
            except ValueError:
                continue
    decoder = json.JSONDecoder()
    i = body.find("{")
    while i >= 0:
        try:
            value, end = decoder.raw_decode(body, i)
        except ValueError:
            i = body.find("{", i + 1)
            continue
        yield "inline", value
        i = body.find("{", end)


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
