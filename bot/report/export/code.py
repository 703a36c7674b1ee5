"""Syntax highlighting of the page's programs, done at export time with Pygments (the page runs no script).

The lexer follows the language's file extension in the registry, so a new language needs no entry
here; a language Pygments does not know is shown as plain text. Pygments escapes the source itself:
what it returns is markup made only of `<span class="...">` around escaped text.
"""

from __future__ import annotations

from functools import cache

from markupsafe import Markup
from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound

from cpbot.core.errors import ConfigError
from cpbot.core.registry import language_spec

CSS_CLASS = "hl"  # the scope of the style rules: <pre class="code hl">
STYLE = "default"  # Pygments' light theme, readable on the page's grey code background


def _lexer(language: str) -> Lexer:
    # keep the source as it is: no stripped leading lines, no newline added at the end
    options = {"stripnl": False, "ensurenl": False}
    try:
        return get_lexer_for_filename("solution" + language_spec(language).extension, **options)
    except (ConfigError, ClassNotFound):
        return TextLexer(**options)


def highlighted(source: str, language: str) -> Markup:
    """`source` as escaped text inside Pygments' token spans (to sit in a `<pre class="code hl">`)."""
    if not source:
        return Markup("")
    return Markup(pygments_highlight(source, _lexer(language), HtmlFormatter(nowrap=True)))


@cache
def style_rules() -> str:
    """The CSS of the token classes, scoped to `.hl` (the page's one style block holds it)."""
    rules = HtmlFormatter(style=STYLE).get_style_defs(f".{CSS_CLASS}")
    # the style's own background and the line-number rules do not apply: the page styles <pre> itself
    kept = [r for r in rules.splitlines() if "linenos" not in r and not r.startswith(("pre ", f".{CSS_CLASS} {{"))]
    return "\n".join(kept)
