"""Problem statements as HTML: their Markdown rendered, with raw HTML kept out.

Statements are untrusted (they come from sites), so markdown-it runs with `html` off and every
piece of text is escaped. Two things statements commonly carry are still made readable: TeX math
between `$...$` / `$$...$$` becomes a monospace span (simple `^`/`_` scripts and a few symbols turned
into their HTML forms), and the literal `<sup>`/`<sub>` tags scrapers leave in become real ones.
Only images embedded as `data:` URLs are kept: a remote one would be fetched whenever the export is
opened (telling its host who reads it, and when), so it becomes its alt text.
"""

from __future__ import annotations

import re
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markupsafe import Markup, escape

_SYMBOLS = {
    r"\le": "≤", r"\leq": "≤", r"\ge": "≥", r"\geq": "≥", r"\ne": "≠", r"\neq": "≠", r"\cdot": "·",
    r"\times": "×", r"\ldots": "…", r"\dots": "…", r"\cdots": "⋯", r"\lt": "<", r"\gt": ">",
    r"\infty": "∞", r"\pm": "±", r"\to": "→", r"\sum": "∑", r"\in": "∈", r"\oplus": "⊕", r"\bmod": "mod",
    r"\mod": "mod", r"\,": " ", r"\;": " ", r"\ ": " ", r"\{": "{", r"\}": "}", r"\%": "%", r"\$": "$",
}  # fmt: skip
_MACRO = re.compile(r"\\[A-Za-z]+|\\[,; {}%$]")
_SCRIPT = re.compile(r"([\^_])(\{([^{}]*)\}|\\[A-Za-z]+|.)")
_TAG = re.compile(r"<(sup|sub)>([^<>]{0,200})</\1>")


def _tex(source: str) -> str:
    """Readable HTML for a TeX fragment: escaped text, `^`/`_` as sup/sub, known symbols replaced."""
    out: list[str] = []
    pos = 0
    for m in _SCRIPT.finditer(source):
        out.append(_symbols(source[pos : m.start()]))
        body = m.group(3) if m.group(3) is not None else m.group(2)
        tag = "sup" if m.group(1) == "^" else "sub"
        out.append(f"<{tag}>{_symbols(body)}</{tag}>")
        pos = m.end()
    out.append(_symbols(source[pos:]))
    return "".join(out)


def _symbols(text: str) -> str:
    replaced = _MACRO.sub(lambda m: _SYMBOLS.get(m.group(0), m.group(0)), text)
    return str(escape(replaced))


def _math(state: StateInline, silent: bool) -> bool:
    src, start = state.src, state.pos
    if src[start] != "$" or (start > 0 and src[start - 1] == "\\"):
        return False
    fence = "$$" if src.startswith("$$", start) else "$"
    end = src.find(fence, start + len(fence))
    while end != -1 and src[end - 1] == "\\":
        end = src.find(fence, end + 1)
    body = src[start + len(fence) : end] if end != -1 else ""
    if not body.strip():
        return False  # a lone dollar sign is text
    if not silent:
        token = state.push("math_inline", "span", 0)
        token.content = body.strip()
        token.markup = fence
    state.pos = end + len(fence)
    return True


def _tag(state: StateInline, silent: bool) -> bool:
    m = _TAG.match(state.src, state.pos)
    if m is None:
        return False
    if not silent:
        token = state.push("sup_sub", m.group(1), 0)
        token.content = m.group(2)
    state.pos = m.end()
    return True


def _render_math(self: object, tokens: list[Token], idx: int, options: object, env: object) -> str:
    return f'<span class="math">{_tex(tokens[idx].content)}</span>'


def _render_tag(self: object, tokens: list[Token], idx: int, options: object, env: object) -> str:
    t = tokens[idx]
    return f"<{t.tag}>{escape(t.content)}</{t.tag}>"


def _render_image(self: object, tokens: list[Token], idx: int, options: object, env: object) -> str:
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    alt = "".join(child.content for child in token.children or []) or token.content
    if src.lower().startswith("data:image/"):
        return f'<img src="{escape(src)}" alt="{escape(alt)}">'
    return f'<span class="image-removed">[image: {escape(alt or "not embedded")}]</span>'


@cache
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.inline.ruler.before("escape", "math_inline", _math)
    md.inline.ruler.before("escape", "sup_sub", _tag)
    md.add_render_rule("math_inline", _render_math)
    md.add_render_rule("sup_sub", _render_tag)
    md.add_render_rule("image", _render_image)
    return md


def statement_html(text: str) -> Markup:
    """`text` (Markdown with TeX math) as safe HTML."""
    return Markup(_parser().render(text))
