"""The checker an AtCoder statement asks for, from its words on accepted error.

English: "Your output is considered correct if the absolute or relative error from the judge's answer is
at most 10^{-6}." Japanese: "想定解との絶対誤差または相対誤差が 10^{-6} 以下であれば正解として扱われる。"
"""

from __future__ import annotations

import re

_EN = re.compile(
    r"(?P<what>(?:absolute|relative)(?:\s+(?:or|and)\s+(?:absolute|relative))?)\s+errors?\b[^.]{0,160}?"
    r"10\s*\^\s*\{?\s*[-\u2212]\s*(?P<pow>\d+)",
    re.IGNORECASE | re.DOTALL,
)
_JA = re.compile(
    r"(?P<what>(?:絶対誤差|相対誤差)(?:\s*(?:または|もしくは|か|と|および)\s*(?:絶対誤差|相対誤差))?)[^。]{0,80}?"
    r"10\s*\^\s*\{?\s*[-\u2212]\s*(?P<pow>\d+)",
    re.DOTALL,
)


def statement_checker(text: str) -> str | None:
    """`float:1e-6` (absolute or relative), `float-abs:...` or `float-rel:...` when the text allows an error
    in the answer; None when it does not (exact tokens)."""
    plain = text.replace("$", "")
    for pattern, absolute, relative in ((_EN, "absolute", "relative"), (_JA, "絶対", "相対")):
        m = pattern.search(plain)
        if m:
            what = m.group("what")
            modes = {(True, True): "float", (True, False): "float-abs", (False, True): "float-rel"}
            mode = modes[(absolute in what.lower(), relative in what.lower())]
            return f"{mode}:1e-{int(m.group('pow'))}"
    return None
