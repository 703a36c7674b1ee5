"""Statement HTML to Markdown, for both sites.

Math stays TeX: Codeforces' `$$$x$$$` becomes `$x$` and `$$$$$$x$$$$$$` becomes `$$x$$`; pages saved
after MathJax ran keep their TeX in `<script type="math/tex">`, which is used and the rendered spans
dropped. Images become Markdown image links with absolute URLs. Preformatted blocks are kept verbatim.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

import lxml.html
from lxml.html import HtmlElement

from cpbot.scrapers.htmltools import is_element

_DISPLAY_MATH = re.compile(r"\${6}(.+?)\${6}", re.DOTALL)
_INLINE_MATH = re.compile(r"\${3}(.+?)\${3}", re.DOTALL)
_WS = re.compile(r"[ \t\n\r\f\v]+")
_BLANKS = re.compile(r"\n{3,}")
_TOKEN = re.compile("\x00(\\d+)\x00")

_BLOCKS = {"p", "div", "center", "section", "article", "blockquote", "dl", "dt", "dd", "figure"}
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_SKIP_TAGS = {"style", "noscript", "button", "textarea", "select", "input", "form", "svg", "head", "title"}
# Rendered MathJax output and page widgets: the TeX source or the text is elsewhere.
_SKIP_CLASSES = {
    "MathJax_Preview",
    "MathJax",
    "MathJax_Display",
    "MathJax_SVG",
    "MathJax_SVG_Display",
    "MJX_Assistive_MathML",
    "input-output-copier",
    "open_grepper_editor",
}
_BOLD_CLASSES = {"tex-font-style-bf"}
_ITALIC_CLASSES = {"tex-font-style-it", "tex-font-style-sl"}
_CODE_CLASSES = {"tex-font-style-tt"}


def to_markdown(
    html: str | HtmlElement, base_url: str | None = None, skip_classes: frozenset[str] = frozenset()
) -> str:
    """Convert an HTML string or the content of an element to Markdown.

    Elements with one of `skip_classes` are left out (e.g. a section's own title).
    """
    if isinstance(html, str):
        if not html.strip():
            return ""
        html = lxml.html.fragment_fromstring(html, create_parent="div")
    return _Converter(base_url, skip_classes).convert(html)


def convert_math(text: str) -> str:
    """Turn Codeforces MathJax delimiters into the usual `$...$` and `$$...$$`."""
    return _INLINE_MATH.sub(r"$\1$", _DISPLAY_MATH.sub(r"$$\1$$", text))


class _Converter:
    def __init__(self, base_url: str | None, skip_classes: frozenset[str] = frozenset()) -> None:
        self.base_url = base_url
        self.skip_classes = _SKIP_CLASSES | skip_classes
        self.saved: list[str] = []  # finished blocks (pre, lists) kept away from whitespace handling

    def convert(self, el: HtmlElement) -> str:
        return self.finish(self.children(el))

    def finish(self, text: str) -> str:
        text = convert_math(_tidy(text))
        return self.expand(text).strip("\n")

    def expand(self, text: str) -> str:
        for _ in range(64):  # saved blocks may hold tokens of nested ones
            if "\x00" not in text:
                break
            text = _TOKEN.sub(lambda m: self.saved[int(m.group(1))], text)
        return text

    def save(self, block: str) -> str:
        self.saved.append(block)
        return f"\n\n\x00{len(self.saved) - 1}\x00\n\n"

    def children(self, el: HtmlElement) -> str:
        parts = [_WS.sub(" ", el.text or "")]
        for child in el:
            parts.append(self.node(child))
            if child.tail:
                parts.append(_WS.sub(" ", child.tail))
        return "".join(parts)

    def node(self, el: HtmlElement) -> str:
        if not is_element(el):
            return ""
        tag = el.tag.lower()
        classes = set((el.get("class") or "").split())
        if tag in _SKIP_TAGS or classes & self.skip_classes:
            return ""
        if tag == "script":
            kind = el.get("type") or ""
            if not kind.startswith("math/tex"):
                return ""
            tex = (el.text or "").strip()
            return f"$${tex}$$" if "mode=display" in kind else f"${tex}$"
        if tag == "br":
            return "\n"
        if tag == "img":
            return self.image(el)
        if tag == "pre":
            return self.save("```\n" + _pre_text(el).strip("\n") + "\n```")
        if tag in ("ul", "ol"):
            return self.listing(el, ordered=tag == "ol")
        if tag == "table":
            return self.table(el)
        if tag == "hr":
            return "\n\n---\n\n"
        if tag in _HEADINGS:
            return "\n\n" + "#" * _HEADINGS[tag] + " " + _tidy(self.children(el)).replace("\n", " ") + "\n\n"
        inner = self.children(el)
        if tag in _BLOCKS:
            return "\n\n" + inner + "\n\n"
        if tag in ("b", "strong") or classes & _BOLD_CLASSES:
            return _wrap(inner, "**")
        if tag in ("i", "em") or classes & _ITALIC_CLASSES:
            return _wrap(inner, "*")
        if tag in ("code", "tt", "kbd", "samp") or classes & _CODE_CLASSES:
            return _wrap(inner, "`")
        if tag == "sup":
            return _script("^", inner)
        if tag == "sub":
            return _script("_", inner)
        if tag == "a":
            href = el.get("href")
            text = inner.strip()
            if href and text and not href.startswith(("javascript:", "#")):
                return f"[{text}]({self.absolute(href)})"
            return inner
        return inner

    def absolute(self, url: str) -> str:
        # Only site-absolute links are resolved; a saved page's "./files/x.png" stays as it is.
        if self.base_url and url.startswith("/"):
            return urljoin(self.base_url, url)
        return url

    def image(self, el: HtmlElement) -> str:
        src = el.get("src") or ""
        if not src:
            return ""
        alt = _WS.sub(" ", el.get("alt") or "").strip()
        return f"![{alt}]({self.absolute(src)})"

    def listing(self, el: HtmlElement, ordered: bool) -> str:
        items = []
        number = 1
        for child in el:
            if not is_element(child) or child.tag.lower() != "li":
                continue
            body = self.expand(convert_math(_tidy(self.children(child)))).strip("\n")
            marker = f"{number}. " if ordered else "- "
            number += 1
            pad = " " * len(marker)
            lines = body.split("\n") if body else [""]
            items.append(marker + lines[0] + "".join("\n" + (pad + ln if ln else "") for ln in lines[1:]))
        return self.save("\n".join(items)) if items else ""

    def table(self, el: HtmlElement) -> str:
        rows = []
        for tr in el.iter("tr"):
            cells = [
                convert_math(_tidy(self.children(td))).replace("\n", " ").replace("|", "\\|")
                for td in tr
                if is_element(td) and td.tag.lower() in ("td", "th")
            ]
            if cells:
                rows.append("| " + " | ".join(cells) + " |")
        if not rows:
            return ""
        width = rows[0].count(" | ") + 1
        rows.insert(1, "|" + " --- |" * width)
        return self.save("\n".join(rows))


def _pre_text(pre: HtmlElement) -> str:
    parts = [pre.text or ""]
    for child in pre:
        if is_element(child):
            tag = child.tag.lower()
            if tag == "br":
                parts.append("\n")
            elif tag not in _SKIP_TAGS and tag != "script":
                parts.append(_pre_text(child))
        if child.tail:
            parts.append(child.tail)
    return "".join(parts).replace("\r\n", "\n")


def _tidy(text: str) -> str:
    """Trim the spaces that whitespace collapsing leaves around lines and squeeze blank lines."""
    lines = [line.strip(" ") for line in text.split("\n")]
    lines = [line if line.strip() else "" for line in lines]  # "&nbsp;" paragraphs are blank lines
    return _BLANKS.sub("\n\n", "\n".join(lines))


def _wrap(inner: str, mark: str) -> str:
    core = inner.strip()
    if not core:
        return inner
    lead = " " if inner[:1].isspace() else ""
    trail = " " if inner[-1:].isspace() else ""
    return f"{lead}{mark}{core}{mark}{trail}"


def _script(mark: str, inner: str) -> str:
    core = inner.strip()
    if not core:
        return ""
    return f"{mark}{core}" if core.isalnum() else f"{mark}{{{core}}}"
