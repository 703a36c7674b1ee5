"""Exact sample text from a Codeforces `<pre>`, in all of its layouts.

Layouts: lines separated by `<br>`; plain newlines; and (since 2022) one
`div.test-example-line-N` per line, where N groups the lines of test case N (N = 0 is the line with the
number of tests). Nodes injected by browser extensions are ignored. The text is normalised the way
the fixtures README says: CRLF to LF, the newline right after `<pre>` dropped, trailing empty lines
removed, trailing spaces kept, and exactly one final newline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml.html import HtmlElement

from cpbot.scrapers.htmltools import class_xpath, is_element

_LINE_CLASS = "test-example-line"
_LINE_NUMBER = re.compile(r"(?:^|\s)test-example-line-(\d+)(?:\s|$)")
_SKIP_TAGS = {"script", "style", "button", "textarea"}


@dataclass(frozen=True)
class PreText:
    """The text of one sample `<pre>` and, for the per-line layout, its split into cases."""

    text: str
    cases: list[str] | None


def read_pre(pre: HtmlElement) -> PreText:
    """Read a sample `<pre>` into its exact text (and case split when the layout gives one)."""
    line_divs = pre.xpath(f".//div[{class_xpath(_LINE_CLASS)}]")
    if line_divs:
        return _read_lines(line_divs)
    raw = "".join(_flat_text(pre)).replace("\r\n", "\n").replace("\r", "\n")
    if raw.startswith("\n"):  # the HTML rules drop one newline right after <pre>
        raw = raw[1:]
    lines = [_nbsp_line(line) for line in raw.split("\n")]
    return PreText(_join(lines), None)


def _read_lines(divs: list[HtmlElement]) -> PreText:
    # A browser extension may nest the line divs; only the innermost ones are lines.
    leaves = [d for d in divs if not d.xpath(f".//div[{class_xpath(_LINE_CLASS)}]")]
    numbered: list[tuple[int | None, str]] = []
    for div in leaves:
        m = _LINE_NUMBER.search(div.get("class") or "")
        text = _nbsp_line(div.text_content().replace("\r", "").rstrip("\n"))
        numbered.append((int(m.group(1)) if m else None, text))
    while numbered and numbered[-1][1] == "":
        numbered.pop()
    groups: dict[int, list[str]] = {}
    for number, text in numbered:
        if number is not None and number >= 1:
            groups.setdefault(number, []).append(text)
    cases = ["\n".join(lines) + "\n" for lines in groups.values()]
    return PreText(_join([text for _, text in numbered]), cases)


def _flat_text(el: HtmlElement) -> list[str]:
    """Text of `el` with `<br>` as newlines; empty injected blocks dropped, text blocks made lines."""
    parts = [el.text or ""]
    for child in el:
        if is_element(child):
            tag = child.tag.lower()
            if tag == "br":
                parts.append("\n")
            elif tag == "div":
                inner = "".join(_flat_text(child))
                if inner.strip():  # a div with text is a line of its own
                    so_far = "".join(parts)
                    if so_far and not so_far.endswith("\n"):
                        parts.append("\n")
                    parts.append(inner if inner.endswith("\n") else inner + "\n")
            elif tag not in _SKIP_TAGS:
                parts.extend(_flat_text(child))
        if child.tail:
            parts.append(child.tail)
    return parts


def _nbsp_line(line: str) -> str:
    # A line of only &nbsp; is an empty line on the page (competitive-companion treats it so).
    return "" if line and "\xa0" in line and not line.replace("\xa0", "").strip() else line


def _join(lines: list[str]) -> str:
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""
