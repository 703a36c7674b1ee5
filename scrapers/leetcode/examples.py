"""Expected outputs of LeetCode examples, read from the statement HTML.

No structured field carries them. Three markups exist: `<pre>` blocks with `Output:` on the label's
line (most problems), `Output` alone with the value on the next line (design problems and 2017
pages), and `div.example-block` with the value in the `span.example-io` after the label (2024 on).
A `<pre>` without an Output label (a formula, an explanation) is not an example.
"""

from __future__ import annotations

import re

import lxml.etree
import lxml.html
from lxml.html import HtmlElement

from cpbot.scrapers.htmltools import class_xpath, has_class, is_element

_OUTPUT_LINE = re.compile(r"^\s*Output\s*(?::\s*(?P<value>.*))?$")


def example_outputs(content: str) -> list[str]:
    """The text after each example's Output label, in order, trimmed, entities decoded."""
    if not content.strip():
        return []
    try:
        root = lxml.html.fragment_fromstring(content, create_parent="div")
    except (lxml.etree.ParserError, ValueError):
        return []
    outputs = []
    for el in root.iter():
        if not is_element(el):
            continue
        if el.tag == "div" and has_class(el, "example-block"):
            value = _block_output(el)
        elif el.tag == "pre" and not el.xpath(f"ancestor::div[{class_xpath('example-block')}]"):
            value = _pre_output(el.text_content())
        else:
            continue
        if value is not None:
            outputs.append(value)
    return outputs


def _block_output(block: HtmlElement) -> str | None:
    seen_label = False
    for el in block.iter():
        if not is_element(el):
            continue
        if el.tag in ("strong", "b") and _is_output_label(el.text_content()):
            seen_label = True
            # The value may follow the label as plain text inside the same paragraph.
            tail = (el.tail or "").strip()
            if tail:
                return tail
        elif seen_label and has_class(el, "example-io"):
            return el.text_content().strip()
    return None


def _pre_output(text: str) -> str | None:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for i, line in enumerate(lines):
        m = _OUTPUT_LINE.match(line)
        if not m:
            continue
        value = (m.group("value") or "").strip()
        rest = lines[i + 1 :]
        if not value:  # the label stands alone; the value is on the next non-empty line
            j = next((k for k, ln in enumerate(rest) if ln.strip()), None)
            if j is None:
                return None
            value, rest = rest[j].strip(), rest[j + 1 :]
        return _complete_brackets(value, rest)
    return None


def _complete_brackets(value: str, rest: list[str]) -> str:
    """A value that opens more brackets than it closes continues on the following lines."""
    for line in rest:
        if _depth(value) <= 0:
            break
        value = value + line.strip()
    return value


def _depth(text: str) -> int:
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
    return depth


def _is_output_label(text: str) -> bool:
    return text.strip().rstrip(":").strip() == "Output"
