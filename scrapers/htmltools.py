"""Small lxml helpers shared by the page parsers: loading a document, class tests, text collapsing."""

from __future__ import annotations

import re

import lxml.etree
import lxml.html
from lxml.html import HtmlElement

from cpbot.core.errors import ParseError

_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_SPACES = re.compile(r"\s+")


def load_html(data: bytes | str, url: str) -> HtmlElement:
    """Parse a whole page or a fragment into an lxml document; bytes are read as UTF-8."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    # lxml refuses str input that carries an XML encoding declaration.
    text = _XML_DECL.sub("", text, count=1)
    if not text.strip():
        raise ParseError(f"cannot parse {url}: missing page content (it is empty)")
    try:
        return lxml.html.document_fromstring(text)
    except (lxml.etree.ParserError, ValueError) as e:
        raise ParseError(f"cannot parse {url}: missing HTML structure ({e})") from e


def class_xpath(name: str) -> str:
    """An XPath predicate that is true for elements whose class list contains `name`."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


def has_class(el: HtmlElement, name: str) -> bool:
    """True when `name` is one of the element's classes."""
    return name in (el.get("class") or "").split()


def find_class(root: HtmlElement, name: str, tag: str = "*") -> list[HtmlElement]:
    """All descendants of `root` (document order) with the class `name`."""
    return root.xpath(f".//{tag}[{class_xpath(name)}]")


def first_class(root: HtmlElement, name: str, tag: str = "*") -> HtmlElement | None:
    """The first descendant of `root` with the class `name`, or None."""
    found = root.xpath(f"(.//{tag}[{class_xpath(name)}])[1]")
    return found[0] if found else None


def collapse(text: str) -> str:
    """Collapse every run of whitespace to one space and trim the ends."""
    return _SPACES.sub(" ", text).strip()


def is_element(node: object) -> bool:
    """True for real elements (lxml also yields comments and processing instructions)."""
    return isinstance(node, HtmlElement) and isinstance(node.tag, str)
