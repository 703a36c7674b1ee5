"""Telling a model's reasoning from its answer, in every form servers and chat templates deliver it.

Reasoning arrives as:
- a `<think>...</think>` (or `<thinking>`) section before the answer (DeepSeek-R1 and its distills,
  QwQ, Qwen3, Phi-4-reasoning);
- only the closing `</think>`, when the chat template itself opened the section (QwQ, R1-0528 and the
  Qwen3 thinking models put `<think>` in the prompt), so everything before it is reasoning;
- gpt-oss's harmony channels, either with their special tokens (`<|channel|>analysis<|message|>...
  <|end|><|start|>assistant<|channel|>final<|message|>...`) or flattened into plain text when a server
  drops the tokens (`analysis...assistantfinal...`);
- a separate `reasoning_content` or `reasoning` field of the message (vLLM's reasoning parser, DeepSeek's
  reasoner, Ollama, LM Studio), sometimes holding the whole answer while `content` stays empty.

`split_reply` returns the answer, the reasoning, and whether the reply stopped inside its reasoning
(the answer never began): such a reply was cut, it is not empty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Form = Literal["none", "think", "think_close", "harmony", "harmony_flat", "field"]

_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.IGNORECASE)
_CLOSE = re.compile(r"</(think|thinking|reasoning)>", re.IGNORECASE)
# harmony's special tokens, e.g. <|start|>, <|channel|>, <|message|>, <|end|>, <|return|>, <|constrain|>
_HARMONY_TOKEN = re.compile(r"<\|(?:start|end|message|channel|return|constrain|call)\|>")
_HARMONY_FINAL = re.compile(r"<\|channel\|>\s*final\b[^<]*(?:<\|constrain\|>[^<]*)?<\|message\|>")
# flattened harmony: the channel names glued to the text once the special tokens are dropped
_FLAT_START = re.compile(r"^\s*(?:<\|start\|>)?(?:assistant)?analysis(?=\S)")


@dataclass(frozen=True)
class Split:
    """A reply taken apart: the answer, the reasoning, and whether it stopped inside the reasoning."""

    answer: str
    reasoning: str = ""
    open_reasoning: bool = False  # the reply ended before its answer began
    form: Form = "none"


def _harmony(content: str) -> Split:
    finals = list(_HARMONY_FINAL.finditer(content))
    if not finals:
        return Split("", _HARMONY_TOKEN.sub("\n", content).strip(), open_reasoning=True, form="harmony")
    last = finals[-1]
    answer = content[last.end() :]
    answer = re.split(r"<\|(?:return|end|call)\|>", answer, maxsplit=1)[0]
    before = content[: last.start()]
    before = re.sub(r"<\|channel\|>\s*\w+\s*<\|message\|>", "\n", before)
    reasoning = _HARMONY_TOKEN.sub("\n", before).replace("\nassistant\n", "\n").strip()
    return Split(answer.strip("\n"), reasoning, form="harmony")


def _harmony_flat(content: str) -> Split | None:
    start = _FLAT_START.match(content)
    if start is None:
        return None
    marks = list(re.finditer(r"assistantfinal", content))
    if not marks:
        return Split("", content[start.end() :].strip(), open_reasoning=True, form="harmony_flat")
    last = marks[-1]
    return Split(content[last.end() :].strip("\n"), content[start.end() : last.start()].strip(), form="harmony_flat")


def _think(content: str) -> Split | None:
    closes = list(_CLOSE.finditer(content))
    if closes:
        last = closes[-1]
        reasoning = _OPEN.sub("", _CLOSE.sub("", content[: last.start()]))
        form: Form = "think" if _OPEN.search(content[: last.start()]) else "think_close"
        return Split(content[last.end() :].strip("\n"), reasoning.strip(), form=form)
    opened = _OPEN.search(content)
    if opened is None:
        return None
    before = content[: opened.start()]
    # an answer written before an unclosed <think> is still the answer; with none, the reply was cut
    return Split(before.strip("\n"), content[opened.end() :].strip(), open_reasoning=not before.strip(), form="think")


def split_reply(content: str | None, reasoning_field: str | None = None) -> Split:
    """The answer and the reasoning of a reply's `content` (and the message's separate reasoning field)."""
    content = content or ""
    field = (reasoning_field or "").strip()
    if "<|channel|>" in content:
        split = _harmony(content)
    else:
        split = _harmony_flat(content) or _think(content) or Split(content)
    if field:
        reasoning = "\n\n".join(part for part in (field, split.reasoning) if part)
        form: Form = split.form if split.form != "none" else "field"
        return Split(split.answer, reasoning, split.open_reasoning, form)
    return split
